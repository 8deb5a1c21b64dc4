"""The compact hand notation: parse and write hands and lists of tiles.

A hand is written as groups of tiles::

    b123456 k55 EEE [t789] (CCCC) f1 s3 +k5

==========  ===============================================================
``b123``    suited tiles: a suit letter (``b`` bamboe, ``k`` kringen,
            ``t`` tekens) followed by ranks 1-9
``EESWN``   honours: ``E S W N`` winds (Dutch ``O`` = East, ``Z`` = South),
            ``F`` green, ``C`` red, ``P`` white dragon
``f13``     bonus tiles: flowers ``f1``-``f4``, seasons ``s1``-``s4``
``[b123]``  a declared open meld (chow, pung, or kong: ``[k5555]``)
``(CCCC)``  a concealed kong; ``(b123)``, ``(EEE)``: a declared concealed
            chow or pung
``+k5``     the winning tile (the 14th tile; it is one of the concealed tiles)
==========  ===============================================================

Whitespace between groups is optional where nothing runs together
(``b123k55EEE[t789]+k5``).  A whitespace-separated word that is not in the
compact form is read as one tile alias (``oost``, ``bamboe3``, ``dots5``,
``rood``, ``lente``) or as Unicode tile glyphs (``🀐🀑🀒``); see
:func:`~mahjong_nts.core.tiles.parse_tile`.

:func:`format_hand` writes the canonical form, which :func:`parse_hand` reads
back to an equal :class:`~mahjong_nts.core.hand.Hand`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from mahjong_nts.core.errors import InvalidHand, InvalidMeld, InvalidNotation, InvalidTile
from mahjong_nts.core.hand import Hand, Meld
from mahjong_nts.core.text import N_, Text
from mahjong_nts.core.tiles import (
    NUM_KINDS,
    TILE_OF,
    Suit,
    Tile,
    parse_tile,
    suit_of,
    tile_glyph,
)

__all__ = [
    "format_hand",
    "format_meld",
    "format_tiles",
    "glyphs",
    "parse_hand",
    "parse_meld",
    "parse_tiles",
]

_SUIT_LETTERS: Final = "bkt"
_BONUS_LETTERS: Final = "fs"
_HONOUR_LETTERS: Final[dict[str, Tile]] = {
    "E": Tile.EAST,
    "S": Tile.SOUTH,
    "W": Tile.WEST,
    "N": Tile.NORTH,
    "O": Tile.EAST,
    "Z": Tile.SOUTH,
    "F": Tile.GREEN,
    "C": Tile.RED,
    "P": Tile.WHITE,
}
_DIGITS: Final = "0123456789"
_OPEN: Final = {"[": "]", "(": ")"}
_CLOSE: Final = {"]": "[", ")": "("}
_SPECIAL: Final = "[]()+"
_VARIATION_SELECTORS: Final = "\ufe0e\ufe0f"
_GLYPH_TILES: Final[dict[str, Tile]] = {tile_glyph(t): t for t in Tile}
_RANKED_WORDS: Final = tuple(
    "bamboe bamboo kringen circles dots tekens characters man "  # noqa: SIM905
    "bloem flower seizoen season".split()
)
"""Alias words that take a rank (``bamboe3``), for "did you mean" hints."""
_ALIAS_WORDS: Final = _RANKED_WORDS + tuple(
    "oost east zuid south west noord north groen green rood red wit white "  # noqa: SIM905
    "lente zomer herfst winter spring summer autumn".split()
)


# ---------------------------------------------------------------------------
# errors


def _where(text: str, index: int) -> Text:
    """``at column N of "text"`` (1-based column; long texts are cut around it)."""
    if len(text) <= 60:
        shown = text
    else:
        lo = max(0, index - 25)
        hi = min(len(text), index + 25)
        shown = ("..." if lo else "") + text[lo:hi] + ("..." if hi < len(text) else "")
    return Text(N_("at column {column} of {text!r}"), column=index + 1, text=shown)


def _notation_error(text: str, index: int, message: Text) -> InvalidNotation:
    return InvalidNotation(N_("{problem} {where}"), problem=message, where=_where(text, index))


def _unknown_tile(text: str, index: int, word: str) -> InvalidTile:
    bare = word.lower().rstrip(_DIGITS)
    close = difflib.get_close_matches(bare, _ALIAS_WORDS, n=1, cutoff=0.75)
    hint: str = ""
    rank = word[len(word.rstrip(_DIGITS)) :]
    if close and close[0] in _RANKED_WORDS:
        hint = (
            Text(N_(" (did you mean {word!r}?)"), word=close[0] + rank)
            if rank
            else Text(N_(" (a rank is missing, e.g. {word!r})"), word=close[0] + "3")
        )
    elif close:
        hint = Text(N_(" (did you mean {word!r}?)"), word=close[0])
    return InvalidTile(
        N_(
            "unknown tile {word!r} {where}{hint}; tiles are written b1..b9, "
            "k1..k9, t1..t9, E S W N (or O Z), F C P, f1..f4, s1..s4, or compact groups "
            "like b123 EEE"
        ),
        word=word,
        where=_where(text, index),
        hint=hint,
    )


# ---------------------------------------------------------------------------
# scanning


@dataclass(frozen=True, slots=True)
class _Word:
    """A maximal run of characters other than whitespace and ``[]()+``."""

    text: str
    start: int


def _compact(text: str, word: _Word) -> list[Tile] | None:
    """The tiles of a word in the compact form, or ``None`` when its first group
    is not compact (the caller then tries the whole word as an alias).  Errors
    inside a group that clearly is compact (``b0``, ``f5``, an empty ``b``)
    raise at once."""
    s = word.text
    i = 0
    tiles: list[Tile] = []
    while i < len(s):
        ch = s[i]
        col = word.start + i
        if ch in _SUIT_LETTERS or ch in _BONUS_LETTERS:
            j = i + 1
            while j < len(s) and s[j] in _DIGITS:
                j += 1
            if j == i + 1:
                if i == 0 and j < len(s) and s[j].isalpha():
                    return None  # "bamboe3", "season1", "spring": an alias
                if j == len(s) or not s[j].isalpha():
                    raise _notation_error(
                        text,
                        col,
                        Text(
                            N_(
                                "empty group {letter!r}: a suit letter needs ranks after it, "
                                "e.g. {letter}1"
                            )
                            if ch in _SUIT_LETTERS
                            else N_(
                                "empty group {letter!r}: a bonus letter needs ranks after it, "
                                "e.g. {letter}1"
                            ),
                            letter=ch,
                        ),
                    )
                raise _unknown_tile(text, col, s[i:])
            top = 9 if ch in _SUIT_LETTERS else 4
            for k in range(i + 1, j):
                rank = int(s[k])
                if not 1 <= rank <= top:
                    what = Text(
                        N_("suited tiles run 1-9")
                        if top == 9
                        else (N_("flowers run f1..f4") if ch == "f" else N_("seasons run s1..s4"))
                    )
                    raise InvalidTile(
                        N_("no tile {token} ({what}) in group {group!r} {where}"),
                        token=ch + s[k],
                        what=what,
                        group=s[i:j],
                        where=_where(text, word.start + k),
                    )
                if ch in _SUIT_LETTERS:
                    tiles.append(TILE_OF[_SUIT_LETTERS.index(ch) * 9 + rank - 1])
                else:
                    tiles.append(TILE_OF[NUM_KINDS + _BONUS_LETTERS.index(ch) * 4 + rank - 1])
            i = j
        elif ch in _HONOUR_LETTERS:
            j = i
            while j < len(s) and s[j] in _HONOUR_LETTERS:
                tiles.append(_HONOUR_LETTERS[s[j]])
                j += 1
            if j < len(s) and s[j] in _DIGITS:
                raise _notation_error(
                    text,
                    word.start + j,
                    Text(
                        N_(
                            "unexpected digit {digit!r} after honour letters {letters!r} "
                            "(honours take no ranks; flowers are f1..f4, seasons s1..s4)"
                        ),
                        digit=s[j],
                        letters=s[i:j],
                    ),
                )
            if (
                j < len(s)
                and s[j].isalpha()
                and s[j] not in _SUIT_LETTERS + _BONUS_LETTERS
                and i == 0
            ):
                return None  # "Oost", "West", "Fa": an alias
            i = j
        elif ch in _GLYPH_TILES:
            tiles.append(_GLYPH_TILES[ch])
            i += 1
            while i < len(s) and s[i] in _VARIATION_SELECTORS:
                i += 1
        elif ch in _DIGITS:
            raise _notation_error(
                text, col, Text(N_("digit {digit!r} without a suit letter before it"), digit=ch)
            )
        else:
            if i == 0:
                return None
            raise _unknown_tile(text, col, s[i:])
    return tiles


MAX_REMEMBERED_WORDS: Final = 4096
"""Words read before (``b1``, ``b123``, ``EEE``, ``oost``) whose tiles are remembered;
past this many the memory starts again empty."""
MAX_REMEMBERED_WORD_CHARS: Final = 16
"""A longer word is read each time, not remembered."""

_remembered: dict[str, tuple[Tile, ...]] = {}
"""The tiles of every word read without an error, by its text (a word's tiles depend
on its text alone; only errors name the column).  A word never holds white space or
``[]()+``, so a text whose every white-space-separated word is here holds no brackets
and no ``+`` either (:func:`parse_tiles` reads such a text from here alone)."""


def _word_tiles(text: str, word: _Word) -> tuple[Tile, ...]:
    """The tiles of one word: compact groups, glyphs, or a single alias."""
    known = _remembered.get(word.text)
    if known is not None:
        return known
    tiles = _read_word(text, word)
    _remember(word.text, tiles)
    return tiles


def _plain_tiles() -> dict[str, tuple[int, int]]:
    """What each character of a plain word means to :func:`_plain_word`: a suit or bonus
    letter (``(-1, first index)``: ranks follow), a rank digit (``(-2, rank - 1)``), an
    honour letter (``(tile, 0)``)."""
    table: dict[str, tuple[int, int]] = {}
    for i, letter in enumerate(_SUIT_LETTERS):
        table[letter] = (-1, 9 * i)
    for i, letter in enumerate(_BONUS_LETTERS):
        table[letter] = (-1, NUM_KINDS + 4 * i)
    for digit in "123456789":
        table[digit] = (-2, int(digit) - 1)
    for letter, tile in _HONOUR_LETTERS.items():
        table[letter] = (int(tile), 0)
    return table


_PLAIN: Final = _plain_tiles()
_ONE_GROUP: Final[dict[str, dict[str, Tile]]] = {
    letter: {str(rank + 1): TILE_OF[first + rank] for rank in range(9 if first < 27 else 4)}
    for letter, (_, first) in _PLAIN.items()
    if _ == -1
}
"""A suit or bonus letter's tiles by rank digit, for words of one group (``b1234``)."""
_HONOURS_ONLY: Final = {letter: TILE_OF[tile] for letter, tile in _HONOUR_LETTERS.items()}


