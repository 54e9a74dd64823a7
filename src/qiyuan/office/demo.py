"""The demo federation (演示棋协): a seeded synthetic history of several years, published and verified.

Built through the office's real paths: registered players (Chinese names,
valid resident ID numbers), the archive of past events imported as history
files into a CGA Gomoku list (lists in January and July) and a Go list (its
own calendar: January, May, September), every due list published; then a
new season arrives as competition report workbooks (matched to the registry
by ID number, eligibility checked) — under the example grant policy, with
grading standards recorded before the events, so the national championship's
placings earn grades (段级位); the championship was registered in the event
calendar beforehand, and its report is matched to that registration — its
list is published, and a late report
of an already-published period is rated by a correction edition. Finally
an upcoming national event is registered and approved (the public calendar
shows it), and every edition is verified. Seeded: the same seed gives the same
federation (the upcoming event's dates follow today's date).
"""

from __future__ import annotations

import csv
import hashlib
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from qiyuan.errors import NotFound
from qiyuan.formats import chain_head as H
from qiyuan.formats import signing
from qiyuan.formats.report_xlsx import ReportMeta, write_report
from qiyuan.office.bundles import build_all, bundle_dir
from qiyuan.office.heads import add_witness, sign_head
from qiyuan.office.event_registration import Details, approve_registration, register_event
from qiyuan.office.events.models import Event, Game
from qiyuan.office.exports import find_edition
from qiyuan.grading.policy import EXAMPLE_FILE, example_text
from qiyuan.office.federation.models import Arbiter, Association, Player, format_federation_id
from qiyuan.office.grades.grants import confirm_proposals
from qiyuan.office.grades.policies import install_policy
from qiyuan.office.grades.standards import record_standard
from qiyuan.office.imports import Options, import_file
from qiyuan.office.imports.parse import parse
from qiyuan.office import sheets
from qiyuan.office.periods import correct_period, publish_due
from qiyuan.office.ratings.models import Edition, RatingList
from qiyuan.office.setup import init_office
from qiyuan.office.signing_key import init_key, key_info
from qiyuan.office.verify import verify_all
from qiyuan.people.idnumber import check_character
from qiyuan.tournament.model import Entrant, RoundCell, Tournament

ACTOR = "demo"
#: the Go list's own calendar (the later Go practice): lists on 1 January, 1 May and 1 September,
#: cut-offs 31 December, 30 April and 31 August
GO_CALENDAR = "publication_months = [1, 5, 9]\n"
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵万钱严武戴莫孔向汤欧阳"
GIVEN_M = "伟强磊军洋勇杰涛明超刚鹏辉建国志宏文斌宇浩然子轩雨泽思远一鸣晓东海波俊峰天佑博文昊天逸凡浩宇明哲振华立新卫东"
GIVEN_F = "芳娜秀英敏静丽艳娟霞桂玉萍红玲芬燕欣怡子涵梓萱嘉琪雅婷佳怡晨曦紫萱诗琪梦瑶子墨若汐清扬书瑶安琪昕悦春梅秋月冬雪"
ASSOCIATIONS = (("BJ", "北京五子棋协会"), ("SH", "上海五子棋协会"), ("TJ", "天津五子棋协会"), ("ZJ", "浙江五子棋协会"),
                ("JS", "江苏五子棋协会"), ("GD", "广东五子棋协会"), ("SC", "四川五子棋协会"), ("HB", "湖北五子棋协会"))
REGIONS = {"BJ": "110105", "SH": "310104", "TJ": "120101", "ZJ": "330106", "JS": "320102", "GD": "440103",
           "SC": "510104", "HB": "420102"}
ARBITERS = (("周裁判", "national", True), ("吴裁判", "national", True), ("郑裁判", "first", True),
            ("钱裁判", "international", True))
CITIES = ("北京", "上海", "杭州", "南京", "广州", "成都", "武汉", "天津")


@dataclass
class DemoSummary:
    players: int = 0
    events: int = 0
    games: int = 0
    editions: int = 0
    lists: list[str] = field(default_factory=list)
    tops: dict[str, list[tuple]] = field(default_factory=dict)
    latest: dict[str, str] = field(default_factory=dict)
    verified: bool | None = False  # None: not checked (build_demo(verify=False))
    example_player: str = ""
    grading_events: list[str] = field(default_factory=list)  # the season's events with a grading standard
    grants: int = 0  # grades granted at the first of them
    certificate: str = ""  # the serial of one of those grants
    bundles: int = 0  # edition bundles built and signed
    witnessed: int = 0  # lists' heads countersigned by the demo's two witnesses


