# Dicetray release image: the frozen launcher, run by the rp2 port at boot
# as main.py (tools/uf2.py freezes it; docs/image.md).
#
# Why it exists: the port runs a FROZEN main.py in preference to /main.py on
# the flash (shared/runtime/pyexec.c), so the firmware's own main.py cannot
# simply be frozen as main.py: a `make deploy` (which writes /main.py, one
# line importing /dtmain.mpy) or a user's own /main.py would never run.
# So: a /main.py on the flash runs, as the port would have run it;
# otherwise the frozen firmware boots, its main.py frozen as `dtmain`, the
# name tools/deploy.py gives it on a board. Modules on the flash shadow the
# frozen ones either way: sys.path is ['', '.frozen', '/lib'].
import os

try:
    os.stat("/main.py")
    _flash = True
except OSError:
    _flash = False
del os

if _flash:
    with open("/main.py") as _f:
        _src = _f.read()
    del _f
    exec(_src)  # in these (__main__) globals, like the port's own run of main.py
else:
    import dtmain  # noqa: F401  (boots the tray; returns when the host ends the link)
