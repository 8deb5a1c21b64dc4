"""The question a player may ask at the table, in one call: "if I win on this tile, may
I go mahjong, and for how much?"

:func:`win_value` answers it from an :class:`~mahjong_nts.core.observation.Observation`
(what the seat sees, nothing more) with the real scorer: the seat's concealed tiles and
declared melds, its flowers and seasons, its seat wind and the round wind, how the tile
would come (self-drawn, on a discard, robbing a kong) and the rule set.  The answer is a
frozen :class:`WinValue`: whether mahjong is allowed and, if not, why (the hand is not
complete, too few doublings, a dead hand), the scored hand (points, doublings, limit
hand, items) and what this seat would gain in the settlement.

The winner's gain never depends on the other hands: he receives his own score from each
other player (doubled as the rule set says for East, the dominant player and the
discarder), and the losers settle their own scores among themselves.  So it is known
before anyone shows his hand.

The win is valued in the position observed: "self-drawn" is a tile drawn now (the last
tile of the wall when the live wall is empty; East's heavenly hand before any discard),
"on a discard" the discard now on offer (East's first discard for the earthly hand; the
last discard when the live wall is empty), and in a rob window the promoted kong's tile.
``concealed`` asks the same question of other concealed tiles (what if I discard this and
draw that), with the seat's melds and situation as they are.

>>> from mahjong_nts.core.winvalue import win_value  # doctest: +SKIP
>>> v = win_value(obs, Tile.RED, self_drawn=False)  # doctest: +SKIP
>>> v.allowed, v.points, v.doublings, v.score, v.balance  # doctest: +SKIP
(True, 30, 2, 120, 480)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from mahjong_nts.core.analysis import is_complete
from mahjong_nts.core.errors import InvalidHand
from mahjong_nts.core.game import Phase
from mahjong_nts.core.hand import Hand, Meld, Win, WinSource
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.scoring import ScoreResult, Situation, score_hand
from mahjong_nts.core.settlement import settle
from mahjong_nts.core.text import N_, Text
from mahjong_nts.core.tiles import NUM_KINDS, Tile

__all__ = ["WinValue", "win_value"]

_NOT_COMPLETE: Final = N_("{tile} does not complete the hand: no mahjong")
_DEAD: Final = N_("dead hand (dood spel): this seat cannot go mahjong")


@dataclass(frozen=True, slots=True)
class WinValue:
    """The answer of :func:`win_value`."""

    tile: Tile
    self_drawn: bool
    allowed: bool
    """Mahjong may be declared with this tile."""
    reason: Text | None
    """Why not (``None`` when allowed): not complete, too few doublings, a dead hand."""
    result: ScoreResult | None
    """The winner's scored hand, items explained (``None``: the tile completes nothing,
    or the hand is dead)."""
    balance: int
    """What this seat would gain in the settlement (0 when not allowed)."""

    @property
    def points(self) -> int:
        return self.result.points if self.result is not None else 0

    @property
    def doublings(self) -> int:
        return self.result.doublings if self.result is not None else 0

    @property
    def score(self) -> int:
        """The hand's score (points x 2**doublings, capped; or the limit hand's value)."""
        return self.result.score if self.result is not None else 0

    @property
    def limit_hand(self) -> str | None:
        return self.result.limit_hand if self.result is not None else None


def _win(obs: Observation, self_drawn: bool, loose_tile: bool) -> Win:
    """How the tile would be won, in the position observed."""
    lucky = obs.me.announced
    if self_drawn:
        if loose_tile:
            return Win(WinSource.LOOSE_TILE, lucky_thirteen=lucky)
        heaven = (
            obs.seat == 0
            and obs.discard_count == 0
            and not any(m is not None for m in obs.me.melds)
            and not lucky
        )
        return Win(
            WinSource.WALL,
            last_tile=obs.live_left == 0 and not heaven,
            heaven=heaven,
            lucky_thirteen=lucky,
        )
    window = obs.to_act and obs.offered is not None
    if window and obs.phase is Phase.ROB:
        return Win(WinSource.ROBBED_KONG, lucky_thirteen=lucky)
    first = (
        window and obs.phase is Phase.CLAIM and obs.discard_count == 1 and obs.turn == 0
    ) and not lucky
    return Win(
        WinSource.DISCARD,
        last_discard=obs.live_left == 0 and not first,
        first_discard=first,
        lucky_thirteen=lucky,
    )


def win_value(
    obs: Observation,
    tile: int,
    *,
    self_drawn: bool,
    concealed: Iterable[int] | None = None,
    discarder: int | None = None,
    loose_tile: bool = False,
) -> WinValue:
    """May the observing seat go mahjong on ``tile``, and for how much?

    ``self_drawn``: the tile is drawn (from the wall, or the loose tile after a kong with
    ``loose_tile``); else it is a discard (a promoted kong's tile in a rob window).  The
    hand is the seat's concealed tiles (``concealed`` instead, for a what-if) with its
    declared melds: 13 tiles (a kong counting as three) to which ``tile`` is added, or
    14 that hold ``tile`` already (the seat on turn with the tile it drew).
    ``discarder``: the seat whose discard it is, for rule sets in which the discarder
    pays double; by default the seat offering it in a claim or rob window, else the seat
    before this one.  Raises :class:`~mahjong_nts.core.errors.InvalidHand` for a tile that
    is no playing tile or a hand of another size.
    """
    if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile < NUM_KINDS:
        raise InvalidHand(N_("{tile} is not a playing tile"), tile=repr(tile))
    t = Tile(tile)
    me = obs.me
    melds: tuple[Meld, ...] = tuple(m for m in me.melds if m is not None)
    tiles = [Tile(x) for x in (obs.concealed if concealed is None else concealed)]
    size = len(tiles) + 3 * len(melds)
    if size == 13:
        tiles.append(t)
    elif size != 14:
        raise InvalidHand(
            N_(
                "a hand that wins has 13 tiles and the winning tile (a kong counting as 3), not {n}"
            ),
            n=size,
        )
    elif t not in tiles:
        raise InvalidHand(
            N_("{tile} is not among the 14 tiles, so it cannot be the winning tile"),
            tile=t.token,
        )
    if me.dead:
        return WinValue(t, self_drawn, False, Text(_DEAD), None, 0)
    counts = [0] * NUM_KINDS
    for x in tiles:
        counts[x] += 1
    dup = obs.rules.scoring.seven_pairs_duplicate
    if not is_complete(counts, n_melds=len(melds), duplicate_pairs=dup):
        return WinValue(t, self_drawn, False, Text(_NOT_COMPLETE, tile=t.token), None, 0)
    hand = Hand(tuple(tiles), melds, me.bonus, t)
    situation = Situation(me.wind, obs.round_wind, _win(obs, self_drawn, loose_tile))
    res = score_hand(hand, situation, obs.rules)
    if not res.mahjong_allowed:
        reason = res.refusal
        assert isinstance(reason, Text)  # the scorer's refusals are all templates
        return WinValue(t, self_drawn, False, reason, res, 0)
    n = len(obs.seats)
    payer: int | None = None
    if not self_drawn:
        if discarder is not None:
            payer = discarder
        elif obs.to_act and obs.offered is not None:
            payer = obs.turn
        else:
            payer = (obs.seat - 1) % n
    scores = [0] * n
    scores[obs.seat] = res.score
    settled = settle(
        scores,
        winner=obs.seat,
        discarder=payer,
        east=0,
        rules=obs.rules.settlement,
        dominant=obs.dominant,
    )
    return WinValue(t, self_drawn, True, None, res, settled.balances[obs.seat])
