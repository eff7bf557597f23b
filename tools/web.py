"""`make web`: the tray in a web page, a static site in build/web/.

    python tools/web.py [--out DIR] [--quiet]

1. MicroPython's WebAssembly port, the npm package
   @micropython/micropython-webassembly-pyscript pinned in
   web/package.json + package-lock.json (`npm ci` in web/ when its
   node_modules is missing or older than the lock; `make web` always runs
   it);
2. the firmware as a board gets it: every firmware/ module compiled with
   mpy-cross (tools/mpy.py, as `make firmware`), and the web page's board
   (simboard/web.py, with simboard/__init__.py: not a board's, so not in
   firmware/), packed into one file, firmware.bin, that the page unpacks
   into the port's filesystem (one request instead of sixty);
3. the page: web/index.html and web/dicetray.js;
4. the page's client for a real tray over Web Serial, web/trayclient.py,
   and the two host modules it shares (host/dicetray/link/payloads.py,
   the requests and answers as bytes; host/dicetray/backup/eventsdigest.py,
   the events digest), each compiled with mpy-cross (trayclient.mpy,
   payloads.mpy, eventsdigest.mpy: the page loads them into its
   MicroPython when "Connect a tray" is first used).

Nothing in the site needs a server of its own: any static host serves it
(docs/simulator.md, "In a web page"). Prints each file's size and its
gzipped size (what a static host sends over the wire).
"""

import argparse
import gzip
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools.mpy import FIRMWARE, ROOT, compile_file, compile_firmware  # noqa: E402

WEB = os.path.join(ROOT, "web")
OUT = os.path.join(ROOT, "build", "web")
PACKAGE = os.path.join(WEB, "node_modules", "@micropython", "micropython-webassembly-pyscript")
PORT_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "dicetray.js")
# The tray client's modules, each compiled into the site as NAME.mpy: the
# page's own, and the host's that it shares (MicroPython, top-level there).
CLIENT = {
    "trayclient": os.path.join(WEB, "trayclient.py"),
    "payloads": os.path.join(ROOT, "host", "dicetray", "link", "payloads.py"),
    "eventsdigest": os.path.join(ROOT, "host", "dicetray", "backup", "eventsdigest.py"),
}
MAGIC = b"DTFW1\n"
STAMP = ".built"
# The web page's board, beside the firmware in the pack (as simboard/...).
BOARD_FILES = ("simboard/__init__.py", "simboard/web.py")


def pack(entries):
    """firmware.bin: MAGIC, then per file u16 name length, the name (UTF-8,
    '/'-separated, relative to the firmware root), u32 length, the bytes."""
    out = bytearray(MAGIC)
    for name, data in entries:
        n = name.encode()
        out += struct.pack("<H", len(n)) + n + struct.pack("<I", len(data)) + data
    return bytes(out)


def unpack(blob):
    """The (name, bytes) entries of a firmware.bin (for tests)."""
    if not blob.startswith(MAGIC):
        raise ValueError("not a firmware pack")
    i = len(MAGIC)
    out = []
    while i < len(blob):
        (k,) = struct.unpack_from("<H", blob, i)
        name = blob[i + 2 : i + 2 + k].decode()
        i += 2 + k
        (n,) = struct.unpack_from("<I", blob, i)
        out.append((name, blob[i + 4 : i + 4 + n]))
        i += 4 + n
    return out


def npm_ci(force=False):
    """Install the pinned port into web/node_modules (npm ci)."""
    lock = os.path.join(WEB, "package-lock.json")
    have = os.path.join(PACKAGE, "micropython.wasm")
    if not force and os.path.isfile(have) and os.path.getmtime(have) >= os.path.getmtime(lock):
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit(
            "web: npm is not installed (apt-get install npm): it fetches MicroPython's "
            "WebAssembly port pinned in web/package-lock.json"
        )
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WEB, check=True)


def sources():
    """Every file the site is built from (for the staleness check)."""
    out = [os.path.join(WEB, f) for f in PAGE_FILES + ("package-lock.json",)]
    out += CLIENT.values()
    out.append(os.path.abspath(__file__))
    for base, _dirs, files in os.walk(FIRMWARE):
        out += [os.path.join(base, f) for f in files if f.endswith(".py")]
    out += [os.path.join(ROOT, *f.split("/")) for f in BOARD_FILES]
    return out


def stale(out=OUT):
    """True when build/web is missing or older than one of its sources."""
    stamp = os.path.join(out, STAMP)
    if not os.path.isfile(stamp):
        return True
    t = os.path.getmtime(stamp)
    return any(os.path.getmtime(p) > t for p in sources() if os.path.exists(p))


def build(out=OUT, quiet=False):
    """Build the site into `out`; returns [(file, bytes, gzipped bytes)]."""
    npm_ci()
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # The RP2040's machine code (NATIVE) runs on no browser.
        made = [m for _, m in compile_firmware(tmp, native=False)]
        for rel in BOARD_FILES:
            made.append(
                compile_file(
                    os.path.join(ROOT, *rel.split("/")), os.path.join(tmp, rel[:-3] + ".mpy"), rel
                )
            )
        entries = []
        for m in sorted(made):
            rel = os.path.relpath(m, tmp).replace(os.sep, "/")
            with open(m, "rb") as f:
                entries.append((rel, f.read()))
    with open(os.path.join(out, "firmware.bin"), "wb") as f:
        f.write(pack(entries))
    for name in PORT_FILES:
        shutil.copyfile(os.path.join(PACKAGE, name), os.path.join(out, name))
    for name in PAGE_FILES:
        shutil.copyfile(os.path.join(WEB, name), os.path.join(out, name))
    for name, src in CLIENT.items():
        compile_file(src, os.path.join(out, name + ".mpy"), name + ".py")
    with open(os.path.join(out, STAMP), "w") as f:
        f.write("built by tools/web.py\n")
    rows = sizes(out)
    if not quiet:
        print("%-20s %9s %9s" % ("build/web/", "bytes", "gzipped"))
        for name, n, z in rows:
            print("%-20s %9d %9d" % (name, n, z))
        print(
            "%-20s %9d %9d  (%d modules)"
            % ("total", sum(r[1] for r in rows), sum(r[2] for r in rows), len(entries))
        )
    return rows


def sizes(out=OUT):
    """[(file, bytes, gzipped bytes)] of the site's files."""
    rows = []
    for name in PAGE_FILES + ("firmware.bin",) + tuple(n + ".mpy" for n in CLIENT) + PORT_FILES:
        with open(os.path.join(out, name), "rb") as f:
            data = f.read()
        rows.append((name, len(data), len(gzip.compress(data, 9, mtime=0))))
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(prog="tools/web.py", description=__doc__.split("\n")[0])
    p.add_argument("--out", default=OUT, help="the site's directory (default: %(default)s)")
    p.add_argument("--quiet", action="store_true", help="no size report")
    p.add_argument("--if-stale", action="store_true", help="build only if a source is newer")
    args = p.parse_args(argv)
    if args.if_stale and not stale(args.out):
        return 0
    build(args.out, args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
