"""The serial link to the host tool (docs/protocol.md).

frame.py is pure (binascii only) and shared with the host, which imports
it as dicetray.link.frame; server.py is the device side (the app calls
Link.poll() every loop pass); repl.py is the simulator's REPL beside the
app (a board has MicroPython's own)."""
