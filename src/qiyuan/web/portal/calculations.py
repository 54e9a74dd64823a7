"""The individual calculations (逐局计算) of a player's rated events: per game the opponent, his rating, the
result, D, We, ΔR and K, with the totals and before → after, as FIDE's rating server shows them — from the
explanation the engine stored with each published change (or a what-if's, in the same shape).

The tables are written here rather than in a template: a player page holds hundreds of cells and this is its
hot path (escaped as the template would, by the standard library's ``html.escape``; the labels translated
once per page).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from html import escape  # not Django's: its laziness check per call is a third of a player page's cost

from django.db.models import Q
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from qiyuan.office.events.models import Game
from qiyuan.office.federation.models import Player
from qiyuan.office import sheets
from qiyuan.rating.model import Result

from ..display import english, person
from ..labels import method_label, note_label
from ..numbers import signed_delta

#: A result from player1's side → (points for player1, points for player2); None = not played.
POINTS = {
    Result.WIN.value: (Decimal(1), Decimal(0)),
    Result.LOSS.value: (Decimal(0), Decimal(1)),
    Result.DRAW.value: (Decimal("0.5"), Decimal("0.5")),
}
_FLIP = {"1-0": "0-1", "0-1": "1-0", "0.5-0.5": "0.5-0.5", "+-": "-+", "-+": "+-", "--": "--",
         "++": "++", "0-0": "0-0"}


def opposite(result: str) -> str:
    """A stored result seen from the other player's side."""
    return _FLIP[result]


def result_for(game: Game, player_id: int) -> str:
    """The game's result from ``player_id``'s side (``1-0`` = he won)."""
    return game.result if game.player1_id == player_id else _FLIP[game.result]


def result_symbol(result: str) -> str:
    return {"1-0": "1", "0-1": "0", "0.5-0.5": "½", "+-": "+", "-+": "−", "--": "–", "++": "1", "0-0": "0"}[result]


@dataclass
class CalcRow:
    round: int | None
    opponent: Player | None  # None: an opponent given by a rating (what-if) or not found
    opponent_rating: str
    result: str
    D: str
    We: str
    dR: str
    K: str


