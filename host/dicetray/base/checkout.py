"""The repository checkout this package runs from, and its tools/ (the
firmware's build and deploy scripts live there, not in the package).
A tool is loaded by its file's path: the package never adds the checkout
to sys.path (a module of the checkout must not pass for one of its own)."""

import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def tool_path(name):
    """tools/NAME.py of the checkout (it may not exist: an installed package)."""
    return os.path.join(ROOT, "tools", name + ".py")


def tool(name):
    """The module tools/NAME.py, loaded once as `tools.NAME` (ImportError when
    the checkout has none, or it does not load)."""
    full = "tools." + name
    mod = sys.modules.get(full)
    if mod is not None:
        return mod
    path = tool_path(name)
    if not os.path.isfile(path):
        raise ImportError("no %s in %s" % (os.path.relpath(path, ROOT), ROOT))
    spec = importlib.util.spec_from_file_location(full, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[full] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[full]
        raise
    return mod
