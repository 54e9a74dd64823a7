"""Issue 18, item 7: a damaged or edited backup is refused row by row — file, line, reason — before anything is
restored; a recomputed checksum is not trust; a failed backup leaves no partial file."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.office import backup
from qiyuan.office.federation.models import Player
from qiyuan.office.ratings.models import RatingList

pytestmark = pytest.mark.django_db(transaction=True)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def saved(make_player, resident_id, tmp_path):
    """A small office backed up to a plain (uncompressed) file; returns its path."""
    make_player("张三", id_number=resident_id(date(2008, 7, 1), "M"), dan="1d")
    make_player("李娜", gender="F", id_number=resident_id(date(1999, 3, 4), "F"))
    RatingList.objects.get_or_create(code="G", defaults={"title": "G", "rules_name": "cga-gomoku-2011"})
    path = tmp_path / "office.jsonl"
    backup.backup(path)
    return path


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def write_edited(path: Path, lines: list[str], *, rehash: bool = True) -> Path:
    """Write ``lines`` (the trailer last) back, with the checksum recomputed as an editor would."""
    body, trailer = lines[:-1], json.loads(lines[-1])
    if rehash:
        trailer["sha256"] = hashlib.sha256("".join(body).encode("utf-8")).hexdigest()
    path.write_text("".join(body) + json.dumps(trailer) + "\n", encoding="utf-8")
    return path


def locate(lines: list[str], label: str) -> tuple[int, list[str]]:
    """The index of the table header of ``label`` and its field names."""
    for i, text in enumerate(lines):
        item = json.loads(text)
        if isinstance(item, dict) and item.get("model") == label:
            return i, item["fields"]
    raise AssertionError(label)


def edit_row(lines, label, index, **values):
    at, names = locate(lines, label)
    row = json.loads(lines[at + 1 + index])
    for name, value in values.items():
        row[names.index(name)] = value
    lines[at + 1 + index] = json.dumps(row, ensure_ascii=False) + "\n"
    return at + 2 + index  # its 1-based line number


def refused(path) -> str:
    with pytest.raises(backup.BackupError) as info:
        backup.restore(path, replace=True)
    return "\n".join(info.value.messages)


def test_a_header_without_count_is_refused_with_its_line(saved):
    """The issue's first crash: KeyError before the checksum was compared."""
    lines = lines_of(saved)
    at, _ = locate(lines, "federation.player")
    header = json.loads(lines[at])
    del header["count"]
    lines[at] = json.dumps(header) + "\n"
    text = refused(write_edited(saved, lines, rehash=False))
    assert f"office.jsonl, line {at + 1}: federation.player: the table header has no row count" in text


def test_a_row_that_is_not_json_is_refused_with_its_line(saved):
    lines = lines_of(saved)
    at, _ = locate(lines, "federation.player")
    lines[at + 1] = lines[at + 1][:-5] + "\n"
    assert f", line {at + 2}: not a JSON line" in refused(write_edited(saved, lines))


@pytest.mark.parametrize("edit,reason", [
    ({"gender": "M"}, "ID number: gender digit"),  # 李娜's ID is a woman's
    ({"birth_date": "2030-01-01"}, "birth date 2030-01-01 is in the future"),
    ({"dan": "10d"}, "dan: '10d' is not one of"),
    ({"id": 10 ** 30}, "outside the column's range"),
    ({"name": ""}, "name is empty"),
    ({"reference_rating": "12345678.999"}, "reference_rating"),
    ({"registered_on": "2024-02-30"}, "registered_on"),
    ({"gender": ["M"]}, "gender: [\"M\"] is not a text"),
])
def test_an_edited_player_with_a_recomputed_checksum_is_refused(saved, edit, reason):
    """A recomputed SHA-256 is not trust: the registry's own checks read every row."""
    before = Player.objects.count()
    lines = lines_of(saved)
    line = edit_row(lines, "federation.player", 1, **edit)
    text = refused(write_edited(saved, lines))
    assert f"office.jsonl, line {line}: federation.player: " in text and reason in text, text
    assert Player.objects.count() == before  # nothing restored, nothing emptied


def test_a_repeated_primary_key_is_refused(saved):
    lines = lines_of(saved)
    at, names = locate(lines, "federation.player")
    first = json.loads(lines[at + 1])
    line = edit_row(lines, "federation.player", 1, id=first[names.index("id")],
                    federation_id="CN999999", id_number="")
    assert f", line {line}: federation.player: primary key" in refused(write_edited(saved, lines))


