"""Boot on the real rp2 port: the release image (firmware frozen in) on a
blank flash, and a stock MicroPython image with the firmware put on by
`dicetray deploy` itself through mpremote. Both reach the same home screen."""

import os
import subprocess
import sys

import boards

from dicetray import cli

import fbtext

MPREMOTE = [sys.executable, "-m", "mpremote"]


def home_text(display):
    return [fbtext.row(display, r) for r in range(8)]


def test_release_image_boots_a_blank_flash_to_home(tmp_path):
    with boards.board(tmp_path / "flash.bin", seed=3) as em:
        em.wait_app(boards.HANG)
        lines = home_text(em.display)
        assert lines[0].startswith("KEYS") and "skip" in lines[0], lines   # a new tray: the tour
        assert em.power and em.leds == bytes(len(em.leds))     # the dial: Pressure 0/6, none lit
        stats = em.stats()
        assert stats["erases"] > 0 and stats["programs"] > 0   # littlefs formatted, campaign made
        em.tap(32, 100, 400, "skip")                           # Back skips the tour
        lines = home_text(em.display)
        assert lines[0].startswith("HUNT") and "Roll" in lines[4], lines
        first = em.display
    # Again on the same flash: the campaign is found, not made anew, the tour done.
    with boards.board(tmp_path / "flash.bin", seed=4) as em:
        em.wait_app(boards.HANG)
        assert em.display == first


def test_stock_image_then_dicetray_deploy(tmp_path, monkeypatch):
    with boards.board(tmp_path / "flash.bin", boards.image(stock=True), seed=3) as em:
        # A plain MicroPython: no tray yet, the REPL answers.
        out = subprocess.run(MPREMOTE + ["connect", em.port, "exec", "import sys; print(sys.implementation._machine)"],
                             capture_output=True, text=True, timeout=boards.HANG)
        assert out.returncode == 0 and "RP2040" in out.stdout, out.stderr
        assert em.writes == 0                                   # nothing drew on the OLED
        monkeypatch.chdir(boards.uf2.ROOT)
        assert cli.main(["deploy", "--port", em.port]) == 0
        em.wait(lambda: em.boots >= 2 and em.app_t is not None, boards.HANG,
                "the tray after deploy's reset")
        deployed = em.display
        # The machine code deployed for the Cortex-M0+ (tools/mpy.py NATIVE)
        # loads: the frames go by DMA, as the frozen image's do.
        assert em.stats()["i2cDma"] == 1, "the deployed tray's frames went by writeto"
        ls = subprocess.run(MPREMOTE + ["connect", em.port, "exec",
                                        "import os; print(sorted(os.listdir('/')))"],
                            capture_output=True, text=True, timeout=boards.HANG)
    assert "dtmain.mpy" in ls.stdout and "main.py" in ls.stdout and "i2cstage.mpy" in ls.stdout, ls.stdout
    with boards.board(tmp_path / "frozen.bin", seed=3) as em:
        em.wait_app(boards.HANG)
        assert deployed == em.display


def test_dicetray_sim_rp2040_runs_a_script(tmp_path):
    """The README's command: `dicetray sim --rp2040 --headless --script`,
    its serial line, its screenshots, the exit status."""
    boards.node()
    script = tmp_path / "keys.txt"
    script.write_text("300 screenshot %s\n600 OK\n1200 screenshot %s\n"
                      % (tmp_path / "home.png", tmp_path / "builder.png"))
    env = dict(os.environ, DICETRAY_HOME=str(tmp_path / "home"))
    r = subprocess.run([sys.executable, "-m", "dicetray", "sim", "--rp2040", "--uf2", boards.image(),
                        "--headless", "--flash", str(tmp_path / "flash"), "--script", str(script),
                        "--screenshot", str(tmp_path / "end.png")],
                       capture_output=True, text=True, timeout=boards.HANG, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("serial: /dev/")
    from dicetray.sim import png
    shots = [png.decode((tmp_path / n).read_bytes()) for n in ("home.png", "builder.png", "end.png")]
    assert shots[0][2] != shots[1][2] and shots[1][2] == shots[2][2]
    assert (tmp_path / "flash" / "rp2040-flash.bin").stat().st_size == 2 * 1024 * 1024


def test_ports_and_status_say_an_emulated_board_and_its_flash_folder(tmp_path):
    """`dicetray ports` and `status` labelled every
    simulator "Dicetray simulator (pid N)", the emulated RP2040 included;
    `dicetray sim --rp2040` now announces what it is and its flash folder."""
    import json
    import time
    boards.node()
    env = dict(os.environ, DICETRAY_HOME=str(tmp_path / "home"))
    flash = str(tmp_path / "flash")
    p = subprocess.Popen([sys.executable, "-m", "dicetray", "sim", "--rp2040", "--uf2",
                          boards.image(), "--headless", "--flash", flash],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def tool(*argv):
        return subprocess.run([sys.executable, "-m", "dicetray"] + list(argv), env=env,
                              capture_output=True, text=True, timeout=boards.HANG)
    try:
        line = p.stdout.readline()
        assert line.startswith("serial: /dev/"), line + p.stderr.read()
        port = line.split()[1]
        said = "emulated RP2040 board (pid %d), flash folder %s" % (p.pid, flash)
        end = time.monotonic() + 60
        while True:                                  # announced once its port serves
            got = json.loads(tool("ports", "--json").stdout)
            if got or time.monotonic() > end:
                break
            time.sleep(0.2)
        assert [(x["port"], x["kind"], x["simulator"], x["flash"], x["description"])
                for x in got] == [(port, "sim", "emulated RP2040 board", flash, said)], got
        r = tool("status", "--port", port, "--timeout", str(boards.HANG))
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines()[0].endswith(": an " + said), r.stdout
    finally:
        p.terminate()
        p.wait(60)
