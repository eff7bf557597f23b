"""The host side of the serial link (docs/protocol.md): frame (the
firmware's own framing module), transport (the port), ports (finding the
tray), client (Device: the requests)."""