def _plain_word(word: str) -> tuple[Tile, ...] | None:
    """The tiles of a word made of plain compact groups only (``b123``, ``k55EEE``,
    ``f13``), read with one table look-up per character; ``None`` for anything else
    (aliases, glyphs, errors: :func:`_read_word` reads those, and words out of range:
    ``b0``, ``f5``).  Gives what :func:`_read_word` gives for every word it accepts."""
    # the common words, one group: a letter and its ranks (b1234), or honours (EEE)
    ranks = _ONE_GROUP.get(word[0])
    try:
        if ranks is not None:
            if len(word) > 1:
                return tuple(map(ranks.__getitem__, word[1:]))
        else:
            return tuple(map(_HONOURS_ONLY.__getitem__, word))
    except KeyError:
        pass  # several groups, or not plain: character by character
    tiles: list[Tile] = []
    base = -1  # the first index of the current suit or bonus group, -1 outside one
    top = 0  # the highest index of it
    digits = True  # whether the current group has its ranks
    plain = _PLAIN
    for ch in word:
        kind = plain.get(ch)
        if kind is None:
            return None
        code, value = kind
        if code == -2:  # a rank
            if base < 0 or base + value > top:
                return None
            tiles.append(TILE_OF[base + value])
            digits = True
            continue
        if not digits:  # a letter with no ranks after it
            return None
        if code == -1:
            base, digits = value, False
            top = value + (8 if value < NUM_KINDS else 3)
        else:
            base = -1
            tiles.append(TILE_OF[code])
    return tuple(tiles) if digits else None


