"""Starting an office from an existing list (起始名册): the federation's last published list becomes the list's
first edition, so the first report is rated against it.

``seed_list`` reads the list (``formats.seed_list``: federation ID, name, rating, games), registers the players
the registry does not hold under their own federation IDs (one already registered must carry the same name),
makes them members of the rating list with their rating and games, and publishes the list's first edition on
the given publication date like any other (its digest starts the chain the verification kit publishes). One
transaction under the registry's and the list's locks; a refused file writes nothing but its rejected-report
record; the same file is never seeded twice (its digest is an import batch's).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from qiyuan.errors import InputError, problem
from qiyuan.formats.seed_list import read_seed_list
from qiyuan.office.audit.models import record
from qiyuan.office.db import REGISTRY, rating_list_lock, writing
from qiyuan.office.errors import ImportRefused
from qiyuan.office.events.models import ImportBatch
from qiyuan.office.federation.models import Player
from qiyuan.office.imports.identity import file_digest
from qiyuan.office.imports.rejected import reject
from qiyuan.office.periods import _store, check_list_date, compute_period
from qiyuan.office.ratings.models import ListMember
from qiyuan.rating.calendar import previous_publication_date

KIND = "list"


def seed_list(path: str | Path, rating_list, list_date: date, actor: str, *, today: date | None = None):
    """Publish ``rating_list``'s first edition on ``list_date`` from the list file at ``path``; returns it.
    Raises ``ImportRefused`` with every problem (the file is kept as a rejected report)."""
    path = Path(path)
    if not path.is_file():
        raise ImportRefused([problem("no such file", code="seed.file", file=path.name)])
    sha = file_digest(path)
    try:
        with writing(REGISTRY, rating_list_lock(rating_list.code)):
            return _seed(path, sha, rating_list, list_date, actor, today or date.today())
    except ImportRefused as exc:
        reject(KIND, path, sha, actor, rating_list, "", exc.problems)
        exc.rejected = True
        raise


def _seed(path: Path, sha: str, rl, list_date: date, actor: str, today: date):
    rules = rl.rules()
    problems = []
    try:
        check_list_date(rules, list_date)
    except Exception as exc:  # noqa: BLE001 - the office's refusal of a date that is not a publication date
        problems.extend(getattr(exc, "problems", [str(exc)]))
    if list_date > today:
        problems.append(problem("the list of {date} cannot be published before that date", code="seed.date",
                                date=list_date))
    if rl.editions.exists():
        problems.append(problem("list {list} is published already: a list is seeded only before its first edition",
                                code="seed.published", list=rl.code))
    early = rl.events.filter(end_date__lt=list_date).order_by("end_date").first()
    if early is not None:
        problems.append(problem("list {list} holds event {event} (ended {end}) before the seeded list's date {date}: "
                                "the seeded list would never rate it", code="seed.events", list=rl.code,
                                event=early.code, end=early.end_date, date=list_date))
    earlier = ImportBatch.objects.filter(sha256=sha).first()
    if earlier is not None:
        problems.append(problem("this file was already imported on {when} by {actor}", code="import.again",
                                file=path.name, when=f"{earlier.imported_at:%Y-%m-%d %H:%M}", actor=earlier.actor))
    try:
        rows = read_seed_list(path)
    except InputError as exc:
        raise ImportRefused(problems + list(exc.problems)) from None
    known = {p.federation_id: p for p in Player.objects.filter(federation_id__in=[r.federation_id for r in rows])}
    for r in rows:
        p = known.get(r.federation_id)
        if p is not None and p.name != r.name:
            problems.append(problem("federation ID {id} is {registered} in the registry, not {name}", file=path.name,
                                    line=r.line, column="name", code="seed.name", id=r.federation_id,
                                    registered=p.name, name=r.name))
    if problems:
        raise ImportRefused(problems)

    batch = ImportBatch.objects.create(kind=KIND, filename=path.name, sha256=sha, actor=actor, rating_list=rl)
    new = []
    for r in rows:
        if r.federation_id in known:
            continue
        p = Player(name=r.name, gender=r.gender, dan=r.dan)
        p.federation_id = r.federation_id
        p.refresh_name_keys()
        new.append(p)
    Player.objects.bulk_create(new, batch_size=5000)
    pk_of = dict(Player.objects.filter(federation_id__in=[r.federation_id for r in rows])
                 .values_list("federation_id", "pk"))
    members = set(ListMember.objects.filter(rating_list=rl).values_list("player_id", flat=True))
    ListMember.objects.bulk_create([
        ListMember(rating_list=rl, player_id=pk_of[r.federation_id], gender=r.gender,
                   dan=r.dan, rating=r.rating, games=r.games)
        for r in rows if pk_of[r.federation_id] not in members], batch_size=5000)
    if rl.started_on is None:
        rl.started_on = previous_publication_date(rules.publication_months, list_date)
        rl.save(update_fields=["started_on"])
    comp = compute_period(rl, list_date, previous=None, events=[])
    edition = _store(comp, actor, number=1, reason="")
    batch.summary = {"players": len(rows), "new_players": len(new), "events": 0, "games": 0,
                     "edition": edition.pk, "list_date": list_date.isoformat()}
    batch.save(update_fields=["summary"])
    record(actor, "list.seed", batch, list=rl.code, list_date=list_date.isoformat(), filename=path.name,
           players=len(rows), new_players=len(new), edition=edition.pk, digest=edition.digest)
    return edition
