"""等级分计算说明: a player's calculations as plain text, like FIDE's "individual calculations".

Per event: the method, Ro, W, We, K, ΔR and the rules that acted; his games as
the calculation saw them (under the per-game methods one row per game: round,
opponent, his rating, D, We, W, K, ΔR); then every number of the calculation
in the order the text computes it — K from the game count and the latch, Rc,
D, Pd, We = N × Pd; M, Pa, We = M × Pa − ½; Rar, Dpa, Ra, h, p, dp, Ru — each
as ``symbol = formula = the numbers = value``. After each period: the list
entry, how it came about (Rn = Ro + ΣΔR, a first rating as the game-weighted
mean of his Ru, a newcomer's counted games) and the activity rule's verdict
with its numbers. With the two tables, a player can redo every line by hand.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

from qiyuan.rating import calculation as C
from qiyuan.rating import results as R
from qiyuan.rating.exact import to_decimal
from qiyuan.rating.result import History

NOTE_TEXT: dict[str, str] = {
    R.NOTE_CHAMPION_PROTECTED: "champion: a negative ΔR counts as 0 (冠军不降分)",
    R.NOTE_CHAMPION_RULE_LONG_EVENT: "champion, but the event lasted too long for the champion rule",
    R.NOTE_BOARD_PROTECTED: "best score rate on his board in the national team championship: a negative ΔR counts "
                            "as 0 (各台次得分率最高者)",
    R.NOTE_INTERNATIONAL_PROTECTED: "scored ≥ 50 % in an international event: no loss",
    R.NOTE_ZERO_SCORE_IGNORED: "scored 0: his results in this event are ignored",
    R.NOTE_ZERO_SCORE_OPPONENT: "games against an unrated player who scored 0 are ignored",
    R.NOTE_FEW_RATED_OPPONENTS: "fewer than 3 rated opponents: the event does not count for him",
    R.NOTE_FORFEIT: "games not actually played (forfeits) are not rated",
    R.NOTE_UNRATED_OPPONENTS: "games against unrated opponents are not rated",
    R.NOTE_FAR_BELOW: "games against opponents too far below him are not rated (far_below_not_rated)",
    R.NOTE_NO_RATED_GAMES: "no rated games in this event",
    R.NOTE_CAP: "rating difference capped",
    R.NOTE_UNRATED_NOT_RATED: "no rating and no dan: his games are not rated",
}

METHOD_TEXT: dict[str, str] = {
    R.METHOD_PER_GAME: "per game: We = Σ PD(R − R_opp)",
    R.METHOD_AVERAGING: "averaging: We = N × PD(R − Rc)",
    R.METHOD_GO_ROUND_ROBIN: "Go round robin: We = M × Pa − ½",
    R.METHOD_NEWCOMER: "newcomer: performance rating Ru (Art. 7)",
    R.METHOD_PROVISIONAL: "newcomer from the provisional rating: ΔR = K(W − We) per game",
    R.METHOD_NOT_RATED: "not rated",
}

SOURCE_TEXT = {C.RATING_EVENT_RU: "his Ru here", C.RATING_RA: "Ra", C.RATING_PROVISIONAL: "provisional"}
SKIP_TEXT = {C.SKIP_UNRATED_OPPONENT: "unrated opponent", C.SKIP_ZERO_SCORE: "zero-score rule",
             C.SKIP_NOT_PLAYED: "not played", C.SKIP_FAR_BELOW: "opponent too far below him (far_below_not_rated)"}

#: How each step's formula reads: (symbols, numbers) from the args' names and values.
_BINARY = {"sub": "{0} − {1}", "add": "{0} + {1}", "mul": "{0} × {1}", "delta": "{0} × ({1} − {2})",
           "go_we": "{0} × {1} − ½", "go_we_cycles": "{0} × {2} − {1} × (½ − {2})", "half_points": "2 × {0} − {1}",
           "bonus": "{0} + {1} × {2}", "ra": "{0} − {1} × {2}/({2} + 1)", "scaled": "{0} + {1} × {2}/({2} + 1)",
           "p": "{0} / {1}", "PD": "PD({0})", "dp": "dp({0})", "round": "round({0})", "clamp": "{0} limited to ±{1}",
           "clamp_to": "{0} limited to {1} ± {2}"}
_WHERE = {"PD": "附表2", "dp": "附表1", "p": "to hundredths, .005 up", "round": "四舍五入"}


def _fmt(x: Decimal | Fraction | int | None, signed: bool = False) -> str:
    """A number as computed (ΔR keeps its hundredths); a fraction without a finite decimal form to six
    decimals with its exact value; ``signed`` adds '+' to positive values."""
    if x is None:
        return "–"
    if isinstance(x, Fraction):
        if x.denominator == 1:
            text = str(x.numerator)
        else:
            shown = to_decimal(x)
            text = f"{shown:f}" if Fraction(shown) == x else f"{shown:f}… (= {x.numerator}/{x.denominator})"
    else:
        text = f"{x:f}" if isinstance(x, Decimal) else str(x)
    return f"+{text}" if signed and not text.startswith("-") and x != 0 else text


def _score(w: Decimal) -> str:
    """A score W: 1, 0.5, 3.5 (not 1.0)."""
    return _fmt(w.normalize() if w == w.to_integral_value() else w)


def _width(text: str) -> int:
    """Columns a text takes in a terminal: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(_width(h), *(_width(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(" " * (w - _width(c)) + c for c, w in zip(cells, widths))

    return [line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def render_step(s: C.Step) -> str:
    """One step as ``symbol = formula = numbers = value`` (a given number: ``symbol = value (where from)``)."""
    value = _fmt(s.value, signed=s.symbol == "ΔR")
    if s.op == "given":
        return f"{s.symbol} = {value}" + (f"   ({s.ref})" if s.ref else "")
    names = [a for a, _ in s.args]
    numbers = [_fmt(v) for _, v in s.args]
    if s.op == "sum" and not names:
        return f"{s.symbol} = {value}"
    if s.op == "sum" and len(names) == 1:
        return f"{s.symbol} = {value}" + ("" if names[0] == s.symbol else f" = {names[0]}")
    if s.op in ("sum", "mean", "wmean"):
        if s.op == "wmean":
            pairs = list(zip(numbers[0::2], numbers[1::2]))
            symbolic = "Σ Ru × n / Σ n"
            numeric = f"({' + '.join(f'{a} × {b}' for a, b in pairs)}) / ({' + '.join(b for _, b in pairs)})"
        elif s.op == "mean":
            symbolic = f"mean of {', '.join(dict.fromkeys(names))}"
            numeric = f"({_terms(numbers)}) / {len(numbers)}"
        else:
            symbolic = " + ".join(names) if len(set(names)) > 1 or len(names) < 3 else f"Σ {names[0]}"
            numeric = _terms(numbers)
        text = f"{s.symbol} = {symbolic} = {numeric} = {value}"
    elif s.op == "protect":
        text = f"{s.symbol} = 0 instead of {numbers[0]}"
    elif s.op == "K":
        text = f"K = {value}"
    else:
        template = _BINARY[s.op]
        text = f"{s.symbol} = {template.format(*names)} = {template.format(*numbers)} = {value}"
    where = _WHERE.get(s.op)
    notes = [x for x in (where, s.ref) if x]
    return text + (f"   ({'; '.join(notes)})" if notes else "")


def _terms(numbers: list[str]) -> str:
    """Numbers added up: 193 − 193 − 87."""
    out = numbers[0]
    for n in numbers[1:]:
        out += f" − {n[1:]}" if n.startswith("-") else f" + {n}"
    return out


def _shown_games(x: C.EventExplanation, names: Mapping[str, str]) -> list[str]:
    """His games: for per-game methods the calculation lines, else the games that count; then those that do not."""
    change = x.change
    out: list[str] = []
    who = lambda q: f"{q} {names.get(q, '')}".strip()  # noqa: E731
    if change.lines:
        rows = [[str(ln.round), who(ln.opponent_id), _fmt(ln.opponent_rating), _fmt(ln.D, signed=True), _fmt(ln.We),
                 _score(ln.W), str(ln.K), _fmt(ln.dR, signed=True)] for ln in change.lines]
        out += ["  " + ln for ln in _table(["Rd", "Opponent", "Rating", "D", "We", "W", "K", "ΔR"], rows)]
    else:
        counted = [g for g in x.games if g.counted]
        if counted:
            rows = [[str(g.round), who(g.opponent_id),
                     "–" if g.rating is None else str(g.rating) + (f" ({SOURCE_TEXT[g.rating_source]})"
                                                                   if g.rating_source in SOURCE_TEXT else ""),
                     g.result] + ([str(g.board)] if g.board else []) for g in counted]
            headers = ["Rd", "Opponent", "Rating", "W"] + (["Board"] if any(g.board for g in counted) else [])
            out += ["  " + ln for ln in _table(headers, [r + [""] * (len(headers) - len(r)) for r in rows])]
    if change.lines:
        rated_rounds = {(ln.round, ln.opponent_id) for ln in change.lines}
        skipped = [g for g in x.games if (g.round, g.opponent_id) not in rated_rounds]
    else:
        skipped = [g for g in x.games if not g.counted]
    if skipped:
        out.append("  not counted: " + "; ".join(
            f"round {g.round} {who(g.opponent_id)} {g.result} ({SKIP_TEXT.get(g.skipped, g.skipped)})"
            for g in skipped))
    return out


def render_event(x: C.EventExplanation, names: Mapping[str, str], event_names: Mapping[str, str] | None = None
                 ) -> list[str]:
    """The lines of one event's calculation."""
    change = x.change
    method = METHOD_TEXT.get(change.method, change.method)
    title = f"{change.event_id} {(event_names or {}).get(change.event_id, '')}".strip()
    out = [f"Event {title} → list {change.list_date.isoformat()}: {method}"]
    if change.method == R.METHOD_NEWCOMER:
        out.append(f"  Rc {_fmt(change.Rc)}   N {change.N}   W {_score(change.W)}   Ru {_fmt(change.ru)}"
                   f"   counted games {change.games}")
    elif change.method != R.METHOD_NOT_RATED or change.Ro is not None:
        head = f"  Ro {_fmt(change.Ro)}   W {_score(change.W)}   We {_fmt(change.We)}   K {_fmt(change.K)}"
        if change.method in (R.METHOD_AVERAGING, R.METHOD_GO_ROUND_ROBIN):
            head += f"   Rc {_fmt(change.Rc)}   D {_fmt(change.D, signed=True)}   N {change.N}   Pd {_fmt(change.Pd)}"
        out.append(head)
    out += _shown_games(x, names)
    for s in x.steps:
        out.append("  " + render_step(s))
    if change.method not in (R.METHOD_NEWCOMER, R.METHOD_NOT_RATED) or change.K is not None:
        delta = f"  ΔR {_fmt(change.delta, signed=True)}"
        if change.raw_delta is not None and change.raw_delta != change.delta:
            delta += f"   (before protection {_fmt(change.raw_delta, signed=True)})"
        out.append(delta)
    for note in change.notes:
        out.append(f"  * {NOTE_TEXT.get(note, note)}")
    return out


_VERDICT = {
    C.ACT_NOT_JUDGED: "not judged yet: rated since {rated_since}, a full window would start on {window_from}",
    C.ACT_ACTIVE: "active: {games} rated games in events that ended on or after {window_from} ({needed} needed)",
    C.ACT_INACTIVE: "inactive (不活跃) from this list: {games} rated games in events that ended on or after "
                    "{window_from}, fewer than {needed}",
    C.ACT_STAYS_INACTIVE: "stays inactive (since {inactive_since}): {games} rated games since {window_from}, "
                          "{needed} needed to be active again; removal on {removal_on}",
    C.ACT_REACTIVATED: "active again: {games} rated games since {window_from} ({needed} needed)",
    C.ACT_REMOVED: "removed (除名): inactive since {inactive_since}, the removal date {removal_on} is reached; he "
                   "keeps the K latch and is rated again as a newcomer",
}


def render_publication(p: C.Publication, entry: R.ListEntry) -> list[str]:
    rating = "–" if entry.rating is None else str(entry.rating)
    exact = "" if entry.exact is None else f" (from {_fmt(entry.exact)})"
    out = [f"List {p.list_date.isoformat()}: rating {rating}{exact}, games {entry.games}, {entry.status}"]
    if p.newcomer_needed is not None:
        out.append(f"  newcomer: counted events that ended on or after {p.newcomer_window_from}, "
                   f"{p.newcomer_needed} games needed:")
        for part in p.newcomer_parts:
            value = f"Ru {_fmt(part.ru)}" if part.ru is not None else f"ΔR {_fmt(part.delta, signed=True)}"
            out.append(f"    {part.event_id} (ended {part.end_date}): {part.games} games, {value}")
    for s in p.steps:
        out.append("  " + render_step(s))
    if p.latched_now:
        out.append("  * K is 10 for good from now on: a published rating reached the threshold (以后即使再降也永远取10)")
    if p.activity is not None and p.activity.verdict in _VERDICT:
        a = p.activity
        out.append("  * " + _VERDICT[a.verdict].format(**{f: getattr(a, f) for f in (
            "games", "needed", "window_from", "rated_since", "inactive_since", "removal_on")}))
    return out


def render_explanation(history: History, player_id: str, players_by_id: Mapping,
                       event_names: Mapping[str, str] | None = None) -> str:
    """Plain text of every calculation of one player, period by period."""
    player = players_by_id.get(player_id)
    if player is None:
        raise KeyError(f"unknown player {player_id!r}")
    names = {pid: getattr(p, "name", "") for pid, p in players_by_id.items()}
    explanation = history.explanation(player_id)
    out = [f"{player_id} {names.get(player_id, '')} — rule set {explanation.rules_name}".rstrip(), ""]
    for period in explanation.periods:
        for x in period.events:
            out += render_event(x, names, event_names)
        out += render_publication(period.publication, period.entry)
        out.append("")
    if not any(period.events for period in explanation.periods):
        out.append("No rated events.")
    return "\n".join(out).rstrip() + "\n"
