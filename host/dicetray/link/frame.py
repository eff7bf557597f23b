"""The link framing, shared with the firmware: firmware/link/frame.py is the
one copy. An installed package maps it as dicetray.fwlink (pyproject
package-dir); a source tree loads it from the repository's firmware/."""

import importlib.util
import os

try:
    from dicetray.fwlink.frame import *  # noqa: F401,F403
    from dicetray.fwlink import frame as _mod
except ImportError:
    _path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "..", "..", "..", "firmware", "link", "frame.py")
    _spec = importlib.util.spec_from_file_location("dicetray._fwframe", os.path.normpath(_path))
    _mod = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_mod)
    globals().update({k: v for k, v in vars(_mod).items() if not k.startswith("__")})
