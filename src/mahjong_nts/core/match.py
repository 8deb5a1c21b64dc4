"""A match: hands one after another, winds rotating and rounds advancing as the
rule set says, with cumulative balances.

Players are numbered 0..P-1 round the table (counter-clockwise); player 0 is
East in the first hand.  Each hand's seats (0 = East) map to players by
:attr:`HandSetup.players`; at a 5-player table the player before East is the
dreamer and sits the hand out.  Each hand gets its own RNG from ``make_rng``
and a seed drawn from the match's RNG, so a hand can be replayed alone.

Who is East, the round wind, the dreamer and the green-dragon hands follow from
the hands' outcomes alone: :class:`Rotation` holds that state between hands, and
a match and the evening score sheet (:mod:`mahjong_nts.sheet`) both move it on
with :meth:`Rotation.next`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from mahjong_nts.core.errors import IllegalMatchStep
from mahjong_nts.core.game import Game, HandResult
from mahjong_nts.core.rules import RuleSet, TableRules
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS
from mahjong_nts.core.text import N_
from mahjong_nts.core.tiles import WINDS, Tile
from mahjong_nts.core.wall import Rng

__all__ = ["HandRecord", "HandSetup", "Match", "Rotation"]


_MATCH_IDS: Final = itertools.count(1)
"""Numbers for matches (:attr:`Match._id`)."""


@dataclass(frozen=True, slots=True)
class Rotation:
    """Where the winds stand before a hand: who is East, which round it is, and
    whether the next hand is a hand of the green dragon.  A value: :meth:`next`
    returns the rotation after a hand, from that hand's outcome only.

    The rules (docs/rules.md): East passes to the next player after every hand,
    or only when East did not win (``table.rotate_on_east_win``) and not after a
    remise (``table.rotate_on_remise``); a round ends when every player has been
    East once; at three players a green-dragon hand follows each round
    (``green_dragon = "hand_per_round"``), at five a whole green-dragon round
    follows the last (``"final_round"``).
    """

    table: TableRules
    east: int = 0
    """The player who is East (players are numbered 0.. round the table)."""
    round: int = 0
    """0-based round; the green-dragon round of a 5-player match counts as the last."""
    rotations: int = 0
    """Times East moved on in the current round."""
    green_next: bool = False
    """The next hand is the green-dragon hand that ends a round (3 players)."""
    green_round: bool = False
    """The rounds are over and the green-dragon round is on (5 players)."""
    over: bool = False
    """The match is over: the last round has been played."""

    @classmethod
    def start(cls, rules: RuleSet | TableRules) -> Rotation:
        """The rotation before a match's first hand: player 0 is East."""
        return cls(rules.table if isinstance(rules, RuleSet) else rules)

    @property
    def players(self) -> int:
        """Players at the table, the dreamer of a 5-player table included."""
        return self.table.players + (1 if self.table.dreamer else 0)

    @property
    def seats(self) -> int:
        """Players in one hand (3 or 4)."""
        return self.table.players

    @property
    def round_count(self) -> int:
        """Rounds to play, the green-dragon round of a 5-player match included."""
        extra = 1 if self.table.green_dragon == "final_round" else 0
        return self.table.rounds + extra

    @property
    def green(self) -> bool:
        """The hand is a hand of the green dragon (it has a dominant player)."""
        return self.green_next or self.green_round

    @property
    def round_wind(self) -> Tile:
        """The round wind of the hand: the green dragon in a green-dragon hand."""
        if self.green:
            return Tile.GREEN
        if self.table.round_wind == "east":
            return Tile.EAST
        return WINDS[self.round % len(self.table.winds)]

    @property
    def seating(self) -> tuple[int, ...]:
        """The player at each seat of the hand (index 0 is East)."""
        return tuple((self.east + k) % self.players for k in range(self.seats))

    @property
    def dreamer(self) -> int | None:
        """The player who sits the hand out at a table of five: the one before East."""
        return (self.east - 1) % self.players if self.players > self.seats else None

    def next(self, winner: int | None) -> Rotation:
        """The rotation after a hand that ``winner`` (a seat: 0 is East) won, or
        that ended as a remise (``None``).  The match must not be over."""
        if self.over:
            raise IllegalMatchStep(N_("the match is over"))
        if winner is not None and not 0 <= winner < self.seats:
            raise IllegalMatchStep(
                N_("the winner is a seat 0-{last} (0 is East), not {winner}"),
                last=self.seats - 1,
                winner=winner,
            )
        table = self.table
        if self.green_next:  # the extra hand after a round: the next round starts
            return self._next_round(replace(self, green_next=False))
        if winner is None:
            rotate = table.rotate_on_remise
        else:
            rotate = winner != 0 or table.rotate_on_east_win
        if not rotate:
            return self
        moved = replace(self, east=(self.east + 1) % self.players, rotations=self.rotations + 1)
        if moved.rotations < self.players:
            return moved
        if table.green_dragon == "hand_per_round" and not self.green_round:
            return replace(moved, green_next=True)
        return self._next_round(moved)

    @staticmethod
    def _next_round(rot: Rotation) -> Rotation:
        nxt = rot.round + 1
        if nxt >= rot.round_count:
            return replace(rot, rotations=0, round=nxt, over=True)
        return replace(
            rot, rotations=0, round=nxt, green_round=nxt >= rot.table.rounds or rot.green_round
        )


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Who sits where in one hand of a match, and under which wind."""

    number: int
    """0-based count of hands played before this one."""
    round: int
    """0-based round; the green-dragon round of a 5-player match counts as the last."""
    round_wind: Tile
    players: tuple[int, ...]
    """The player at each seat (index 0 is East)."""
    dreamer: int | None
    dominant: int | None
    """The dominant player of a green-dragon hand (a player, not a seat)."""
    seed: int


@dataclass(frozen=True, slots=True)
class HandRecord:
    setup: HandSetup
    result: HandResult
    balances: tuple[int, ...]
    """What each player won or lost in this hand (0 for the dreamer)."""


class Match:
    """Hands of one match.  Use :meth:`next_hand`, play the returned game to its
    end, then :meth:`record` it; :attr:`is_over` says when the match is done.

    Steps out of this order raise :class:`IllegalMatchStep`; only the very game
    :meth:`next_hand` returned can be recorded, once, when it is over."""

    def __init__(self, rules: RuleSet, rng: Rng, make_rng: Callable[[int], Rng]) -> None:
        table = rules.table
        self.rules = rules
        self.players = table.players + (1 if table.dreamer else 0)
        self.seats = table.players
        self.balances = [0] * self.players
        self.history: list[HandRecord] = []
        self._rng = rng
        self._make_rng = make_rng
        self.rotation = Rotation.start(table)
        """The winds before the next hand (after the last, :attr:`Rotation.over`)."""
        self._setup: HandSetup | None = None
        self._game: Game | None = None
        """The game in play: the one :meth:`next_hand` dealt, until it is recorded."""
        self._id = next(_MATCH_IDS)
        """This match's number in the process: a game it records keeps it
        (:attr:`Game.recorded_by`), to say so when the game comes again.  Not a weak set of
        the games: a compiled (mypyc) Game takes no weak reference."""

    @property
    def is_over(self) -> bool:
        return self.rotation.over

    @property
    def round_count(self) -> int:
        """Rounds to play, the green-dragon round of a 5-player match included."""
        return self.rotation.round_count

    def next_hand(self) -> tuple[HandSetup, Game]:
        """Set up the next hand and deal it."""
        rot = self.rotation
        if rot.over:
            raise IllegalMatchStep(N_("the match is over"))
        if self._setup is not None:
            raise IllegalMatchStep(N_("record the hand in play before dealing the next"))
        players = rot.seating
        dreamer = rot.dreamer
        dominant_seat: int | None = None
        if rot.green:
            # The winner of the last hand (East after a remise) throws two dice and
            # counts counter-clockwise from himself as one.
            thrower = players[0]
            if self.history and self.history[-1].result.winner is not None:
                last = self.history[-1]
                thrower = last.setup.players[last.result.winner]  # type: ignore[index]
            throw = self._rng.randint(1, 6) + self._rng.randint(1, 6)
            # a thrower sitting this hand out as dreamer: count from East
            start = players.index(thrower) if thrower in players else 0
            dominant_seat = (start + throw - 1) % self.seats
        seed = self._rng.getrandbits(DEFAULT_SEED_BITS)
        setup = HandSetup(
            number=len(self.history),
            round=rot.round,
            round_wind=rot.round_wind,
            players=players,
            dreamer=dreamer,
            dominant=None if dominant_seat is None else players[dominant_seat],
            seed=seed,
        )
        game = Game(
            self.rules, self._make_rng(seed), round_wind=setup.round_wind, dominant=dominant_seat
        )
        self._setup, self._game = setup, game
        return setup, game

    def record(self, game: object) -> HandRecord:
        """Settle a finished hand into the balances and move the winds on.

        ``game`` must be the very game :meth:`next_hand` returned (not a copy, not
        another game of the same table), played to its end, recorded once; else
        :class:`IllegalMatchStep` says what is wrong and nothing changes."""
        if not isinstance(game, Game):
            raise IllegalMatchStep(
                N_("record takes the Game that next_hand() dealt, not a {type}"),
                type=type(game).__name__,
            )
        setup = self._setup
        number = len(self.history)
        if game.recorded_by == self._id:
            raise IllegalMatchStep(N_("this hand is recorded already"))
        if setup is None or self._game is None:
            raise IllegalMatchStep(
                N_("no hand in play: deal one with next_hand(), play it, record it")
            )
        if game is not self._game:
            raise IllegalMatchStep(
                N_(
                    "this is not the hand this match dealt (hand {number}): record the very game "
                    "next_hand() returned, played to its end"
                ),
                number=number,
            )
        if game.result is None:
            raise IllegalMatchStep(
                N_("hand {number} is not over yet: play it to its end"), number=number
            )
        result = game.result
        balances = [0] * self.players
        for seat, player in enumerate(setup.players):
            balances[player] = result.settlement.balances[seat]
            self.balances[player] += balances[player]
        rec = HandRecord(setup, result, tuple(balances))
        self.history.append(rec)
        game.recorded_by = self._id
        self._setup = self._game = None
        self.rotation = self.rotation.next(result.winner)
        return rec
