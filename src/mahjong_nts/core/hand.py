"""Values describing a hand: declared melds, the hand itself, how it was won."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Final

from mahjong_nts.core.build import COMPILED
from mahjong_nts.core.errors import InvalidHand, InvalidMeld, InvalidWin, quote
from mahjong_nts.core.text import N_, Text, join
from mahjong_nts.core.tiles import NUM_KINDS, TILE_OF, Tile, is_honour, tile_name

__all__ = ["Hand", "Meld", "MeldKind", "Win", "WinSource", "tile_counts"]


class MeldKind(IntEnum):
    CHOW = 0
    PUNG = 1
    KONG = 2

    def __repr__(self) -> str:
        return f"MeldKind.{self.name}"


_KIND_WORDS: Final = (N_("chow"), N_("pung"), N_("kong"))
"""A meld kind as a word in a message (by :class:`MeldKind`)."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: an open chow/pung/kong, or a concealed kong laid closed.

    ``tile`` is the lowest tile of a chow, the tile of a pung or kong.  A
    concealed (``open=False``) chow or pung is allowed too: it fixes how those
    concealed tiles are arranged.
    """

    kind: MeldKind
    tile: Tile
    open: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.kind, MeldKind):
            object.__setattr__(self, "kind", MeldKind(self.kind))
        if not isinstance(self.tile, Tile):
            object.__setattr__(self, "tile", Tile(self.tile))
        if self.tile >= NUM_KINDS:
            raise InvalidMeld(
                N_("a {kind} cannot be made of {tile}"),
                kind=Text(_KIND_WORDS[self.kind]),
                tile=self.tile.token,
            )
        if self.kind is MeldKind.CHOW and (is_honour(self.tile) or self.tile % 9 > 6):
            raise InvalidMeld(
                N_("a chow starting at {tile} is not three consecutive tiles of one suit"),
                tile=self.tile.token,
            )

    def __reduce__(self) -> tuple[type[Meld], tuple[MeldKind, Tile, bool]]:
        # pickled and copied as its fields: compiled (mypyc), a frozen dataclass cannot
        # be rebuilt by setting its attributes one by one
        return (Meld, (self.kind, self.tile, self.open))

    @classmethod
    def from_tiles(cls, tiles: Iterable[Tile], open: bool = True) -> Meld:
        """Recognise a meld from its tiles (any order)."""
        ts = sorted(tiles)
        shown = " ".join(Tile(t).token for t in ts)
        if any(t >= NUM_KINDS for t in ts):
            raise InvalidMeld(N_("flowers and seasons cannot be in a meld: {tiles}"), tiles=shown)
        if len(ts) in (3, 4) and len(set(ts)) == 1:
            return cls(MeldKind.PUNG if len(ts) == 3 else MeldKind.KONG, Tile(ts[0]), open)
        if (
            len(ts) == 3
            and not is_honour(ts[0])
            and ts[1] == ts[0] + 1
            and ts[2] == ts[0] + 2
            and ts[0] // 9 == ts[2] // 9
        ):
            return cls(MeldKind.CHOW, Tile(ts[0]), open)
        if not shown:
            raise InvalidMeld(N_("no tiles is not a chow, pung or kong"))
        raise InvalidMeld(N_("{tiles} is not a chow, pung or kong"), tiles=shown)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is MeldKind.CHOW:
            return (self.tile, TILE_OF[self.tile + 1], TILE_OF[self.tile + 2])
        return (self.tile,) * (4 if self.kind is MeldKind.KONG else 3)

    @property
    def is_set_of_identical(self) -> bool:
        """Pung or kong."""
        return self.kind is not MeldKind.CHOW

    def describe(self, lang: str = "nl") -> str:
        state = (
            ("open" if self.open else "dicht")
            if lang == "nl"
            else ("open" if self.open else "concealed")
        )
        return f"{self.kind.name.lower()} {tile_name(self.tile, lang)} ({state})"


def tile_counts(tiles: Iterable[int]) -> list[int]:
    """A 34-length count vector of the playing tiles among ``tiles``."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


