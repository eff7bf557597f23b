# No test writes into the user's home: every process the tests start (the
# simulators register their ports under DICETRAY_HOME; the simulator's and
# the emulated board's default flash live under XDG_DATA_HOME) gets a
# session-wide scratch home instead. Tests that need their own set it.
import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _scratch_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    old = {k: os.environ.get(k) for k in ("DICETRAY_HOME", "XDG_DATA_HOME")}
    os.environ["DICETRAY_HOME"] = str(home / "dicetray")
    os.environ["XDG_DATA_HOME"] = str(home / "share")
    yield
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v

# Shards and times for tools/testrun.py (tests/sharding.py).
from sharding import (  # noqa: E402,F401
    pytest_collection_modifyitems,
    pytest_runtest_logreport,
    pytest_runtest_logstart,
    pytest_sessionfinish,
)
