"""The registry: registration checks, history, search (characters, pinyin, Latin), merge."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from qiyuan.office.audit.models import AuditLog
from qiyuan.office import registry as services
from qiyuan.office.federation.models import (
    Arbiter,
    AssociationChange,
    Club,
    DanGrant,
    NameChange,
    Player,
    mask_id_number,
)
from qiyuan.office.registry import RegistryError

pytestmark = pytest.mark.django_db
TODAY = date(2026, 11, 30)


# -- registration ---------------------------------------------------------------------------


def test_register_generates_federation_id_pinyin_and_audit(make_player):
    a = make_player("张三")
    b = make_player("李四")
    assert (a.federation_id, b.federation_id) == ("CN000001", "CN000002")
    assert a.name_pinyin == "zhang san"
    assert a.association.code == "BJ"
    entry = AuditLog.objects.get(action="player.register", object_id=str(a.pk))
    assert entry.actor == "test" and entry.object_type == "federation.player"


def test_federation_ids_continue_after_the_highest(make_player):
    Player.objects.create(name="旧棋手", gender="M", federation_id="CN000099")
    assert make_player("新棋手").federation_id == "CN000100"


def test_register_takes_birth_date_and_gender_from_a_valid_id(make_player, resident_id):
    number = resident_id(date(2010, 3, 4), "F")
    p = make_player("王芳", gender=None, id_number=number)
    assert p.birth_date == date(2010, 3, 4) and p.gender == "F" and p.birth_year == 2010


def test_cga_art_11_report_needs_id_number_checked_against_record(make_player, resident_id):
    """Art. 11(一): the report gives name, gender and ID number; they must agree."""
    number = resident_id(date(2000, 1, 1), "M")
    with pytest.raises(RegistryError) as caught:
        make_player("李娜", gender="F", birth_date=date(2000, 1, 2), id_number=number)
    problems = caught.value.messages
    assert any("gender digit" in p for p in problems)
    assert any("differs from the record" in p for p in problems)
    assert Player.objects.count() == 0


def test_register_lists_every_problem_at_once(make_association):
    make_association("BJ")
    with pytest.raises(RegistryError) as caught:
        services.register_player(
            name=" ", gender="X", id_number="110105194912310021", association="ZZ", dan="11d",
            nationality="China", reference_rating="abc", actor="t", today=TODAY,
        )
    problems = caught.value.messages
    for fragment in ("name is empty", "gender 'X'", "check digit", "unknown association 'ZZ'", "dan '11d'",
                     "nationality", "reference rating 'abc'", "without its source"):
        assert any(fragment in p for p in problems), (fragment, problems)


def test_register_refuses_an_id_number_already_registered(make_player, resident_id):
    number = resident_id(date(1990, 5, 5), "M")
    first = make_player("张三", id_number=number)
    with pytest.raises(RegistryError) as caught:
        make_player("张叁", id_number=number)
    assert caught.value.messages == [f"ID number already registered to {first.federation_id} 张三"]


def test_id_number_unique_only_when_not_blank(make_player):
    make_player("甲", id_number="")
    make_player("乙", id_number="")
    assert Player.objects.filter(id_number="").count() == 2


def test_passport_holders_get_a_format_check(make_player):
    p = make_player("Alice Smith", gender="F", id_type="passport", id_number="E1234567", nationality="GBR",
                    reference_rating=Decimal("2105.5"), reference_rating_source="RIF")
    assert p.reference_rating == Decimal("2105.50") and p.name_pinyin == "alice smith"
    with pytest.raises(RegistryError):
        make_player("Bob", id_type="passport", id_number="E1")


def test_club_must_belong_to_the_association(make_player, make_association):
    sh = make_association("SH")
    Club.objects.create(name="浦东五子棋俱乐部", association=sh)
    with pytest.raises(RegistryError) as caught:
        make_player("张三", association="BJ", club="浦东五子棋俱乐部")
    assert "belongs to association SH" in caught.value.messages[0]
    p = make_player("张三", association="SH", club="浦东五子棋俱乐部")
    assert p.club.association == sh


def test_masked_id_number_and_display_name(make_player, resident_id):
    assert mask_id_number("11010519491231002X") == "110105********002X"
    assert mask_id_number("E1234567") == "E1****67"
    assert mask_id_number("") == ""
    p = make_player("张三", name_latin="Zhang San", id_number=resident_id(date(1990, 1, 1), "M"))
    assert p.masked_id_number.startswith("110105********") and "19900101" not in p.masked_id_number
    assert p.display_name == "张三 (Zhang San)"


# -- history (CGA Art. 11(四)) ------------------------------------------------------------------


def test_cga_art_11_4_name_change_is_kept_as_history(make_player):
    p = make_player("张三")
    services.rename_player(p, "张叁", actor="officer", changed_on=date(2024, 6, 1), reason="户口更名")
    p.refresh_from_db()
    assert p.name == "张叁" and p.name_pinyin == "zhang san"
    assert services.names_known(p) == {"张三", "张叁"}
    assert services.name_on(p, date(2024, 5, 31)) == "张三"
    assert services.name_on(p, date(2024, 6, 1)) == "张叁"
    assert AuditLog.objects.filter(action="player.rename").count() == 1


def test_cga_art_11_4_association_change_is_kept_as_history(make_player, make_association):
    p = make_player("张三", association="BJ")
    sh = make_association("SH")
    services.change_association(p, "SH", actor="officer", changed_on=date(2025, 1, 1))
    p.refresh_from_db()
    assert p.association == sh
    assert services.association_on(p, date(2024, 12, 31)).code == "BJ"
    assert services.association_on(p, date(2025, 1, 1)).code == "SH"
    history = services.player_history(p)
    assert [(h.kind, h.text) for h in history] == [("association", "BJ → SH")]


def test_change_to_the_same_association_or_an_unknown_one_is_refused(make_player):
    p = make_player("张三", association="BJ")
    with pytest.raises(RegistryError):
        services.change_association(p, "BJ", actor="t")
    with pytest.raises(RegistryError) as caught:
        services.change_association(p, "XX", actor="t")
    assert caught.value.messages == ["unknown association 'XX'"]
    assert AssociationChange.objects.count() == 0


def test_bjsh_13_dan_grant_records_body_and_date(make_player):
    p = make_player("张三")
    services.grant_dan(p, "2d", granted_on=date(2022, 1, 1), granted_by="中国棋院", actor="t")
    services.grant_dan(p, "1d", granted_on=date(2020, 1, 1), granted_by="RIF", actor="t")
    p.refresh_from_db()
    assert p.dan == "2d"  # the latest grant
    assert [h.text for h in services.player_history(p)] == ["1d (RIF)", "2d (中国棋院)"]
    with pytest.raises(RegistryError) as caught:
        services.grant_dan(p, "10d", granted_on=date(2023, 1, 1), granted_by="", actor="t")
    assert len(caught.value.messages) == 2


def test_update_identity_rechecks_the_id(make_player, resident_id):
    p = make_player("张三", id_number=resident_id(date(1990, 1, 1), "M"))
    with pytest.raises(RegistryError):
        services.update_identity(p, actor="t", birth_date=date(1991, 1, 1))
    services.update_identity(p, actor="t", birth_date=date(1991, 1, 1), id_number=resident_id(date(1991, 1, 1), "M"))
    p.refresh_from_db()
    assert p.birth_date == date(1991, 1, 1)


# -- search -----------------------------------------------------------------------------------


@pytest.fixture
def roster(make_player):
    return {
        "zs": make_player("张三", name_latin="Zhang San"),
        "zss": make_player("张三丰"),
        "lxj": make_player("吕小军"),
        "sxx": make_player("单雄信"),
        "alice": make_player("Alice Wang", gender="F", id_type="passport", nationality="USA"),
    }


def ids(players):
    return [p.name for p in players]


@pytest.mark.parametrize(
    "query, expected_first",
    [
        ("张三", "张三"),
        ("zhangsan", "张三"),
        ("zhang san", "张三"),
        ("ZhangSan", "张三"),
        ("zs", "张三"),
        ("Zhang San", "张三"),
        ("zsf", "张三丰"),
        ("lvxiaojun", "吕小军"),
        ("lü xiao jun", "吕小军"),
        ("shanxiongxin", "单雄信"),  # 单 as a surname is read shàn
        ("alice", "Alice Wang"),
        ("CN000003", "吕小军"),
    ],
)
def test_search_by_characters_pinyin_initials_latin_and_id(roster, query, expected_first):
    found = services.search_players(query)
    assert found and found[0].name == expected_first, ids(found)


def test_search_ranks_exact_before_prefix(roster):
    assert ids(services.search_players("张三")) == ["张三", "张三丰"]
    assert ids(services.search_players("zhangsan")) == ["张三", "张三丰"]


def test_search_finds_former_names_and_hides_merged(roster):
    services.rename_player(roster["zs"], "张叁", actor="t")
    assert ids(services.search_players("张三"))[0] == "张叁"
    services.merge_players(roster["zss"], roster["lxj"], "t", force=True)
    # the duplicate's record is hidden; its name now leads to the record kept
    assert ids(services.search_players("吕小军")) == ["张三丰"]
    assert sorted(ids(services.search_players("吕小军", include_merged=True))) == ["吕小军", "张三丰"]


def test_search_by_id_number_is_staff_only(make_player, resident_id):
    number = resident_id(date(1990, 1, 1), "M")
    make_player("张三", id_number=number)
    assert services.search_players(number) == []
    assert ids(services.search_players(number, staff=True)) == ["张三"]


def test_find_player_by_id_or_unique_name(roster, make_player):
    assert services.find_player("cn000001").name == "张三"
    assert services.find_player("吕小军").federation_id == "CN000003"
    make_player("吕小军")
    with pytest.raises(RegistryError, match="2 players are named"):
        services.find_player("吕小军")
    with pytest.raises(RegistryError, match="no player"):
        services.find_player("无名氏")


def test_a_federation_id_taken_concurrently_is_retried(make_player, monkeypatch):
    from qiyuan.office.federation import models as federation_models

    make_player("甲")
    real = federation_models.next_federation_id
    stale = iter(["CN000001"])  # what a concurrent registration had already taken
    monkeypatch.setattr(federation_models, "next_federation_id", lambda: next(stale, None) or real())
    assert make_player("乙").federation_id == "CN000002"


# -- Django admin: the one staff screen with full ID numbers ------------------------------------------------


def test_admin_lists_players_with_id_numbers_and_the_audit_log_read_only(admin_client, make_player, resident_id):
    number = resident_id(date(1990, 1, 1), "M")
    p = make_player("张三", id_number=number)
    page = admin_client.get("/admin/federation/player/?q=zhangsan")
    assert page.status_code == 200 and "张三" in page.content.decode()
    change = admin_client.get(f"/admin/federation/player/{p.pk}/change/")
    assert change.status_code == 200 and number in change.content.decode()
    assert admin_client.get("/admin/audit/auditlog/").status_code == 200
    assert admin_client.get("/admin/audit/auditlog/add/").status_code == 403
    entry = AuditLog.objects.first()
    assert admin_client.post(f"/admin/audit/auditlog/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert AuditLog.objects.filter(pk=entry.pk).exists()
