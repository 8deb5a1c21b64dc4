"""The evening score sheet: players, a rule set, and the hands played, as a table.

Pure logic (standard library and the rules core only; no I/O, no clock): the
store keeps the entries, the web and the terminal show the rows this module
computes from them.  See ``docs/store.md``.

A sheet has 3 to 5 players, named in their order round the table; player 0 is
East in the first hand.  Each hand is an *entry*, given per player (never per
seat: who sits where follows from the hands before it):

- :class:`ScoresEntry`: bare scores, one per player, who won (``None``: a
  remise) and who discarded the winning tile (``None``: self-drawn);
- :class:`HandsEntry`: the hands as the calculator entered them, scored by a
  :class:`Scorer` the caller supplies (the store scores them with the JSON
  contract's ``settle``, see :mod:`mahjong_nts.store.entries`).

:func:`compute` walks the entries with the same :class:`Rotation` a match uses
and gives a :class:`Row` per hand: who is East, the seat winds, the round wind
(the green dragon in a green-dragon hand), the dreamer of a 5-player table,
the scores as settled, each player's balance (settled with
:func:`mahjong_nts.core.settlement.settle`, exactly as the ``settle`` command
does), the running totals, and the money when the sheet has a chip value.
Every row is computed again from the entries, so correcting an earlier hand
recomputes everything after it.

When the match is over (all its rounds played), the next hand starts a new
game with player 0 East again (:attr:`Row.game` counts them).

An entry that fits no longer (a correction moved East, so the dreamer now
has a score, or a hand became the green-dragon hand and needs its dominant
player) gets :attr:`Row.problem` and settles nothing until it is corrected;
:func:`check_entry` refuses such an entry when it is added or corrected.

>>> from mahjong_nts.formats.rulefiles import load_ruleset
>>> sheet = Sheet.create(["Ann", "Bob", "Cor", "Dirk"], load_ruleset("nts-2016"))
>>> rows = compute(sheet, [ScoresEntry((40, 10, 0, 8), winner=0, discarder=None)])
>>> rows[0].east, rows[0].balances, rows[0].totals
(0, (240, -68, -98, -74), (240, -68, -98, -74))
>>> compute(sheet, [ScoresEntry((40, 10, 0, 8), winner=0, discarder=None)] * 2)[1].east
1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.match import Rotation
from mahjong_nts.core.rules import MAX_SCORE, RuleSet
from mahjong_nts.core.settlement import settle
from mahjong_nts.core.text import N_
from mahjong_nts.core.tiles import WINDS, Tile

__all__ = [
    "MAX_CHIP_CENTS",
    "MAX_HANDS",
    "MAX_NAME_CHARS",
    "Entry",
    "HandContext",
    "HandsEntry",
    "Row",
    "ScoredHands",
    "Scorer",
    "ScoresEntry",
    "Sheet",
    "SheetError",
    "check_chip",
    "check_entry",
    "check_names",
    "compute",
]

MAX_NAME_CHARS: Final = 40
"""Characters in a player's name."""

MAX_HANDS: Final = 500
"""Hands on one sheet: a long evening is 50; more is not a sheet but a mistake."""

MAX_CHIP_CENTS: Final = Decimal(100)
"""The largest chip value, in cents per point (a euro a point)."""

CHIP_PLACES: Final = 3
"""Decimal places of a chip value: 0.125 cent a point is fine, 0.0001 is refused."""

_COUNT_WORDS: Final = {3: "three", 4: "four", 5: "five"}


class SheetError(MahjongError):
    """An entry, a name or a value of a sheet that is wrong; ``field`` says which."""

    def __init__(self, field: str, message: str) -> None:
        if field:
            super().__init__(N_("{field}: {message}"), field=field, message=message)
        else:
            super().__init__(message)
        self.field = field
        self.message = message


# --------------------------------------------------------------------------- the sheet


