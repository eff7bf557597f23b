"""What needs no browser: the firmware pack of tools/web.py, the pinned
port, `dicetray sim --web`'s usage errors (the site itself and the server
are tested in test_page.py, which needs the browser's tools)."""
import json
import os
import subprocess
import sys

from tools import web

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_pack_round_trip():
    entries = [("main.mpy", b"M\x06\x00"), ("simboard/web.mpy", bytes(range(256)) * 3), ("e.mpy", b"")]
    assert web.unpack(web.pack(entries)) == entries


def test_the_port_is_pinned():
    pkg = json.load(open(os.path.join(ROOT, "web", "package.json")))
    assert pkg["dependencies"] == {"@micropython/micropython-webassembly-pyscript": "1.27.0"}
    lock = json.load(open(os.path.join(ROOT, "web", "package-lock.json")))
    assert lock["packages"]["node_modules/@micropython/micropython-webassembly-pyscript"]["version"] == "1.27.0"


def test_sim_web_usage_errors():
    for argv, word in ((["--port", "9"], "--port needs --web"),
                       (["--web", "--rp2040"], "takes only --port")):
        r = subprocess.run([sys.executable, "-m", "dicetray.sim"] + argv, cwd=ROOT,
                           capture_output=True, text=True)
        assert r.returncode == 2 and word in r.stderr, r.stderr