def _fast_hand(text: str) -> Hand | None:
    """The hand of a text of plain words and a ``+`` winning tile, with no melds and
    nothing wrong; ``None`` for any other text (:func:`parse_hand` then reads it the
    full way, which finds the same hand or says what is wrong)."""
    tiles: list[Tile] = []
    winning: Tile | None = None
    remembered = _remembered
    for word in text.split():
        if word[0] == "+":
            if winning is not None:
                return None
            word = word[1:]
            known = remembered.get(word) if word else None
            if known is None:
                known = _plain_word(word) if word else None
                if known is None:
                    return None
                _remember(word, known)
            if len(known) != 1 or known[0] >= NUM_KINDS:
                return None
            winning = known[0]
            continue
        known = remembered.get(word)
        if known is None:
            known = _plain_word(word)
            if known is None:
                return None
            _remember(word, known)
        tiles.extend(known)
    if winning is not None:
        tiles.append(winning)
    tiles.sort()
    if tiles and tiles[-1] >= NUM_KINDS:  # flowers or seasons: not twice
        n = NUM_KINDS
        first = next(i for i, t in enumerate(tiles) if t >= n)
        bonus = tuple(tiles[first:])
        if len(set(bonus)) != len(bonus):
            return None
        del tiles[first:]
    else:
        bonus = ()
    counts = [0] * NUM_KINDS
    t: int  # compiled, a native int: the list indexed without boxing
    for t in tiles:  # a fifth copy seen as it comes (cheaper than max(counts), both builds)
        n = counts[t] + 1
        if n > 4:
            return None
        counts[t] = n
    return Hand(tuple(tiles), (), bonus, winning, _checked_counts=tuple(counts))


