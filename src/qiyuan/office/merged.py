"""Merged records on a rating list (合并重复注册): which federation ID a merged person is rated under.

A merge (``federation.merge``) moves the duplicate's entries and games to the
record kept, but the rows of published editions (entries, rating changes,
frozen list facts) stay on the duplicate: a published list never changes.
A period therefore follows ``merged_into`` here:

* computing a new period (or a correction), every record of a merged group is
  rated as the record kept (the root): the state published for the duplicate
  carries on under the kept record's ID, with the games of both;
* recomputing a published edition (``verify``), the group is rated under the
  ID the edition published for it, so the recomputation is bit for bit the
  edition that was published before the merge.

A merge where both records have a published rating on the same list is
refused (``refuse_double_rating``): the office could not tell which rating the
kept record continues from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from qiyuan.errors import problem
from qiyuan.office.errors import OfficeError
from qiyuan.office.federation.models import Player
from qiyuan.rating.columnar import GameColumns
from qiyuan.rating.model import Game, Standing
from qiyuan.rating.state import PlayerState


def merged_groups() -> dict[str, str]:
    """Every merged duplicate's federation ID → the federation ID of the record finally kept (the root)."""
    return roots_of(dict(Player.objects.filter(merged_into__isnull=False)
                         .values_list("federation_id", "merged_into__federation_id")))


def roots_of(parent: dict[str, str]) -> dict[str, str]:
    """Each merged record (federation ID → the one it was merged into) → the record finally kept."""
    roots = {}
    for fid in parent:
        root, seen = fid, set()
        while root in parent and root not in seen:
            seen.add(root)
            root = parent[root]
        roots[fid] = root
    return roots


def aliases_for_new_period() -> dict[str, str]:
    """For a new computation: every merged record is rated as its root."""
    return merged_groups()


def aliases_for_edition(published_ids: set[str], roots: dict[str, str] | None = None) -> dict[str, str]:
    """For recomputing an edition: each merged group is rated under the ID the edition published for it
    (the root when the edition shows none of the group). ``roots``: ``merged_groups()`` when not given."""
    roots = merged_groups() if roots is None else roots
    groups: dict[str, list[str]] = {}
    for fid, root in roots.items():
        groups.setdefault(root, [root]).append(fid)
    alias = {}
    for root, fids in groups.items():
        shown = [f for f in fids if f in published_ids]
        target = shown[0] if shown else root
        alias.update({f: target for f in fids if f != target})
    return alias


def follow_merges(alias: dict[str, str], games: Sequence[Game], standings: list[Standing],
                  prior: dict[str, PlayerState], initial: dict[str, PlayerState], info: dict[str, tuple]):
    """Rename merged records per ``alias`` in the games, standings, prior states and list members.

    Returns new (games, standings, prior, initial, info); the inputs are unchanged. ``info`` maps a
    federation ID to (player pk, name, registration date) as ``periods.MemberCache`` does. A target that
    is not a list member takes the renamed member's frozen facts under its own pk and name.
    """
    if not alias:
        return games, standings, prior, initial, info

    def rn(fid: str) -> str:
        return alias.get(fid, fid)

    if isinstance(games, GameColumns):  # (a player is an index: his id is renamed once, not each game)
        games = replace(games, player_ids=tuple(rn(p) for p in games.player_ids))
    else:
        games = [g if g.player1 not in alias and g.player2 not in alias else
                 replace(g, player1=rn(g.player1), player2=rn(g.player2)) for g in games]
    standings = [s if s.player_id not in alias else replace(s, player_id=rn(s.player_id)) for s in standings]
    prior = dict(prior)
    for src in [f for f in prior if f in alias]:
        dst = alias[src]
        if dst in prior:
            raise OfficeError(problem("{id} is merged into {into}, and both have a published rating state on this "
                                      "list: the merge cannot be followed", id=src, into=dst))
        prior[dst] = replace(prior.pop(src), player_id=dst)
    initial, info = dict(initial), dict(info)
    moving = [f for f in info if f in alias]
    if moving:
        targets = {alias[f] for f in moving} - set(info)
        rows = dict((fid, (pk, name)) for fid, pk, name in
                    Player.objects.filter(federation_id__in=targets).values_list("federation_id", "pk", "name"))
        for src in moving:
            dst = alias[src]
            _pk, _name, registered = info.pop(src)
            start = initial.pop(src, None)
            if dst in info:
                continue  # the target is a member himself: his own start facts
            info[dst] = (rows[dst][0], rows[dst][1], registered)
            if start is not None:
                initial[dst] = replace(start, player_id=dst)
    return games, standings, prior, initial, info
