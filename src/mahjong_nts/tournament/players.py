"""Players of a tournament and who is present in which round.

A player is a number (1 .. :data:`MAX_PLAYERS`, the number on the score card), a name,
a club and the NMB and EMA numbers.  Late arrivals, drop-outs and substitutes are
rounds: a player plays from ``first_round`` to ``last_round`` (``None``: to the end),
except the rounds in ``absent``.  A substitute is a new player whose first round is
the one they come in.

>>> p = Player(7, "Anna", "de Vries", club="De Groene Draak", first_round=2)
>>> p
Player(7, 'Anna', 'de Vries', club='De Groene Draak', first_round=2)
>>> p.name, p.present_in(1), p.present_in(2)
('Anna de Vries', False, True)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from mahjong_nts.core.errors import quote
from mahjong_nts.core.text import N_, Text
from mahjong_nts.tournament.errors import InvalidPlayer

__all__ = [
    "MAX_NAME_CHARS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "Player",
    "Roster",
    "check_round",
    "check_text",
]

MAX_PLAYERS: Final = 400
"""Players of one tournament (and ``tournament seat --players``): 4 to 400."""

MAX_ROUNDS: Final = 20
"""Rounds of one tournament (and ``tournament seat --rounds``): 1 to 20."""

MAX_NAME_CHARS: Final = 60
"""Characters of a player's first or last name, a club, an NMB or EMA number."""

_REFUSED: Final = frozenset("<>")

_FIELDS: Final = {
    "last_name": Text(N_("last name")),
    "club": Text(N_("club")),
    "ema": Text(N_("EMA number")),
    "nmb": Text(N_("NMB number")),
}


def check_text(value: object, what: str, *, required: bool = False) -> str:
    """``value`` as a name: a ``str`` of at most :data:`MAX_NAME_CHARS` printable
    characters (spaces at the ends removed), without ``<`` or ``>`` (a name is text,
    never markup); empty only when not ``required``."""
    if not isinstance(value, str):
        raise InvalidPlayer(
            N_("{what}: text expected, not {type}"), what=what, type=type(value).__name__
        )
    text = value.strip()
    if required and not text:
        raise InvalidPlayer(N_("{what}: empty"), what=what)
    if len(text) > MAX_NAME_CHARS:
        raise InvalidPlayer(
            N_("{what}: {n} characters, at most {most}"),
            what=what,
            n=len(text),
            most=MAX_NAME_CHARS,
        )
    for ch in text:
        if ch in _REFUSED:
            raise InvalidPlayer(
                N_("{what}: {value} has {ch!r}: a name is text, not markup"),
                what=what,
                value=quote(text),
                ch=ch,
            )
        if unicodedata.category(ch)[0] == "C":
            raise InvalidPlayer(
                N_("{what}: {value} has a control character"), what=what, value=quote(text)
            )
    return text


