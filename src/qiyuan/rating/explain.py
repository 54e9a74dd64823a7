"""等级分计算说明: a player's calculations as plain text, like FIDE's "individual calculations".

Per event: the method, Ro, W, We, K, ΔR and the rules that acted; under the
averaging methods Rc, N and Pd; under the per-game methods one row per game
(round, opponent, his rating, D, We, W, K, ΔR); for a newcomer Rc (Ra in a
round robin) and his performance rating Ru. After each period: the list entry.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from decimal import Decimal

from qiyuan.rating import results as R
from qiyuan.rating.history import History

NOTE_TEXT: dict[str, str] = {
    R.NOTE_CHAMPION_PROTECTED: "champion: a negative ΔR counts as 0 (冠军不降分)",
    R.NOTE_CHAMPION_RULE_LONG_EVENT: "champion, but the event lasted too long for the champion rule",
    R.NOTE_INTERNATIONAL_PROTECTED: "scored ≥ 50 % in an international event: no loss",
    R.NOTE_ZERO_SCORE_IGNORED: "scored 0: his results in this event are ignored",
    R.NOTE_ZERO_SCORE_OPPONENT: "games against an unrated player who scored 0 are ignored",
    R.NOTE_FEW_RATED_OPPONENTS: "fewer than 3 rated opponents: the event does not count for him",
    R.NOTE_FORFEIT: "games not actually played (forfeits) are not rated",
    R.NOTE_UNRATED_OPPONENTS: "games against unrated opponents are not rated",
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


def _fmt(x: Decimal | int | None, signed: bool = False) -> str:
    """A number as computed (ΔR keeps its hundredths); ``signed`` adds '+' to positive values."""
    if x is None:
        return "–"
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


def render_change(change: R.EventChange, names: Mapping[str, str]) -> list[str]:
    """The lines of one event's calculation."""
    method = METHOD_TEXT.get(change.method, change.method)
    out = [f"Event {change.event_id} → list {change.list_date.isoformat()}: {method}"]
    if change.method == R.METHOD_NEWCOMER:
        out.append(f"  Rc {_fmt(change.Rc)}   N {change.N}   W {_score(change.W)}   Ru {_fmt(change.ru)}"
                   f"   counted games {change.games}")
    else:
        head = f"  Ro {_fmt(change.Ro)}   W {_score(change.W)}   We {_fmt(change.We)}   K {_fmt(change.K)}"
        if change.method in (R.METHOD_AVERAGING, R.METHOD_GO_ROUND_ROBIN):
            head += f"   Rc {_fmt(change.Rc)}   D {_fmt(change.D, signed=True)}   N {change.N}   Pd {_fmt(change.Pd)}"
        out.append(head)
        if change.lines:
            rows = [[str(ln.round), f"{ln.opponent_id} {names.get(ln.opponent_id, '')}".strip(),
                     _fmt(ln.opponent_rating), _fmt(ln.D, signed=True), _fmt(ln.We), _score(ln.W), str(ln.K),
                     _fmt(ln.dR, signed=True)] for ln in change.lines]
            out += ["  " + ln for ln in _table(["Rd", "Opponent", "Rating", "D", "We", "W", "K", "ΔR"], rows)]
        delta = f"  ΔR {_fmt(change.delta, signed=True)}"
        if change.raw_delta is not None and change.raw_delta != change.delta:
            delta += f"   (before protection {_fmt(change.raw_delta, signed=True)})"
        out.append(delta)
    for note in change.notes:
        out.append(f"  * {NOTE_TEXT.get(note, note)}")
    return out


def render_explanation(history: History, player_id: str, players_by_id: Mapping) -> str:
    """Plain text of every calculation of one player, period by period."""
    player = players_by_id.get(player_id)
    if player is None:
        raise KeyError(f"unknown player {player_id!r}")
    names = {pid: getattr(p, "name", "") for pid, p in players_by_id.items()}
    out = [f"{player_id} {names.get(player_id, '')} — rule set {history.rules.name}".rstrip(), ""]
    changes = history.explain(player_id)
    for published in history.lists:
        period = [c for c in changes if c.list_date == published.date]
        entry = published.by_player().get(player_id)
        if not period:
            continue
        for change in period:
            out += render_change(change, names)
        if entry is not None:
            rating = "–" if entry.rating is None else str(entry.rating)
            exact = "" if entry.exact is None else f" (from {_fmt(entry.exact)})"
            out.append(f"List {published.date.isoformat()}: rating {rating}{exact}, games {entry.games}, "
                       f"{entry.status}")
            out.append("")
    if not changes:
        out.append("No rated events.")
    return "\n".join(out).rstrip() + "\n"
