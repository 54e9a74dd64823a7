"""Registration lists (注册名单): an association's yearly list registered in one transaction."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from qiyuan.errors import InputError, Problem, problem
from qiyuan.formats.registration_csv import check_registration_file
from qiyuan.office.audit.models import record
from qiyuan.office.db import REGISTRY, writing
from qiyuan.office.federation.models import Association, Club, Player
from qiyuan.office.registry.players import insert_with_new_federation_id


def register_many(rows, *, source: str, actor: object, today: date | None = None, problems=()) -> list[Player]:
    """Register every row of a registration list (``registration_csv``) in one transaction.

    The registry checks are made for all rows — the association exists, the
    club belongs to it, the ID number is not registered yet — and their
    problems, with the file's own ``problems`` (``CheckedList.problems``), are
    raised at once in line order (``InputError``, with line and column);
    nothing is stored then.
    """
    today = today or date.today()
    file_problems: list[Problem] = list(problems)
    problems = []
    with writing(REGISTRY):  # the checks and the rows they allow: one transaction
        assocs = {a.code: a for a in Association.objects.all()}
        clubs = {(c.association_id, c.name): c for c in Club.objects.all()}
        numbers = [r.id_number for r in rows if r.id_number]
        holders = {
            n: (fid, name)
            for i in range(0, len(numbers), 1000)
            for n, fid, name in Player.objects.filter(id_number__in=numbers[i : i + 1000]).values_list(
                "id_number", "federation_id", "name"
            )
        }
        planned = []
        for r in rows:
            assoc = assocs.get(r.association) if r.association else None
            if r.association and assoc is None:
                problems.append(problem("unknown association {assoc!r}", file=source, line=r.line, column="association",
                                        assoc=r.association))
            club = None
            if r.club:
                club = clubs.get((assoc.pk if assoc else None, r.club))
                if club is None:
                    problems.append(problem("unknown club {club!r} in association {assoc}", file=source, line=r.line,
                                            column="club", club=r.club, assoc=r.association) if r.association else
                                    problem("unknown club {club!r} (give its association)", file=source, line=r.line,
                                            column="club", club=r.club))
            if r.id_number in holders:
                fid, name = holders[r.id_number]
                problems.append(problem("already registered to {fid} {name}", file=source, line=r.line,
                                        column="id_number", fid=fid, name=name))
            planned.append((r, assoc, club))
        if problems or file_problems:
            every = sorted(file_problems + problems, key=lambda p: p.line or 0)  # stable: file before registry
            raise InputError(every)
        players = []
        for r, assoc, club in planned:
            player = Player(
                name=r.name, name_latin=r.name_latin, gender=r.gender, birth_date=r.birth_date, id_type=r.id_type,
                id_number=r.id_number, nationality=r.nationality, association=assoc, club=club,
                registered_on=r.registered_on or today, dan=r.dan,
            )
            insert_with_new_federation_id(player)
            record(actor, "player.register", player, federation_id=player.federation_id, name=r.name, source=source)
            players.append(player)
        record(actor, "player.import", None, source=source, players=len(players))
        return players


def import_registration_list(path: str | Path, *, actor: object, today: date | None = None) -> list[Player]:
    """Register an association's registration list (注册名单, a CSV file): the file's checks and the
    registry's, every problem at once with line and column (``InputError``), then all rows in one
    transaction — or none."""
    today = today or date.today()
    checked = check_registration_file(path, today=today)
    return register_many(checked.rows, source=str(path), actor=actor, today=today, problems=checked.problems)
