"""Export: the campaign alone, deterministic, identical after a restore onto
another device."""
import csv
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from fake_device import FakeDevice, play  # noqa: E402

from dicetray import commands, export  # noqa: E402
from dicetray.backup import BackupStore  # noqa: E402
from dicetray.rules import campaign as cp  # noqa: E402


def _export(dev, fmt, capsys, monkeypatch):
    monkeypatch.setattr(commands, "open_device", lambda port, timeout, **kw: dev)
    assert commands.main(["export", "--format", fmt]) == 0
    return capsys.readouterr().out


def test_restored_campaign_exports_byte_for_byte(tmp_path, capsys, monkeypatch):
    dev = play(FakeDevice(system=1, cid=321, name="tray-A"), 90)
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    bid = st.take(dev).backup
    other = FakeDevice(system=0, cid=5, name="tray-B", seed=99)
    other.set_clock(1234567)
    other.restore(*st.restore_payload(bid))
    for fmt in ("json", "csv"):
        a = _export(dev, fmt, capsys, monkeypatch)
        b = _export(other, fmt, capsys, monkeypatch)
        assert a == b and "tray-A" not in a and "tray-B" not in b
    # a backup exports the same too
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path))
    out = tmp_path / "x.json"
    assert commands.main(["export", "--format", "json", "--backup", str(bid), "--db", st.path,
                          "--output", str(out)]) == 0
    assert out.read_text() == _export(dev, "json", capsys, monkeypatch)


def test_json_content():
    dev = play(FakeDevice(system=0, cid=8), 25)
    doc = export.document(0, 8, cp.encode_state(dev.c), dev.events(0))
    text = export.to_json(doc)
    assert text == export.to_json(json.loads(text))  # sorted, stable
    d = json.loads(text)
    assert d["campaign"] == 8 and d["system"] == "hunt" and d["first"] == 1 and d["last"] == 25
    assert d["events"][0]["name"] == "CHAR_ADD" and d["events"][0]["text"] == "Ada"
    assert [e["seq"] for e in d["events"]] == list(range(1, 26))
    assert d["state"]["events"] == 25 and d["state"]["characters"][1]["name"] == "Bo"
    assert bytes.fromhex(d["state"]["hex"]) == cp.encode_state(dev.c)
    assert not set(d) & {"device", "firmware", "created", "exported"}


def test_csv_rows():
    dev = play(FakeDevice(system=2, cid=8), 20)
    doc = export.document(2, 8, cp.encode_state(dev.c), dev.events(0))
    rows = list(csv.reader(io.StringIO(export.to_csv(doc))))
    assert rows[0] == list(export.CSV_COLUMNS)
    ev = [r for r in rows if r[0] == "event"]
    assert len(ev) == 20 and ev[0][3] == "CHAR_ADD" and ev[0][6] == "Ada"
    assert bytes.fromhex(ev[5][7]) == dev.journal[5]
    assert any(r[0] == "counter" and r[3] == "turn" for r in rows)
    assert rows[-1][:4] == ["state", "", "", "hex"]


def test_kind_names():
    assert export.kind_name(0, 32) == "ROLL"
    assert export.kind_name(1, 64) == "TEST"
    assert export.kind_name(2, 99) == "DAMAGE"  # not MAX_POINTS
    assert export.kind_name(2, 109) == "TURN"
    assert export.kind_number(2, "turn") == 109
    assert export.kind_name(0, 1) == "UNDO"