def check_names(names: Sequence[object], rules: RuleSet) -> tuple[str, ...]:
    """The players' names: as many as the rule set seats (3, 4, or 5 with a
    dreamer), each 1 to :data:`MAX_NAME_CHARS` printable characters with no
    space at either end, no two the same (ignoring case)."""
    players = Rotation.start(rules).players
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise SheetError("names", "give the players' names as a list")
    if len(names) != players:
        raise SheetError(
            "names",
            f"rule set {rules.name!r} is played by {_COUNT_WORDS[players]} players "
            f"(three players: add '+three-players', five: '+five-players'), got "
            f"{len(names)} names",
        )
    seen: dict[str, int] = {}
    out: list[str] = []
    for i, name in enumerate(names):
        where = f"names[{i}]"
        if not isinstance(name, str):
            raise SheetError(where, f"a name is text, not {type(name).__name__}")
        if not name or name != name.strip():
            raise SheetError(where, "a name is not empty and has no space at either end")
        if len(name) > MAX_NAME_CHARS:
            raise SheetError(where, f"at most {MAX_NAME_CHARS} characters, got {len(name)}")
        if not name.isprintable():
            raise SheetError(where, "a name has printable characters only")
        key = name.casefold()
        if key in seen:
            raise SheetError(where, f"{name!r} is the name of player {seen[key]} already")
        seen[key] = i
        out.append(name)
    return tuple(out)


def check_chip(value: object) -> Decimal | None:
    """A chip value in cents per point: ``None`` (no money), or a number above 0
    and at most :data:`MAX_CHIP_CENTS` with at most :data:`CHIP_PLACES` decimals,
    given as an int, a :class:`~decimal.Decimal` or a decimal string (``"0.25"``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal):
        raise SheetError("chip", f"a chip value is a number of cents, not {type(value).__name__}")
    if isinstance(value, str) and len(value) > 20:
        raise SheetError("chip", "a chip value has at most 20 characters")
    try:
        chip = Decimal(value)
    except InvalidOperation:
        raise SheetError("chip", f"{value!r} is not a number") from None
    if not chip.is_finite() or not 0 < chip <= MAX_CHIP_CENTS:
        raise SheetError(
            "chip", f"cents per point above 0 and at most {MAX_CHIP_CENTS}, got {value!r}"
        )
    exponent = chip.normalize().as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    if exponent < -CHIP_PLACES:
        raise SheetError("chip", f"at most {CHIP_PLACES} decimals, got {value!r}")
    return chip.normalize() if exponent < 0 else chip.quantize(Decimal(1))


@dataclass(frozen=True, slots=True)
class Sheet:
    """A session: the players (player 0 is East in the first hand), the rule set,
    and the chip value in cents per point (``None``: no money)."""

    names: tuple[str, ...]
    rules: RuleSet
    chip: Decimal | None = None

    @classmethod
    def create(cls, names: Sequence[object], rules: RuleSet, chip: object = None) -> Sheet:
        """A sheet with checked names and chip value (:class:`SheetError` if wrong)."""
        return cls(check_names(names, rules), rules, check_chip(chip))

    @property
    def players(self) -> int:
        return len(self.names)


# --------------------------------------------------------------------------- entries


@dataclass(frozen=True, slots=True)
class ScoresEntry:
    """A hand as bare scores: one per player (0 for the dreamer), who won
    (a player; ``None`` for a remise), who discarded the winning tile (``None``:
    self-drawn), and in a green-dragon hand the dominant player the dice chose."""

    scores: tuple[int, ...]
    winner: int | None
    discarder: int | None = None
    dominant: int | None = None


@dataclass(frozen=True, slots=True)
class HandsEntry:
    """A hand from the calculator: each player's hand (``None`` for the dreamer) in
    whatever form the :class:`Scorer` reads, who won, who discarded, and the
    dominant player of a green-dragon hand."""

    hands: tuple[Any, ...]
    winner: int | None
    discarder: int | None = None
    dominant: int | None = None


Entry = ScoresEntry | HandsEntry


@dataclass(frozen=True, slots=True)
class HandContext:
    """What scoring the hands of one entry needs to know about its place."""

    number: int
    rules: RuleSet
    round_wind: Tile
    east: int
    """The player who is East."""
    dreamer: int | None
    seat_winds: tuple[Tile | None, ...]
    """Each player's seat wind (``None`` for the dreamer)."""


@dataclass(frozen=True, slots=True)
class ScoredHands:
    """A scorer's answer: each player's score (0 for the dreamer), and for each
    whatever explains it (the score response), if the scorer gives one."""

    scores: tuple[int, ...]
    details: tuple[Any, ...] = ()


Scorer = Callable[[HandsEntry, HandContext], ScoredHands]
"""Scores a :class:`HandsEntry` in its place; raises :class:`MahjongError` with a
clear message when a hand is wrong."""