def check_round(value: object, what: str) -> int:
    """``value`` as a round number: a whole number 1 to :data:`MAX_ROUNDS` (else
    :class:`InvalidPlayer`, ``what`` naming the field)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
        raise InvalidPlayer(
            N_("{what}: a round is 1 to {most}, not {value}"),
            what=what,
            most=MAX_ROUNDS,
            value=quote(value),
        )
    return value


@dataclass(frozen=True, slots=True)
class Player:
    """One registered player (see the module's docstring)."""

    number: int
    first_name: str
    last_name: str = ""
    club: str = ""
    ema: str = ""
    """The EMA number ("" if none)."""
    nmb: str = ""
    """The NMB membership number ("" if none)."""
    first_round: int = 1
    last_round: int | None = None
    absent: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        n = self.number
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PLAYERS:
            raise InvalidPlayer(
                N_("player number {value}: a number is 1 to {most}"),
                value=quote(n),
                most=MAX_PLAYERS,
            )
        where = Text(N_("player {number}"), number=n)
        object.__setattr__(self, "first_name", check_text(self.first_name, where, required=True))
        for name, field_name in _FIELDS.items():
            what = Text(N_("{where}, {field}"), where=where, field=field_name)
            object.__setattr__(self, name, check_text(getattr(self, name), what))
        check_round(self.first_round, Text(N_("{where}, first round"), where=where))
        if self.last_round is not None:
            check_round(self.last_round, Text(N_("{where}, last round"), where=where))
            if self.last_round < self.first_round:
                raise InvalidPlayer(
                    N_("{where}: leaves after round {last}, before coming in round {first}"),
                    where=where,
                    last=self.last_round,
                    first=self.first_round,
                )
        absent = frozenset(self.absent)
        for r in absent:
            check_round(r, Text(N_("{where}, absent"), where=where))
        object.__setattr__(self, "absent", absent)

    @property
    def name(self) -> str:
        """First and last name."""
        return f"{self.first_name} {self.last_name}".strip()

    def present_in(self, round_number: int) -> bool:
        """Whether the player plays round ``round_number``."""
        if round_number < self.first_round or round_number in self.absent:
            return False
        return self.last_round is None or round_number <= self.last_round

    def __repr__(self) -> str:
        parts = [repr(self.number), repr(self.first_name), repr(self.last_name)]
        for name in ("club", "ema", "nmb"):
            value = getattr(self, name)
            if value:
                parts.append(f"{name}={value!r}")
        if self.first_round != 1:
            parts.append(f"first_round={self.first_round}")
        if self.last_round is not None:
            parts.append(f"last_round={self.last_round}")
        if self.absent:
            parts.append(f"absent=frozenset({sorted(self.absent)})")
        return f"Player({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class Roster:
    """The players of a tournament: numbers unique, EMA numbers unique where given."""

    players: tuple[Player, ...]

    def __post_init__(self) -> None:
        players = tuple(self.players)
        if len(players) > MAX_PLAYERS:
            raise InvalidPlayer(N_("{n} players: at most {most}"), n=len(players), most=MAX_PLAYERS)
        seen: dict[int, Player] = {}
        emas: dict[str, int] = {}
        for p in players:
            if not isinstance(p, Player):
                raise InvalidPlayer(N_("a roster holds players, not {type}"), type=type(p).__name__)
            if p.number in seen:
                raise InvalidPlayer(
                    N_("player number {number} twice: {a} and {b}"),
                    number=p.number,
                    a=quote(seen[p.number].name),
                    b=quote(p.name),
                )
            seen[p.number] = p
            if p.ema:
                if p.ema in emas:
                    raise InvalidPlayer(
                        N_("EMA number {ema} twice: players {a} and {b}"),
                        ema=quote(p.ema),
                        a=emas[p.ema],
                        b=p.number,
                    )
                emas[p.ema] = p.number
        object.__setattr__(self, "players", tuple(sorted(players, key=lambda p: p.number)))

    @classmethod
    def numbered(cls, count: int) -> Roster:
        """Players 1 .. ``count``, named by their number (a schedule without names)."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_PLAYERS:
            raise InvalidPlayer(
                N_("{value} players: give 1 to {most}"), value=quote(count), most=MAX_PLAYERS
            )
        return cls(tuple(Player(i, str(i)) for i in range(1, count + 1)))

    def __iter__(self) -> Iterator[Player]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def get(self, number: int) -> Player:
        """The player with ``number`` (:class:`InvalidPlayer` if there is none)."""
        for p in self.players:
            if p.number == number:
                return p
        raise InvalidPlayer(N_("no player number {number}"), number=quote(number))

    def present(self, round_number: int) -> tuple[int, ...]:
        """The numbers of the players who play round ``round_number``, in order."""
        return tuple(p.number for p in self.players if p.present_in(round_number))

    def clubs(self) -> dict[int, str]:
        """Player number -> club, for the players who have one."""
        return {p.number: p.club for p in self.players if p.club}

    def with_player(self, player: Player) -> Roster:
        """The roster with ``player`` added (checked as a whole again)."""
        return Roster((*self.players, player))

    def replace(self, player: Player) -> Roster:
        """The roster with the player of ``player.number`` replaced by ``player``."""
        self.get(player.number)
        return Roster(tuple(player if p.number == player.number else p for p in self.players))


def numbers(players: Iterable[Player]) -> tuple[int, ...]:
    """The players' numbers."""
    return tuple(p.number for p in players)
