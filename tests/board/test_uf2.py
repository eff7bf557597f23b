"""The release image (tools/uf2.py, docs/image.md).

Fast (CPython only): the UF2 converter against the format as the spec
(github.com/microsoft/uf2) and picotool write it, the input hash against
its documented recipe, the checks of the vendored sources and tools, the
clone path against local git repositories, the freeze manifest and the
boot launcher.

Slow (the arm toolchain; about a minute a build on 2 cores): the frozen
RPI_PICO image built in two different build folders is byte-identical, its
sidecar names the pins and the input hash, its code fits below the
filesystem, and every firmware module is frozen in it.
"""
import hashlib
import json
import os
import struct
import subprocess
import sys
import types

import pytest

import boards
import need
from tools import uf2

BLOCK = 512


def blocks(data):
    """Every block's header fields, payload and data area, parsed here (not by tools/uf2.py)."""
    assert len(data) % BLOCK == 0
    out = []
    for off in range(0, len(data), BLOCK):
        b = data[off:off + BLOCK]
        m0, m1, flags, addr, size, no, total, fam = struct.unpack("<8I", b[:32])
        (end,) = struct.unpack("<I", b[508:])
        out.append(dict(m0=m0, m1=m1, end=end, flags=flags, addr=addr, size=size, no=no,
                        total=total, family=fam, payload=b[32:32 + size], area=b[32:508]))
    return out


