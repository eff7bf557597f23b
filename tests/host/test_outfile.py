"""Files the user names: `export -o`, `stats --plot` and
screenshots are written through dicetray.base.outfile: a temporary file with a
unique name beside the real target, renamed over it; the target's mode
kept; a symlink followed, not replaced; anything that is not a regular file
(a FIFO, a device, the tool's own stdout) written as it is. On main, `-o
PATH` wrote PATH.tmp and renamed it over PATH: the symlink became a file,
a 0600 file came out 0644, an existing PATH.tmp was consumed, a FIFO was
replaced by a file (as root, so was /dev/stdout). The devices are the real
firmware (RamTrays: tests/host/ramtray.py); every file is in tmp_path (no
test here writes to /dev: on main's code that would replace the node)."""

import os
import stat
import subprocess
import sys
import threading

import pytest

from ramtray import RamTray, play, serve

from dicetray.backup import BackupStore

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def trays(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    return serve({"dev": play(RamTray(system=0, cid=4242), 30)})


def export(trays, capsys, path, fmt="csv"):
    code = trays.main(["export", "--format", fmt, "-o", str(path)])
    out = capsys.readouterr()
    assert out.out == "", out.out
    return code, out.err


def the_export(trays, capsys, fmt="csv"):
    assert trays.main(["export", "--format", fmt]) == 0
    return capsys.readouterr().out


def test_a_symlink_is_followed_and_stays_a_symlink(trays, capsys, tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    assert export(trays, capsys, link) == (0, "")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == the_export(trays, capsys)
    dangling = tmp_path / "to-be.csv"
    (tmp_path / "dangling.csv").symlink_to(dangling)     # a link to a file not made yet
    assert export(trays, capsys, tmp_path / "dangling.csv") == (0, "")
    assert (tmp_path / "dangling.csv").is_symlink() and dangling.read_text().startswith("event,")


def test_the_mode_is_kept_and_a_new_file_gets_the_umask(trays, capsys, tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("old\n")
    os.chmod(secret, 0o600)
    assert export(trays, capsys, secret) == (0, "")
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    assert secret.read_text() == the_export(trays, capsys)
    old = os.umask(0o027)
    try:
        assert export(trays, capsys, tmp_path / "new.csv") == (0, "")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.csv").st_mode) == 0o640


def test_an_existing_tmp_file_beside_it_survives_and_nothing_is_left(trays, capsys, tmp_path):
    out = tmp_path / "x.csv"
    mine = tmp_path / "x.csv.tmp"
    mine.write_text("the user's own file\n")
    assert export(trays, capsys, out) == (0, "")
    assert mine.read_text() == "the user's own file\n"
    assert sorted(os.listdir(tmp_path)) == ["x.csv", "x.csv.tmp"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    from dicetray.base import outfile
    path = tmp_path / "keep.csv"
    path.write_text("old\n")
    with pytest.raises(RuntimeError):
        with outfile.replacing(str(path), "w") as f:
            f.write("half")
            raise RuntimeError("the disk filled")
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["keep.csv"]


def test_a_fifo_is_written_into_not_replaced(trays, capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
    reader.start()
    try:
        assert export(trays, capsys, fifo) == (0, "")
    finally:
        if reader.is_alive():  # nothing opened it to write: let the reader go
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    reader.join(30)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got == [the_export(trays, capsys)]


def test_a_character_device_is_written_into():
    """/dev/null through the helper alone (on main's code `-o /dev/null`, as
    root, would replace the machine's /dev/null: not run that way here)."""
    from dicetray.base import outfile
    before = os.stat("/dev/null")
    outfile.write("/dev/null", b"nothing")
    with outfile.replacing("/dev/null", "w") as f:
        f.write("nothing")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_its_own_stdout_named_by_path_is_appended_to(tmp_path, monkeypatch):
    """`-o /proc/self/fd/1` (as /dev/stdout is) with stdout redirected to a
    file: written into that file, after what was there, not replacing it.
    On main: /proc/self/fd/1.tmp could not be made (as root: /dev/stdout
    was replaced)."""
    home = tmp_path / "home"
    monkeypatch.setenv("DICETRAY_HOME", str(home))
    tray = play(RamTray(system=1, cid=77), 12)
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    st.take(tray.device())
    st.close()
    log = tmp_path / "log.txt"
    log.write_text("earlier lines\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"))
    with open(log, "a") as f:
        r = subprocess.run(
            [sys.executable, "-m", "dicetray", "export", "--format", "json", "--backup", "1",
             "--db", str(tmp_path / "b.sqlite3"), "-o", "/proc/self/fd/1"],
            stdout=f, stderr=subprocess.PIPE, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    text = log.read_text()
    assert text.startswith("earlier lines\n{") and '"campaign": 77' in text


def test_stats_plot_and_a_screenshot_keep_a_symlink_and_the_mode(trays, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    real = tmp_path / "real.png"
    real.write_bytes(b"old")
    os.chmod(real, 0o600)
    link = tmp_path / "plot.png"
    link.symlink_to(real)
    assert trays.main(["stats", "--plot", str(link)]) == 0
    capsys.readouterr()
    assert link.is_symlink() and real.read_bytes().startswith(b"\x89PNG")
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o600
    from dicetray.sim import png
    shot = tmp_path / "shot.png"
    shot.write_bytes(b"old")
    os.chmod(shot, 0o640)
    (tmp_path / "shot.png.tmp").write_bytes(b"mine")
    png.write(str(shot), bytes(1024), bytes(36))
    assert png.decode(shot.read_bytes())[0] == 128 * 4 + 2 * png.MARGIN
    assert stat.S_IMODE(os.stat(shot).st_mode) == 0o640
    assert (tmp_path / "shot.png.tmp").read_bytes() == b"mine"


def test_an_unwritable_output_is_one_line(trays, capsys, tmp_path):
    code, err = export(trays, capsys, tmp_path / "no" / "such" / "x.csv")
    assert code == 1 and err.count("\n") == 1 and "cannot write" in err
    code, err = export(trays, capsys, tmp_path)
    assert code == 1 and err.count("\n") == 1 and "cannot write" in err


def test_a_screenshot_that_cannot_be_written_is_one_line(tmp_path):
    """On main: a traceback (after the whole run, for a missing folder)."""
    script = tmp_path / "s.txt"
    script.write_text("100 quit\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"),
               DICETRAY_HOME=str(tmp_path / "home"))

    def sim(shot):
        return subprocess.run(
            [sys.executable, "-m", "dicetray", "sim", "--headless", "--script", str(script),
             "--flash", str(tmp_path / "flash"), "--screenshot", str(shot)],
            capture_output=True, text=True, env=env, timeout=300)
    r = sim(tmp_path / "no" / "x.png")
    assert r.returncode == 2 and r.stderr == (
        "dicetray sim: no folder %s for the screenshot %s: make it, or name another file\n"
        % (tmp_path / "no", tmp_path / "no" / "x.png"))
    r = sim(tmp_path)                                   # a folder: written at the run's end
    assert r.returncode == 1 and r.stderr.splitlines()[-1] == (
        "dicetray sim: cannot write the screenshot %s (Is a directory)" % tmp_path)
    assert "Traceback" not in r.stderr
