"""The player page shows the grade history (grade, date, body, event) in both languages; grades read 三段 on a
Chinese page and 3 dan on an English one."""

from __future__ import annotations

from datetime import date

import pytest

from qiyuan.office.federation.models import Player
from qiyuan.office.grades.grants import confirm_proposals, grant_grade
from tests.office._dan_fixtures import NAME, imported_event, office  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db


def test_the_player_page_shows_his_grade_history_in_both_languages(client, office, tmp_path, resident_id):  # noqa: F811
    ev = imported_event(tmp_path, resident_id)
    ev.name_en = "2024 National Gomoku Championship"
    ev.save(update_fields=["name_en"])
    confirm_proposals(ev, actor="officer")
    p = Player.objects.get(entries__event=ev, entries__rank=3)
    grant_grade(p, "3d", granted_on=date(2020, 5, 1), granted_by="RIF", actor="officer")
    text = client.get(f"/players/{p.federation_id}/").content.decode()
    assert "段级位记录" in text and 'id="grades"' in text
    assert "2020-05-01" in text and "RIF" in text and "三段" in text
    assert "2024-08-13" in text and "演示五子棋协会" in text and "四段" in text and NAME in text
    assert f'href="/events/{ev.code}/"' in text
    client.get("/language/en/")
    text = client.get(f"/players/{p.federation_id}/").content.decode()
    assert "Dan and kyu grades" in text and "4 dan" in text and "3 dan" in text and "段级位记录" not in text
    assert "2024 National Gomoku Championship" in text and "三段" not in text


def test_a_player_without_grants_shows_no_grade_section(client, make_player):
    p = make_player("王五", dan="2d")
    text = client.get(f"/players/{p.federation_id}/").content.decode()
    assert "二段" in text and 'id="grades"' not in text


def test_a_grant_moves_the_player_into_the_lists_grade_filter(client, published):
    """Lists filter by the grade on the player's record — after a grant, his new grade."""
    c = published["players"][2]  # 王芳, registered 2k
    url = "/lists/gomoku/2026-01-01/"
    assert "王芳" in client.get(url + "?dan=2k").content.decode()
    grant_grade(c, "1d", granted_on=date(2026, 2, 1), granted_by="中国棋院", actor="officer")
    assert "王芳" not in client.get(url + "?dan=2k").content.decode()
    assert "王芳" in client.get(url + "?dan=1d").content.decode()
    assert "王芳" in client.get(url + "?dan=dan").content.decode()