@dataclass
class _P:
    fid: str
    name: str
    gender: str
    strength: float
    assoc: str
    id_number: str
    birth: date
    dan: str = ""
    rating: int | None = None
    games: int = 0


def build_demo(*, seed: int = 2011, progress: Callable[[str, int, int], None] | None = None,
               bundles: bool = True, verify: bool = True) -> DemoSummary:
    """Build the demo office in the configured (empty) database and return what it holds; ``bundles``: with the
    federation's signing key (made unless there is one) and a signed bundle of every edition; ``verify``: every
    edition recomputed and checked at the end (``summary.verified``; off only where a test has checked it)."""
    step = progress or (lambda *a: None)
    rng = random.Random(seed)
    init_office(actor=ACTOR)
    _registry(rng)
    cga = RatingList.objects.get(code="CGA")
    go = RatingList.objects.get(code="GO")
    go.rules_overrides = GO_CALENDAR  # two list calendars side by side: CGA Jan/Jul, Go every four months
    go.save(update_fields=["rules_overrides"])
    gomoku_players, go_players = _players(rng)
    with tempfile.TemporaryDirectory(prefix="qiyuan-demo-") as tmp:
        tmp_path = Path(tmp)
        # The archive: 2019–2024 (first half), as history files.
        g_dir = _history(rng, tmp_path / "gomoku", gomoku_players, date(2019, 1, 1), date(2024, 6, 20), "GMK", 26)
        o_dir = _history(rng, tmp_path / "go", go_players, date(2019, 1, 1), date(2024, 6, 20), "WQ", 16, go=True)
        step("archive", 0, 2)
        import_file(g_dir, cga, ACTOR, kind="history")
        import_file(o_dir, go, ACTOR, kind="history")
        step("archive", 2, 2)
        publish_due(cga, ACTOR, progress=lambda n, t: step("CGA lists", n, t))
        publish_due(go, ACTOR, until=date(2024, 5, 1), progress=lambda n, t: step("Go lists", n, t))
        # The Go season's events (to 2024-12), and every due Go list to 1 January 2025.
        s_dir = _history(rng, tmp_path / "go-season", go_players, date(2024, 7, 1), date(2024, 12, 10), "WQS", 4,
                         go=True)
        import_file(s_dir, go, ACTOR, kind="history")
        publish_due(go, ACTOR, until=date(2025, 1, 1))

        # The new season: two national events arrive as competition reports. The federation's example grant
        # policy is in force, and each event's grading standard was recorded a month before it began.
        install_policy(example_text(), file=EXAMPLE_FILE, actor=ACTOR)
        season = [("2024年全国五子棋锦标赛", date(2024, 8, 10), 36, "swiss", 7),
                  ("2024年全国五子棋精英赛", date(2024, 10, 20), 10, "round_robin", 9)]
        graded = []
        for i, (name, start, n, fmt, rounds) in enumerate(season, start=1):
            record_standard(name, start, "national", rating_list=cga, actor=ACTOR, today=start - timedelta(days=30),
                            note="demo: published with the event's notice")
            path = _report(rng, tmp_path / f"report{i}.xlsx", name, start, gomoku_players, n, fmt, rounds)
            if i == 1:
                _registered_before(path, cga)
            result = import_file(path, cga, ACTOR, kind="report",
                                 options=Options(received_on=start + timedelta(days=9), confirm_all=True))
            graded += result.events
            step("reports", i, len(season) + 1)
        Event.objects.filter(pk=graded[0].pk).update(name_en="2024 National Gomoku Championship")
        # The championship is a grading event: its proposals are confirmed (the 10-player event is not: BJSH §9(一)).
        grants = confirm_proposals(graded[0], actor=ACTOR)
        publish_due(cga, ACTOR, until=date(2025, 1, 1))
        # A late report: it ended in June, after the list of 1 July had been published.
        late = _report(rng, tmp_path / "late.xlsx", "2024年全国五子棋团体锦标赛（个人成绩）", date(2024, 6, 22),
                       gomoku_players, 24, "swiss", 7)
        import_file(late, cga, ACTOR, kind="report",
                    options=Options(received_on=date(2024, 7, 20), confirm_all=True))
        correct_period(cga, date(2024, 7, 1), "late report: 2024年全国五子棋团体锦标赛 received 2024-07-20", ACTOR)
        step("reports", len(season) + 1, len(season) + 1)
    _upcoming(date.today())
    verified = verify_all(progress=lambda n, t, _edition: step("verify", n, t)).ok if verify else None
    summary = _summary(verified, gomoku_players)
    if bundles:  # the federation's key, and every edition as a bundle anyone can check (qiyuan verify-edition)
        try:
            key_info()
        except NotFound:
            init_key(ACTOR)
        summary.bundles = len(build_all(progress=lambda n, t, _what: step("bundles", n, t)))
        summary.witnessed = witness_heads()
    summary.grading_events = [e.code for e in graded]
    summary.grants = len(grants)
    summary.certificate = grants[0].serial if grants else ""
    return summary


