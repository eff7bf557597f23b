"""The web page's tray client (web/trayclient.py) and the host speak the
link and digest a backup's events with the same code, not copies: the
requests and answers as bytes (host/dicetray/link/payloads.py) and the
events digest (host/dicetray/backup/eventsdigest.py). The site builds those
very files for the page (tools/web.py's CLIENT), the page's client
defines none of it again, and on MicroPython, loaded as the page loads
them (top-level modules beside the firmware's packages), they give what
they give the host."""
import ast
import json
import os

from dicetray.backup import eventsdigest
from dicetray.link import frame as fr
from dicetray.link import payloads
from tools import web
from tools.mpy import ROOT, run

CLIENT = os.path.join(ROOT, "web", "trayclient.py")
SHARED = {"payloads": payloads, "eventsdigest": eventsdigest}


def test_the_site_builds_the_hosts_own_files_for_the_page():
    for name, mod in SHARED.items():
        assert os.path.samefile(web.CLIENT[name], mod.__file__), name
    with open(os.path.join(ROOT, "web", "dicetray.js"), encoding="utf-8") as f:
        page = f.read()
    for name in web.CLIENT:
        assert '"%s.mpy"' % name in page, "the page does not load %s.mpy" % name


def _copies(source):
    """What in the page client's `source` restates the shared modules: a
    function of theirs defined again (with a leading _ or not), a frame
    encoded, varints or event batches packed, the digest's b"seq:len:"."""
    tree = ast.parse(source)
    shared = {n for m in SHARED.values() for n, v in vars(m).items()
              if callable(v) and getattr(v, "__module__", None) == m.__name__}
    shared.discard("snapshot")  # Client.snapshot, a method, drives payloads.snapshot
    out = ["defines %s" % n.name for n in tree.body
           if isinstance(n, ast.FunctionDef) and n.name.lstrip("_") in shared]
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and (node.value.id, node.attr) in (("fr", "encode"), ("codec", "put_int"),
                                                   ("batch", "pack"))):
            out.append("calls %s.%s (line %d)" % (node.value.id, node.attr, node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, bytes) and b"%d:%d:" in node.value:
            out.append("spells the digest's b'seq:len:' (line %d)" % node.lineno)
    return out


def test_the_page_client_copies_none_of_it():
    with open(CLIENT, encoding="utf-8") as f:
        source = f.read()
    assert _copies(source) == []
    tree = ast.parse(source)
    imported = {a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in tree.body if isinstance(n, ast.ImportFrom)}
    assert set(SHARED) <= imported


def test_a_copy_is_found():
    """The check itself, on what the client held before it shared them."""
    old = '''
import hashlib
def _ints(*vals):
    out = bytearray()
    for v in vals:
        codec.put_int(out, v)
    return bytes(out)
def events_sha256(first, events):
    h = hashlib.sha256()
    for i, ev in enumerate(events):
        h.update(b"%d:%d:" % (first + i, len(ev)))
        h.update(ev)
class Client:
    def _line(self, typ, payload):
        return fr.encode(typ, self.seq, payload)
'''
    found = _copies(old)
    assert any("defines _ints" in f for f in found), found
    assert any("fr.encode" in f for f in found), found
    assert any("seq:len" in f for f in found), found


EVENTS = [bytes([3, 0, 0, 4]) + b"Anna", bytes(range(1, 40)), b"\x0a\x01\x02\x06\x03\x01\x05\x06\x00"]
SNAP_PAGES = ((7, 5, 0, b"ab"), (7, 5, 2, b"cde"))


def _sample(payloads, eventsdigest, fr, codec):
    """What the shared modules give on a sample, as JSON-able values: run
    here on the host's modules and on MicroPython on the page's."""
    from binascii import hexlify

    def h(b):
        return hexlify(bytes(b)).decode()

    out = {"ints": h(payloads.ints(0, 1, 300, -5, 70000))}
    seq, line = payloads.request(0xFFFF, fr.INFO, b"gc")
    out["request"] = [seq, h(line)]
    out["hello"] = json.loads(payloads.hello("web-page"))
    f = payloads.frame(line[1:-1])  # a line as Lines hands it on: no mark, no newline
    out["frame"] = [f[0], f[1], h(f[2]), payloads.frame(line[1:-3]), payloads.frame(None)]
    out["at_repl"] = [payloads.at_repl(b"\r\n>>> "), payloads.at_repl(b"raw REPL; CTRL-B to exit\r\n>"),
                      payloads.at_repl(b"#AgUAeHIsWNM=\n")]
    out["pushed"] = [payloads.pushed(payloads.ints(42) + b"ev")[0], h(payloads.pushed(payloads.ints(42) + b"ev")[1])]
    res = []

    def outer():  # the read's value without `except ... as` (the WASI build's GC, tests/mpy_run.py)
        res.append((yield from payloads.snapshot()))

    g = outer()
    asked = []
    req = g.send(None)
    for s, t, o, data in SNAP_PAGES:
        asked.append([req[0], h(req[1])])
        try:
            req = g.send(payloads.ints(s, t, o) + data)
        except StopIteration:
            break
    out["snapshot"] = [asked, res[0][0], h(res[0][1])]
    out["events_request"] = h(payloads.events_request(9))
    out["events_page"] = list(payloads.events_page(payloads.ints(10, 3, 12) + b"xyz", 9))
    out["segments"] = list(payloads.segments(payloads.ints(500, 3, 0, 200, 150)))
    out["log_request"] = h(payloads.log_request(200, 1024, 2))
    out["restore_begin"] = json.loads(payloads.restore_begin(b"snapshot", 3, 12, 10, "ab" * 32))
    big = b"s" * 700
    out["restore_requests"] = [[t, h(p), n] for t, p, n in payloads.restore_requests(big, EVENTS * 40, 10)]
    out["digest"] = [eventsdigest.events_digest(1, EVENTS), eventsdigest.events_digest(5, []),
                     eventsdigest.events_digest(70000, EVENTS[:1])]
    return out


def test_the_page_runs_them_as_the_host_does():
    """On MicroPython, as top-level modules as the page loads them (the
    firmware's `link` and `rules` beside them), each gives the host's bytes."""
    from dicetray.rules import codec

    want = _sample(payloads, eventsdigest, fr, codec)
    with open(__file__, encoding="utf-8") as f:
        me = f.read()
    src = ast.get_source_segment(me, next(n for n in ast.parse(me).body
                                          if isinstance(n, ast.FunctionDef) and n.name == "_sample"))
    code = (
        "import sys, json\n"
        "sys.path.append('/input/host/dicetray/link')\n"
        "sys.path.append('/input/host/dicetray/backup')\n"
        "import payloads, eventsdigest\n"
        "from link import frame as fr\n"
        "from rules import codec\n"
        "EVENTS = %r\nSNAP_PAGES = %r\n" % (EVENTS, SNAP_PAGES)
        + src + "\n"
        "print('OUT ' + json.dumps(_sample(payloads, eventsdigest, fr, codec)))\n"
    )
    r = run(code)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("OUT ")]
    assert lines, r.stdout + r.stderr
    got = json.loads(lines[0][4:])
    assert payloads.__name__ == "dicetray.link.payloads"   # the host's branch of its imports
    assert got == json.loads(json.dumps(want))