def _remember(word: str, tiles: tuple[Tile, ...]) -> None:
    if len(word) <= MAX_REMEMBERED_WORD_CHARS:
        if len(_remembered) >= MAX_REMEMBERED_WORDS:
            _remembered.clear()
        _remembered[word] = tiles


def _read_word(text: str, word: _Word) -> tuple[Tile, ...]:
    tiles = _compact(text, word)
    if tiles is not None:
        return tuple(tiles)
    candidates = [word.text]
    if len(word.text) == 2 and not any(c in _DIGITS for c in word.text):
        candidates.append(word.text.lower())  # "Fa"; parse_tile folds case from 3 letters
    for candidate in candidates:
        try:
            return (parse_tile(candidate),)
        except InvalidTile:
            pass
    raise _unknown_tile(text, word.start, word.text)


@dataclass(slots=True)
class _Parsed:
    tiles: list[tuple[Tile, int]]
    melds: list[Meld]
    winning: tuple[Tile, int] | None


def _scan(given: object, *, allow_structure: bool) -> _Parsed:
    """Split ``given`` into loose tiles, bracketed melds and the winning tile."""
    if not isinstance(given, str):
        raise InvalidNotation(
            N_("hand notation must be a string, not {type}"), type=type(given).__name__
        )
    text = given  # a str from here (compiled: a str variable)
    out = _Parsed([], [], None)
    i = 0
    n = len(text)
    meld_open: tuple[str, int] | None = None  # bracket and its index
    meld_tiles: list[Tile] = []
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in _SPECIAL and not allow_structure:
            raise _notation_error(
                text,
                i,
                Text(
                    N_("{char!r} is not allowed in a list of tiles (no melds or winning tile)"),
                    char=ch,
                ),
            )
        if ch in _OPEN:
            if meld_open is not None:
                raise _notation_error(
                    text,
                    i,
                    Text(
                        N_("{char!r} inside the meld opened at column {opened}: melds cannot nest"),
                        char=ch,
                        opened=meld_open[1] + 1,
                    ),
                )
            meld_open = (ch, i)
            meld_tiles = []
            i += 1
            continue
        if ch in _CLOSE:
            if meld_open is None:
                raise _notation_error(
                    text,
                    i,
                    Text(N_("{char!r} without a matching {other!r}"), char=ch, other=_CLOSE[ch]),
                )
            opener, at = meld_open
            if _CLOSE[ch] != opener:
                raise _notation_error(
                    text,
                    i,
                    Text(
                        N_(
                            "{char!r} closes the {opener!r} at column {opened}; expected {closer!r}"
                        ),
                        char=ch,
                        opener=opener,
                        opened=at + 1,
                        closer=_OPEN[opener],
                    ),
                )
            if not meld_tiles:
                raise _notation_error(text, at, Text(N_("empty meld {meld!r}"), meld=opener + ch))
            try:
                meld = Meld.from_tiles(meld_tiles, open=opener == "[")
            except InvalidMeld as e:
                raise InvalidMeld(
                    N_("{problem} {where}"), problem=e.text, where=_where(text, at)
                ) from e
            out.melds.append(meld)
            meld_open = None
            i += 1
            continue
        if ch == "+":
            if meld_open is not None:
                raise _notation_error(
                    text,
                    i,
                    Text(
                        N_(
                            "the winning tile is written outside brackets, e.g. '[b12] +b3' "
                            "is not a meld; write the hand and then '+b3'"
                        )
                    ),
                )
            j = i + 1
            while j < n and not text[j].isspace() and text[j] not in _SPECIAL:
                j += 1
            if j == i + 1:
                raise _notation_error(
                    text,
                    i,
                    Text(N_("'+' must be followed directly by the winning tile, e.g. '+b5'")),
                )
            word = _Word(text[i + 1 : j], i + 1)
            tiles = _word_tiles(text, word)
            if len(tiles) != 1:
                raise _notation_error(
                    text,
                    i + 1,
                    Text(
                        N_("the winning tile is one tile, {word!r} is {count}"),
                        word=word.text,
                        count=len(tiles),
                    ),
                )
            if tiles[0] >= NUM_KINDS:
                raise _notation_error(
                    text,
                    i + 1,
                    Text(
                        N_("the winning tile cannot be a flower or season ({tile})"),
                        tile=tiles[0].token,
                    ),
                )
            if out.winning is not None:
                raise _notation_error(
                    text,
                    i,
                    Text(
                        N_("a second winning tile (the first is at column {first})"),
                        first=out.winning[1] + 1,
                    ),
                )
            out.winning = (tiles[0], i)
            i = j
            continue
        j = i
        while j < n and not text[j].isspace() and text[j] not in _SPECIAL:
            j += 1
        word = _Word(text[i:j], i)
        tiles = _word_tiles(text, word)
        if meld_open is not None:
            meld_tiles.extend(tiles)
        else:
            out.tiles.extend((t, i) for t in tiles)
        i = j
    if meld_open is not None:
        raise _notation_error(
            text,
            meld_open[1],
            Text(
                N_("{char!r} is never closed (expected {closer!r})"),
                char=meld_open[0],
                closer=_OPEN[meld_open[0]],
            ),
        )
    return out