#: the demo's two witnesses (another body countersigning each list's head with its own key): name, key seed
DEMO_WITNESSES = (("浙江省棋类协会（演示见证）", "demo-witness-zhejiang"), ("清华大学棋牌协会（演示见证）", "demo-witness-university"))


def witness_heads() -> int:
    """Each list's head signed now and countersigned by the demo's two witnesses (their keys made from fixed
    seeds — a demo's, never a real body's; their public keys written beside the countersignatures, for
    ``qiyuan verify-edition --chain … --witness``). The number of lists countersigned."""
    keys = [(name, Ed25519PrivateKey.from_private_bytes(hashlib.sha256(seed.encode()).digest()), seed)
            for name, seed in DEMO_WITNESSES]
    folder = bundle_dir() / "witnesses" / "keys"
    folder.mkdir(parents=True, exist_ok=True)
    for _name, key, seed in keys:
        (folder / f"{seed}.pub.pem").write_bytes(signing.public_pem(key.public_key()))
    done = 0
    for rl in RatingList.objects.order_by("code"):
        if not Edition.objects.filter(rating_list=rl).exists():
            continue
        head, _sig = sign_head(rl)
        for name, key, _seed in keys:
            add_witness(H.Countersignature(head, H.read_head(head), name, signing.public_pem(key.public_key()),
                                           signing.sign(key, head)).text())
        done += 1
    return done


# ---------------------------------------------------------------------------------------------- registry


def _registry(rng: random.Random) -> None:

    for code, name in ASSOCIATIONS:
        Association.objects.get_or_create(code=code, defaults={"name": name})
    for name, level, recognised in ARBITERS:
        Arbiter.objects.get_or_create(name=name, defaults={"level": level, "recognised_national": recognised})


def _id_number(region: str, born: date, gender: str, n: int) -> str:

    seq = (n * 2 + (1 if gender == "M" else 0)) % 1000
    first17 = f"{region}{born:%Y%m%d}{seq:03d}"
    return first17 + check_character(first17)


def _players(rng: random.Random) -> tuple[list[_P], list[_P]]:

    assoc = {a.code: a for a in Association.objects.all()}
    out_gomoku: list[_P] = []
    out_go: list[_P] = []
    names = set()
    rows = []
    for i in range(1, 421):
        gender = "F" if rng.random() < 0.3 else "M"
        while True:
            sur = rng.choice(SURNAMES[:-2]) if rng.random() < 0.97 else "欧阳"
            given = "".join(rng.choice(GIVEN_F if gender == "F" else GIVEN_M) for _ in range(rng.choice((1, 2, 2))))
            if sur + given not in names:
                names.add(sur + given)
                break
        code = rng.choice(list(REGIONS))
        born = date(rng.randint(1975, 2012), rng.randint(1, 12), rng.randint(1, 28))
        go = i > 300
        strength = rng.gauss(2000 if not go else 2350, 180)
        dan = ""
        if go:
            dan = f"{max(1, min(9, int((strength - 2200) / 40)))}d"
        elif rng.random() < 0.25:
            dan = f"{rng.randint(1, 5)}d"
        p = _P(format_federation_id(i), sur + given, gender, strength, code, _id_number(REGIONS[code], born, gender, i),
               born, dan)
        if not go and i <= 140:
            p.rating = int(round(strength / 10) * 10)
            p.games = rng.randint(10, 80)
        (out_go if go else out_gomoku).append(p)
        obj = Player(federation_id=p.fid, name=p.name, gender=gender, birth_date=born, id_number=p.id_number,
                     association=assoc[code], dan=dan, registered_on=date(2018, 12, 1))
        obj.refresh_name_keys()
        rows.append(obj)
    Player.objects.bulk_create(rows)
    return out_gomoku, out_go


