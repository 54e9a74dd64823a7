"""Files that are not TRF-16 are refused in one clear message; a GB18030 (GBK) file is
read as such (and written back as UTF-8) instead of flooding the user with latin-1
misalignments."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiyuan.formats.errors import InputError
from qiyuan.formats.trf import read_trf, write_trf
from tests.cli.test_tournament_cli import run
from tests.formats.test_trf import line, small

CHINESE = small(
    line(1, "张三", "4.0", ["   2 b 1", "   3 w 1"]),
    line(2, "李四", "2.0", ["   1 w 0", "0000 - U"]),
    line(3, "王五", "2.0", ["0000 - U", "   1 b 0"]),
    header="012 全国五子棋锦标赛\nXXR 3\n",
)


@pytest.mark.parametrize("content", [b"", b"hello\n", b"hello world\nfoo bar\n", b"\xff\xfe\x00junk"])
def test_not_trf_is_one_clear_error(tmp_path: Path, content: bytes):
    p = tmp_path / "junk.trf"
    p.write_bytes(content)
    with pytest.raises(InputError) as exc:
        read_trf(p)
    assert len(exc.value.problems) == 1
    assert "not a TRF-16 file" in str(exc.value) or "not UTF-8" in str(exc.value)


@pytest.mark.parametrize("content", ["", "hello\n", "012 Just a header\n"])
def test_cli_refuses_files_without_players(tmp_path: Path, content: str):
    p = tmp_path / "junk.trf"
    p.write_text(content, encoding="utf-8")
    for args in (["standings", p], ["standings", p, "--csv"], ["pair", p], ["pair", p, "-o", tmp_path / "o.trf"],
                 ["report", p, "--xlsx", tmp_path / "r.xlsx"]):
        r = run(*args, ok=False)
        assert r.exit_code == 2, args
        assert "TRF" in r.stderr
        assert "withdrawn" not in r.stderr + r.stdout
    assert not (tmp_path / "r.xlsx").exists() and not (tmp_path / "o.trf").exists()


def test_event_commands_on_an_event_without_players(tmp_path: Path):
    ev = tmp_path / "ev.trf"
    run("event", "new", ev, "--name", "x")
    before = ev.read_bytes()
    for args in (["event", "pair", ev], ["event", "standings", ev]):
        r = run(*args, ok=False)
        assert r.exit_code == 2 and "no player" in r.stderr and "withdrawn" not in r.stderr
    assert ev.read_bytes() == before


def test_gb18030_file_is_read_and_noted(tmp_path: Path):
    p = tmp_path / "gbk.trf"
    p.write_bytes(CHINESE.encode("gb18030"))
    notes: list = []
    t = read_trf(p, notes=notes)
    assert [e.name for e in t.entrants] == ["张三", "李四", "王五"]
    assert t.name == "全国五子棋锦标赛"
    assert len(notes) == 1 and "GB18030" in str(notes[0])
    assert write_trf(t) == write_trf(read_trf(CHINESE))


def test_gb18030_event_written_back_as_utf8(tmp_path: Path):
    p = tmp_path / "gbk.trf"
    p.write_bytes(CHINESE.encode("gbk"))
    r = run("event", "withdraw", p, "3")
    assert "GB18030" in r.stderr
    assert "张三" in p.read_bytes().decode("utf-8")


def test_byte_padded_gbk_is_one_message(tmp_path: Path):
    """A GBK file whose columns line up neither as characters nor as bytes: one message, not one per line."""
    text = CHINESE.encode("gb18030")
    # one blank too few after each name: misaligned whichever way it is decoded
    rows = []
    for row in text.split(b"\n"):
        if row.startswith(b"001"):
            name_end = row.index(b" ", 15)
            row = row[:name_end] + row[name_end + 1:]
        rows.append(row)
    p = tmp_path / "gbk.trf"
    p.write_bytes(b"\n".join(rows))
    with pytest.raises(InputError) as exc:
        read_trf(p)
    assert len(exc.value.problems) == 1
    assert "GB18030" in str(exc.value)


def test_latin1_file_still_read(tmp_path: Path):
    text = small(line(1, "Müller", "2.0", ["   2 b 1"]), line(2, "Ôtsu", "0.0", ["   1 w 0"]))
    p = tmp_path / "l1.trf"
    p.write_bytes(text.encode("latin-1"))
    notes: list = []
    assert [e.name for e in read_trf(p, notes=notes).entrants] == ["Müller", "Ôtsu"]
    assert "ISO-8859-1" in str(notes[0])


def test_gbk_padded_by_bytes_is_read_as_gb18030(tmp_path: Path):
    """Chinese Windows tools pad GBK by bytes: two columns per Chinese character."""
    rows = []
    for row in CHINESE.encode("gb18030").split(b"\n"):
        if row.startswith(b"001"):
            name_end = row.index(b" ", 15)
            row = row[:name_end] + row[name_end + 2:]  # "张三" is 4 bytes in 4 columns
        rows.append(row)
    p = tmp_path / "gbk.trf"
    p.write_bytes(b"\n".join(rows))
    notes: list = []
    t = read_trf(p, notes=notes)
    assert [e.name for e in t.entrants] == ["张三", "李四", "王五"]
    assert t.name == "全国五子棋锦标赛"
    assert "byte columns" in str(notes[0])
    assert write_trf(t) == write_trf(read_trf(CHINESE))
