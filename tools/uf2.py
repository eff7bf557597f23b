"""`make uf2`: the release image, MicroPython's rp2 port with the whole
firmware/ frozen in, built reproducibly into build/uf2/ (docs/image.md).

    python tools/uf2.py [--board RPI_PICO|RPI_PICO2|all] [--stock] [--out DIR]
                        [--jobs N] [--work DIR]

Default: both frozen release images (Pico and Pico 2). --stock builds plain
MicroPython v1.27.0 (nothing of Dicetray frozen in), for testing
`dicetray deploy` onto a stock board.

1. sources, first found: $MICROPYTHON_SRC (a prepared tree with its
   submodules, used as is and never written: everything is built outside
   it); the vendored tarballs in ../shared/vendor ($DICETRAY_VENDOR
   overrides), checked against their SHA256SUMS and unpacked once into
   build/mp-src/; else a `git clone` of the pinned commits (rp2/pins.json);
2. mpy-cross, built in that tree unless it is there already;
3. staging: firmware/**/*.py into build/rp2/freeze/ (main.py as dtmain.py)
   plus rp2/main.py, the boot launcher, as main.py, and rp2/i2cstage.py
   (the RP2040's machine code, compiled by the port's cross flags);
   rp2/manifest.py freezes
   the staged folder (named in $DICETRAY_FREEZE_DIR);
4. `make -C ports/rp2 BOARD=... BUILD=build/rp2/<BOARD> FROZEN_MANIFEST=...`
   with CMAKE_ARGS=-DPICO_NO_PICOTOOL=1 and SOURCE_DATE_EPOCH (pinned) in
   its environment, cleaned of the caller's CFLAGS, PICO_*, MICROPY_*...;
5. the UF2 from firmware.bin by bin_to_uf2() below (for the RP2350 with the
   RP2350-E10 "absolute" block picotool puts first);
6. build/uf2/dicetray-<version>-<board>-<input hash>.uf2 with a .json
   sidecar (pins, toolchain, hashes, sizes), and a stable copy
   build/uf2/dicetray-<board>.uf2; stock: micropython-v1.27.0-<board>.uf2.

Functions for other code: build(), bin_to_uf2(), uf2_to_bin(), image_path(),
input_hash(), PINS, BOARDS.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
RP2 = os.path.join(ROOT, "rp2")
MANIFEST = os.path.join(RP2, "manifest.py")
LAUNCHER = os.path.join(RP2, "main.py")
STAGING = os.path.join(RP2, "i2cstage.py")  # viper: no firmware/ file (tools/mpy.py NATIVE)
PINS_FILE = os.path.join(RP2, "pins.json")
SRAM_FILE = os.path.join(RP2, "sram.txt")
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "uf2")
WORK = os.path.join(BUILD, "rp2")
MP_SRC = os.path.join(BUILD, "mp-src")
TREE_NAME = "micropython-1.27.0"  # the folder every vendored tarball unpacks into
MAIN_MODULE = "dtmain"  # firmware/main.py in the image: the name tools/deploy.py uses

with open(PINS_FILE) as _f:
    PINS = json.load(_f)
MP_VERSION = PINS["micropython"]["tag"]  # "v1.27.0"
SOURCE_DATE_EPOCH = int(PINS["source_date_epoch"])  # the v1.27.0 commit's time

# UF2 (github.com/microsoft/uf2 README; pico-sdk boot/uf2.h).
UF2_MAGIC_START0 = 0x0A324655  # "UF2\n"
UF2_MAGIC_START1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_FLAG_FAMILY_ID_PRESENT = 0x00002000
UF2_FLAG_EXTENSION_FLAGS_PRESENT = 0x00008000
UF2_EXTENSION_RP2_IGNORE_BLOCK = 0x9957E304
UF2_BLOCK = 512
UF2_PAYLOAD = 256
FLASH_BASE = 0x10000000
FAMILY_RP2040 = 0xE48BFF56
FAMILY_ABSOLUTE = 0xE48BFF57
FAMILY_RP2350_ARM_S = 0xE48BFF59
# Where picotool's --abs-block puts the RP2350-E10 block (end of the 16 MB
# flash window); pico-sdk 2.1.1 passes --abs-block for RP2350 builds
# (PICO_RP2350_A2_SUPPORTED, default 1 on the pico2 board).
ABS_BLOCK_ADDR = 0x10FFFF00

# code_limit: the flash below the filesystem. RPI_PICO: 2 MB flash, the
# filesystem is the top 1408 KB (boards/RPI_PICO/mpconfigboard.h), so it
# starts at 0xA0000; RPI_PICO2: 4 MB, the filesystem is all but the first
# 1 MB (boards/RPI_PICO2/mpconfigboard.h).
BOARDS = {
    "RPI_PICO": {
        "chip": "RP2040",
        "family": FAMILY_RP2040,
        "code_limit": 0xA0000,
        "abs_block": False,
    },
    "RPI_PICO2": {
        "chip": "RP2350",
        "family": FAMILY_RP2350_ARM_S,
        "code_limit": 0x100000,
        "abs_block": True,
    },
}

APT = (
    "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi "
    "libstdc++-arm-none-eabi-newlib cmake build-essential"
)
TOOLS = {  # tool -> what the image build needs it for
    "make": "it runs the build",
    "gcc": "the host C compiler builds mpy-cross",
    "g++": "the host C++ compiler builds pico-sdk's pioasm",
    "cmake": "it configures the rp2 build",
    "arm-none-eabi-gcc": "the arm toolchain compiles the firmware",
    "arm-none-eabi-g++": "the arm toolchain's C++ compiler is checked by pico-sdk",
    "git": "it clones the pinned sources when there are no vendored tarballs",
}
# Environment variables of the caller that would change what the build
# makes: compiler flags (cmake reads CFLAGS & co. at configure), the
# pico-sdk's and MicroPython's own settings, and an outer make's flags.
_ENV_DROP = (
    "CFLAGS",
    "CXXFLAGS",
    "CPPFLAGS",
    "LDFLAGS",
    "ASMFLAGS",
    "CC",
    "CXX",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKELEVEL",
    "MAKEOVERRIDES",
    "BUILD",
    "BOARD",
    "BOARD_DIR",
    "BOARD_VARIANT",
    "CMAKE_ARGS",
    "FROZEN_MANIFEST",
    "USER_C_MODULES",
)
_ENV_DROP_PREFIX = ("PICO_", "PICOTOOL_", "MICROPY_")
# Given to ports/rp2/Makefile in the environment, not on the command line:
# that Makefile appends -DMICROPY_BOARD=..., -DMICROPY_FROZEN_MANIFEST=...
# to CMAKE_ARGS, and a command-line CMAKE_ARGS=... would silently replace
# those appends (every board would build as the default RPI_PICO, unfrozen).
CMAKE_ARGS = "-DPICO_NO_PICOTOOL=1"
# The RP2040 linker script's list of objects kept out of flash, as v1.27.0
# writes it; rp2/sram.txt's files replace it (with the names CMake gives).
SRAM_UPSTREAM = "*gc.c.obj *vm.c.obj *parse.c.obj"


class Uf2Error(Exception):
    """A build step failed; str() is the one-line reason, .tail the build output's end."""

    def __init__(self, msg, tail=None):
        Exception.__init__(self, msg)
        self.tail = tail or []