# ---------------------------------------------------------------------------------------------- events


def _play(rng: random.Random, a: _P, b: _P) -> str:
    """A game's result from a's side, by the hidden strengths (Elo odds, one draw in ten)."""
    expected = 1 / (1 + 10 ** ((b.strength - a.strength) / 400))
    r = rng.random()
    if r < 0.1:
        return "0.5-0.5"
    return "1-0" if rng.random() < expected else "0-1"


def _swiss(rng: random.Random, field_: list[_P], rounds: int) -> list[tuple[int, _P, _P, str]]:
    """A simple Swiss draw (by score, avoiding repeats where it can) — demo data, not the pairing engine."""
    score = {p.fid: 0.0 for p in field_}
    met: set[tuple[str, str]] = set()
    games = []
    for rnd in range(1, rounds + 1):
        order = sorted(field_, key=lambda p: (-score[p.fid], rng.random()))
        if len(order) % 2:
            order = order[:-1]
        free = list(order)
        while free:
            a = free.pop(0)
            j = next((k for k, b in enumerate(free) if (a.fid, b.fid) not in met), 0)
            b = free.pop(j)
            met.update({(a.fid, b.fid), (b.fid, a.fid)})
            res = _play(rng, a, b)
            score[a.fid] += {"1-0": 1, "0-1": 0, "0.5-0.5": 0.5}[res]
            score[b.fid] += {"1-0": 0, "0-1": 1, "0.5-0.5": 0.5}[res]
            games.append((rnd, a, b, res))
    return games