# ---------------------------------------------------------------------------
# public API


def parse_hand(text: object) -> Hand:
    """Parse the compact notation into a :class:`Hand`.

    >>> parse_hand("b123456 k55 EEE [t789] +k5").winning_tile
    Tile.K5

    Raises :class:`InvalidNotation`, :class:`InvalidTile`, :class:`InvalidMeld`
    or :class:`InvalidHand` (a fifth copy of a tile, a flower twice), all
    :class:`~mahjong_nts.core.errors.MahjongError`.
    """
    if isinstance(text, str):
        hand = _fast_hand(text)
        if hand is not None:
            return hand
    return _parse_fully(text)


def _parse_fully(text: object) -> Hand:
    """:func:`parse_hand` read the full way, whatever the text (what the fast path must
    agree with; a function of its own so that tests reach it in the compiled build too,
    where patching ``_fast_hand`` does not reach the native call in :func:`parse_hand`)."""
    parsed = _scan(text, allow_structure=True)
    concealed = [t for t, _ in parsed.tiles if t < NUM_KINDS]
    bonus = [t for t, _ in parsed.tiles if t >= NUM_KINDS]
    winning = None
    if parsed.winning is not None:
        winning = parsed.winning[0]
        concealed.append(winning)
    seen: dict[Tile, int] = {}
    for t, at in parsed.tiles:
        if t >= NUM_KINDS:
            if t in seen:
                raise InvalidHand(
                    N_(
                        "{tile} twice (at columns {first} and {column}): each flower "
                        "and season exists only once"
                    ),
                    tile=t.token,
                    first=seen[t] + 1,
                    column=at + 1,
                )
            seen[t] = at
    return Hand(tuple(concealed), tuple(parsed.melds), tuple(bonus), winning)


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse a list of tiles (``"b1 b2 b3 E E"``, ``"b123 EE"``, aliases, glyphs),
    in the order written.  Brackets and ``+`` are not allowed."""
    if isinstance(text, str):
        # plain words and words read before: their tiles, without the full scan
        tiles: list[Tile] = []
        for word in text.split():
            known = _remembered.get(word)
            if known is None:
                known = _plain_word(word)
                if known is None:
                    break
                _remember(word, known)
            tiles.extend(known)
        else:
            return tuple(tiles)
    return tuple(t for t, _ in _scan(text, allow_structure=False).tiles)


def parse_meld(text: str) -> Meld:
    """Parse one bracketed meld: ``"[b123]"``, ``"(CCCC)"``."""
    parsed = _scan(text, allow_structure=True)
    if parsed.tiles or parsed.winning is not None or len(parsed.melds) != 1:
        raise InvalidNotation(
            N_("expected exactly one meld in brackets, like '[b123]' or '(CCCC)', got {text!r}"),
            text=text,
        )
    return parsed.melds[0]


def _groups(tiles: Iterable[int], render: str) -> list[str]:
    """Sorted tiles as groups: one per suit, winds, dragons; bonus tiles singly."""
    ts = sorted(Tile(t) for t in tiles)
    groups: list[str] = []
    by_suit: dict[Suit, list[Tile]] = {}
    for t in ts:
        by_suit.setdefault(suit_of(t), []).append(t)
    for suit, members in by_suit.items():
        if render == "glyph":
            groups.append("".join(tile_glyph(t) for t in members))
        elif suit in (Suit.FLOWER, Suit.SEASON):
            groups.extend(t.token for t in members)
        elif suit in (Suit.WIND, Suit.DRAGON):
            groups.append("".join(t.token for t in members))
        else:
            groups.append(_SUIT_LETTERS[suit] + "".join(str(t.rank) for t in members))
    return groups


def format_tiles(tiles: Iterable[int]) -> str:
    """Tiles in canonical compact form, sorted and grouped: ``"b123 k55 EEE FF f1"``."""
    return " ".join(_groups(tiles, "token"))


def format_meld(meld: Meld) -> str:
    """``[b123]`` for an open meld, ``(CCCC)`` for a concealed one."""
    inner = "".join(_groups(meld.tiles, "token"))
    return f"[{inner}]" if meld.open else f"({inner})"


def _hand_parts(hand: Hand, render: str) -> list[str]:
    concealed = list(hand.concealed)
    if hand.winning_tile is not None:
        concealed.remove(hand.winning_tile)
    parts = _groups(concealed, render)
    for meld in hand.melds:
        inner = "".join(_groups(meld.tiles, render))
        parts.append(f"[{inner}]" if meld.open else f"({inner})")
    parts.extend(_groups(hand.bonus, render))
    if hand.winning_tile is not None:
        w = hand.winning_tile
        parts.append("+" + (tile_glyph(w) if render == "glyph" else w.token))
    return parts


def format_hand(hand: Hand) -> str:
    """The canonical notation: concealed tiles but the winning tile (grouped per
    suit, then winds, then dragons), the melds in order, the bonus tiles, then
    ``+`` and the winning tile.  ``parse_hand(format_hand(h)) == h``."""
    return " ".join(_hand_parts(hand, "token"))


def glyphs(hand_or_tiles: Hand | Iterable[int]) -> str:
    """Unicode rendering (Mahjong Tiles block), laid out like :func:`format_hand`
    (or :func:`format_tiles`) and readable by :func:`parse_hand` again."""
    if isinstance(hand_or_tiles, Hand):
        return " ".join(_hand_parts(hand_or_tiles, "glyph"))
    return " ".join(_groups(hand_or_tiles, "glyph"))
