"""The host tool against the real rp2 port through the emulated USB CDC:
status, roll, backup, restore and export from the README's commands, and a
backup equal, event for event and byte for byte, to one taken from the
desktop simulator after the same actions; then that desktop backup
restored onto an emulated board."""

import json

import pytest

import boards

from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.rules import campaign as cp

from linkutil import Sim

# What a keeper does in a first session, as commands (the same on both).
SESSION = [
    ["char", "Ada"],
    ["char", "Bo"],
    ["roll", "--pool", "3", "--char", "0"],
    ["roll", "--pool", "4", "--hard", "--char", "1"],
    ["dice", "6", "3"],
    ["slash", "0"],
    ["undo"],
    ["turn"],
    ["roll", "--pool", "2"],
]


def tool(capsys, *argv):
    """Run `dicetray ARGV` (a device command), each answer awaited up to the
    suite's hang bound; returns (exit status, stdout)."""
    capsys.readouterr()
    code = cli.main(list(argv) + ["--timeout", str(boards.HANG)])
    return code, capsys.readouterr().out


def play(capsys, port):
    """The session on the device at `port`; returns the answers of the rolls."""
    answers = []
    for argv in SESSION:
        code, out = tool(capsys, *argv, "--port", port, "--json")
        assert code == 0, (argv, out)
        answers.append(json.loads(out))
    return answers


def campaign(port):
    """(snapshot with its seq, every event) as the device serves them."""
    with boards.device(port) as dev:
        return dev.snapshot(), dev.events(0)


# Every new flash draws its own campaign id (the board from its ROSC, the
# simulator from os.urandom), so the two trays' campaigns
# are compared with the id set aside; everything else is byte for byte.
def anonymous(snap_and_events):
    (seq, snap), events = snap_and_events
    c = cp.decode_snapshot(snap)
    c.cid = 0
    return (seq, cp.encode_snapshot(c)), events


def export_doc(path):
    doc = json.loads(path.read_text())
    doc.pop("campaign")
    doc["state"].pop("hex")          # encode_state: holds the id (compared by anonymous())
    return doc


def state(b):
    c = b.fold()
    cid, c.cid = c.cid, 0
    try:
        return cp.encode_state(c)
    finally:
        c.cid = cid


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    monkeypatch.setenv("DICETRAY_HOME", str(h))
    return h


def test_status_roll_backup_export_restore(tmp_path, home, capsys):
    with boards.board(tmp_path / "board.bin", seed=11) as em:
        em.wait_app(boards.HANG)
        code, out = tool(capsys, "status", "--port", em.port, "--json")
        assert code == 0
        info = json.loads(out)
        assert info["board"] == "pico" and info["system"] == "hunt" and info["events"] == 0
        assert info["device"] == em.unique_id      # the flash chip's unique ID, from machine.unique_id()
        rolls = play(capsys, em.port)
        assert [len(r["faces"]) for r in rolls if r["faces"]][:2] == [3, 4]
        code, out = tool(capsys, "backup", "--port", em.port, "--json")
        assert code == 0
        taken = json.loads(out)
        assert taken["new"] and taken["last"] == len(SESSION)
        code, _ = tool(capsys, "export", "--format", "json", "--port", em.port,
                       "-o", str(tmp_path / "board.json"))
        assert code == 0
        board_campaign = campaign(em.port)

    # The desktop simulator, same seed, same commands.
    sim = Sim(str(tmp_path / "sim"), str(home), seed=11)
    try:
        sim_rolls = play(capsys, sim.port)
        code, out = tool(capsys, "backup", "--port", sim.port, "--json")
        assert code == 0
        sim_taken = json.loads(out)
        code, _ = tool(capsys, "export", "--format", "json", "--port", sim.port,
                       "-o", str(tmp_path / "sim.json"))
        assert code == 0
        sim_campaign = campaign(sim.port)
    finally:
        sim.stop()

    assert sim_rolls == rolls                       # the same dice, the same readings
    assert anonymous(sim_campaign) == anonymous(board_campaign)   # snapshot, undo window, events
    assert export_doc(tmp_path / "sim.json") == export_doc(tmp_path / "board.json")
    store = BackupStore(str(home / "backups.sqlite3"))
    a, b = store.load(taken["backup"]), store.load(sim_taken["backup"])
    assert (a.base_seq, a.base_snap, a.events) == (b.base_seq, b.base_snap, b.events)
    assert state(a) == state(b)

    # The desktop's backup onto a new emulated board, through `dicetray restore`.
    with boards.board(tmp_path / "fresh.bin", seed=5) as em:
        em.wait_app(boards.HANG)
        code, out = tool(capsys, "restore", str(sim_taken["backup"]), "--yes", "--port", em.port)
        assert code == 0, out
        assert "verified" in out
        assert campaign(em.port) == sim_campaign
        code, _ = tool(capsys, "export", "--format", "json", "--port", em.port,
                       "-o", str(tmp_path / "restored.json"))
        assert code == 0
    assert (tmp_path / "restored.json").read_bytes() == (tmp_path / "sim.json").read_bytes()