def _round_robin(rng: random.Random, field_: list[_P]) -> list[tuple[int, _P, _P, str]]:
    """Berger rounds of a single round robin."""
    players = list(field_) + ([None] if len(field_) % 2 else [])
    n = len(players)
    games = []
    for rnd in range(1, n):
        for k in range(n // 2):
            a, b = players[k], players[n - 1 - k]
            if a is not None and b is not None:
                games.append((rnd, a, b, _play(rng, a, b)))
        players = [players[0], players[-1], *players[1:-1]]
    return games


def _history(rng: random.Random, out: Path, players: list[_P], first: date, last: date, prefix: str, per_year: int,
             *, go: bool = False) -> Path:
    out.mkdir(parents=True)
    with open(out / "players.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "gender", "dan", "rating", "games", "k_latched", "registered_on"])
        for p in players:
            w.writerow([p.fid, p.name, p.gender, p.dan, p.rating or "", p.games if p.rating else 0, 0, "2018-12-01"])
    events, games, standings = [], [], []
    day = first
    n = 0
    step = (last - first).days // max(1, per_year * ((last.year - first.year) + 1))
    while day < last:
        n += 1
        rr = rng.random() < 0.35
        size = rng.choice((8, 10, 12)) if rr else rng.randint(20, 48)
        field_ = rng.sample(players, min(size, len(players)))
        rounds = len(field_) - 1 if rr else (7 if len(field_) > 20 else 5)
        eid = f"{prefix}{day.year}-{n:03d}"
        end = day + timedelta(days=2 if rr else 3)
        kind = "循环赛" if rr else "公开赛"
        city = rng.choice(CITIES)
        events.append([eid, f"{day.year}年{city}{'围棋' if go else '五子棋'}{kind}（{n}）", day.isoformat(),
                       end.isoformat(), "round_robin" if rr else "swiss"])
        played = _round_robin(rng, field_) if rr else _swiss(rng, field_, rounds)
        pts = {p.fid: 0.0 for p in field_}
        for rnd, a, b, res in played:
            games.append([eid, rnd, a.fid, b.fid, res])
            pts[a.fid] += {"1-0": 1, "0-1": 0, "0.5-0.5": 0.5}[res]
            pts[b.fid] += {"1-0": 0, "0-1": 1, "0.5-0.5": 0.5}[res]
        for rank, fid in enumerate(sorted(pts, key=lambda f: (-pts[f], f)), start=1):
            standings.append([eid, fid, rank])
        day = end + timedelta(days=max(3, step + rng.randint(-5, 5)))
    for name, header, rows in (("events.csv", ["id", "name", "start_date", "end_date", "format"], events),
                               ("games.csv", ["event_id", "round", "player1", "player2", "result"], games),
                               ("standings.csv", ["event_id", "player_id", "rank"], standings)):
        with open(out / name, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)
    return out


def _report(rng: random.Random, path: Path, name: str, start: date, players: list[_P], size: int, fmt: str,
            rounds: int) -> Path:
    """A competition report workbook (our template) for a new event, written as an arbiter would."""
    field_ = rng.sample(players, size)
    played = _round_robin(rng, field_) if fmt == "round_robin" else _swiss(rng, field_, rounds)
    n_rounds = max(r for r, *_ in played)
    number = {p.fid: i for i, p in enumerate(field_, start=1)}
    cells: dict[str, list[RoundCell]] = {p.fid: [RoundCell(None, "-", "U") for _ in range(n_rounds)] for p in field_}
    back = {"1-0": ("1", "0"), "0-1": ("0", "1"), "0.5-0.5": ("=", "=")}
    for rnd, a, b, res in played:
        ra, rb = back[res]
        cells[a.fid][rnd - 1] = RoundCell(number[b.fid], "b", ra)
        cells[b.fid][rnd - 1] = RoundCell(number[a.fid], "w", rb)
    entrants = [Entrant(number=number[p.fid], name=p.name, sex="m" if p.gender == "M" else "w", title=p.dan,
                        rating=p.rating, federation=p.assoc, id_number=p.id_number, rounds=cells[p.fid])
                for p in field_]
    t = Tournament(name=name, city=rng.choice(CITIES), start_date=start, end_date=start + timedelta(days=3),
                   chief_arbiter=ARBITERS[0][0], deputy_arbiters=[ARBITERS[1][0], ARBITERS[2][0]],
                   time_control="每方60分钟", rounds_planned=n_rounds, entrants=entrants)
    write_report(t, path, ReportMeta(format=fmt, organizer="中国围棋协会五子棋分会", host="demo",
                                     report_date=start + timedelta(days=5),
                                     facts={"organiser_level": "state", "national": True, "international": False}))
    return path


# ---------------------------------------------------------------------------------------------- calendar


def _registered_before(path: Path, rating_list) -> None:
    """The season's championship was registered in the calendar (赛事注册) four months ahead and approved, so
    its report is matched to the registration and the public calendar links it to its results."""
    ev = parse("report", path, Options())
    applied = ev.start_date - timedelta(days=120)
    reg = register_event(Details(
        name=ev.name, list_code=rating_list.code, start_date=ev.start_date, end_date=ev.end_date, city=ev.city,
        rounds=ev.rounds, expected_players=len(ev.entrants), time_control=ev.time_control,
        chief_arbiter=ev.chief_arbiter, arbiters=tuple(ev.arbiters), format=ev.format, organiser=ev.organiser,
        organiser_level="state", national=True), actor=ACTOR, today=applied)
    approve_registration(reg.code, actor=ACTOR, today=applied)


def _upcoming(today: date) -> None:
    """An upcoming national round robin, registered and approved: the public calendar and its feed show it.
    (The docs register the next national championship by hand: ``docs/office.md``, "The event calendar".)"""
    start = today + timedelta(days=60)
    reg = register_event(Details(
        name=f"{start.year}年全国五子棋精英赛", name_en=f"{start.year} National Gomoku Masters", list_code="CGA",
        start_date=start, end_date=start + timedelta(days=4), city="杭州", rounds=9, expected_players=10,
        time_control="每方90分钟", chief_arbiter=ARBITERS[3][0], arbiters=(ARBITERS[0][0], ARBITERS[1][0]),
        format="round_robin", organiser="中国围棋协会五子棋分会", organiser_level="state", national=True),
        actor=ACTOR, today=today)
    approve_registration(reg.code, actor=ACTOR, today=today)


# ---------------------------------------------------------------------------------------------- summary


def _summary(verified: bool | None, gomoku: list[_P]) -> DemoSummary:

    s = DemoSummary(players=Player.objects.count(), events=Event.objects.count(), games=Game.objects.count(),
                    editions=Edition.objects.count(), verified=verified)
    for rl in RatingList.objects.order_by("code"):
        if not rl.editions.exists():
            continue
        s.lists.append(rl.code)
        ed = find_edition(rl)
        s.latest[rl.code] = f"{ed.list_date} #{ed.number}"
        cols = sheets.entries(ed, "rank", "federation_id", "name", "rating", "games", "status")
        s.tops[rl.code] = [row[:5] for row in zip(cols["rank"], cols["federation_id"], cols["name"], cols["rating"],
                                                  cols["games"], cols["status"]) if row[5] == "active"][:10]
    s.example_player = gomoku[0].fid
    return s
