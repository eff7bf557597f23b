"""Where Dicetray keeps its files on the host (backups, running simulators)."""

import os
import sys


def home():
    """The user data directory: $DICETRAY_HOME, else the platform's usual place."""
    h = os.environ.get("DICETRAY_HOME")
    if h:
        return h
    if sys.platform == "win32":
        return os.path.join(os.environ.get("LOCALAPPDATA") or os.path.expanduser("~"), "dicetray")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/dicetray")
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "dicetray")