def test_a_foreign_key_to_nothing_is_refused_by_the_database_and_nothing_is_restored(saved):
    lines = lines_of(saved)
    edit_row(lines, "federation.player", 0, association_id=987654)
    text = refused(write_edited(saved, lines))
    assert "the database refused the backup's rows" in text and "nothing was restored" in text
    assert Player.objects.filter(name="张三").exists()


def test_a_rating_list_with_bad_overrides_is_refused_by_the_rules_validator(saved):
    lines = lines_of(saved)
    line = edit_row(lines, "ratings.ratinglist", 0, rules_overrides="base = [1,2]\n")
    assert f", line {line}: ratings.ratinglist: " in (text := refused(write_edited(saved, lines))) and "'base'" in text


def test_trailer_counts_that_disagree_are_refused(saved):
    lines = lines_of(saved)
    trailer = json.loads(lines[-1])
    trailer["counts"]["federation.player"] = 7
    lines[-1] = json.dumps(trailer) + "\n"
    assert "the trailer counts 7 rows" in refused(write_edited(saved, lines))


def test_a_failed_backup_leaves_no_partial_file(saved, monkeypatch, tmp_path):
    def broken(self, obj):
        raise OSError("disk full")

    monkeypatch.setattr(backup._HashingWriter, "line", broken)
    with pytest.raises(OSError):
        backup.backup(tmp_path / "new.jsonl.gz")
    assert not list(tmp_path.glob("*.partial")) and not (tmp_path / "new.jsonl.gz").exists()


def test_the_command_line_refuses_with_exit_2_not_internal_error(saved, tmp_path):
    lines = lines_of(saved)
    edit_row(lines, "federation.player", 1, gender="M")
    write_edited(saved, lines)
    home = tmp_path / "home"
    env = dict(os.environ, QIYUAN_HOME=str(home), PYTHONPATH=str(REPO / "src"))
    env.pop("DATABASE_URL", None)
    run = subprocess.run([sys.executable, "-c", "from qiyuan.cli import main; main()", "office", "restore", str(saved)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert "internal error" not in run.stderr and "gender digit" in run.stderr
    assert not list(home.rglob("*.partial"))


# -- fuzz: whatever the damage, success or a clear refusal --------------------------------------------

_values = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2 ** 70, max_value=2 ** 70),
                    st.text(max_size=12), st.lists(st.integers(), max_size=2),
                    st.sampled_from(["2030-01-01", "1-0", "9d", "NaN", "1e999", "\x00", "M", "F", "--"]))


@st.composite
def damage(draw, n_lines: int):
    kind = draw(st.sampled_from(["value", "line", "drop", "dup", "header", "cut"]))
    index = draw(st.integers(min_value=1, max_value=n_lines - 2))
    return kind, index, draw(_values), draw(st.integers(min_value=0, max_value=40)), draw(st.booleans())


def _apply(lines: list[str], kind, index, value, column, rehash, path: Path):
    lines = list(lines)
    item = json.loads(lines[index])
    if kind == "value" and isinstance(item, list) and item:
        item[column % len(item)] = value
        lines[index] = json.dumps(item, ensure_ascii=False) + "\n"
    elif kind == "header" and isinstance(item, dict):
        key = ["model", "fields", "count"][column % 3]
        item[key] = value
        lines[index] = json.dumps(item, ensure_ascii=False) + "\n"
    elif kind == "line":
        lines[index] = json.dumps(value, ensure_ascii=False) + "\n"
    elif kind == "drop":
        del lines[index]
    elif kind == "dup":
        lines.insert(index, lines[index])
    elif kind == "cut":
        lines[index] = lines[index][: column % max(1, len(lines[index]))] + "\n"
    return write_edited(path, lines, rehash=rehash)


def _fuzz(saved, data, examples):
    original = lines_of(saved)
    target = saved.with_name("fuzzed.jsonl")

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(damage(len(original)))
    def run(d):
        path = _apply(original, *d, target)
        try:
            backup.restore(path, replace=True)
        except backup.BackupError as exc:
            assert exc.messages and all(m.strip() for m in exc.messages)

    run()


def test_fuzzed_backups_end_in_success_or_a_clear_refusal(saved):
    _fuzz(saved, None, 5)


@pytest.mark.slow
def test_fuzzed_backups_many(saved):
    _fuzz(saved, None, 400)
