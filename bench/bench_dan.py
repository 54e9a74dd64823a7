"""Dan and kyu benchmark: proposals and grants of a large open event, beside its import (the baseline).

    python bench/bench_dan.py [--players 600] [--history 20000] [--seed 1]            # SQLite
    bash scripts/with-postgres.sh .venv/bin/python bench/bench_dan.py                 # PostgreSQL

Builds a fresh office (a SQLite file in a temporary directory, or the PostgreSQL
database of ``DATABASE_URL``) with ``--players`` registered players, ``--history``
grants already recorded among them (so each proposal reads a real grade history),
and a policy whose table grades every placing; records the event's standard,
imports its competition report (a 9-round Swiss of every player) — the baseline —
then times ``dan propose`` (read only), confirming every proposal (one audited
grant each, with its certificate serial), the proposal again (all granted), one
certificate PDF, and the player page with the grade history. Prints each figure
beside the import's time measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

POLICY = '''name = "bench"
federation = "演示五子棋协会"
serial_prefix = "B-"
[[cap]]
since = "2000-01-01"
grade = "9d"
[conditions]
max_unrated_share = "100%"
[[body]]
name = "中国棋院"
[[class]]
name = "open"
[class.open]
"1" = "9d"
"2-5" = "7d"
"6-50" = "5d"
"51-200" = "3d"
"201-9999" = "1k"
'''


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=600)
    ap.add_argument("--history", type=int, default=20_000, help="grants recorded before the event")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="qiyuan-bench-dan-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "qiyuan.web.settings")
    if "DATABASE_URL" not in os.environ:
        os.environ["QIYUAN_HOME"] = str(work)
        (work / "var").mkdir(exist_ok=True)
    sys.path.insert(0, str(REPO / "src"))
    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    from qiyuan.office import demo
    from qiyuan.office.federation.models import DanGrant, Player
    from qiyuan.office.grades.certificates import certificate_pdf
    from qiyuan.office.grades.grants import confirm_proposals
    from qiyuan.office.grades.policies import install_policy
    from qiyuan.office.grades.proposals import event_proposal
    from qiyuan.office.grades.standards import record_standard
    from qiyuan.office.imports import Options, import_file
    from qiyuan.office.ratings.models import RatingList
    from qiyuan.office.setup import init_office
    from qiyuan.people.idnumber import check_character

    rng = random.Random(args.seed)
    init_office(actor="bench")
    demo._registry(rng)
    players = []
    rows = []
    for i in range(1, args.players + 1):
        gender = "F" if i % 4 == 0 else "M"
        born = date(1970 + i % 40, 1 + i % 12, 1 + i % 28)
        first17 = f"110105{born:%Y%m%d}{(2 * i + (gender == 'M')) % 1000:03d}"
        p = demo._P(f"CN{i:06d}", f"棋手{chr(0x4E00 + i % 20000)}{chr(0x4E00 + (7 * i) % 20000)}", gender,
                    rng.gauss(2000, 200), "BJ", first17 + check_character(first17), born)
        players.append(p)
        rows.append(Player(federation_id=p.fid, name=p.name, gender=gender, birth_date=born, id_number=p.id_number,
                           registered_on=date(2010, 1, 1)))
    for r in rows:
        r.refresh_name_keys()
    Player.objects.bulk_create(rows)
    pks = list(Player.objects.values_list("pk", flat=True))
    history = []
    for n in range(args.history):  # earlier grades, oldest first, each player's rising
        pk = rng.choice(pks)
        history.append(DanGrant(player_id=pk, grade=rng.choice(["3k", "2k", "1k"]),
                                granted_on=date(2005, 1, 1) + timedelta(days=n % 5000), granted_by="中国棋院"))
    DanGrant.objects.bulk_create(history)
    install_policy(POLICY, file="bench.toml", actor="bench")
    start = date(2024, 8, 10)
    name = "2024年全国五子棋公开赛"
    record_standard(name, start, "open", actor="bench", today=start - timedelta(days=30))
    cga = RatingList.objects.get(code="CGA")
    report = demo._report(rng, work / "open.xlsx", name, start, players, len(players), "swiss", 9)
    print(f"bench_dan: {args.players} players, {args.history} earlier grants, {connection.vendor}; "
          "a shared machine (figures are upper bounds)")

    t = time.perf_counter()
    ev = import_file(report, cga, "bench", kind="report", options=Options(
        received_on=start + timedelta(days=9), confirm_all=True, organiser_level="state", national=True,
        international=False, agreed_by_parties=False, dan_event=False)).events[0]
    t_import = time.perf_counter() - t
    print(f"  baseline: import of the event's report           {t_import:7.2f} s")

    t = time.perf_counter()
    prop = event_proposal(ev).proposal
    t_propose = time.perf_counter() - t
    assert prop.grading_event, [str(f) for f in prop.failures]
    print(f"  propose ({len(prop.grants)} grants proposed)              {t_propose:7.2f} s  "
          f"({t_propose / t_import:.2f} × the import)")

    t = time.perf_counter()
    grants = confirm_proposals(ev, actor="bench")
    t_confirm = time.perf_counter() - t
    print(f"  confirm all ({len(grants)} audited grants, serials)   {t_confirm:7.2f} s  "
          f"({t_confirm / t_import:.2f} × the import; {1000 * t_confirm / max(1, len(grants)):.1f} ms a grant)")

    t = time.perf_counter()
    again = event_proposal(ev).proposal
    t_again = time.perf_counter() - t
    assert not again.grants
    print(f"  propose again (all granted)                   {t_again:7.2f} s")

    t = time.perf_counter()
    pdf = certificate_pdf(grants[0].serial)
    t_pdf = time.perf_counter() - t
    print(f"  one certificate PDF ({len(pdf) // 1024} KB)                   {1000 * t_pdf:7.1f} ms")

    busiest = DanGrant.objects.values("player_id").order_by().annotate(n=django.db.models.Count("id")) \
        .order_by("-n").first()
    fid = Player.objects.get(pk=busiest["player_id"]).federation_id
    client = Client()
    client.get(f"/players/{fid}/")  # warm
    t = time.perf_counter()
    for _ in range(20):
        assert client.get(f"/players/{fid}/").status_code == 200
    t_page = (time.perf_counter() - t) / 20
    print(f"  player page with {busiest['n']} grants in its history        {1000 * t_page:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