# ---------------------------------------------------------------------------
# The UF2 format


def bin_to_uf2(data, family, base=FLASH_BASE, abs_block=None):
    """The UF2 of a flat image `data` flashed at `base`: one 512-byte block per
    256 bytes, family id present, block numbers 0..n-1 of n, the last
    payload and every block's unused data area padded with zeros (as
    picotool and uf2conv.py write them, and the spec asks).

    abs_block=ADDR puts picotool's RP2350-E10 block first: family
    "absolute", 256 bytes of 0xEF at ADDR, numBlocks 2, and the
    RP2_IGNORE_BLOCK extension tag so that a boot ROM without the erratum
    skips it (picotool elf2uf2.cpp gen_abs_block)."""
    if base % UF2_PAYLOAD:
        raise ValueError("base 0x%x is not 256-byte aligned" % base)
    data = bytes(data)
    n = (len(data) + UF2_PAYLOAD - 1) // UF2_PAYLOAD
    out = bytearray()
    if abs_block is not None:
        out += _block(
            UF2_FLAG_FAMILY_ID_PRESENT | UF2_FLAG_EXTENSION_FLAGS_PRESENT,
            abs_block,
            0,
            2,
            FAMILY_ABSOLUTE,
            b"\xef" * UF2_PAYLOAD + struct.pack("<I", UF2_EXTENSION_RP2_IGNORE_BLOCK),
        )
    for i in range(n):
        chunk = data[i * UF2_PAYLOAD : (i + 1) * UF2_PAYLOAD]
        out += _block(
            UF2_FLAG_FAMILY_ID_PRESENT,
            base + i * UF2_PAYLOAD,
            i,
            n,
            family,
            chunk.ljust(UF2_PAYLOAD, b"\0"),
        )
    return bytes(out)


def _block(flags, addr, number, total, family, data):
    head = struct.pack(
        "<8I", UF2_MAGIC_START0, UF2_MAGIC_START1, flags, addr, UF2_PAYLOAD, number, total, family
    )
    return head + data.ljust(476, b"\0") + struct.pack("<I", UF2_MAGIC_END)


def uf2_blocks(uf2):
    """[(flags, addr, size, number, total, family, payload)] of a UF2; ValueError if malformed."""
    if len(uf2) % UF2_BLOCK:
        raise ValueError("a UF2 is whole 512-byte blocks; this is %d bytes" % len(uf2))
    out = []
    for off in range(0, len(uf2), UF2_BLOCK):
        m0, m1, flags, addr, size, number, total, family = struct.unpack_from("<8I", uf2, off)
        (end,) = struct.unpack_from("<I", uf2, off + 508)
        if (m0, m1, end) != (UF2_MAGIC_START0, UF2_MAGIC_START1, UF2_MAGIC_END):
            raise ValueError("block at byte %d: bad magic numbers" % off)
        if size > 476:
            raise ValueError("block at byte %d: payload size %d" % (off, size))
        out.append((flags, addr, size, number, total, family, uf2[off + 32 : off + 32 + size]))
    return out