def _player(value: object, where: str, players: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise SheetError(where, f"a player is a number 0-{players - 1}, not {value!r}")
    return value


def _check_shape(sheet: Sheet, entry: object) -> None:
    """What an entry must be wherever it stands."""
    n = sheet.players
    if not isinstance(entry, ScoresEntry | HandsEntry):
        raise SheetError("entry", f"an entry is scores or hands, not {type(entry).__name__}")
    winner = _player(entry.winner, "winner", n)
    discarder = _player(entry.discarder, "discarder", n)
    _player(entry.dominant, "dominant", n)
    if winner is None and discarder is not None:
        raise SheetError("discarder", "a remise (no winner) has no discarder")
    if winner is not None and winner == discarder:
        raise SheetError("discarder", "the winner cannot be the discarder")
    if entry.dominant is not None and sheet.rules.table.green_dragon == "none":
        raise SheetError(
            "dominant",
            f"rule set {sheet.rules.name!r} plays no green-dragon hand, so there is no "
            "dominant player",
        )
    if isinstance(entry, ScoresEntry):
        if not isinstance(entry.scores, tuple) or len(entry.scores) != n:
            raise SheetError("scores", f"give {n} scores, one per player")
        for i, s in enumerate(entry.scores):
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= MAX_SCORE:
                raise SheetError(f"scores[{i}]", f"a score is a whole number 0-{MAX_SCORE}")
    elif not isinstance(entry.hands, tuple) or len(entry.hands) != n:
        raise SheetError("hands", f"give {n} hands, one per player (null for the dreamer)")


def _check_place(sheet: Sheet, entry: Entry, rot: Rotation) -> None:
    """What an entry must be in the hand ``rot`` stands before."""
    names = sheet.names
    dreamer = rot.dreamer
    if dreamer is not None:
        who = f"{names[dreamer]} is the dreamer of this hand and sits it out"
        for key, value in (
            ("winner", entry.winner),
            ("discarder", entry.discarder),
            ("dominant", entry.dominant),
        ):
            if value == dreamer:
                raise SheetError(key, who)
        if isinstance(entry, ScoresEntry) and entry.scores[dreamer]:
            raise SheetError(f"scores[{dreamer}]", f"{who}: his score is 0")
    if isinstance(entry, HandsEntry):
        for p, hand in enumerate(entry.hands):
            if (hand is None) != (p == dreamer):
                raise SheetError(
                    f"hands[{p}]",
                    f"{names[p]} is the dreamer of this hand: give no hand"
                    if p == dreamer
                    else f"{names[p]} plays this hand: give his hand",
                )
    if rot.green:
        if entry.dominant is None and entry.winner is not None:
            raise SheetError(
                "dominant",
                "this is a hand of the green dragon: say who the dice made the dominant player",
            )
    elif entry.dominant is not None:
        raise SheetError(
            "dominant", "only a hand of the green dragon has a dominant player, this one has not"
        )


# --------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class Row:
    """One hand of the sheet as computed from the entries.  Players are indices
    into :attr:`Sheet.names`; per-player tuples have one value per player."""

    number: int
    """0-based position of the hand on the sheet."""
    game: int
    """0-based game of the evening (a new one starts when a match is over)."""
    hand: int
    """0-based hand within its game."""
    round: int
    """0-based round of the game (the green-dragon round of five players is the last)."""
    round_wind: Tile
    """The round wind; the green dragon (``Tile.GREEN``) in a green-dragon hand."""
    east: int
    seat_winds: tuple[Tile | None, ...]
    """Each player's seat wind; ``None`` for the dreamer."""
    dreamer: int | None
    green: bool
    """A hand of the green dragon (it has a dominant player)."""
    entry: Entry
    scores: tuple[int, ...]
    """Each player's score as settled (rounded as the rule set says; all 0 in a remise)."""
    balances: tuple[int, ...]
    """What each player won (positive) or lost in this hand; they sum to zero."""
    totals: tuple[int, ...]
    """Running totals after this hand."""
    money: tuple[Decimal, ...] | None
    """This hand's balances in cents (``None``: the sheet has no chip value)."""
    money_totals: tuple[Decimal, ...] | None
    """Running totals in cents."""
    problem: str | None = None
    """Why the entry does not fit here (it then settles nothing), or ``None``."""
    details: tuple[Any, ...] = field(default=())
    """The scorer's explanation per player (calculator hands only)."""


def _seat_winds(rot: Rotation, players: int) -> tuple[Tile | None, ...]:
    winds: list[Tile | None] = [None] * players
    for seat, player in enumerate(rot.seating):
        winds[player] = WINDS[seat]
    return tuple(winds)


def _settle(
    sheet: Sheet, entry: Entry, rot: Rotation, number: int, scorer: Scorer | None
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Any, ...]]:
    _check_place(sheet, entry, rot)
    details: tuple[Any, ...] = ()
    if isinstance(entry, HandsEntry):
        if scorer is None:
            raise SheetError("hands", "hands from the calculator need a scorer")
        ctx = HandContext(
            number=number,
            rules=sheet.rules,
            round_wind=rot.round_wind,
            east=rot.east,
            dreamer=rot.dreamer,
            seat_winds=_seat_winds(rot, sheet.players),
        )
        scored = scorer(entry, ctx)
        scores, details = scored.scores, scored.details
        if len(scores) != sheet.players:
            raise SheetError("hands", f"the scorer gave {len(scores)} scores")
    else:
        scores = entry.scores
    result = settle(
        scores,
        winner=entry.winner,
        discarder=entry.discarder,
        east=rot.east,
        rules=sheet.rules.settlement,
        dominant=entry.dominant if rot.green else None,
        dreamer=rot.dreamer,
    )
    return result.scores, result.balances, details


