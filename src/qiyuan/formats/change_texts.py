"""The canonical text of rating changes written in bulk from their columns (``rating.columnar.ChangeTexts``):
each change's explanation text and its stored numbers, with no ``EventChange`` per row. Plain data in, text out
(no Django: the verification kit may use it alone).

Each writer here is property-tested byte-identical to the per-object writer of the same version of the canonical
text (``canonical_text.writer(version).change_text`` / ``.change_row``), for every rule set and variant. A version
of the text whose settings are in ``canonical_text.VERSIONS`` is written in bulk here; any other version its
``Writer`` knows is written change by change through it (a later version that changes how a change is written adds
its bulk form here beside its per-object one).
"""

from __future__ import annotations

from decimal import Decimal

from qiyuan.formats.canonical_text import CHANGE_COLUMNS, VERSIONS, json_string, number_text, writer
from qiyuan.rating import results as R
from qiyuan.rating.columnar import ChangeTexts


def _q(x: str | None) -> str:
    return "null" if x is None else '"' + x + '"'


def _i(x: int | None) -> str:
    return "null" if x is None else str(x)


def _bulk(version: int) -> bool:
    """Whether ``version`` is written in bulk here (its settings are known); else change by change through its
    ``Writer`` (``ValueError`` for a version this program does not know)."""
    writer(version)
    return version in VERSIONS


def methods(cols: ChangeTexts, version: int) -> list[str]:
    """Each change's method as ``version`` writes it (a newcomer's event that did not count under its label)."""
    if not _bulk(version):
        return [row[-1] for row in map(writer(version).change_row, cols.objects())]
    label = VERSIONS[version].uncounted_newcomer
    if label == R.METHOD_NEWCOMER:
        return cols.method
    return [label if m == R.METHOD_NEWCOMER and g == 0 else m for m, g in zip(cols.method, cols.games)]


def explanation_texts(cols: ChangeTexts, version: int) -> list[str]:
    """Each change's explanation text in ``version`` (``Writer.change_text`` of each change, in bulk)."""
    if not _bulk(version):
        return list(map(writer(version).change_text, cols.objects()))
    js, q, i = json_string, _q, _i
    lines = [f"[{i(r)},{js(o)},{q(orat)},{i(d)},{q(we)},{q(w)},{i(k)},{q(dr)}]" for r, o, orat, d, we, w, k, dr in zip(
        cols.round, cols.opponent_id, cols.opponent_rating, cols.line_D, cols.line_We, cols.line_W, cols.line_K,
        cols.dR)]
    notes_text: dict[tuple, str] = {}
    for notes in set(cols.notes):
        notes_text[notes] = ",".join(js(n) for n in notes)
    method_text = {m: js(m) for m in set(cols.method)} | {R.METHOD_NOT_RATED: js(R.METHOD_NOT_RATED)}
    starts = cols.line_start
    return [f'{{"K":{i(k)},"N":{i(n)},"Pd":{q(pd)},"Rc":{q(rc)},"Ro":{q(ro)},"W":{q(w)},"We":{q(we)},'
            f'"delta":{q(dl)},"games":{g},"lines":[{",".join(lines[starts[j]:starts[j + 1]])}],'
            f'"method":{method_text[m]},"notes":[{notes_text[nt]}],"raw_delta":{q(raw)},"ru":{q(ru)}}}'
            for j, (k, n, pd, rc, ro, w, we, dl, g, m, nt, raw, ru) in enumerate(zip(
                cols.K, cols.N, cols.Pd, cols.Rc, cols.Ro, cols.W, cols.We, cols.delta, cols.games,
                methods(cols, version), cols.notes, cols.raw_delta, cols.ru))]


def stored_numbers(cols: ChangeTexts, version: int) -> dict[str, list]:
    """The stored columns of the changes (``canonical_text.CHANGE_COLUMNS``: before, after, games, W, We, K, ΔR,
    method) in ``version`` (``Writer.change_row`` of each change, in bulk): decimals as text with 4 places."""
    if not _bulk(version):
        rows = list(map(writer(version).change_row, cols.objects()))
        return {name: [r[i] for r in rows] for i, name in enumerate(CHANGE_COLUMNS)}
    four: dict[str | None, str | None] = {None: None}

    def place(x: str | None) -> str | None:
        got = four.get(x, False)
        if got is False:
            got = four[x] = number_text(Decimal(x))
        return got

    after: dict[tuple[str, str], str] = {}

    def added(ro: str | None, delta: str) -> str | None:
        if ro is None:
            return None
        got = after.get((ro, delta))
        if got is None:
            got = after[(ro, delta)] = number_text(Decimal(ro) + Decimal(delta))
        return got

    return {"before": [place(x) for x in cols.Ro], "after": [added(r, d) for r, d in zip(cols.Ro, cols.delta)],
            "games": list(cols.games), "W": [place(x) for x in cols.W], "We": [place(x) for x in cols.We],
            "K": list(cols.K), "delta": [place(x) for x in cols.delta], "method": methods(cols, version)}
