"""The link until the host speaks: the app polls this instead of
link.server.Link, which (with its json, codec and store code) is imported
on the first byte from the port. Most sessions at a table never see a host,
and a boot that skips the server's import is about 6 M fuel shorter
(docs/performance.md)."""


class Waiting:
    """Polls the serial port; on the first bytes becomes the real Link."""

    def __init__(self, app, port=None):
        self.app = app
        self.port = port if port is not None else app.b.serial
        self.rx = bytearray(128)

    def poll(self):
        """False while the port is silent; then hands over to the server."""
        n = self.port.read_into(self.rx)
        if not n:
            return False
        from link.server import Link
        link = Link(self.app, self.port, self.rx)
        self.app.link = link
        return link.poll(n)