def check_entry(
    sheet: Sheet, entries: Sequence[Entry], number: int, scorer: Scorer | None = None
) -> Row:
    """The row of ``entries[number]`` if that entry fits in its place; else
    :class:`SheetError` (or the scorer's error) says why.  The store calls this
    before it keeps a new or corrected entry."""
    if not 0 <= number < len(entries):
        raise SheetError("hand", f"there is no hand {number + 1} on this sheet")
    rows = compute(sheet, entries[: number + 1], scorer, strict_from=number)
    return rows[number]


def compute(
    sheet: Sheet,
    entries: Sequence[Entry],
    scorer: Scorer | None = None,
    *,
    strict_from: int | None = None,
) -> tuple[Row, ...]:
    """The rows of a sheet: one per entry, every one computed from the start.

    An entry that does not fit where it stands gets :attr:`Row.problem` (and
    settles nothing) -- or, from position ``strict_from`` on, raises its error."""
    if len(entries) > MAX_HANDS:
        raise SheetError("hands", f"a sheet has at most {MAX_HANDS} hands")
    n = sheet.players
    rot = Rotation.start(sheet.rules)
    game = hand = 0
    totals = [0] * n
    rows: list[Row] = []
    zero = (0,) * n
    for number, entry in enumerate(entries):
        strict = strict_from is not None and number >= strict_from
        problem: str | None = None
        details: tuple[Any, ...] = ()
        try:
            _check_shape(sheet, entry)
            scores, balances, details = _settle(sheet, entry, rot, number, scorer)
        except MahjongError as exc:
            if strict:
                raise
            problem = exc.text
            scores = balances = zero
        for p in range(n):
            totals[p] += balances[p]
        chip = sheet.chip
        rows.append(
            Row(
                number=number,
                game=game,
                hand=hand,
                round=rot.round,
                round_wind=rot.round_wind,
                east=rot.east,
                seat_winds=_seat_winds(rot, n),
                dreamer=rot.dreamer,
                green=rot.green,
                entry=entry,
                scores=tuple(scores),
                balances=tuple(balances),
                totals=tuple(totals),
                money=None if chip is None else tuple(b * chip for b in balances),
                money_totals=None if chip is None else tuple(t * chip for t in totals),
                problem=problem,
                details=details,
            )
        )
        rot = rot.next(_winner_seat(rot, entry, problem))
        hand += 1
        if rot.over:
            rot = Rotation.start(sheet.rules)
            game += 1
            hand = 0
    return tuple(rows)


def _winner_seat(rot: Rotation, entry: Entry, problem: str | None) -> int | None:
    """The winner's seat for the rotation: a hand with a problem counts as won by
    its winner if he plays in it, else as a remise."""
    winner = entry.winner if isinstance(entry, ScoresEntry | HandsEntry) else None
    if problem is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        return None
    seating = rot.seating
    return seating.index(winner) if winner in seating else None
