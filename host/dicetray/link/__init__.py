"""How a tray is reached, the host's ground layer: the Tray protocol (tray)
and its two implementations, Device on the tray's serial port (client:
the requests; frame, the firmware's own framing; transport, the port;
ports, finding the tray; docs/protocol.md) and HubDevice through a running
hub (hubclient; wire, the hub's line format); errors, every DeviceError
kind; records, the journal's records as the store frames them."""
