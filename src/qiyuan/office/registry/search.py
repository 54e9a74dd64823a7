"""Finding players (查找棋手): by Chinese characters, pinyin, initials, Latin spelling or federation ID."""

from __future__ import annotations

from django.db.models import Case, IntegerField, Q, Value, When

from qiyuan.errors import problem
from qiyuan.office.errors import RegistryError
from qiyuan.office.federation.models import NameChange, Player
from qiyuan.people import idnumber, pinyin


def search_players(query: str, *, limit: int = 50, include_merged: bool = False, staff: bool = False) -> list[Player]:
    """Players matching ``query`` by Chinese characters, pinyin (full or initials), Latin name or federation ID.

    ``"张三"``, ``"zhangsan"``, ``"zhang san"``, ``"zs"`` and ``"Zhang San"``
    all find 张三. Former names are searched too. Exact matches come first,
    then prefixes, then substrings; ties by pinyin. With ``staff=True`` an
    exact ID number matches as well (never on public pages).
    """
    query = (query or "").strip()
    if not query:
        return []
    players = Player.objects.all() if include_merged else Player.objects.registered()
    if pinyin.has_han(query):
        text = query.replace(" ", "")
        former = NameChange.objects.filter(old_name__contains=text).values("player_id")
        condition = Q(name__contains=text) | Q(pk__in=former)
        former_exact = NameChange.objects.filter(old_name=text).values("player_id")
        rank = Case(
            When(name=text, then=Value(0)),
            When(pk__in=former_exact, then=Value(1)),
            When(name__startswith=text, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    else:
        key = pinyin.latin_key(query)
        if not key:
            return []
        condition = (
            Q(name_search__contains=key)
            | Q(federation_id__iexact=query)
            | Q(name__icontains=query)
        )
        if staff:
            condition |= Q(id_number=idnumber.normalize_id_number(query))
        rank = Case(
            When(federation_id__iexact=query, then=Value(0)),
            When(name_search__contains=f"|{key}|", then=Value(0)),
            When(name_search__contains=f"|{key}", then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    found = (
        players.filter(condition)
        .annotate(match_rank=rank)
        .select_related("association", "club")
        .order_by("match_rank", "name_pinyin", "federation_id")
    )
    return list(found[:limit])


def find_player(ref: str) -> Player:
    """One player by federation ID, or by a name that only one registered player has."""
    ref = (ref or "").strip()
    player = Player.objects.filter(federation_id__iexact=ref).first()
    if player is not None:
        return player
    named = list(Player.objects.registered().filter(name=ref)[:10])
    if len(named) == 1:
        return named[0]
    if named:
        ids = ", ".join(p.federation_id for p in named)
        raise RegistryError([problem("{count} players are named {ref}: {ids}; give the federation ID",
                                     count=len(named), ref=ref, ids=ids)])
    raise RegistryError([problem("no player {ref!r} (give a federation ID such as CN000123, or an exact name)",
                                 ref=ref)])
