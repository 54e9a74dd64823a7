"""Render the hall printouts and the competition report of a sample event to PNG (docs/img/).

A 40-player, 7-round Swiss event with Chinese names, associations kept apart in the first two
rounds, an excuse, a withdrawal and a late entry; then

* docs/img/pairing-list.png   — round 4's pairing list by board (``qiyuan event print … pairings``)
* docs/img/pairing-list-pinyin.png — the same round by name (pinyin) for the notice board
* docs/img/result-slips.png   — round 4's result slips (eight to a page, to cut and sign)
* docs/img/standings.png      — the standings after round 4 with the tie-breaks
* docs/img/report-results.png — the report workbook's 成绩 sheet as LibreOffice prints it (A4
  landscape, one page wide), via ``soffice --headless --convert-to pdf`` and ``pdftoppm``.

    .venv/bin/python scripts/render_docs_img.py
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

from qiyuan.formats import hall_pdf
from qiyuan.formats.report_xlsx import ReportMeta, write_report
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import keepapart
from qiyuan.tournament.model import Entrant

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰飞鹏辉建国志红俊峰云龙宇浩然子涵欣怡梓轩雨萱"
ASSOCIATIONS = ["北京", "上海", "天津", "江苏五子棋协会", "浙江", "广东", "四川", "湖北", "山东", "河南"]


def sample_event(rounds_played: int = 4):
    rng = random.Random(2026)
    t = ev.new_event("2026年全国五子棋公开赛", rounds=7, start=date(2026, 3, 15), end=date(2026, 3, 17),
                     city="北京", chief_arbiter="王裁判", arbiters=["李裁判", "赵裁判"], time_control="每方60分钟")
    for _ in range(40):
        name = rng.choice(SURNAMES) + rng.choice(GIVEN) + (rng.choice(GIVEN) if rng.random() < 0.6 else "")
        ev.add_player(t, Entrant(0, name, sex=rng.choice("mw"), rating=1700 + rng.randrange(800),
                                 federation=rng.choice(ASSOCIATIONS)))
    ev.draw_numbers(t, seed=20260315)
    keepapart.set_rule(t, "association", 2)
    ev.excuse(t, 5, [3, 4], "H")
    for rnd in range(1, rounds_played + 1):
        if rnd == 3:
            ev.withdraw(t, 9)
            ev.add_player(t, Entrant(0, "迟到者", sex="m", rating=1880, federation="北京"))
        p = ev.pair_next(t)
        if rnd < rounds_played:
            ev.enter_results(t, rnd, [(a, rng.choice(["1-0", "0-1", "1-0", "0-1", "½-½"])) for a, _ in p.boards])
    return t


def png(pdf: Path, out: Path, dpi: int = 80, page: int = 1) -> None:
    stem = out.with_suffix("")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "-f", str(page), "-l", str(page), str(pdf),
                    str(stem)], check=True)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    t = sample_event()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, what, kw in (("pairing-list", "pairings", {}), ("result-slips", "slips", {}),
                               ("standings", "standings", {"after": 3})):
            pdf = work / f"{name}.pdf"
            pdf.write_bytes(hall_pdf.document(t, what, **kw))
            png(pdf, OUT / f"{name}.png")
        pdf = work / "alpha.pdf"
        pdf.write_bytes(hall_pdf.document(t, "pairings", alphabetical=True))
        png(pdf, OUT / "pairing-list-pinyin.png", page=2)
        done = sample_event(rounds_played=7)
        ev.enter_results(done, 7, [(a, "1-0") for a, _ in ev.round_boards(done, 7)[0]])
        xlsx = work / "report.xlsx"
        write_report(done, xlsx, ReportMeta(organizer="中国围棋协会五子棋分会", host="北京棋院"))
        if not shutil.which("soffice"):
            sys.exit("soffice (LibreOffice) is needed for the report's page: bash scripts/system-deps.sh")
        subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{work / 'lo'}", "--convert-to", "pdf",
                        "--outdir", str(work), str(xlsx)], check=True, capture_output=True)
        png(work / "report.pdf", OUT / "report-results.png", dpi=90, page=2)
        png(work / "report.pdf", OUT / "report-event.png", dpi=60, page=1)
    print("\n".join(str(p) for p in sorted(OUT.glob("*.png"))))


if __name__ == "__main__":
    main()