def uf2_to_bin(uf2, family=None):
    """(base address, flat image) of a UF2's flash blocks; the E10 block and
    blocks of another family are left out. The inverse of bin_to_uf2 up to
    the zero padding of the last block."""
    blocks = [
        b for b in uf2_blocks(uf2) if b[5] != FAMILY_ABSOLUTE and (family is None or b[5] == family)
    ]
    if not blocks:
        raise ValueError("no flash blocks in this UF2")
    blocks.sort(key=lambda b: b[1])
    base = blocks[0][1]
    img = bytearray()
    for _flags, addr, _size, _n, _t, _f, payload in blocks:
        if addr != base + len(img):
            raise ValueError("blocks are not contiguous at 0x%08x" % addr)
        img += payload
    return base, bytes(img)


# ---------------------------------------------------------------------------
# Inputs: the version, the input hash, the staging folder


def version():
    """`version` of pyproject.toml's [project]."""
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        text = f.read()
    m = re.search(r'^\[project\][^\[]*?^version\s*=\s*"([^"]+)"', text, re.M | re.S)
    if not m:
        raise Uf2Error("pyproject.toml has no [project] version")
    return m.group(1)


def firmware_files():
    """Sorted '/'-separated paths, relative to firmware/, of every firmware .py."""
    out = []
    for base, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in files:
            if name.endswith(".py") and not name.startswith("."):
                out.append(os.path.relpath(os.path.join(base, name), FIRMWARE).replace(os.sep, "/"))
    return sorted(out)


def input_files(stock=False, sram=None):
    """{repository-relative path: absolute path} of what the image is made from
    (besides the pinned upstream sources, which rp2/pins.json names). sram:
    rp2/sram.txt's files linked into SRAM (default: the release image only)."""
    files = {"rp2/pins.json": PINS_FILE}
    if not stock if sram is None else sram:
        files["rp2/sram.txt"] = SRAM_FILE
    if not stock:
        files["rp2/manifest.py"] = MANIFEST
        files["rp2/main.py"] = LAUNCHER
        files["rp2/i2cstage.py"] = STAGING
        for rel in firmware_files():
            files["firmware/" + rel] = os.path.join(FIRMWARE, *rel.split("/"))
    return files


def read_inputs(stock=False, sram=None):
    """{repository-relative path: bytes} of the input files, each read once:
    the hash and the staging folder are made from these same bytes, so an
    image always matches its input hash, even with the tree being edited."""
    out = {}
    for rel, path in input_files(stock, sram).items():
        with open(path, "rb") as f:
            out[rel] = f.read()
    return out


