"""One period's games seen from each player (mirrors ``event.py``'s sides and ``champion.py``).

Every (event, player) of the period becomes one row — the change the player
gets in that event — and every game actually played becomes two sides
(player, opponent, W in hundredths), each pointing at its row. The champions
are found per row: rank 1 in the standings, else the top score (forfeit wins
included); in the national team championship, the best score rate on each
board instead (``champion.best_on_each_board``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qiyuan.rating.champion import best_on_each_board
from qiyuan.rating.fast.arrays import DRAW, LOSS, NONE, POINTS1, POINTS2, W1, W2, WIN, int_bincount
from qiyuan.rating.fast.prepare import M_NOT_RATED, Prepared


@dataclass
class Rows:
    """The rows (one per event and player) and the sides (two per played game) of a period."""

    n: int
    event: np.ndarray  # row → event index
    player: np.ndarray  # row → player index
    rated: np.ndarray  # row: the player holds a published rating
    champion: np.ndarray  # row: champion (or best on his board) of the event
    interacting: np.ndarray  # row: in a round robin where unrated players enter the calculation
    # sides of the played games
    s_row: np.ndarray
    s_player: np.ndarray
    s_opp: np.ndarray
    s_opp_row: np.ndarray
    s_w: np.ndarray  # hundredths
    s_interacting: np.ndarray
    me_rated: np.ndarray
    opp_rated: np.ndarray
    R_me: np.ndarray
    R_opp: np.ndarray  # the opponent's rating used (an interacting round robin may replace an unrated one's)
    s_round: np.ndarray  # the game's round
    s_first: np.ndarray  # the side of the game's player1
    # filled by the rated and newcomer parts: the sides each row's change counts, with their D (after the cap)
    s_used: np.ndarray | None = None
    s_D: np.ndarray | None = None

    def columns(self, rating: np.ndarray) -> dict[str, np.ndarray]:
        """The change columns of the rows, empty: every field 'none' (filled by the rated and newcomer parts)."""
        n = self.n
        return {
            "event": self.event, "player": self.player, "games": np.zeros(n, np.int64),
            "W": np.zeros(n, np.int64), "We": np.full(n, NONE, np.int64), "K": np.full(n, NONE, np.int64),
            "delta": np.zeros(n, np.int64), "raw_delta": np.full(n, NONE, np.int64),
            "method": np.full(n, M_NOT_RATED, np.int64), "N": np.full(n, NONE, np.int64),
            "Ro": np.where(self.rated, rating[self.player], NONE), "D": np.full(n, NONE, np.int64),
            "Pd": np.full(n, NONE, np.int64), "Rc_num": np.zeros(n, np.int64), "Rc_den": np.zeros(n, np.int64),
            "ru_num": np.zeros(n, np.int64), "ru_den": np.zeros(n, np.int64),
        }


def period_rows(prep: Prepared, rating: np.ndarray, g_rank: np.ndarray, p1: np.ndarray, p2: np.ndarray,
                res: np.ndarray, interacting_game: np.ndarray, rounds: np.ndarray) -> Rows:
    """The rows and sides of a period's games (``g_rank``: each game's event rank; ``rounds``: its round)."""
    P = prep.P
    rated = rating != NONE
    # One row per (event, player) of every game (played or not), in (event rank, player) order.
    keys = np.concatenate([g_rank * P + p1, g_rank * P + p2])
    pe_keys, inverse = np.unique(keys, return_inverse=True)
    n_rows = pe_keys.shape[0]
    row_rank = pe_keys // P
    row_player = pe_keys % P
    row_event = prep.event_order[row_rank]
    m = len(p1)
    row1, row2 = inverse[:m], inverse[m:]
    # Champion's points (forfeit wins count) → champions per event.
    points = int_bincount(row1, POINTS1[res], n_rows) + int_bincount(row2, POINTS2[res], n_rows)
    if n_rows:
        ev_start = np.flatnonzero(np.concatenate(([True], row_rank[1:] != row_rank[:-1])))
        top = np.maximum.reduceat(points, ev_start)
        top_of_row = np.repeat(top, np.diff(np.concatenate([ev_start, [n_rows]])))
    else:
        top_of_row = points
    by_standing = np.isin(row_event * P + row_player, prep.rank1_keys)
    champion = np.where(prep.has_rank1[row_event], by_standing, points == top_of_row)
    for e in np.unique(row_event[prep.board_event[row_event]]).tolist():
        best = best_on_each_board(prep.games_of(e))
        mine = row_event == e
        champion[mine] = np.isin(row_player[mine], [prep.index[p] for p in best])

    # Sides of the played games.
    played = (res == WIN) | (res == LOSS) | (res == DRAW)
    interacting_row = np.zeros(n_rows, dtype=bool)
    interacting_row[np.concatenate([row1, row2])[np.concatenate([interacting_game, interacting_game])]] = True
    s_player = np.concatenate([p1[played], p2[played]])
    s_opp = np.concatenate([p2[played], p1[played]])
    return Rows(
        n=n_rows, event=row_event, player=row_player, rated=rated[row_player], champion=champion,
        interacting=interacting_row,
        s_row=np.concatenate([row1[played], row2[played]]), s_player=s_player, s_opp=s_opp,
        s_opp_row=np.concatenate([row2[played], row1[played]]),
        s_w=np.concatenate([W1[res[played]], W2[res[played]]]),
        s_interacting=np.concatenate([interacting_game[played], interacting_game[played]]),
        me_rated=rated[s_player], opp_rated=rated[s_opp], R_me=rating[s_player], R_opp=rating[s_opp],
        s_round=np.concatenate([rounds[played], rounds[played]]),
        s_first=np.concatenate([np.ones(int(played.sum()), bool), np.zeros(int(played.sum()), bool)]),
    )
