# The web page's tests (make test-web): a headless chromium with selenium.
# Without chromium, chromedriver, node or npm every browser test skips with
# one line naming what is missing and how to get it; with
# DICETRAY_WEB_REQUIRED=1 (set by .ci/run) that is a failure instead.
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for p in (HERE, ROOT, os.path.join(ROOT, "tests", "host")):
    if p not in sys.path:
        sys.path.insert(0, p)

import browser  # noqa: E402

REQUIRED = os.environ.get("DICETRAY_WEB_REQUIRED") == "1"


@pytest.fixture(scope="session")
def site():
    """build/web served on 127.0.0.1 for the session."""
    reason = browser.missing()
    if reason:
        if REQUIRED:
            pytest.fail(reason + "; DICETRAY_WEB_REQUIRED=1 makes this a failure", pytrace=False)
        pytest.skip(reason)
    s = browser.Site(browser.build_site())
    yield s
    s.close()


@pytest.fixture(scope="session")
def driver(site):
    d = browser.chrome()
    yield d
    d.quit()


@pytest.fixture
def flash_name(request):
    """A flash of the test's own in the browser's storage."""
    return "t-" + request.node.name.replace("[", "-").replace("]", "")
