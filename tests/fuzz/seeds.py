"""Real inputs of every format the project reads, to be mutated: the shared TRF and OpenGotha files, a
competition report written by the project, a history directory and a registration list."""

from __future__ import annotations

import functools
import tempfile
from datetime import date, timedelta
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def trf_files() -> list[bytes]:
    return [p.read_bytes() for p in sorted((SHARED / "data" / "trf").glob("*.trf"))]


def opengotha_files() -> list[bytes]:
    """The real OpenGotha files and the cases derived from them (teams, both-win, criteria, Chinese names)."""
    cases = Path(__file__).resolve().parents[1] / "formats" / "opengotha_cases"
    return [p.read_bytes() for p in sorted((SHARED / "data" / "opengotha").glob("*.xml"))] + \
        [p.read_bytes() for p in sorted(cases.glob("*.xml"))]


def h9_files() -> list[bytes]:
    """The shared .h9 and the Chinese-named, both-results cases written as .h9 (a jigo, ``!``, ``?`` in them)."""
    from qiyuan.formats.h9 import write_h9
    from qiyuan.formats.opengotha import gotha_event, read_opengotha

    cases = Path(__file__).resolve().parents[1] / "formats" / "opengotha_cases"
    made = [write_h9(gotha_event(read_opengotha(cases / name)), pins=True)
            for name in ("both-results.xml", "chinese-names.xml", "criteria-nbw-sosw-exr-rating.xml")]
    return [p.read_bytes() for p in sorted((SHARED / "data" / "opengotha").glob("*.h9"))] + made


def resident_id(born: date, gender: str, n: int) -> str:
    from qiyuan.people.idnumber import check_character

    first17 = "110105" + born.strftime("%Y%m%d") + f"{(2 * n + (1 if gender == 'M' else 0)) % 1000:03d}"
    return first17 + check_character(first17)


def report_players(n: int = 12) -> list[tuple[str, str, str, str]]:
    out = []
    for i in range(n):
        sex = "w" if i % 3 == 0 else "m"
        out.append((f"选手{'甲乙丙丁戊己庚辛壬癸子丑'[i]}", sex, resident_id(date(2005, 1, 1 + i), "F" if sex == "w" else "M", i),
                    "BJ" if i % 2 else "SH"))
    return out


@functools.cache
def report_bytes() -> bytes:
    """A 12-player, 5-round Swiss report (竞赛报告) as the project writes it."""
    from qiyuan.formats.report_xlsx import ReportMeta, write_report
    from qiyuan.tournament.model import Entrant, RoundCell, Tournament

    players = report_players()
    n, rounds = len(players), 5
    cells = {i: [] for i in range(1, n + 1)}
    for rnd in range(1, rounds + 1):
        order = list(range(1, n + 1))
        k = rnd % (n - 1) + 1
        order = [order[0]] + order[k:] + order[1:k]
        for a, b in zip(order[: n // 2], reversed(order[n // 2:])):
            res_a = "1" if (a + b + rnd) % 3 else "="
            cells[a].append(RoundCell(b, "b", res_a))
            cells[b].append(RoundCell(a, "w", {"1": "0", "=": "="}[res_a]))
    entrants = [Entrant(number=i, name=nm, sex=sx, title="", rating=None, federation=assoc, id_number=idn,
                        rounds=cells[i]) for i, (nm, sx, idn, assoc) in enumerate(players, start=1)]
    first = entrants[0]  # the 棋手资料 sheet is fuzzed too: a birth date (the ID number's) and a nationality
    first.birth, first.nationality = f"{first.id_number[6:10]}/{first.id_number[10:12]}/{first.id_number[12:14]}", "CHN"
    start = date(2024, 8, 10)
    t = Tournament(name="2024年全国五子棋锦标赛", city="北京", start_date=start, end_date=start + timedelta(3),
                   chief_arbiter="周裁判", deputy_arbiters=["吴裁判"], time_control="每方60分钟", rounds_planned=rounds,
                   entrants=entrants)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.xlsx"
        write_report(t, path, ReportMeta(format="swiss", organizer="中国围棋协会五子棋分会"))
        return path.read_bytes()


@functools.cache
def history_files() -> dict[str, bytes]:
    """players.csv, events.csv, games.csv, standings.csv of a small seeded history."""
    import random

    from qiyuan.office.demo import _P, _history

    rng = random.Random(5)
    players = []
    for i in range(1, 25):
        p = _P(f"T{i:05d}", f"棋手{chr(0x4E00 + i * 37)}", "F" if i % 4 == 0 else "M", 1900 + i * 7, "BJ", "",
               date(2000, 1, 1), "")
        if i <= 12:
            p.rating, p.games = 1800 + i * 10, 40
        players.append(p)
    with tempfile.TemporaryDirectory() as tmp:
        d = _history(rng, Path(tmp) / "h", players, date(2019, 1, 1), date(2019, 12, 1), "H", 4)
        return {f.name: f.read_bytes() for f in sorted(d.iterdir()) if f.suffix == ".csv"}


def registration_text() -> bytes:
    rows = ["姓名,性别,出生日期,证件类型,身份证号,所属棋协,段位,注册日期"]
    for i, (name, sex, idn, assoc) in enumerate(report_players(8)):
        rows.append(f"{name}{i},{'女' if sex == 'w' else '男'},,身份证,{idn},{assoc},{i % 3 + 1}段,2024-01-0{i % 9 + 1}")
    rows.append("Alice Smith,F,2001/2/3,护照,E1234567,SH,3级,")
    return ("\n".join(rows) + "\n").encode("utf-8")


@functools.cache
def trf26_files() -> tuple[bytes, ...]:
    """TRF26 files qiyuan writes (generated events of every system: scoring, types, teams, Go tie-break
    order, keep-apart) and the real TRF files written back as TRF26."""
    from qiyuan.formats.trf import read_trf, write_trf
    from qiyuan.tournament.check.generate import GENERATED, generate_event

    made = [write_trf(generate_event(system, 7), trf26=True).encode() for system in GENERATED]
    real = [write_trf(read_trf(p), trf26=True).encode() for p in sorted((SHARED / "data" / "trf").glob("*.trf"))]
    return tuple(made + real[:1])