@dataclass
class EventCalc:
    change: sheets.SheetChange
    rows: list[CalcRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    x: dict = field(default_factory=dict)  # Ro, Rc, N, Pd, ru from the explanation
    rendered: SafeString | None = None  # html(), once per page
    period_total: "PeriodTotal | None" = None  # on the last shown event of a period with several

    def rows_html(self, base: str, en: bool) -> str:
        """The table body."""
        out = []
        for r in self.rows:
            who = (f'<a href="{base}{escape(r.opponent.federation_id)}/">{escape(person(r.opponent, en=en))}</a>'
                   if r.opponent is not None else escape(_("对手（等级分 %(r)s）") % {"r": r.opponent_rating}))
            out.append(
                f'<tr><td class="num opt">{"" if r.round is None else r.round}</td><td class="name">{who}</td>'
                f'<td class="num">{escape(r.opponent_rating)}</td><td class="c">{escape(r.result)}</td>'
                f'<td class="num">{escape(r.D)}</td><td class="num">{escape(r.We)}</td>'
                f'<td class="num">{escape(r.dR)}</td><td class="num k">{escape(r.K)}</td></tr>'
            )
        return "".join(out)

    def html(self, labels: dict[str, str]) -> SafeString:
        """The whole calculation: method and the event's numbers, the per-game table with its totals, the rules
        that acted. ``labels``: ``table_labels()`` of the page."""
        c, x, L = self.change, self.x, labels
        facts = [f"{L['method']}: {escape(method_label(c.method))}", f"Ro {fixed(c.before) or '—'}"]
        facts += [f"{k} {escape(_number(x[key]))}" for k, key in (("Rc", "Rc"), ("N", "N"), ("Pd", "Pd"), ("Ru", "ru"))
                  if x.get(key)]  # Rc 2008.71, not the engine's 2008.714286
        notes = "".join(f"<li>{escape(note_label(n))}</li>" for n in self.notes)
        return mark_safe(
            f'<p class="small">{" · ".join(facts)}</p><div class="scroll"><table class="data calc-table">'
            f'<thead><tr><th scope="col" class="num opt">{L["round"]}</th><th scope="col">{L["opponent"]}</th>'
            f'<th scope="col" class="num">{L["opponent_rating"]}</th><th scope="col" class="c">{L["result"]}</th><th scope="col" class="num">D</th>'
            f'<th scope="col" class="num">We</th><th scope="col" class="num">ΔR</th><th scope="col" class="num k">K</th></tr></thead>'
            f'<tbody>{self.rows_html(L["base"], L["en"])}</tbody>'
            f'<tfoot><tr><td class="opt"></td><td colspan="2">{L["total"]} ({c.games} {L["games"]})</td>'
            f'<td class="c">W = {fixed(c.W, 1)}</td><td></td><td class="num">{fixed(c.We)}</td>'
            f'<td class="num">{signed_delta(c.delta)}</td><td class="num k">{"" if c.K is None else c.K}</td></tr>'
            f'<tr><td colspan="8">{L["before"]} {fixed(c.before) or "—"} → {L["after"]} '
            f'<strong>{fixed(c.after) or "—"}</strong></td></tr></tfoot></table></div>'
            + (f'<ul class="small notes">{notes}</ul>' if notes else ""))


def table_labels() -> dict:
    """The words of the calculation tables in the page's language (translated once per page)."""
    return {"base": reverse("portal:players"), "en": english(), "method": escape(_("方法")),
            "round": escape(_("轮次")), "opponent": escape(_("对手")), "opponent_rating": escape(_("对手等级分")),
            "result": escape(_("结果")), "total": escape(_("合计")), "games": escape(_("局")),
            "before": escape(_("赛前")), "after": escape(_("赛后"))}


def _number(value) -> str:
    """A number of the explanation as the tables show numbers (``fixed``); anything else as it is."""
    try:
        return fixed(value)
    except (ArithmeticError, ValueError):
        return str(value)


def fixed(value, places: int = 2) -> str:
    """A decimal as the tables show it (the template filter ``floatformat:"-2"``): no decimals when whole, else
    ``places`` of them, rounded half up; ``""`` for none."""
    if value is None or value == "":
        return ""
    d = Decimal(str(value))
    if d == d.to_integral_value():
        return str(int(d))
    return f"{d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP):f}"


def _num(value) -> str:
    if value is None or value == "":
        return ""
    d = Decimal(str(value))
    return f"{d.normalize():f}" if d == d.to_integral_value() else f"{d:f}"


def _signed(value) -> str:
    text = _num(value)
    return "+" + text if text and not text.startswith("-") and Decimal(text) != 0 else text


_LINE_FIELDS = ("round", "opponent_id", "opponent_rating", "D", "We", "W", "K", "dR")


def explanation_lines(explanation: dict) -> list[dict]:
    """The per-game lines of a stored explanation (``[round, opponent, rating, D, We, W, K, dR]`` rows)."""
    out = []
    for ln in (explanation or {}).get("lines") or []:
        out.append(dict(zip(_LINE_FIELDS, ln)) if isinstance(ln, (list, tuple)) else dict(ln))
    return out


_SYMBOL = {"win": "1", "draw": "½", "loss": "0"}


def per_game_row(line, ro) -> CalcRow:
    """A what-if game (``whatif.GameLine``) as a row of the table: under the averaging methods the per-game
    columns are the opponent, his rating, the result and D; W, We, K and ΔR are the event's (the totals line)."""
    d = ""
    if ro is not None and line.rating is not None:
        d = _signed(int((Decimal(ro) - line.rating).to_integral_value()))
    result = getattr(line.result, "name", str(line.result)).lower()
    return CalcRow(line.round, line.opponent, _num(line.rating), _SYMBOL.get(result, str(line.result)), d, "", "", "")


def individual_calculations(player: Player, changes: list[sheets.SheetChange], duplicates: list[Player] = ()) -> list[EventCalc]:
    """Per rated event, the table a person can check by hand: per game the
    opponent, his rating, the result, D, We, ΔR and K (FIDE's "individual
    calculations"). Under the averaging methods We is the event's N × PD(R − Rc),
    so the per-game columns show D and the result only, and the totals line
    carries We and ΔR. A change published under a merged duplicate's ID (``duplicates``) is his too; its
    games were moved to him by the merge."""
    mine = {player.pk} | {d.pk for d in duplicates}
    event_ids = {c.event_id for c in changes}
    games_by_event: dict[int, list[Game]] = defaultdict(list)
    for g in Game.objects.filter(Q(player1_id__in=mine) | Q(player2_id__in=mine), event_id__in=event_ids).order_by(
            "round"):
        games_by_event[g.event_id].append(g)
    fids: set[str] = set()
    pks: set[int] = set()
    for c in changes:
        for ln in explanation_lines(c.explanation):
            ref = str(ln.get("opponent_id", ""))
            (pks.add(int(ref)) if ref.isdigit() else fids.add(ref))
        for g in games_by_event[c.event_id]:
            pks.add(g.player2_id if g.player1_id in mine else g.player1_id)
    light = Player.objects.only("federation_id", "name", "name_latin")
    by_fid = {p.federation_id: p for p in light.filter(federation_id__in=fids)}
    by_pk = light.in_bulk(pks)

    def opponent(ref) -> Player | None:
        ref = str(ref)
        return by_fid.get(ref) or (by_pk.get(int(ref)) if ref.isdigit() else None)

    # Opponents' ratings are needed only for changes stored without per-game lines (averaging methods).
    bare = [c for c in changes if not explanation_lines(c.explanation)]
    wanted = {(c.edition_id, c.event_id) for c in bare}
    opp_before = {}
    # each published edition's sheet, its key columns kept (a what-if's change has no edition: nothing to read)
    for ed in {c.edition_id: c.edition for c in bare if c.edition_id is not None}.values():
        found = sheets.change_rows([ed], events={e for pk, e in wanted if pk == ed.pk})  # (his events' rows only)
        for event_id, player_id, before in zip(*(sheets.change_values(found, name)
                                                  for name in ("event", "player", "before"))):
            if player_id not in mine:
                opp_before[(event_id, player_id)] = None if before is None else Decimal(before)
    if opp_before:  # an opponent rated under a duplicate merged since: his games are now on the kept record
        # (the merged records, few, read by their index — not the event's every player by his key)
        rated = {pid for _e, pid in opp_before}
        kept = {pk: into for pk, into in Player.objects.filter(merged_into_id__isnull=False)
                .values_list("pk", "merged_into_id") if pk in rated}
        for (event_id, pid), before in list(opp_before.items()):
            if pid in kept:
                opp_before.setdefault((event_id, kept[pid]), before)
    out = []
    for c in changes:
        x = c.explanation or {}
        calc = EventCalc(change=c, notes=list(x.get("notes") or []), x=x)
        lines = explanation_lines(x)
        if lines:
            games = {g.round: g for g in games_by_event[c.event_id]}
            for ln in lines:
                opp = opponent(ln.get("opponent_id"))
                w = Decimal(str(ln.get("W", "0")))
                res = {Decimal(1): "1", Decimal("0.5"): "½", Decimal(0): "0"}.get(w, _num(w))
                g = games.get(ln.get("round"))
                if g is not None:
                    res = result_symbol(result_for(g, g.player1_id if g.player1_id in mine else g.player2_id))
                calc.rows.append(CalcRow(ln.get("round"), opp, _num(ln.get("opponent_rating")), res,
                                         _signed(ln.get("D")), _num(ln.get("We")), signed_delta(ln.get("dR")),
                                         _num(ln.get("K"))))
        else:
            ro = c.before
            for g in games_by_event[c.event_id]:
                me, opp_pk = (g.player1_id, g.player2_id) if g.player1_id in mine else (g.player2_id, g.player1_id)
                opp_rating = opp_before.get((c.event_id, opp_pk))
                d = ""
                if ro is not None and opp_rating is not None:
                    d = _signed(int((ro - opp_rating).to_integral_value()))
                calc.rows.append(CalcRow(g.round, by_pk.get(opp_pk), _num(opp_rating), result_symbol(result_for(g, me)),
                                         d, "", "", ""))
        out.append(calc)
    labels = table_labels()
    for calc in out:
        calc.rendered = calc.html(labels)
    return out




@dataclass
class PeriodTotal:
    """Several events rated in one period: each started from the same rating (Ro of the period), so the list's
    rating is Ro plus the sum of their changes, rounded (四舍五入) — the line that makes them add up."""

    list_date: object
    before: str
    deltas: list[str]
    after: str
    published: int | None


def period_totals(calcs: list[EventCalc], published: dict[int, int | None]) -> None:
    """Attach a ``PeriodTotal`` to the last shown calculation of every edition with two events or more
    (``published``: edition id → the player's published rating on it)."""
    by_edition: dict[int, list[EventCalc]] = defaultdict(list)
    for calc in calcs:
        by_edition[calc.change.edition_id].append(calc)
    for edition_id, group in by_edition.items():
        if len(group) < 2 or any(c.change.before is None for c in group):
            continue
        ordered = sorted(group, key=lambda c: (c.change.event.end_date, c.change.event_id))
        ro = ordered[0].change.before
        total = ro + sum((c.change.delta for c in ordered), Decimal(0))
        group[-1].period_total = PeriodTotal(ordered[0].change.edition.list_date, fixed(ro),
                                             [signed_delta(c.change.delta) for c in ordered], fixed(total),
                                             published.get(edition_id))
