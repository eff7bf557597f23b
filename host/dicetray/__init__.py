"""Dicetray host tool: talks to the tray over USB serial; shares the rules core."""

__version__ = "0.1.0"
