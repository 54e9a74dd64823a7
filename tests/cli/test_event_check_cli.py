"""``qiyuan event check`` and ``qiyuan event generate`` (issue 35): exit 0 consistent, 1 deviations (each named by
round, board and rule), 2 not checkable or bad input (no traceback, nothing written); in the user's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiyuan.cli import lang
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.tournament.state import rounds_paired
from tests.web.test_cli_languages import assert_in_language, run

EN = lang.ENGLISH


def _generated(tmp_path: Path, *extra: str) -> Path:
    ev = tmp_path / "gen.trf"
    r = run(["event", "generate", str(ev), "--seed", "11", "--players", "18", *extra], EN)
    assert r.exit_code == 0, r.output
    return ev


def test_a_generated_event_checks_consistent(tmp_path):
    ev = _generated(tmp_path)
    r = run(["event", "check", str(ev)], EN)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("consistent: ")


def test_generate_is_reproducible_and_never_overwrites(tmp_path):
    ev = _generated(tmp_path)
    before = ev.read_bytes()
    other = tmp_path / "again.trf"
    assert run(["event", "generate", str(other), "--seed", "11", "--players", "18"], EN).exit_code == 0
    assert other.read_bytes() == before
    r = run(["event", "generate", str(ev), "--seed", "12"], EN)
    assert r.exit_code == 2 and "already exists" in r.output and ev.read_bytes() == before
    r = run(["event", "generate", str(tmp_path / "x.trf"), "--seed", "1", "--system", "chess960"], EN)
    assert r.exit_code == 2 and "unknown system" in r.output and not (tmp_path / "x.trf").exists()


def test_an_opener_error_is_named_round_board_rule_and_exits_1(tmp_path):
    ev = _generated(tmp_path)
    t = read_trf(ev)
    last = rounds_paired(t)
    e = next(e for e in t.entrants if e.rounds[last - 1].colour == "b")
    o = t.entrants[e.rounds[last - 1].opponent - 1]
    e.rounds[last - 1].colour, o.rounds[last - 1].colour = "w", "b"
    ev.write_text(write_trf(t), encoding="utf-8")
    r = run(["event", "check", str(ev)], EN)
    assert r.exit_code == 1, r.output
    assert f"round {last}, board " in r.output and "colour/opener" in r.output
    assert "1 deviation(s)" in r.output


@pytest.mark.parametrize("edit, says", [
    (lambda text: text.replace("XQM swiss", "XQM chess960"), "not checkable: system chess960"),
    (lambda text: "garbage\n", "not a TRF-16 file"),
])
def test_what_cannot_be_checked_exits_2(tmp_path, edit, says):
    ev = _generated(tmp_path)
    ev.write_text(edit(ev.read_text(encoding="utf-8")), encoding="utf-8")
    r = run(["event", "check", str(ev)], EN)
    assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("language", [lang.CHINESE, lang.ENGLISH])
def test_check_and_generate_speak_the_users_language(tmp_path, language):
    ev = _generated(tmp_path)
    for args, code in ((["event", "check", "--help"], 0), (["event", "generate", "--help"], 0),
                       (["event", "check", str(ev)], 0), (["event", "generate", str(ev), "--seed", "1"], 2)):
        r = run(args, language)
        assert r.exit_code == code, (args, r.output)
        assert_in_language(r.output.replace(str(ev), "").replace(str(tmp_path), ""), language, args)
    t = read_trf(ev)
    last = rounds_paired(t)
    e = next(e for e in t.entrants if e.rounds[last - 1].colour == "b")
    t.entrants[e.rounds[last - 1].opponent - 1].rounds[last - 1].colour = "b"
    e.rounds[last - 1].colour = "w"
    ev.write_text(write_trf(t), encoding="utf-8")
    r = run(["event", "check", str(ev)], language)
    assert r.exit_code == 1
    assert_in_language(r.output, language, ["event", "check"])
    if language == lang.CHINESE:
        assert f"第 {last} 轮" in r.output and "先后手" in r.output


@pytest.mark.parametrize("language, says", [(lang.ENGLISH, "unknown pairing system 'dutch'"),
                                            (lang.CHINESE, "未知的编排制度 'dutch'")])
def test_an_unknown_system_is_refused_by_name_not_paired_as_a_swiss(tmp_path, language, says):
    ev = _generated(tmp_path)
    ev.write_text(ev.read_text(encoding="utf-8").replace("XQM swiss", "XQM dutch").replace("XQS finished\n", ""),
                  encoding="utf-8")
    before = ev.read_bytes()
    r = run(["event", "pair", str(ev)], language)
    assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output
    assert ev.read_bytes() == before