@dataclass(frozen=True, slots=True, init=False)
class Hand:
    """A player's tiles: concealed tiles, declared melds, flowers and seasons.

    ``concealed`` holds every tile not in a declared meld, the winning tile
    included, sorted.  ``winning_tile`` is ``None`` for a hand that did not win.

    ``partial``: a non-winner's hand given by only the sets and pairs that score (at
    the table nobody counts out the loose tiles).  It has at most 13 tiles (a kong
    counting as 3) and no winning tile; it scores its sets, pairs and flowers, and
    none of the whole-hand doublings (clean, pure, ...), which need every tile.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    winning_tile: Tile | None = None
    partial: bool = False
    _counts: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __init__(
        self,
        concealed: tuple[Tile, ...],
        melds: tuple[Meld, ...] = (),
        bonus: tuple[Tile, ...] = (),
        winning_tile: Tile | None = None,
        partial: bool = False,
        _checked_counts: tuple[int, ...] | None = None,
    ) -> None:
        # Written out, not generated (init=False): compiled (mypyc), this constructor is
        # native and sets the fields directly, where the generated one is Python code
        # setting each through object.__setattr__; pure, it sets them through their
        # slots' descriptors, what object.__setattr__ does in about half the time.
        # ``_checked_counts`` (the notation's fast path, parse_hand): the parts were made
        # and checked by the caller, ``concealed`` and ``bonus`` sorted tuples of
        # :class:`Tile` members, ``_checked_counts`` the concealed tiles' count vector;
        # nothing is converted or checked again.
        if _checked_counts is None:
            concealed, melds, bonus, winning_tile, _checked_counts = _checked(
                concealed, melds, bonus, winning_tile, partial
            )
        if COMPILED:  # native attributes: a direct store (the frozen check is Python's)
            self.concealed = concealed  # type: ignore[misc]
            self.melds = melds  # type: ignore[misc]
            self.bonus = bonus  # type: ignore[misc]
            self.winning_tile = winning_tile  # type: ignore[misc]
            self.partial = partial  # type: ignore[misc]
            self._counts = _checked_counts  # type: ignore[misc]
            return
        s_concealed, s_melds, s_bonus, s_winning, s_partial, s_counts = _HAND_SLOTS
        s_concealed(self, concealed)
        s_melds(self, melds)
        s_bonus(self, bonus)
        s_winning(self, winning_tile)
        s_partial(self, partial)
        s_counts(self, _checked_counts)

    def __reduce__(
        self,
    ) -> tuple[
        type[Hand], tuple[tuple[Tile, ...], tuple[Meld, ...], tuple[Tile, ...], Tile | None, bool]
    ]:
        # pickled and copied as its fields, as Meld
        return (Hand, (self.concealed, self.melds, self.bonus, self.winning_tile, self.partial))

    @property
    def counts(self) -> tuple[int, ...]:
        """34-length count vector of the concealed tiles."""
        return self._counts

    def held_counts(self) -> list[int]:
        """34-length count vector of every playing tile, melds included."""
        counts = list(self._counts)
        for meld in self.melds:
            for t in meld.tiles:
                counts[t] += 1
        return counts

    @property
    def tile_count(self) -> int:
        """Tiles counted the way the rules count them: a kong counts as three."""
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def is_concealed(self) -> bool:
        """No open meld (concealed kongs allowed)."""
        return not any(m.open for m in self.melds)

    def check_size(self, winner: bool) -> None:
        """Raise :class:`InvalidHand` unless the hand has 14 (winner) or 13 tiles (a
        :attr:`partial` hand: at most 13, checked when it is made)."""
        if self.partial and not winner:
            return
        want = 14 if winner else 13
        if self.tile_count != want:
            raise InvalidHand(
                N_(
                    "a winning hand has {want} tiles "
                    "(a kong counting as 3), this one has {count}; at the table a "
                    "wrong number of tiles is a dead hand (score it as a dead hand)"
                )
                if winner
                else N_(
                    "a non-winning hand has {want} tiles "
                    "(a kong counting as 3), this one has {count}; at the table a "
                    "wrong number of tiles is a dead hand (score it as a dead hand)"
                ),
                want=want,
                count=self.tile_count,
            )


_TILE_BY_VALUE: Final[dict[object, Tile]] = {int(t): t for t in Tile}
"""Every tile by its value, for converting given tiles with a look-up (an int, or a
:class:`Tile` itself: equal and of equal hash)."""
_HAND_SLOTS: Final = (
    ()
    if COMPILED
    else tuple(
        vars(Hand)[name].__set__
        for name in ("concealed", "melds", "bonus", "winning_tile", "partial", "_counts")
    )
)
"""Setting a frozen slot through its descriptor: what ``object.__setattr__`` does, in
about half the time (``Hand.__init__``, pure build; tests/core/test_hand.py checks
these are every field)."""


def _checked(
    concealed: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    bonus: tuple[Tile, ...],
    winning_tile: Tile | None,
    partial: bool,
) -> tuple[tuple[Tile, ...], tuple[Meld, ...], tuple[Tile, ...], Tile | None, tuple[int, ...]]:
    """The public constructor's parts converted (tiles sorted, as :class:`Tile`) and
    checked, and the concealed tiles' count vector; :class:`InvalidHand` (or the enum's
    own error for what is no tile) for anything wrong."""
    # object: the caller may give ints or anything (converted or refused below)
    given: tuple[object, ...] = concealed if type(concealed) is tuple else tuple(concealed)
    given_bonus: tuple[object, ...] = bonus if type(bonus) is tuple else tuple(bonus)
    try:  # a dict look-up per tile, not the enum call (~30 times as dear)
        tiles = tuple(sorted([_TILE_BY_VALUE[t] for t in given]))
        bonus_tiles = tuple(sorted([_TILE_BY_VALUE[t] for t in given_bonus]))
    except (KeyError, TypeError):  # not a tile: the enum's own error
        tiles = tuple(sorted(Tile(t) for t in given))  # type: ignore[arg-type]
        bonus_tiles = tuple(sorted(Tile(t) for t in given_bonus))  # type: ignore[arg-type]
    melds = melds if type(melds) is tuple else tuple(melds)
    if winning_tile is not None:
        winning_tile = Tile(winning_tile)
    for t in tiles:
        if t >= NUM_KINDS:
            raise InvalidHand(
                N_("{tile} is a flower/season: list it with the bonus tiles, not the hand"),
                tile=t.token,
            )
    for t in bonus_tiles:
        if t < NUM_KINDS:
            raise InvalidHand(N_("{tile} is not a flower or season"), tile=t.token)
    if len(set(bonus_tiles)) != len(bonus_tiles):
        raise InvalidHand(N_("each flower and season exists only once"))
    all_tiles = list(tiles)
    for meld in melds:
        all_tiles.extend(meld.tiles)
    counts = tile_counts(all_tiles)
    for kind, n in enumerate(counts) if max(counts) > 4 else ():
        if n > 4:
            raise InvalidHand(
                N_("{count} copies of {tile} ({where}): there are only 4 of each tile"),
                count=n,
                tile=Tile(kind).token,
                where=_copies_where(tiles, melds, winning_tile, kind),
            )
    if winning_tile is not None and winning_tile not in tiles:
        raise InvalidHand(
            N_("the winning tile {tile} must be among the concealed tiles"),
            tile=winning_tile.token,
        )
    if partial:
        if winning_tile is not None:
            raise InvalidHand(
                N_(
                    "a partial hand (only the sets that score) cannot have a winning tile "
                    "({tile}): a winning hand is scored from all its tiles"
                ),
                tile=winning_tile.token,
            )
        tile_count = len(tiles) + 3 * len(melds)  # as Hand.tile_count
        if tile_count > 13:
            raise InvalidHand(
                N_(
                    "a partial hand has at most 13 tiles (a kong counting as 3), "
                    "this one has {count}"
                ),
                count=tile_count,
            )
    return tiles, melds, bonus_tiles, winning_tile, tuple(tile_counts(tiles))


def _copies_where(
    concealed: tuple[Tile, ...], melds: tuple[Meld, ...], winning_tile: Tile | None, kind: int
) -> str:
    """Where the copies of ``kind`` are: ``"2 concealed, 3 in melds"``."""
    parts: list[str] = []
    n_concealed = concealed.count(Tile(kind))
    if n_concealed:
        if winning_tile == kind:
            parts.append(Text(N_("{n} concealed with the winning tile"), n=n_concealed))
        else:
            parts.append(Text(N_("{n} concealed"), n=n_concealed))
    in_melds = sum(m.tiles.count(Tile(kind)) for m in melds)
    if in_melds:
        parts.append(Text(N_("{n} in melds"), n=in_melds))
    return join(", ", parts)


class WinSource(StrEnum):
    """Where the winning tile came from."""

    WALL = "wall"
    DISCARD = "discard"
    LOOSE_TILE = "loose_tile"
    ROBBED_KONG = "robbed_kong"

    def __repr__(self) -> str:
        return f"WinSource.{self.name}"

    @property
    def self_drawn(self) -> bool:
        """A loose tile after a kong counts as self-drawn (ruling 6)."""
        return self in (WinSource.WALL, WinSource.LOOSE_TILE)


@dataclass(frozen=True, slots=True)
class Win:
    """How a hand was won.  Flags that contradict each other raise InvalidWin.

    ``source`` is where the winning tile came from; the flags are special
    circumstances, each possible with one source only: ``last_tile`` (the last tile
    of the live wall, self-drawn: from the wall), ``last_discard`` (the last discard
    before a remise), ``kong_on_kong`` (the loose tile of a second kong in one turn),
    ``first_discard`` (East's first discard: the earthly hand), ``heaven`` (East's 14
    dealt tiles: from the wall), ``lucky_thirteen`` (waiting since the deal,
    announced, the hand unchanged since; De Rode Draak 1998).  What contradicts the
    hand itself (a kong for a loose tile, no meld for heaven) is checked by the
    scorer, which sees both.
    """

    source: WinSource = WinSource.WALL
    last_tile: bool = False
    last_discard: bool = False
    kong_on_kong: bool = False
    first_discard: bool = False
    heaven: bool = False
    lucky_thirteen: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.source, WinSource):
            try:
                object.__setattr__(self, "source", WinSource(self.source))
            except ValueError:
                raise InvalidWin(
                    N_("source {source} is not one of wall, discard, loose_tile, robbed_kong"),
                    source=quote(self.source),
                ) from None
        if (
            self.last_tile
            or self.last_discard
            or self.kong_on_kong
            or self.first_discard
            or self.heaven
            or self.lucky_thirteen
        ):
            self._check_flags()

    def __reduce__(self) -> tuple[type[Win], tuple[WinSource, bool, bool, bool, bool, bool, bool]]:
        # pickled and copied as its fields, as Meld
        return (
            Win,
            (
                self.source,
                self.last_tile,
                self.last_discard,
                self.kong_on_kong,
                self.first_discard,
                self.heaven,
                self.lucky_thirteen,
            ),
        )

    @property
    def needs_hand_check(self) -> bool:
        """Whether this way of winning says something about the hand that the scorer must
        check: a loose tile (a kong), a robbed kong (its tile), heaven, earth, the lucky
        thirteen (melds)."""
        return (
            self.source is WinSource.LOOSE_TILE
            or self.source is WinSource.ROBBED_KONG
            or self.heaven
            or self.first_discard
            or self.lucky_thirteen
        )

    def _check_flags(self) -> None:
        src = self.source
        for flag, what, needs in _FLAG_SOURCES:
            if getattr(self, flag) and src is not needs:
                raise InvalidWin(
                    N_("{flag} ({what}) needs from={needs}, not from={source}"),
                    flag=flag,
                    what=Text(what),
                    needs=needs.value,
                    source=src.value,
                )
        for a, b, why in _EXCLUSIVE_FLAGS:
            if getattr(self, a) and getattr(self, b):
                raise InvalidWin(
                    N_("{flag} and {other} contradict each other: {why}"),
                    flag=a,
                    other=b,
                    why=Text(why),
                )


_FLAG_SOURCES: Final[tuple[tuple[str, str, WinSource], ...]] = (
    ("last_tile", N_("the last tile of the wall"), WinSource.WALL),
    ("last_discard", N_("the last discard before a remise"), WinSource.DISCARD),
    ("kong_on_kong", N_("the loose tile of a second kong in one turn"), WinSource.LOOSE_TILE),
    ("first_discard", N_("East's first discard, the earthly hand"), WinSource.DISCARD),
    ("heaven", N_("East's 14 dealt tiles"), WinSource.WALL),
)
"""Each special win and the one source of the winning tile it allows."""

_EXCLUSIVE_FLAGS: Final[tuple[tuple[str, str, str], ...]] = (
    ("heaven", "last_tile", N_("East's dealt tiles are not the last tile of the wall")),
    ("first_discard", "last_discard", N_("East's first discard is not the last one")),
    (
        "heaven",
        "lucky_thirteen",
        N_("heaven wins on the dealt tiles, so the hand never waited after the deal"),
    ),
    (
        "first_discard",
        "lucky_thirteen",
        N_(
            "a hand waiting since the deal that wins on East's first discard is the earthly "
            "hand; the lucky thirteen is the wait that East's first discard did not fill "
            "(De Rode Draak 1998, De Gelukkige Dertien)"
        ),
    ),
)
"""Pairs of flags that cannot hold together (the sources already part most others)."""