def input_hash(stock=False, inputs=None, sram=None):
    """sha256 over the sorted input files: for each, its repository-relative
    path, a NUL, its length in decimal, a NUL, its bytes (docs/image.md)."""
    inputs = read_inputs(stock, sram) if inputs is None else inputs
    h = hashlib.sha256()
    for rel in sorted(inputs):
        data = inputs[rel]
        h.update(rel.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def stage(dest, inputs=None):
    """Fill `dest` (emptied first) with what rp2/manifest.py freezes; returns
    the frozen module paths, sorted ('dtmain.py', 'hw/board.py', 'main.py'...)."""
    inputs = read_inputs() if inputs is None else inputs
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    files = {}
    for rel, data in inputs.items():
        if rel.startswith("firmware/"):
            rel = rel[len("firmware/") :]
            files[MAIN_MODULE + ".py" if rel == "main.py" else rel] = data
    if MAIN_MODULE + ".py" not in files:
        raise Uf2Error("firmware/main.py is missing: nothing to boot")
    files["main.py"] = inputs["rp2/main.py"]
    files["i2cstage.py"] = inputs["rp2/i2cstage.py"]
    for target, data in files.items():
        dst = os.path.join(dest, *target.split("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
    return sorted(files)


def _sram_names(inputs):
    """The C files rp2/sram.txt names (none when it is not an input)."""
    lines = inputs.get("rp2/sram.txt", b"").decode().splitlines()
    return [n.strip() for n in lines if n.strip() and not n.strip().startswith("#")]


def sram_linker_script(tree, board, text, path):
    """Write the port's linker script for `board` to `path` with the C files
    named in `text` (rp2/sram.txt) linked into SRAM; returns its path, or None
    for a board it does not apply to (the RP2350's is left as it is: no
    emulator runs it to measure). Uf2Error if the script is not v1.27.0's."""
    if BOARDS[board]["chip"] != "RP2040":
        return None
    names = _sram_names({"rp2/sram.txt": text})
    bad = [n for n in names if not re.fullmatch(r"[A-Za-z0-9_]+\.c", n)]
    if bad or not names:
        raise Uf2Error("rp2/sram.txt: %s: one C file name a line (vm.c)" % (bad or "empty"))
    with open(os.path.join(tree, "ports", "rp2", "memmap_mp_rp2040.ld")) as f:
        script = f.read()
    if script.count(SRAM_UPSTREAM) != 1:
        raise Uf2Error(
            "ports/rp2/memmap_mp_rp2040.ld has no %r once: not v1.27.0's linker script, "
            "so rp2/sram.txt cannot be applied" % SRAM_UPSTREAM
        )
    with open(path, "w") as f:
        f.write(script.replace(SRAM_UPSTREAM, " ".join("*%s.o" % n for n in names)))
    return path


# ---------------------------------------------------------------------------
# Tools

BUILD_TOOLS = ("make", "gcc", "g++", "cmake", "arm-none-eabi-gcc", "arm-none-eabi-g++")


def check_tools(names=BUILD_TOOLS):
    """Raise Uf2Error naming the first missing build tool and the apt-get line."""
    for t in names:
        if shutil.which(t) is None:
            fix = "apt-get install git" if t == "git" else APT
            raise Uf2Error("%s not found (%s): %s" % (t, TOOLS.get(t, "needed"), fix))
    if "arm-none-eabi-gcc" in names:
        for lib, pkg in (
            ("libc.a", "libnewlib-arm-none-eabi"),
            ("libstdc++.a", "libstdc++-arm-none-eabi-newlib"),
        ):
            r = subprocess.run(
                ["arm-none-eabi-gcc", "-print-file-name=" + lib], capture_output=True, text=True
            )
            if os.path.basename(r.stdout.strip()) == r.stdout.strip():
                raise Uf2Error("the arm toolchain has no %s (package %s): %s" % (lib, pkg, APT))


def _first_line(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError:
        return None
    return (r.stdout or r.stderr).strip().split("\n")[0] if r.returncode == 0 else None


def toolchain():
    """What the image was compiled with: recorded in the sidecar, not pinned."""
    t = {
        "arm-none-eabi-gcc": _first_line(["arm-none-eabi-gcc", "--version"]),
        "cmake": _first_line(["cmake", "--version"]),
    }
    if shutil.which("dpkg-query"):
        pkgs = {}
        for p in (
            "gcc-arm-none-eabi",
            "binutils-arm-none-eabi",
            "libnewlib-arm-none-eabi",
            "libstdc++-arm-none-eabi-newlib",
        ):
            v = _first_line(["dpkg-query", "-W", "-f=${Version}", p])
            if v:
                pkgs[p] = v
        if pkgs:
            t["debian_packages"] = pkgs
    return t


def _sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ---------------------------------------------------------------------------
# Sources


def pinned_commits():
    """{'micropython': sha, 'lib/pico-sdk': sha, ...} from rp2/pins.json."""
    c = {"micropython": PINS["micropython"]["commit"]}
    for path, pin in PINS["submodules"].items():
        c[path] = pin["commit"]
    return c


def _pin_items():
    """[(path in the tree or '', pin)], micropython first."""
    return [("", PINS["micropython"])] + sorted(PINS["submodules"].items())


def vendor_dir():
    """The folder of vendored tarballs, or None: $DICETRAY_VENDOR (must exist),
    else ../shared/vendor beside the repository if it has a SHA256SUMS."""
    d = os.environ.get("DICETRAY_VENDOR")
    if d:
        if not os.path.isfile(os.path.join(d, "SHA256SUMS")):
            raise Uf2Error(
                "DICETRAY_VENDOR=%s has no SHA256SUMS: point it at the folder of "
                "the vendored tarballs, or unset it" % d
            )
        return os.path.abspath(d)
    d = os.path.join(os.path.dirname(ROOT), "shared", "vendor")
    return d if os.path.isfile(os.path.join(d, "SHA256SUMS")) else None


def _rel(path):
    return os.path.relpath(path, ROOT) if path.startswith(ROOT) else path


def _no_vendor():
    """Where the vendored tarballs were looked for, in words."""
    return "no vendored tarballs in ../shared/vendor (%s; $DICETRAY_VENDOR names another)" % (
        os.path.join(os.path.dirname(ROOT), "shared", "vendor")
    )


def _clone_words():
    """What the clone fetches: the pinned micropython and its submodules' hosts."""
    mp = PINS["micropython"]
    return "micropython %s and its %d submodules with git (%s: the network)" % (
        mp.get("tag") or mp["commit"][:12],
        len(PINS["submodules"]),
        mp["url"],
    )


def check_vendor(d):
    """{tarball: sha256} of the pinned tarballs in `d`, each checked against
    SHA256SUMS there; Uf2Error naming the file otherwise."""
    sums = {}
    with open(os.path.join(d, "SHA256SUMS")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                sums[parts[1].lstrip("*")] = parts[0].lower()
    out = {}
    for _path, pin in _pin_items():
        name = pin["tarball"]
        path = os.path.join(d, name)
        if name not in sums:
            raise Uf2Error("%s is not listed in %s" % (name, os.path.join(d, "SHA256SUMS")))
        if not os.path.isfile(path):
            raise Uf2Error("%s is missing from %s" % (name, d))
        got = _sha256_file(path)
        if got != sums[name]:
            raise Uf2Error(
                "%s: sha256 %s, but SHA256SUMS says %s: the file is damaged or "
                "was changed; restore it" % (path, got, sums[name])
            )
        out[name] = got
    return out


def _tree_ok(tree):
    return all(
        os.path.isfile(os.path.join(tree, *p.split("/")))
        for p in (
            "py/mpconfig.h",
            "ports/rp2/Makefile",
            "mpy-cross/Makefile",
            "lib/pico-sdk/README.md",
            "lib/tinyusb/README.rst",
            "lib/micropython-lib/README.md",
            "lib/mbedtls/README.md",
        )
    )


def _read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def _unpack(vendor, sums, tree, log):
    """Unpack the pinned tarballs into `tree` (through a temporary folder)."""
    tmp = os.path.join(MP_SRC, ".unpack")
    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    os.makedirs(tmp)
    for path, pin in _pin_items():
        name = pin["tarball"]
        log("  unpacking %s" % name)
        with tarfile.open(os.path.join(vendor, name)) as t:
            commit = t.pax_headers.get("comment")  # `git archive` records its commit here
            if commit and commit != pin["commit"]:
                raise Uf2Error(
                    "%s is an extract of commit %s, but rp2/pins.json pins %s %s"
                    % (name, commit, path or "micropython", pin["commit"])
                )
            prefix = TREE_NAME + "/" + (path + "/" if path else "")
            for m in t.getmembers():
                if not (m.name + "/").startswith(prefix):
                    raise Uf2Error(
                        "%s: unexpected member %s (not under %s)" % (name, m.name, prefix)
                    )
            if hasattr(tarfile, "data_filter"):
                t.extractall(tmp, filter="data")
            else:  # Python < 3.11.4: members were checked above
                t.extractall(tmp)
    if os.path.isdir(tree):
        shutil.rmtree(tree)
    os.replace(os.path.join(tmp, TREE_NAME), tree)
    shutil.rmtree(tmp)


def _git(*args, cwd=None):
    r = subprocess.run(["git"] + list(args), cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise Uf2Error(
            "git %s failed: %s" % (" ".join(args), (r.stderr or r.stdout).strip().split("\n")[-1])
        )
    return r.stdout.strip()


def _fetch(path, url, commit, tag=None):
    """Check out `commit` of `url` in the folder `path` (depth 1, detached)."""
    os.makedirs(path, exist_ok=True)
    _git("init", "-q", cwd=path)
    _git("remote", "add", "origin", url, cwd=path)
    try:
        _git("fetch", "-q", "--depth", "1", "origin", commit, cwd=path)
    except Uf2Error:
        if not tag:
            raise
        # A server that does not serve a commit by its id: fetch the tag.
        _git(
            "fetch",
            "-q",
            "--depth",
            "1",
            "origin",
            "refs/tags/%s:refs/tags/%s" % (tag, tag),
            cwd=path,
        )
    _git("-c", "advice.detachedHead=false", "checkout", "-q", "--detach", "FETCH_HEAD", cwd=path)
    head = _git("rev-parse", "HEAD", cwd=path)
    if head != commit:
        raise Uf2Error("%s: fetched %s, but rp2/pins.json pins %s" % (url, head, commit))


def _clone(tree, log):
    """`git clone` of the pinned commits into `tree` (no network here: untested
    on the machine this was written on; docs/image.md)."""
    check_tools(("git",))
    tmp = os.path.join(MP_SRC, ".clone")
    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    mp = PINS["micropython"]
    log("  git: %s %s" % (mp["url"], mp["tag"]))
    _fetch(tmp, mp["url"], mp["commit"], mp.get("tag"))
    for path, pin in sorted(PINS["submodules"].items()):
        # The micropython commit records its submodules' commits: they must be the pins.
        entry = _git("ls-tree", "HEAD", path, cwd=tmp).split()
        if len(entry) < 3 or entry[2] != pin["commit"]:
            raise Uf2Error(
                "micropython %s records %s at %s, but rp2/pins.json pins %s"
                % (mp["tag"], path, entry[2] if len(entry) > 2 else "nothing", pin["commit"])
            )
        log("  git: %s %s" % (pin["url"], pin["commit"][:12]))
        _fetch(os.path.join(tmp, *path.split("/")), pin["url"], pin["commit"])
    if os.path.isdir(tree):
        shutil.rmtree(tree)
    os.replace(tmp, tree)


def _external(src, log):
    """$MICROPYTHON_SRC, checked (never written to)."""
    src = os.path.abspath(src)
    if not _tree_ok(src):
        raise Uf2Error(
            "MICROPYTHON_SRC=%s is not a micropython tree with its submodules "
            "(lib/pico-sdk, lib/tinyusb, lib/mbedtls, lib/micropython-lib)" % src
        )
    with open(os.path.join(src, "py", "mpconfig.h")) as f:
        text = f.read()
    v = "v" + ".".join(
        re.search(r"#define MICROPY_VERSION_%s (\d+)" % k, text).group(1)
        for k in ("MAJOR", "MINOR", "MICRO")
    )
    if v != MP_VERSION:
        raise Uf2Error(
            "MICROPYTHON_SRC=%s is MicroPython %s; the image is pinned to %s" % (src, v, MP_VERSION)
        )
    verified = False
    if os.path.exists(os.path.join(src, ".git")) and shutil.which("git"):
        for path, pin in _pin_items():
            head = _git(
                "rev-parse", "HEAD", cwd=os.path.join(src, *path.split("/")) if path else src
            )
            if head != pin["commit"]:
                raise Uf2Error(
                    "MICROPYTHON_SRC: %s is at %s, rp2/pins.json pins %s: check out "
                    "the pinned commit, or unset MICROPYTHON_SRC"
                    % (path or "micropython", head, pin["commit"])
                )
        verified = True
    else:
        log(
            "  note: MICROPYTHON_SRC has no git metadata: its commits cannot be checked "
            "against rp2/pins.json"
        )
    return {
        "tree": src,
        "kind": "MICROPYTHON_SRC" if verified else "MICROPYTHON_SRC (unverified)",
        "stamp": {"kind": "external", "tree": src},
    }


def prepare_source(log=print):
    """{'tree': path, 'kind': how it was obtained, 'stamp': what identifies it}."""
    if os.environ.get("MICROPYTHON_SRC"):
        return _external(os.environ["MICROPYTHON_SRC"], log)
    tree = os.path.join(MP_SRC, TREE_NAME)
    stamp_path = os.path.join(MP_SRC, "stamp.json")
    os.makedirs(MP_SRC, exist_ok=True)
    stamp = _read_json(stamp_path)
    vendor = vendor_dir()
    if vendor:
        sums = check_vendor(vendor)
        want = {"kind": "vendor", "sha256": sums, "commits": pinned_commits()}
        if stamp != want or not _tree_ok(tree):
            log(
                "[source] unpacking the vendored tarballs from %s into %s"
                % (vendor, os.path.relpath(tree, ROOT))
            )
            if os.path.exists(stamp_path):
                os.remove(stamp_path)
            _unpack(vendor, sums, tree, log)
            _write_json(stamp_path, want)
            stamp = want
    elif not (stamp and stamp.get("commits") == pinned_commits() and _tree_ok(tree)):
        # The first line says where the sources were looked for and what
        # the build fetches instead.
        log("[source] %s: cloning %s into %s" % (_no_vendor(), _clone_words(), _rel(tree)))
        if os.path.exists(stamp_path):
            os.remove(stamp_path)
        try:
            _clone(tree, log)
        except Uf2Error as e:
            raise Uf2Error(
                "no MicroPython sources: %s, and the clone failed (%s); put the vendored "
                "tarballs there (docs/image.md, Sources) or set MICROPYTHON_SRC" % (_no_vendor(), e)
            ) from None
        stamp = {"kind": "git", "commits": pinned_commits()}
        _write_json(stamp_path, stamp)
    return {"tree": tree, "kind": stamp["kind"], "stamp": stamp}


def ensure_mpy_cross(src, work, jobs, log=print):
    """Path of the tree's mpy-cross, built if needed: in the tree for our own
    tree, under `work` for a read-only $MICROPYTHON_SRC."""
    tree = src["tree"]
    exe = os.path.join(tree, "mpy-cross", "build", "mpy-cross")
    if os.access(exe, os.X_OK):
        return exe
    cmd = ["make", "-C", os.path.join(tree, "mpy-cross"), "-j", str(jobs)]
    if src["stamp"]["kind"] == "external":
        exe = os.path.join(work, "mpy-cross", "mpy-cross")
        if os.access(exe, os.X_OK):
            return exe
        cmd.append("BUILD=" + os.path.dirname(exe))
    log("[mpy-cross] building (%s)" % " ".join(cmd[:3]))
    t0 = time.monotonic()
    os.makedirs(work, exist_ok=True)
    _run(cmd, os.path.join(work, "mpy-cross.log"), _build_env(_version_env()), log, None)
    if not os.access(exe, os.X_OK):
        raise Uf2Error("mpy-cross build finished but %s is missing" % exe)
    log("[mpy-cross] built in %d s" % (time.monotonic() - t0))
    return exe


# ---------------------------------------------------------------------------
# The build


def _version_env():
    """The version MicroPython's makeversionhdr.py writes: the pinned tag, not
    `git describe` (which, in a tree without .git, finds the enclosing
    repository: Dicetray's own commit)."""
    return {"MICROPY_GIT_TAG": MP_VERSION, "MICROPY_GIT_HASH": PINS["micropython"]["commit"][:10]}


def _build_env(extra):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in _ENV_DROP and not k.startswith(_ENV_DROP_PREFIX)
    }
    env.update({"LC_ALL": "C", "TZ": "UTC", "SOURCE_DATE_EPOCH": str(SOURCE_DATE_EPOCH)})
    env.update(extra)
    return env


def _run(cmd, logfile, env, log, label):
    """Run `cmd`, its output to `logfile`, a progress line per quarter of a
    cmake build; Uf2Error with the last 40 lines if it fails."""
    t0 = time.monotonic()
    shown = 0
    with open(logfile, "w") as lf:
        lf.write("$ %s\n" % " ".join(cmd))
        lf.flush()
        try:
            p = subprocess.Popen(
                cmd,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env=env,
                text=True,
                errors="replace",
            )
        except OSError as e:
            raise Uf2Error("cannot run %s: %s: %s" % (cmd[0], e, APT))
        for line in p.stdout:
            lf.write(line)
            m = re.match(r"\[\s*(\d+)%\]", line)
            if label and m and int(m.group(1)) >= shown + 25:
                shown = int(m.group(1)) // 25 * 25
                log("  %s: %d%% (%d s)" % (label, shown, time.monotonic() - t0))
        rc = p.wait()
    if rc != 0:
        with open(logfile, errors="replace") as f:
            tail = f.read().splitlines()[-40:]
        raise Uf2Error(
            "%s failed (exit %d); the whole output is in %s"
            % (
                " ".join(cmd[:3]),
                rc,
                os.path.relpath(logfile, ROOT) if logfile.startswith(ROOT) else logfile,
            ),
            tail,
        )


def image_path(board, stock=False, out=None, sram=False):
    """The stable name of a board's image: build/uf2/dicetray-rpi_pico.uf2, or
    for the stock image build/uf2/micropython-v1.27.0-rpi_pico.uf2 (with
    sram: -sram.uf2, rp2/sram.txt's files in SRAM, as the release image)."""
    out = out or OUT
    if stock:
        return os.path.join(
            out, "micropython-%s-%s%s.uf2" % (MP_VERSION, board.lower(), "-sram" if sram else "")
        )
    return os.path.join(out, "dicetray-%s.uf2" % board.lower())


def build(board="RPI_PICO", stock=False, out=None, work=None, jobs=None, log=print, sram=None):
    """Build one image; returns the path of its .uf2 (the versioned name for a
    release image; the stable copy is image_path(board)). sram: link
    rp2/sram.txt's files into SRAM (default: the release image does, the
    stock image is MicroPython's as released). One build at a
    time per work folder (a lock file in it): two test runs, or a test run
    and `make uf2`, would otherwise write the same build tree at once."""
    import fcntl

    work = os.path.abspath(work or WORK)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(board, stock, out, work, jobs, log, (not stock) if sram is None else sram)


def _build(board, stock, out, work, jobs, log, sram):
    if board not in BOARDS:
        raise Uf2Error("unknown board %r: use one of %s" % (board, ", ".join(BOARDS)))
    spec = BOARDS[board]
    out = os.path.abspath(out or OUT)
    jobs = jobs or os.cpu_count() or 1
    t0 = time.monotonic()
    check_tools()
    src = prepare_source(log)
    tree = src["tree"]
    os.makedirs(work, exist_ok=True)
    mpy_cross = ensure_mpy_cross(src, work, jobs, log)

    name = board + ("-stock" if stock else "") + ("-sram" if stock and sram else "")
    bdir = os.path.join(work, name)
    extra = dict(_version_env(), MICROPY_MPYCROSS=mpy_cross)
    cmake_args = CMAKE_ARGS
    cmd = [
        "make",
        "-C",
        os.path.join(tree, "ports", "rp2"),
        "-j",
        str(jobs),
        "BOARD=" + board,
        "BUILD=" + bdir,
    ]
    modules = []
    inputs = read_inputs(stock, sram)
    ihash = input_hash(stock, inputs)
    ld = None
    if sram:
        ld = sram_linker_script(tree, board, inputs["rp2/sram.txt"], bdir + "-memmap.ld")
        if ld:
            cmake_args += " -DMICROPY_BOARD_LINKER_SCRIPT=" + ld
    extra["CMAKE_ARGS"] = cmake_args
    if not stock:
        freeze_dir = os.path.join(work, "freeze")
        modules = stage(freeze_dir, inputs)
        log(
            "[stage] %d modules into %s (firmware/main.py as %s.py, rp2/main.py as main.py)"
            % (
                len(modules),
                os.path.relpath(freeze_dir, ROOT) if freeze_dir.startswith(ROOT) else freeze_dir,
                MAIN_MODULE,
            )
        )
        extra["DICETRAY_FREEZE_DIR"] = freeze_dir
        cmd.append("FROZEN_MANIFEST=" + MANIFEST)

    # A build folder configured for other sources or settings is started
    # afresh: the port's Makefile runs cmake only when the folder is new,
    # and re-unpacked sources keep their archive dates (older than the objects).
    config = {
        "tree": tree,
        "source": src["stamp"],
        "board": board,
        "stock": stock,
        "mpy_cross": mpy_cross,
        "cmd": cmd[3:],
        "cmake_args": cmake_args,
    }
    config_path = os.path.join(bdir, "dicetray-config.json")
    if os.path.isdir(bdir) and _read_json(config_path) != config:
        shutil.rmtree(bdir)
    os.makedirs(bdir, exist_ok=True)
    _write_json(config_path, config)
    for stale in ("frozen_content.c", "firmware.bin"):
        if os.path.exists(os.path.join(bdir, stale)):
            os.remove(os.path.join(bdir, stale))

    log(
        "[build] %s%s: CMAKE_ARGS=%s make -C ports/rp2 BOARD=%s -j%d (log: %s)"
        % (
            board,
            " stock" if stock else "",
            cmake_args.replace(work + os.sep, ""),
            board,
            jobs,
            os.path.relpath(bdir + ".log", ROOT) if bdir.startswith(ROOT) else bdir + ".log",
        )
    )
    tb = time.monotonic()
    _run(cmd, bdir + ".log", _build_env(extra), log, board)
    build_s = time.monotonic() - tb
    binp = os.path.join(bdir, "firmware.bin")
    if not os.path.isfile(binp):
        raise Uf2Error("the build finished without %s" % binp)
    with open(binp, "rb") as f:
        data = f.read()
    if (" with %s" % spec["chip"]).encode() not in data:  # the banner's "... with RP2040"
        raise Uf2Error(
            "%s: firmware.bin is not an %s image (see %s.log)" % (board, spec["chip"], bdir)
        )
    if len(data) > spec["code_limit"]:
        raise Uf2Error(
            "%s: the code is %d bytes, above the filesystem at 0x%x: it would be "
            "overwritten by, and overwrite, the campaign" % (board, len(data), spec["code_limit"])
        )
    uf2 = bin_to_uf2(
        data, spec["family"], FLASH_BASE, ABS_BLOCK_ADDR if spec["abs_block"] else None
    )

    if stock:
        fname = os.path.basename(image_path(board, True, sram=sram))
    else:
        fname = "dicetray-%s-%s-%s.uf2" % (version(), board.lower(), ihash[:12])
    side = {
        "image": fname,
        "product": "micropython" if stock else "dicetray",
        "version": MP_VERSION if stock else version(),
        "stock": stock,
        "board": board,
        "chip": spec["chip"],
        "uf2_family_id": "0x%08x" % spec["family"],
        "rp2350_e10_abs_block": "0x%08x" % ABS_BLOCK_ADDR if spec["abs_block"] else None,
        "micropython": {
            "tag": MP_VERSION,
            "commit": PINS["micropython"]["commit"],
            "url": PINS["micropython"]["url"],
        },
        "submodules": {
            p: {"commit": pin["commit"], "url": pin["url"]}
            for p, pin in sorted(PINS["submodules"].items())
        },
        "source": src["kind"],
        "toolchain": toolchain(),
        "source_date_epoch": SOURCE_DATE_EPOCH,
        "build_command": "CMAKE_ARGS=%s make -C ports/rp2 BOARD=%s%s"
        % (
            cmake_args.replace(work + os.sep, ""),
            board,
            "" if stock else " FROZEN_MANIFEST=rp2/manifest.py",
        ),
        "sram": ["ports/rp2/" + n for n in _sram_names(inputs)] if ld else [],
        "input_sha256": ihash,
        "inputs": sorted(inputs),
        "frozen": modules,
        "uf2": {
            "sha256": hashlib.sha256(uf2).hexdigest(),
            "size": len(uf2),
            "blocks": len(uf2) // UF2_BLOCK,
        },
        "bin": {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)},
        "code_size": len(data),
        "code_limit": spec["code_limit"],
        "gc_heap": gc_heap(os.path.join(bdir, "firmware.elf")),
    }
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, fname)
    _write_bytes(path, uf2)
    _write_json(path[:-4] + ".json", side)
    if not stock:
        stable = image_path(board, False, out)
        _write_bytes(stable, uf2)
        _write_json(stable[:-4] + ".json", side)
    log(
        "[done] %s: %s, %d KB (code %d KB of %d KB below the filesystem), sha256 %s; "
        "build %d s, total %d s"
        % (
            board,
            os.path.relpath(path, ROOT) if path.startswith(ROOT) else path,
            len(uf2) // 1024,
            len(data) // 1024,
            spec["code_limit"] // 1024,
            side["uf2"]["sha256"][:16],
            build_s,
            time.monotonic() - t0,
        )
    )
    return path


def gc_heap(elf):
    """{"start", "end"} of the heap the port hands MicroPython's collector
    (the linker's __GcHeapStart and __GcHeapEnd in the build's ELF), or
    None if nm or the symbols are missing: the emulator's heap probe
    reads the collector's table from there (docs/emulator.md)."""
    try:
        out = subprocess.run(
            ["arm-none-eabi-nm", elf], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    sym = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in ("__GcHeapStart", "__GcHeapEnd"):
            sym[parts[2]] = int(parts[0], 16)
    if len(sym) != 2:
        return None
    return {"start": sym["__GcHeapStart"], "end": sym["__GcHeapEnd"]}


def _write_bytes(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python tools/uf2.py",
        description="Build the Dicetray release UF2 (MicroPython %s rp2 with firmware/ frozen in)."
        % MP_VERSION,
    )
    ap.add_argument(
        "--board",
        default="all",
        choices=sorted(BOARDS) + ["all"],
        help="which board (default: all)",
    )
    ap.add_argument(
        "--stock", action="store_true", help="plain MicroPython, nothing of Dicetray frozen in"
    )
    ap.add_argument(
        "--sram",
        action="store_true",
        help="with --stock: rp2/sram.txt's files linked into SRAM, as in the release image",
    )
    ap.add_argument("--out", default=None, help="output folder (default build/uf2)")
    ap.add_argument("--jobs", type=int, default=None, help="make -j (default: the CPU count)")
    ap.add_argument("--work", default=None, help="build folder (default build/rp2)")
    a = ap.parse_args(argv)
    boards = sorted(BOARDS) if a.board == "all" else [a.board]
    try:
        for b in boards:
            build(b, stock=a.stock, out=a.out, work=a.work, jobs=a.jobs, sram=a.sram or None)
    except Uf2Error as e:
        if e.tail:
            print("---- last %d lines of the build output ----" % len(e.tail), file=sys.stderr)
            print("\n".join(e.tail), file=sys.stderr)
            print("----", file=sys.stderr)
        print("uf2: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("uf2: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
