"""Ctrl-C for the commands that promise to end on it (exit 130).

Python turns SIGINT into KeyboardInterrupt only if the process started
with SIGINT at its default: one started with it ignored (a background job
of a shell script, `cmd &` without job control, inherits SIGINT ignored)
keeps it ignored, and the command never sees a Ctrl-C. So a command
installs Python's own handler itself for as long as it runs, and puts
back the one it found when it returns, for a program or test that calls
it in-process.
"""

import contextlib
import signal
import threading


@contextlib.contextmanager
def interruptible():
    """Within: SIGINT raises KeyboardInterrupt, whatever the process
    inherited. Only the main thread can set a handler; elsewhere, as is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
