"""One simulator a flash: a second `dicetray sim` on a
flash folder in use ends at once with one line naming the first; the lock
goes with the process however it ends, so a killed simulator's lock file
does not block the next; the firmware never sees the lock file. And
`--flash` naming a file is one line. Before, both simulators ran
and acknowledged events, and `--flash FILE` was a traceback.

The simulators are real processes on the real firmware (linkutil.Sim)."""

import os
import subprocess
import sys

import pytest

import linkutil
from linkutil import Sim

from dicetray.link.client import Device
from dicetray.rules import campaign as cp
from dicetray.sim.flash import Flash

ROOT = linkutil.ROOT


def sim_cli(*argv, home):
    """`python -m dicetray sim --headless ...` to its end: (status, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"), DICETRAY_HOME=home)
    r = subprocess.run([sys.executable, "-m", "dicetray", "sim", "--headless", *argv],
                       capture_output=True, text=True, env=env, timeout=120)
    return r.returncode, r.stdout, r.stderr


def test_a_second_simulator_on_a_flash_folder_in_use_is_one_line(tmp_path):
    flash, home = str(tmp_path / "flash"), str(tmp_path / "home")
    sim = Sim(flash, home)
    try:
        with Device.open(sim.port) as dev:
            dev.act(cp.CHAR_ADD, (), "Ada")
            code, out, err = sim_cli("--flash", flash, home=home)
            assert (code, out) == (1, "")
            assert err == (
                "dicetray sim: flash folder %s is in use by dicetray sim (pid %d): stop it, "
                "or give this one another --flash folder\n" % (flash, sim.p.pid))
            assert dev.act(cp.DICE, (6, 2))["seq"] == 2      # the first one carries on
    finally:
        sim.stop(alive=True)
    sim = Sim(flash, home)                                    # stopped: the folder is free
    try:
        with Device.open(sim.port) as dev:
            assert dev.info()["events"] == 2
    finally:
        sim.stop(alive=True)


def test_a_killed_simulators_lock_does_not_block_the_next(tmp_path):
    flash, home = str(tmp_path / "flash"), str(tmp_path / "home")
    sim = Sim(flash, home)
    with Device.open(sim.port) as dev:
        dev.act(cp.CHAR_ADD, (), "Ada")
    sim.kill()                                                # SIGKILL: no cleanup at all
    lock = os.path.join(flash, ".dicetray-sim.lock")
    assert "(pid %d)" % sim.p.pid in open(lock).read()       # the file is left behind...
    sim = Sim(flash, home)                                    # ...and blocks nothing
    try:
        with Device.open(sim.port) as dev:
            assert dev.info()["events"] == 1
        assert "(pid %d)" % sim.p.pid in open(lock).read()
    finally:
        sim.stop(alive=True)


def test_flash_naming_a_file_is_one_line(tmp_path):
    f = tmp_path / "flash.bin"
    f.write_bytes(b"not a folder")
    home = str(tmp_path / "home")
    code, out, err = sim_cli("--flash", str(f), home=home)
    assert (code, out) == (1, "") and err == (
        "dicetray sim: --flash %s is a file, not a folder: give --flash a folder (it is made "
        "if missing)\n" % f)
    code, out, err = sim_cli("--flash", str(f / "sub"), home=home)
    assert code == 1 and err.count("\n") == 1 and "a part of that path is a file" in err
    assert f.read_bytes() == b"not a folder"


def test_the_lock_in_one_process_and_hidden_from_the_firmware(tmp_path):
    from dicetray.sim import flashlock
    d = str(tmp_path / "flash")
    fl = Flash(d)
    with pytest.raises(flashlock.InUse, match=r"in use by dicetray sim \(pid %d\)" % os.getpid()):
        Flash(d)
    assert fl.fs_listdir("/") == []                           # the lock file is the host's
    assert fl.f_open("/" + flashlock.LOCK_NAME, "w") == {"oserror": "EACCES"}
    assert fl.fs_remove(flashlock.LOCK_NAME) == {"oserror": "EACCES"}
    os.symlink(flashlock.LOCK_NAME, os.path.join(d, "alias"))
    assert fl.f_open("/alias", "r") == {"oserror": "EACCES"}
    fl.release()
    Flash(d).release()                                        # free again


def test_the_emulated_boards_flash_is_locked_too(tmp_path):
    """The lock is taken before node runs, so this needs neither node nor a UF2."""
    from dicetray.sim.rp2040 import FLASH_FILE, Emulator
    folder = tmp_path / "rp"
    em = Emulator(None, str(folder / FLASH_FILE), serial=False)
    em.hold("flash folder %s" % folder)
    try:
        code, out, err = sim_cli("--rp2040", "--flash", str(folder), home=str(tmp_path / "h"))
        assert (code, out) == (1, "") and err == (
            "dicetray sim: flash folder %s is in use by dicetray sim --rp2040 (pid %d): stop "
            "it, or give this one another --flash folder\n" % (folder, os.getpid()))
        assert not (folder / FLASH_FILE).exists()
    finally:
        em.close()
    again = Emulator(None, str(folder / FLASH_FILE), serial=False)
    again.hold()                                              # closed: nothing holds it
    again.close()


def test_a_flash_folder_put_on_a_board_leaves_the_lock_file_behind(tmp_path):
    """lfsimage.files_of (a desktop flash folder onto an emulated board's image)."""
    from dicetray.sim import lfsimage
    d = tmp_path / "flash"
    (d / "dicetray").mkdir(parents=True)
    (d / "dicetray" / "id.txt").write_text("x")
    Flash(str(d)).release()                                   # a simulator ran here
    assert (d / ".dicetray-sim.lock").exists()
    assert lfsimage.files_of(str(d)) == {"/dicetray/id.txt": b"x"}


def test_deleting_the_lock_file_does_not_let_a_second_simulator_share_the_flash(tmp_path):
    """The lock file was the lock, and a lock file looks
    stale: deleted, a second simulator took a new one and ran on the same
    flash (acknowledged events lost, the journal damaged after a reboot).
    The lock is the folder's own, which cannot be deleted from under it;
    the file only names the holder."""
    flash, home = str(tmp_path / "flash"), str(tmp_path / "home")
    sim = Sim(flash, home)
    try:
        with Device.open(sim.port) as dev:
            dev.act(cp.CHAR_ADD, (), "Ada")
            os.remove(os.path.join(flash, ".dicetray-sim.lock"))   # "a stale lock file"
            code, out, err = sim_cli("--flash", flash, home=home)
            assert (code, out) == (1, "") and err == (
                "dicetray sim: flash folder %s is in use by another simulator: stop it, "
                "or give this one another --flash folder\n" % flash)
            assert dev.act(cp.DICE, (6, 2))["seq"] == 2
    finally:
        sim.stop(alive=True)
    assert not os.path.exists(os.path.join(flash, ".dicetray-sim.lock"))  # the refused one wrote none


def test_deleting_the_emulated_boards_lock_file_does_not_free_its_flash(tmp_path):
    from dicetray.sim import flashlock
    from dicetray.sim.rp2040 import FLASH_FILE, Emulator
    folder = tmp_path / "rp"
    em = Emulator(None, str(folder / FLASH_FILE), serial=False)
    em.hold("flash folder %s" % folder)
    try:
        for f in folder.iterdir():
            f.unlink()                                        # every file in it
        second = Emulator(None, str(folder / FLASH_FILE), serial=False)
        with pytest.raises(flashlock.InUse, match="in use by another simulator"):
            second.hold("flash folder %s" % folder)
    finally:
        em.close()
