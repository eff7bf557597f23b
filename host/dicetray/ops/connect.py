"""A tray opened for an operation: through the running hub when it holds
the tray (`dicetray serve`, docs/hub.md), else on its port."""

from .errors import Fail


def open_device(port=None, timeout=2.0, tray=None, **kw):
    """Open the device (cli.main's `open_device` replaces it): through the hub
    when one runs and holds it (`dicetray serve`, docs/hub.md), else on
    its port. --tray names one of the hub's trays; a --port the hub does
    not hold is opened directly."""
    from ..link import hubclient as hub
    from ..link.client import Device

    reg = hub.find()
    if reg is not None and (
        tray is not None or port is None or any(t["port"] == port for t in hub.trays(reg))
    ):
        return hub.HubDevice(reg, tray=tray, port=port, **kw)
    if tray is not None:
        raise Fail(
            "--tray %s names a tray at the hub, and no hub is running: start "
            "`dicetray serve`, or name the port with --port" % tray
        )
    return Device.open(port=port, timeout=timeout, **kw)
