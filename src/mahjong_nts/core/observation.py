"""What one seat may see of a hand in play.

An :class:`Observation` holds the seat's own tiles and everything that lies
open on the table: melds (another seat's concealed kong is laid face down, so
only its existence shows), flowers and seasons, discards, how many tiles each
seat holds, the walls' sizes and the tile on offer.  Never another seat's
concealed tiles, the wall's order or another seat's pending claim.  Once the
hand is over every hand is shown, as at the table when the score is counted.

During a claim window every seat sees that the window is open (at the table,
the pause while someone thinks); only the seat asked sees its options.
"""

from __future__ import annotations

from dataclasses import dataclass

from mahjong_nts.core.actions import Action
from mahjong_nts.core.errors import InvalidSeat, quote
from mahjong_nts.core.game import Game, HandResult, Phase
from mahjong_nts.core.hand import Hand, Meld
from mahjong_nts.core.tiles import WINDS, Tile

__all__ = ["Observation", "SeatView", "observe"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """The open side of one seat."""

    seat: int
    wind: Tile
    melds: tuple[Meld | None, ...]
    """Declared melds in order; ``None`` is another seat's concealed kong (face down)."""
    bonus: tuple[Tile, ...]
    discards: tuple[Tile, ...]
    """Its discards still on the table (claimed ones went into a meld)."""
    concealed_count: int
    dead: bool
    """Declared dead by a false mahjong claim (public: it was called out)."""
    announced: bool
    """Announced the lucky thirteen (public): its hand stays as it was dealt."""


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    round_wind: Tile
    """A wind, or the green dragon (``Tile.GREEN``) in a green-dragon hand."""
    dominant: int | None
    phase: Phase
    seq: int
    """The sequence number of the decision asked now (:attr:`Game.seq`): an action sent
    to an authority (``Game.apply(act, seat=..., seq=...)``) answers this number.  It is
    worked out from public events only, so it is the same for every seat."""
    turn: int
    """The seat on turn; in a claim or rob window, the seat that offered the tile."""
    to_act: bool
    """This seat must decide now; :attr:`legal` lists its options."""
    legal: tuple[Action, ...]
    concealed: tuple[Tile, ...]
    drawn: Tile | None
    """On this seat's own turn: the tile it just drew (``None`` after a claim)."""
    offered: Tile | None
    """In a claim window the discard; in a rob window the promoted kong's tile."""
    seats: tuple[SeatView, ...]
    live_left: int
    dead_left: int
    kongs: int
    discard_count: int
    result: HandResult | None
    revealed: tuple[Hand, ...]
    """Every seat's hand, once the hand is over (else empty)."""

    @property
    def me(self) -> SeatView:
        return self.seats[self.seat]


def observe(game: Game, seat: int) -> Observation:
    """The observation of ``seat`` (0 = East) in ``game``."""
    if type(seat) is not int or not 0 <= seat < game.n:  # (a bool is no seat)
        raise InvalidSeat(f"seat {quote(seat)} is not at this table (0..{game.n - 1})")
    phase = game.phase
    over = phase is Phase.OVER
    to_act = not over and game.current_seat == seat
    views = []
    for s in range(game.n):
        melds: tuple[Meld | None, ...] = tuple(
            m if (m.open or s == seat or over) else None for m in game.melds[s]
        )
        views.append(
            SeatView(
                seat=s,
                wind=WINDS[s],
                melds=melds,
                bonus=tuple(game.bonus[s]),
                discards=tuple(game.discards[s]),
                concealed_count=sum(game.hands[s]),
                dead=game.dead[s],
                announced=game.announced[s],
            )
        )
    on_turn = phase is Phase.TURN and game.turn == seat
    return Observation(
        seat=seat,
        round_wind=game.round_wind,
        dominant=game.dominant,
        phase=phase,
        seq=game.seq,
        turn=game.turn,
        to_act=to_act,
        legal=game.legal_actions() if to_act else (),
        concealed=game.concealed(seat),
        drawn=game.tile if on_turn else None,
        offered=game.tile if phase in (Phase.CLAIM, Phase.ROB) else None,
        seats=tuple(views),
        live_left=game.wall.live_left,
        dead_left=game.wall.dead_left,
        kongs=game.kongs,
        discard_count=game.discard_count,
        result=game.result,
        revealed=tuple(game.hand_of(s) for s in range(game.n)) if over else (),
    )