# --- the converter ---------------------------------------------------------------------
def test_block_count_magic_numbers_and_family():
    data = bytes(range(256)) * 3 + b"\x01" * 232  # 1000 bytes: 4 blocks, the last part-filled
    u = uf2.bin_to_uf2(data, 0xE48BFF56)
    bs = blocks(u)
    assert len(u) == 4 * BLOCK and len(bs) == 4
    for i, b in enumerate(bs):
        assert (b["m0"], b["m1"], b["end"]) == (0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert b["flags"] == 0x2000  # family id present, nothing else
        assert b["family"] == 0xE48BFF56
        assert b["size"] == 256
        assert (b["no"], b["total"]) == (i, 4)
    assert u[:4] == b"UF2\n"


def test_addresses_contiguous_from_the_base():
    data = os.urandom(256 * 7 + 5)
    for base in (0x10000000, 0x10001000):
        bs = blocks(uf2.bin_to_uf2(data, 0xE48BFF56, base))
        assert [b["addr"] for b in bs] == [base + 256 * i for i in range(8)]
    with pytest.raises(ValueError):
        uf2.bin_to_uf2(data, 0xE48BFF56, 0x10000010)


def test_payload_round_trip_to_the_bin():
    data = os.urandom(256 * 9 + 77)
    u = uf2.bin_to_uf2(data, 0xE48BFF56)
    joined = b"".join(b["payload"] for b in blocks(u))
    assert joined[:len(data)] == data
    base, img = uf2.uf2_to_bin(u)
    assert base == 0x10000000 and img[:len(data)] == data and len(img) == 256 * 10


def test_last_block_padding_and_unused_data_area_are_zero():
    data = b"\xff" * (256 + 10)
    bs = blocks(uf2.bin_to_uf2(data, 0xE48BFF56))
    assert bs[-1]["payload"] == b"\xff" * 10 + b"\0" * 246
    for b in bs:
        assert b["area"][256:] == b"\0" * 220  # the spec: data padded with zeros
    # a whole number of pages: no extra block
    assert len(blocks(uf2.bin_to_uf2(b"\xaa" * 512, 0xE48BFF56))) == 2


def test_rp2350_image_starts_with_the_e10_absolute_block():
    data = os.urandom(256 * 3)
    bs = blocks(uf2.bin_to_uf2(data, 0xE48BFF59, abs_block=uf2.ABS_BLOCK_ADDR))
    a = bs[0]
    assert a["family"] == 0xE48BFF57 and a["addr"] == 0x10FFFF00
    assert a["flags"] == 0x2000 | 0x8000  # family id + extension tags
    assert (a["no"], a["total"], a["size"]) == (0, 2, 256)
    assert a["payload"] == b"\xef" * 256
    assert struct.unpack("<I", a["area"][256:260])[0] == 0x9957E304  # RP2_IGNORE_BLOCK
    rest = bs[1:]
    assert [(b["no"], b["total"], b["family"]) for b in rest] == [(i, 3, 0xE48BFF59) for i in range(3)]
    assert uf2.uf2_to_bin(uf2.bin_to_uf2(data, 0xE48BFF59, abs_block=0x10FFFF00))[1] == data
    assert uf2.BOARDS["RPI_PICO2"]["abs_block"] and not uf2.BOARDS["RPI_PICO"]["abs_block"]
    assert uf2.BOARDS["RPI_PICO2"]["family"] == 0xE48BFF59
    assert uf2.BOARDS["RPI_PICO"]["family"] == 0xE48BFF56


def test_malformed_uf2_is_refused():
    u = bytearray(uf2.bin_to_uf2(b"\0" * 300, 0xE48BFF56))
    with pytest.raises(ValueError):
        uf2.uf2_blocks(bytes(u[:-1]))
    u[508] ^= 1
    with pytest.raises(ValueError, match="magic"):
        uf2.uf2_blocks(bytes(u))


# --- inputs, sources, tools ----------------------------------------------------------
def test_input_hash_follows_its_documented_recipe():
    h = hashlib.sha256()
    paths = ["rp2/i2cstage.py", "rp2/main.py", "rp2/manifest.py", "rp2/pins.json", "rp2/sram.txt"]
    for base, dirs, files in os.walk(os.path.join(uf2.ROOT, "firmware")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        paths += [os.path.relpath(os.path.join(base, f), uf2.ROOT).replace(os.sep, "/")
                  for f in files if f.endswith(".py")]
    for rel in sorted(paths):
        with open(os.path.join(uf2.ROOT, rel), "rb") as f:
            data = f.read()
        h.update(rel.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    assert uf2.input_hash() == h.hexdigest()
    assert "firmware/hw/board.py" in uf2.input_files()  # all of firmware/
    assert not any(p.startswith("simboard/") for p in uf2.input_files())
    assert sorted(uf2.input_files(stock=True)) == ["rp2/pins.json"]
    assert sorted(uf2.input_files(stock=True, sram=True)) == ["rp2/pins.json", "rp2/sram.txt"]


def test_pins_live_in_one_place():
    pins = uf2.PINS
    assert pins["micropython"]["tag"] == "v1.27.0"
    assert pins["micropython"]["commit"] == "78ff170de9e32c79db6e64d3e33d2bd60002bdcd"
    assert {p: v["commit"] for p, v in pins["submodules"].items()} == {
        "lib/pico-sdk": "9a4113fbbae65ee82d8cd6537963bc3d3b14bcca",
        "lib/tinyusb": "aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf",
        "lib/mbedtls": "107ea89daaefb9867ea9121002fbbdf926780e98",
        "lib/micropython-lib": "6ae440a8a144233e6e703f6759b7e7a0afaa37a4",
    }
    assert uf2.SOURCE_DATE_EPOCH == pins["source_date_epoch"] == 1765291456  # 2025-12-09


def _fake_vendor(d):
    sums = []
    for _p, pin in uf2._pin_items():
        data = ("fake " + pin["tarball"]).encode()
        (d / pin["tarball"]).write_bytes(data)
        sums.append("%s  %s" % (hashlib.sha256(data).hexdigest(), pin["tarball"]))
    (d / "SHA256SUMS").write_text("\n".join(sums) + "\n")


def test_vendored_tarball_mismatch_names_the_file(tmp_path):
    _fake_vendor(tmp_path)
    assert len(uf2.check_vendor(str(tmp_path))) == 5
    (tmp_path / "tinyusb-aa0fc2e0.tar.gz").write_bytes(b"changed")
    with pytest.raises(uf2.Uf2Error, match="tinyusb-aa0fc2e0.tar.gz"):
        uf2.check_vendor(str(tmp_path))
    (tmp_path / "tinyusb-aa0fc2e0.tar.gz").unlink()
    with pytest.raises(uf2.Uf2Error, match="tinyusb-aa0fc2e0.tar.gz is missing"):
        uf2.check_vendor(str(tmp_path))


def _git(*args, cwd):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
                          + list(args), cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def test_clone_path_against_local_repositories(tmp_path, monkeypatch):
    """The `git clone` path (GitHub is out of reach here): local repositories
    stand in, each pin an older commit than the tip, as upstream's are."""
    if not uf2.shutil.which("git"):
        pytest.skip("git not found")
    pins = json.loads(json.dumps(uf2.PINS))
    for path, pin in pins["submodules"].items():
        d = tmp_path / ("remote-" + path.replace("/", "-"))
        d.mkdir()
        _git("init", "-q", cwd=d)
        for f in ("README.md", "README.rst"):
            (d / f).write_text(path)
        _git("add", ".", cwd=d)
        _git("commit", "-q", "-m", "pinned", cwd=d)
        _git("commit", "-q", "--allow-empty", "-m", "later", cwd=d)
        pin.update(url=d.as_uri(), commit=_git("rev-parse", "HEAD~1", cwd=d))
    mp = tmp_path / "remote-micropython"
    for f in ("py/mpconfig.h", "ports/rp2/Makefile", "mpy-cross/Makefile"):
        (mp / f).parent.mkdir(parents=True, exist_ok=True)
        (mp / f).write_text("#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR 27\n"
                            "#define MICROPY_VERSION_MICRO 0\n")
    _git("init", "-q", cwd=mp)
    _git("add", ".", cwd=mp)
    for path, pin in pins["submodules"].items():  # gitlinks, as the real submodules are
        _git("update-index", "--add", "--cacheinfo", "160000,%s,%s" % (pin["commit"], path), cwd=mp)
    _git("commit", "-q", "-m", "release", cwd=mp)
    _git("commit", "-q", "--allow-empty", "-m", "later", cwd=mp)
    pins["micropython"].update(url=mp.as_uri(), commit=_git("rev-parse", "HEAD~1", cwd=mp))
    monkeypatch.setattr(uf2, "PINS", pins)
    monkeypatch.setattr(uf2, "MP_SRC", str(tmp_path / "mp-src"))
    os.makedirs(uf2.MP_SRC)
    tree = os.path.join(uf2.MP_SRC, "tree")
    uf2._clone(tree, lambda *a: None)
    assert uf2._tree_ok(tree)
    assert _git("rev-parse", "HEAD", cwd=tree) == pins["micropython"]["commit"]
    for path, pin in pins["submodules"].items():
        assert _git("rev-parse", "HEAD", cwd=os.path.join(tree, path)) == pin["commit"]
    assert uf2._external(tree, lambda *a: None)["kind"] == "MICROPYTHON_SRC"  # verified by git
    pins["submodules"]["lib/tinyusb"]["commit"] = "0" * 40  # a pin the release does not record
    with pytest.raises(uf2.Uf2Error, match="records lib/tinyusb at"):
        uf2._clone(tree + "-2", lambda *a: None)
    with pytest.raises(uf2.Uf2Error, match="lib/tinyusb is at"):
        uf2._external(tree, lambda *a: None)


def test_missing_tool_is_one_line_with_the_apt_get_line(monkeypatch):
    real = uf2.shutil.which
    monkeypatch.setattr(uf2.shutil, "which", lambda t: None if t == "cmake" else real(t))
    with pytest.raises(uf2.Uf2Error) as e:
        uf2.check_tools(("cmake",))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("cmake not found")
    assert ("apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi "
            "libstdc++-arm-none-eabi-newlib cmake build-essential") in msg


def test_stage_renames_main_and_adds_the_launcher_and_the_staging(tmp_path):
    mods = uf2.stage(str(tmp_path / "freeze"))
    fw = uf2.firmware_files()
    assert len(mods) == len(fw) + 2
    assert "dtmain.py" in mods and "main.py" in mods and "hw/board.py" in mods
    with open(uf2.LAUNCHER, "rb") as f:
        assert (tmp_path / "freeze" / "main.py").read_bytes() == f.read()
    with open(uf2.STAGING, "rb") as f:  # hw/i2cdma.py's machine code, at the root
        assert (tmp_path / "freeze" / "i2cstage.py").read_bytes() == f.read()
    with open(os.path.join(uf2.FIRMWARE, "main.py"), "rb") as f:
        assert (tmp_path / "freeze" / "dtmain.py").read_bytes() == f.read()


def test_the_image_freezes_only_what_goes_on_the_board(tmp_path):
    """firmware/ is what goes on the board: the simulators' boards
    (simboard/: desktop, its REPL, the web page's) and the host's tables
    (host/dicetray/catalog/: the events declared, their key paths) are not
    in the frozen set, and no frozen module imports the desktop simulator's
    `host` module or a simulator's board, but hw/board.py at a call (to
    find out whether it runs in the simulator, and only there)."""
    import ast
    mods = uf2.stage(str(tmp_path / "freeze"))
    for gone in ("hw/simboard.py", "hw/simrepl.py", "hw/webboard.py", "rules/events.py",
                 "ui/keypaths.py"):
        assert gone not in mods
    assert not [m for m in mods if m.split("/")[0] in ("simboard", "catalog")]
    bad = []
    for m in mods:
        tree = ast.parse((tmp_path / "freeze" / m).read_text(), m)
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for n in names:
                root = n.split(".")[0]
                if root in ("host", "simboard") and (id(node) in top or m != "hw/board.py"):
                    bad.append("%s:%d imports %s" % (m, node.lineno, n))
    assert not bad, bad


def test_failed_build_reports_the_last_40_lines(tmp_path, capsys, monkeypatch):
    log = str(tmp_path / "b.log")
    with pytest.raises(uf2.Uf2Error) as e:
        uf2._run([sys.executable, "-c", "[print('line', i) for i in range(100)]; raise SystemExit(3)"],
                 log, dict(os.environ), lambda *a: None, "X")
    assert "exit 3" in str(e.value) and len(e.value.tail) == 40
    assert e.value.tail[0] == "line 60" and e.value.tail[-1] == "line 99"

    def failing(*a, **k):
        raise e.value
    monkeypatch.setattr(uf2, "build", failing)
    assert uf2.main(["--board", "RPI_PICO"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert "line 60" in err and "line 99" in err and err[-1].startswith("uf2: ")


def _run_manifest(env_value, monkeypatch):
    calls = []
    if env_value is None:
        monkeypatch.delenv("DICETRAY_FREEZE_DIR", raising=False)
    else:
        monkeypatch.setenv("DICETRAY_FREEZE_DIR", env_value)
    g = {"include": lambda p: calls.append(("include", p)),
         "freeze": lambda p: calls.append(("freeze", p))}
    with open(uf2.MANIFEST) as f:
        exec(compile(f.read(), uf2.MANIFEST, "exec"), g)
    return calls


def test_manifest_freezes_the_staged_folder_and_keeps_the_ports_own(tmp_path, monkeypatch):
    uf2.stage(str(tmp_path))
    calls = _run_manifest(str(tmp_path), monkeypatch)
    assert calls == [("include", "$(PORT_DIR)/boards/manifest.py"), ("freeze", str(tmp_path))]


def test_manifest_without_the_staging_variable_says_what_to_do(tmp_path, monkeypatch):
    with pytest.raises(Exception, match="DICETRAY_FREEZE_DIR is not set.*tools/uf2.py"):
        _run_manifest(None, monkeypatch)
    with pytest.raises(Exception, match="not a staged firmware"):
        _run_manifest(str(tmp_path), monkeypatch)  # an empty folder


def _launch(monkeypatch, tmp_path, flash_main):
    """Run rp2/main.py on CPython with /main.py faked: its source, or None for none."""
    ran = types.SimpleNamespace(dtmain=0)
    monkeypatch.setitem(sys.modules, "_uf2_probe", ran)
    (tmp_path / "dtmain.py").write_text("import _uf2_probe\n_uf2_probe.dtmain += 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "dtmain", raising=False)
    real_stat = os.stat

    def stat(p, *a, **k):
        if p == "/main.py":
            if flash_main is None:
                raise OSError(2, "ENOENT")
            return real_stat(__file__)
        return real_stat(p, *a, **k)

    def fake_open(p, *a, **k):
        assert p == "/main.py"
        import io
        return io.StringIO(flash_main)

    monkeypatch.setattr(os, "stat", stat)
    g = {"__name__": "__main__", "open": fake_open}
    with open(uf2.LAUNCHER) as f:
        exec(compile(f.read(), "main.py", "exec"), g)
    return ran, g


def test_launcher_runs_the_frozen_firmware_on_a_fresh_flash(monkeypatch, tmp_path):
    ran, _g = _launch(monkeypatch, tmp_path, None)
    assert ran.dtmain == 1


def test_launcher_runs_a_main_py_on_the_flash_instead(monkeypatch, tmp_path):
    ran, g = _launch(monkeypatch, tmp_path, "deployed = __name__\n")
    assert ran.dtmain == 0 and g["deployed"] == "__main__"


def test_image_paths():
    assert uf2.image_path("RPI_PICO").endswith(os.path.join("build", "uf2", "dicetray-rpi_pico.uf2"))
    assert uf2.image_path("RPI_PICO2", stock=True).endswith("micropython-v1.27.0-rpi_pico2.uf2")


# --- the real build (slow) -----------------------------------------------------------
@pytest.fixture(scope="module")
def twice(tmp_path_factory):
    """The frozen RPI_PICO image built in build/rp2 (as `make uf2` does, so an
    up-to-date build folder is reused) and afresh in a temporary folder."""
    need.require("arm-none-eabi-gcc", "cmake")
    quiet = lambda *a: None  # noqa: E731
    a = uf2.build("RPI_PICO", out=str(tmp_path_factory.mktemp("out-a")), log=quiet)
    b = uf2.build("RPI_PICO", out=str(tmp_path_factory.mktemp("out-b")),
                  work=str(tmp_path_factory.mktemp("work-b")), log=quiet)
    with open(a[:-4] + ".json") as f:
        side = json.load(f)
    return a, b, side


def _read(p):
    with open(p, "rb") as f:
        return f.read()


def test_two_build_folders_give_the_same_image(twice):
    a, b, _side = twice
    with open(b[:-4] + ".json") as f:
        side_b = json.load(f)
    assert _side["input_sha256"] == side_b["input_sha256"], "firmware/ changed between the builds"
    assert os.path.basename(a) == os.path.basename(b)
    assert hashlib.sha256(_read(a)).hexdigest() == hashlib.sha256(_read(b)).hexdigest()
    assert _read(a[:-4] + ".json") == _read(b[:-4] + ".json")  # the sidecar too


def test_sidecar_names_the_pins_and_the_hash(twice):
    a, _b, side = twice
    u = _read(a)
    assert side["board"] == "RPI_PICO" and side["chip"] == "RP2040" and not side["stock"]
    assert side["micropython"]["commit"] == uf2.PINS["micropython"]["commit"]
    assert side["micropython"]["tag"] == "v1.27.0"
    assert {p: v["commit"] for p, v in side["submodules"].items()} == \
        {p: v["commit"] for p, v in uf2.PINS["submodules"].items()}
    assert side["source_date_epoch"] == uf2.SOURCE_DATE_EPOCH
    assert side["input_sha256"] == uf2.input_hash(), "firmware/ changed since the build"
    assert os.path.basename(a) == "dicetray-%s-rpi_pico-%s.uf2" % (uf2.version(),
                                                                    side["input_sha256"][:12])
    assert side["uf2"] == {"sha256": hashlib.sha256(u).hexdigest(), "size": len(u),
                           "blocks": len(u) // 512}
    assert side["toolchain"]["arm-none-eabi-gcc"].startswith("arm-none-eabi-gcc")
    assert _read(uf2.image_path("RPI_PICO", out=os.path.dirname(a))) == u  # the stable copy
    assert side["sram"] == ["ports/rp2/" + n for n in uf2._sram_names(uf2.read_inputs())]
    assert side["sram"][:3] == ["ports/rp2/vm.c", "ports/rp2/gc.c", "ports/rp2/parse.c"]


def test_the_interpreter_the_collector_and_the_parser_run_from_sram(twice):
    # rp2/sram.txt: v1.27.0's linker script asks for them in SRAM but never
    # matches their objects' names, so the stock image runs them from flash.
    _a, _b, _side = twice
    addr = {}
    for name in ("RPI_PICO", "RPI_PICO-stock"):
        elf = os.path.join(uf2.WORK, name, "firmware.elf")
        if not os.path.isfile(elf):
            boards.image(stock=name.endswith("stock"))
        out = subprocess.run(["arm-none-eabi-nm", elf], capture_output=True, text=True,
                             check=True).stdout
        addr[name] = {ln.split()[2]: int(ln.split()[0], 16) for ln in out.splitlines()
                      if len(ln.split()) == 3}
    for sym in ("mp_execute_bytecode", "gc_alloc", "mp_parse", "mp_map_lookup", "mp_call_function_n_kw"):
        assert addr["RPI_PICO"][sym] >> 28 == 0x2, sym          # SRAM
        assert addr["RPI_PICO-stock"][sym] >> 28 == 0x1, sym    # XIP flash
    assert addr["RPI_PICO"]["mp_obj_str_binary_op"] >> 28 == 0x1   # the rest stays in flash


def test_code_fits_below_the_filesystem(twice):
    a, _b, side = twice
    base, img = uf2.uf2_to_bin(_read(a))
    assert base == 0x10000000
    assert side["code_size"] == side["bin"]["size"] <= len(img) < side["code_size"] + 256
    assert side["code_size"] < 0xA0000  # the littlefs of the stock 2 MB layout starts there


def test_every_firmware_module_is_frozen_in(twice):
    a, _b, side = twice
    _base, img = uf2.uf2_to_bin(_read(a))
    expected = sorted(("dtmain.py" if r == "main.py" else r) for r in uf2.firmware_files())
    assert sorted(m for m in side["frozen"] if m not in ("main.py", "i2cstage.py")) == expected
    for name in expected + ["main.py", "i2cstage.py", "neopixel.py", "_boot.py"]:
        assert name.encode() + b"\0" in img, name  # mp_frozen_names: "hw/board.py\0..."
    assert b"MicroPython v1.27.0 on 2025-12-09" in img  # the pinned SOURCE_DATE_EPOCH
    assert b"Raspberry Pi Pico with RP2040" in img


def test_same_uf2_as_micropythons_own_converter(twice, tmp_path):
    """tools/uf2conv.py of the MicroPython tree turns the .bin into the same bytes."""
    a, _b, side = twice
    tree = uf2.prepare_source(log=lambda *x: None)["tree"]
    _base, img = uf2.uf2_to_bin(_read(a))
    binp = tmp_path / "firmware.bin"
    binp.write_bytes(img[:side["code_size"]])
    out = tmp_path / "theirs.uf2"
    subprocess.run([sys.executable, os.path.join(tree, "tools", "uf2conv.py"), "-c",
                    "-b", "0x10000000", "-f", "0xe48bff56", "-o", str(out), str(binp)],
                   check=True, capture_output=True, cwd=str(tmp_path))
    assert out.read_bytes() == _read(a)


def test_missing_sources_are_named_in_the_first_line(tmp_path, capsys, monkeypatch):
    """With no vendored tarballs and no MICROPYTHON_SRC,
    the build's first line names ../shared/vendor and the clone it does
    instead; the clone failing (no network) says both again, in one line."""
    if not uf2.shutil.which("git"):
        pytest.skip("git not found")
    monkeypatch.delenv("MICROPYTHON_SRC", raising=False)
    monkeypatch.setattr(uf2, "vendor_dir", lambda: None)
    monkeypatch.setattr(uf2, "check_tools", lambda *a: None)
    monkeypatch.setattr(uf2, "MP_SRC", str(tmp_path / "mp-src"))
    pins = json.loads(json.dumps(uf2.PINS))
    pins["micropython"]["url"] = (tmp_path / "unreachable").as_uri()   # no network, at once
    monkeypatch.setattr(uf2, "PINS", pins)
    assert uf2.main(["--board", "RPI_PICO", "--work", str(tmp_path / "w"),
                     "--out", str(tmp_path / "o")]) == 1
    out, err = capsys.readouterr()
    first = out.splitlines()[0]
    assert "../shared/vendor" in first and "cloning micropython v1.27.0" in first, first
    assert "with git" in first and "unreachable" in first, first
    last = err.strip().splitlines()
    assert len(last) == 1 and last[0].startswith("uf2: no MicroPython sources: "), err
    assert "../shared/vendor" in last[0] and "the clone failed" in last[0], err
