"""Issue 18 (done when: "a fuzz of every way in … registration lists"): an association's registration list
(注册名单), however mangled, is registered whole or refused with every problem — never a traceback.

``test_readers`` mutates the bytes of one list and reads it (the file's own checks). Here the list goes the whole
way, as ``qiyuan office player import`` takes it: the file's checks and the registry's (an association or club
the registry does not know, an ID number registered already) in one transaction, in an office that holds
associations, a club and a registered player. Two kinds of input: a real list's bytes mutated, and lists built
column by column — any of the accepted header spellings (English or Chinese) in any order, columns missing or
given twice, cells drawn from good and bad values — saved as UTF-8, with Excel's BOM, or as GB18030.
Outcomes allowed: the players registered, or ``QiyuanError`` whose every problem names the file (never a
server path beyond the name given) and says what is wrong; a refusal stores nothing. Small in ``make test``,
hundreds under ``make test-slow``.
"""

from __future__ import annotations

import csv
import io
import tempfile
from datetime import date
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.errors import QiyuanError

from . import seeds
from .mutations import mutate_bytes

pytestmark = pytest.mark.django_db

FAST = {"mutated": settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck)),
        "built": settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))}
SLOW = settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck))
TODAY = date(2026, 12, 1)
#: an ID number the office has registered already (a list that repeats it is refused at that line)
REGISTERED_ID = seeds.resident_id(date(1990, 5, 5), "M", 7)

#: every accepted spelling of each column (``registration_csv.COLUMNS``) and a few the reader does not know
HEADERS = {
    "name": ["name", "姓名", "NAME "], "gender": ["gender", "sex", "性别"], "birth_date": ["birth_date", "出生日期", "出生年月日"],
    "id_type": ["id_type", "证件类型"], "id_number": ["id_number", "身份证号", "证件号码", "id"],
    "association": ["association", "所属棋协", "棋协"], "club": ["club", "俱乐部"], "name_latin": ["latin", "拼音"],
    "nationality": ["nationality", "国籍"], "dan": ["dan", "段位", "段级位"], "registered_on": ["registered_on", "注册日期"],
}
UNKNOWN_HEADERS = ["备注", "rating", "", "姓 名", "\ufeff姓名"]
#: cell values per column: good ones, and what a tired hand or Excel writes
VALUES = {
    "name": ["张三", "李四", "Alice Smith", "", " ", "王" * 300, "=cmd|' /C calc'!A0", "\x00"],
    "gender": ["男", "女", "M", "F", "male", "", "X", "未知"],
    "birth_date": ["2008-07-01", "2008/7/1", "20080701", "2008年7月1日", "", "2030-01-01", "2024-02-30", "昨天",
                   "99999999"],
    "id_type": ["身份证", "resident", "护照", "passport", "其他", "", "驾照"],
    "id_number": [seeds.resident_id(date(2005, 3, 4), "F", 1), seeds.resident_id(date(2006, 7, 8), "M", 2),
                  REGISTERED_ID, "E1234567", "", "11010519491231002X", "1" * 18, "123", "1" * 40, "１１０１０５"],
    "association": ["BJ", "SH", "", "XX", "北京"],
    "club": ["", "星星棋社", "不存在的俱乐部"],
    "name_latin": ["", "Zhang San", "x" * 200],
    "nationality": ["", "CHN", "chn", "USA", "中国", "C1N"],
    "dan": ["", "3段", "2级", "9d", "1k", "10段", "abc"],
    "registered_on": ["", "2024-01-01", "2024-13-01", "2099-01-01"],
}
ENCODINGS = ["utf-8", "utf-8-sig", "gb18030"]


@pytest.fixture
def office(make_association, make_player):
    from qiyuan.office.federation.models import Club

    bj = make_association("BJ")
    make_association("SH")
    Club.objects.create(name="星星棋社", association=bj)
    make_player(name="已注册", id_number=REGISTERED_ID, association="BJ", birth_date=date(1990, 5, 5))


@st.composite
def built_lists(draw) -> bytes:
    """A list built column by column: header spellings, order, columns missing or twice, cells good and bad."""
    fields = draw(st.lists(st.sampled_from(sorted(HEADERS)), min_size=1, max_size=9))
    if draw(st.integers(0, 4)):
        fields = ["name"] + fields  # mostly a list with a name column; now and then one without
    header = [draw(st.sampled_from(HEADERS[f])) for f in fields]
    if draw(st.integers(0, 5)) == 0:
        at = draw(st.integers(0, len(header)))
        header.insert(at, draw(st.sampled_from(UNKNOWN_HEADERS)))
        fields.insert(at, "")  # a column the reader does not know: its cells left blank
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        row = [draw(st.sampled_from(VALUES[f])) if f else "" for f in fields]
        if draw(st.integers(0, 6)) == 0:
            row += ["多出来的"]  # more cells than the header
        rows.append(row)
    out = io.StringIO()
    csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n", "\r"]))).writerows([header] + rows)
    text = out.getvalue()
    encoding = draw(st.sampled_from(ENCODINGS))
    try:
        return text.encode(encoding)
    except UnicodeError:
        return text.encode("utf-8")


def _registered_or_refused(data: bytes) -> None:
    """Import the list in a transaction rolled back afterwards; a refusal stores nothing and says where."""
    from qiyuan.office.federation.models import Player
    from qiyuan.office.registry import import_registration_list

    before = Player.objects.count()
    with tempfile.TemporaryDirectory() as tmp, transaction.atomic():
        path = Path(tmp) / "注册名单.csv"
        path.write_bytes(data)
        try:
            players = import_registration_list(path, actor="fuzzer", today=TODAY)
        except QiyuanError as exc:
            assert exc.problems
            for p in exc.problems:
                assert p.text() and p.file and Path(p.file).name == path.name, str(p)
            assert Player.objects.count() == before  # nothing of a refused list is registered
        else:
            assert Player.objects.count() == before + len(players)
            assert all(p.federation_id and p.name for p in players)
        transaction.set_rollback(True)


def check_mutated(data) -> None:
    _registered_or_refused(data.draw(mutate_bytes(seeds.registration_text())))  # (GB18030: the built lists)


def check_built(data) -> None:
    _registered_or_refused(data.draw(built_lists()))


@pytest.mark.parametrize("check", [check_mutated, check_built], ids=["mutated", "built"])
def test_registration_lists_register_or_are_refused(office, check):
    @FAST[check.__name__.removeprefix("check_")]
    @given(st.data())
    def run(data):
        check(data)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("check", [check_mutated, check_built], ids=["mutated", "built"])
def test_registration_lists_register_or_are_refused_hundreds(office, check):
    @SLOW
    @given(st.data())
    def run(data):
        check(data)

    run()


def test_a_built_list_can_register_and_can_be_refused(office):
    """The fuzz can fail both ways: a good list registers, a list with an unknown association is refused."""
    from qiyuan.office.federation.models import Player

    good = f"姓名,性别,身份证号,所属棋协\n张三,女,{VALUES['id_number'][0]},BJ\n".encode("gb18030")
    _registered_or_refused(good)
    bad = "name,gender,association\n李四,女,XX\n".encode()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "list.csv"
        path.write_bytes(bad)
        from qiyuan.office.registry import import_registration_list

        with pytest.raises(QiyuanError) as caught:
            import_registration_list(path, actor="t", today=TODAY)
    assert caught.value.problems[0].line == 2 and "XX" in caught.value.problems[0].text()
    assert not Player.objects.filter(name="李四").exists()
