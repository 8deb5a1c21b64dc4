"""A match: hands one after another, winds rotating and rounds advancing as the
rule set says, with cumulative balances.

Players are numbered 0..P-1 round the table (counter-clockwise); player 0 is
East in the first hand.  Each hand's seats (0 = East) map to players by
:attr:`HandSetup.players`; at a 5-player table the player before East is the
dreamer and sits the hand out.  Each hand gets its own RNG from ``make_rng``
and a seed drawn from the match's RNG, so a hand can be replayed alone.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

from mahjong_nts.core.errors import IllegalMatchStep
from mahjong_nts.core.game import Game, HandResult
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS
from mahjong_nts.core.tiles import WINDS, Tile
from mahjong_nts.core.wall import Rng

__all__ = ["HandRecord", "HandSetup", "Match"]


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
        self._east = 0
        self._round = 0
        self._rotations = 0
        """Times East moved on in the current round."""
        self._green_next = False
        self._green_round = False
        self._over = False
        self._setup: HandSetup | None = None
        self._game: Game | None = None
        """The game in play: the one :meth:`next_hand` dealt, until it is recorded."""
        self._recorded: weakref.WeakSet[Game] = weakref.WeakSet()
        """Games recorded (weakly held: only to say so when one comes again)."""

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def round_count(self) -> int:
        """Rounds to play, the green-dragon round of a 5-player match included."""
        extra = 1 if self.rules.table.green_dragon == "final_round" else 0
        return self.rules.table.rounds + extra

    def _round_wind(self) -> Tile:
        if self._green_next or self._green_round:
            return Tile.GREEN
        if self.rules.table.round_wind == "east":
            return Tile.EAST
        return WINDS[self._round % len(self.rules.table.winds)]

    def next_hand(self) -> tuple[HandSetup, Game]:
        """Set up the next hand and deal it."""
        if self._over:
            raise IllegalMatchStep("the match is over")
        if self._setup is not None:
            raise IllegalMatchStep("record the hand in play before dealing the next")
        players = tuple((self._east + k) % self.players for k in range(self.seats))
        dreamer = (self._east - 1) % self.players if self.players > self.seats else None
        dominant_seat: int | None = None
        green = self._green_next or self._green_round
        if green:
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
            round=self._round,
            round_wind=self._round_wind(),
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

    def record(self, game: Game) -> HandRecord:
        """Settle a finished hand into the balances and move the winds on.

        ``game`` must be the very game :meth:`next_hand` returned (not a copy, not
        another game of the same table), played to its end, recorded once; else
        :class:`IllegalMatchStep` says what is wrong and nothing changes."""
        if not isinstance(game, Game):
            raise IllegalMatchStep(
                f"record takes the Game that next_hand() dealt, not a {type(game).__name__}"
            )
        setup = self._setup
        number = len(self.history)
        if game in self._recorded:
            raise IllegalMatchStep("this hand is recorded already")
        if setup is None or self._game is None:
            raise IllegalMatchStep("no hand in play: deal one with next_hand(), play it, record it")
        if game is not self._game:
            raise IllegalMatchStep(
                f"this is not the hand this match dealt (hand {number}): record the very game "
                "next_hand() returned, played to its end"
            )
        if game.result is None:
            raise IllegalMatchStep(f"hand {number} is not over yet: play it to its end")
        result = game.result
        balances = [0] * self.players
        for seat, player in enumerate(setup.players):
            balances[player] = result.settlement.balances[seat]
            self.balances[player] += balances[player]
        rec = HandRecord(setup, result, tuple(balances))
        self.history.append(rec)
        self._recorded.add(game)
        self._setup = self._game = None
        self._advance(result)
        return rec

    def _advance(self, result: HandResult) -> None:
        table = self.rules.table
        if self._green_next:  # the extra hand after a round: the next round starts
            self._green_next = False
            self._next_round()
            return
        if result.winner is None:
            rotate = table.rotate_on_remise
        else:
            rotate = result.winner != 0 or table.rotate_on_east_win
        if not rotate:
            return
        self._east = (self._east + 1) % self.players
        self._rotations += 1
        if self._rotations < self.players:
            return
        if table.green_dragon == "hand_per_round" and not self._green_round:
            self._green_next = True
            return
        self._next_round()

    def _next_round(self) -> None:
        self._rotations = 0
        self._round += 1
        if self._round >= self.round_count:
            self._over = True
        elif self._round >= self.rules.table.rounds:
            self._green_round = True
