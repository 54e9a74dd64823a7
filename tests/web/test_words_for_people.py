"""Grades in words wherever a person reads them (issue 24, item 2): list and search pages, the list's XLSX, TXT
and PDF, the competition report (初段, 四段, not 1段/4段) — codes only in files meant for programs (CSV, JSON) —;
the list's XLSX set up to print (item 5); a correction carried forward explained in the page's language."""

from __future__ import annotations

import io

import pytest

pytestmark = pytest.mark.django_db


def _dan_player(published):
    p = next(p for p in published["players"] if p.dan)
    return p


def test_list_and_search_pages_show_grades_in_words(client, published):
    from qiyuan.people.grades import GRADE_EN, GRADE_ZH

    p = _dan_player(published)
    for language, words in (("zh-hans", GRADE_ZH), ("en", GRADE_EN)):
        client.cookies["django_language"] = language
        for url in ("/lists/gomoku/2026-01-01/", f"/players/?q={p.federation_id}"):
            html = client.get(url).content.decode()
            assert f">{words[p.dan]}<" in html, (language, url)
            assert f">{p.dan}<" not in html, (language, url)


def test_the_list_xlsx_has_words_and_prints_one_page_wide_with_a_repeated_frozen_heading(client, published):
    from openpyxl import load_workbook

    from qiyuan.people.grades import GRADE_ZH

    p = _dan_player(published)
    r = client.get("/lists/gomoku/2026-01-01/2/download.xlsx")
    ws = load_workbook(io.BytesIO(b"".join(r) if r.streaming else r.content)).active
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    assert rows[2][:3] == ["序", "名次", "编号"] and rows[1][2] == "第 2 版"
    mine = next(row for row in rows[3:] if row[2] == p.federation_id)
    assert mine[8] == GRADE_ZH[p.dan] and mine[5] in ("男", "女") and mine[12] in ("活跃", "不活跃", "除名", "无等级分")
    assert ws.page_setup.orientation == "landscape" and ws.page_setup.fitToWidth == 1
    assert ws.page_setup.fitToHeight == 0 and ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_title_rows == "$3:$3" and ws.freeze_panes == "A4"


def test_the_list_txt_writes_grades_in_words_and_the_csv_keeps_codes(client, published):
    from qiyuan.people.grades import GRADE_ZH

    p = _dan_player(published)
    txt = b"".join(client.get("/lists/gomoku/2026-01-01/2/download.txt")).decode()
    line = next(x for x in txt.splitlines() if p.federation_id in x)
    assert GRADE_ZH[p.dan] in line
    csv = b"".join(client.get("/lists/gomoku/2026-01-01/2/download.csv")).decode("utf-8-sig")
    assert f",{p.dan}," in next(x for x in csv.splitlines() if p.federation_id in x)


@pytest.mark.parametrize("code, words", [("1d", "初段"), ("4d", "四段"), ("2k", "二级"), ("", "")])
def test_the_report_writes_grades_as_the_texts_do_and_reads_them_back(code, words):
    from qiyuan.formats.report_xlsx import title_code, title_text

    assert title_text(code) == words and title_code(words) == code
    assert title_code("4段") == "4d" and title_code("1段") == "1d"  # reports written before still read


def test_a_carried_correction_reads_in_the_page_language(client, published):
    from qiyuan.office.periods import CARRIED_PREFIX
    from qiyuan.office.ratings.models import Edition

    ed = Edition.objects.get(rating_list__code="gomoku", list_date="2026-01-01", number=2)
    Edition.objects.filter(pk=ed.pk).update(reason=CARRIED_PREFIX.format(date="2025-07-01") + "录入错误")
    client.cookies["django_language"] = "en"
    html = client.get("/lists/gomoku/2026-01-01/2/").content.decode()
    assert "Recomputed after the correction of 2025-07-01: " in html and '<span lang="zh-Hans">录入错误</span>' in html
    client.cookies["django_language"] = "zh-hans"
    assert "随 2025-07-01 的更正而重算：录入错误" in client.get("/lists/gomoku/2026-01-01/2/").content.decode()
    api = client.get("/api/v1/lists/gomoku/editions/2026-01-01/2").json()
    assert api["reason"] == "Recomputed after the correction of 2025-07-01: 录入错误"


def test_the_crosstable_names_associations_not_codes(client, published):
    from qiyuan.office.events.models import Entry
    from qiyuan.office.federation.models import Association

    a = Association.objects.get(code="BJ")
    Entry.objects.filter(event=published["event"]).update(association="BJ")
    html = client.get(f"/events/{published['event'].code}/?fresh=1").content.decode()
    table = html[html.index('id="crosstable-table"'):html.index("</table>", html.index('id="crosstable-table"'))]
    assert a.name in table and ">BJ<" not in table
