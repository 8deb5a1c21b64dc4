"""Tests for mahjong_nts.core.notation: the compact hand notation."""

from __future__ import annotations

import contextlib
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_nts.core import notation
from mahjong_nts.core.errors import (
    InvalidHand,
    InvalidMeld,
    InvalidNotation,
    InvalidTile,
    MahjongError,
)
from mahjong_nts.core.hand import Hand, Meld, MeldKind
from mahjong_nts.core.notation import (
    format_hand,
    format_meld,
    format_tiles,
    glyphs,
    parse_hand,
    parse_meld,
    parse_tiles,
)
from mahjong_nts.core.tiles import BONUS_TILES, NUM_KINDS, Tile, tile_glyph

T = Tile

# --- parsing ------------------------------------------------------------------------------


def test_full_hand() -> None:
    hand = parse_hand("b123456 k5 [t789] (CCCC) f1 s3 +k5")
    assert hand == Hand(
        concealed=(T.B1, T.B2, T.B3, T.B4, T.B5, T.B6, T.K5, T.K5),
        melds=(Meld(MeldKind.CHOW, T.T7), Meld(MeldKind.KONG, T.RED, open=False)),
        bonus=(T.F1, T.S3),
        winning_tile=T.K5,
    )
    assert hand.tile_count == 14


def test_whitespace_is_optional() -> None:
    spaced = parse_hand("b123 k55 EEE [t789] +k5")
    assert parse_hand("b123k55EEE[t789]+k5") == spaced
    assert parse_hand("  b123 ") == parse_hand("b1 b2 b3") == parse_hand("b12b3")
    assert parse_hand("\tb123\n k55  EEE [ t789 ]\n+k5 ") == spaced


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("b123", (T.B1, T.B2, T.B3)),
        ("k55", (T.K5, T.K5)),
        ("t999", (T.T9, T.T9, T.T9)),
        ("ESWN", (T.EAST, T.SOUTH, T.WEST, T.NORTH)),
        ("OZWN", (T.EAST, T.SOUTH, T.WEST, T.NORTH)),
        ("FCP", (T.GREEN, T.RED, T.WHITE)),
        ("b1k1t1", (T.B1, T.K1, T.T1)),
        ("EEEb1", (T.EAST, T.EAST, T.EAST, T.B1)),
        ("b1 b2 b3 E E", (T.B1, T.B2, T.B3, T.EAST, T.EAST)),
        ("b321", (T.B3, T.B2, T.B1)),
        ("f13 s24", (T.F1, T.F3, T.S2, T.S4)),
        ("", ()),
        ("   ", ()),
    ],
)
def test_parse_tiles_compact(text: str, tiles: tuple[Tile, ...]) -> None:
    assert parse_tiles(text) == tiles


@pytest.mark.parametrize(
    ("word", "tile"),
    [
        # Dutch and English suit words
        ("bamboe3", T.B3),
        ("bamboo3", T.B3),
        ("bam3", T.B3),
        ("sou3", T.B3),
        ("Bamboe3", T.B3),
        ("kringen5", T.K5),
        ("kring5", T.K5),
        ("circles5", T.K5),
        ("dots5", T.K5),
        ("dot5", T.K5),
        ("pin5", T.K5),
        ("tekens9", T.T9),
        ("teken9", T.T9),
        ("characters9", T.T9),
        ("char9", T.T9),
        ("man9", T.T9),
        # winds
        ("oost", T.EAST),
        ("Oost", T.EAST),
        ("OOST", T.EAST),
        ("east", T.EAST),
        ("East", T.EAST),
        ("zuid", T.SOUTH),
        ("Zuid", T.SOUTH),
        ("south", T.SOUTH),
        ("west", T.WEST),
        ("West", T.WEST),
        ("WEST", T.WEST),
        ("noord", T.NORTH),
        ("North", T.NORTH),
        # dragons
        ("groen", T.GREEN),
        ("green", T.GREEN),
        ("groene-draak", T.GREEN),
        ("fa", T.GREEN),
        ("Fa", T.GREEN),
        ("rood", T.RED),
        ("red-dragon", T.RED),
        ("chung", T.RED),
        ("wit", T.WHITE),
        ("White", T.WHITE),
        ("pai", T.WHITE),
        # flowers and seasons
        ("bloem2", T.F2),
        ("flower4", T.F4),
        ("pruimenbloesem", T.F1),
        ("plum", T.F1),
        ("orchidee", T.F2),
        ("chrysant", T.F3),
        ("seizoen1", T.S1),
        ("season3", T.S3),
        ("lente", T.S1),
        ("zomer", T.S2),
        ("herfst", T.S3),
        ("winter", T.S4),
        ("Spring", T.S1),
        ("autumn", T.S3),
    ],
)
def test_aliases(word: str, tile: Tile) -> None:
    assert parse_tiles(word) == (tile,)
    assert parse_tiles(f"b1 {word} b2") == (T.B1, tile, T.B2)


@pytest.mark.parametrize("tile", list(Tile))
def test_every_token_and_glyph(tile: Tile) -> None:
    assert parse_tiles(tile.token) == (tile,)
    assert parse_tiles(tile_glyph(tile)) == (tile,)
    assert format_tiles([tile]) == tile.token
    assert glyphs([tile]) == tile_glyph(tile)


def test_glyph_runs() -> None:
    assert parse_tiles("🀐🀑🀒") == (T.B1, T.B2, T.B3)
    assert parse_tiles("🀙🀙 🀀🀀🀀") == (T.K1, T.K1, T.EAST, T.EAST, T.EAST)
    assert parse_tiles("🀇🀈🀉") == (T.T1, T.T2, T.T3)
    assert parse_tiles("🀄🀅🀆") == (T.RED, T.GREEN, T.WHITE)
    # emoji presentation selector after the red dragon
    assert parse_tiles("🀄\ufe0f🀄\ufe0f🀄") == (T.RED, T.RED, T.RED)
    # glyphs mixed with compact groups
    assert parse_tiles("b1🀑b3") == (T.B1, T.B2, T.B3)
    hand = parse_hand("[🀐🀑🀒] (🀄🀄🀄🀄) 🀀🀀 +🀀")
    assert hand.melds == (Meld(MeldKind.CHOW, T.B1), Meld(MeldKind.KONG, T.RED, open=False))
    assert hand.winning_tile is T.EAST


def test_melds() -> None:
    hand = parse_hand("[b123] [EEE] [k5555] (CCCC) (b789) (SSS)")
    assert hand.melds == (
        Meld(MeldKind.CHOW, T.B1),
        Meld(MeldKind.PUNG, T.EAST),
        Meld(MeldKind.KONG, T.K5),
        Meld(MeldKind.KONG, T.RED, open=False),
        Meld(MeldKind.CHOW, T.B7, open=False),
        Meld(MeldKind.PUNG, T.SOUTH, open=False),
    )
    assert hand.concealed == ()
    # any order and any spelling inside the brackets
    assert parse_hand("[b321]").melds == (Meld(MeldKind.CHOW, T.B1),)
    assert parse_hand("[oost oost oost]").melds == (Meld(MeldKind.PUNG, T.EAST),)
    assert parse_hand("[ b1 b2 b3 ]").melds == (Meld(MeldKind.CHOW, T.B1),)
    assert parse_hand("(OOOO)").melds == (Meld(MeldKind.KONG, T.EAST, open=False),)


def test_winning_tile() -> None:
    hand = parse_hand("b123 b456 b789 k11 k5 +k5")
    assert hand.winning_tile is T.K5
    assert hand.concealed.count(T.K5) == 2  # once written, once as +k5
    assert parse_hand("+b5 b123") == parse_hand("b123 +b5")
    assert parse_hand("b123+oost").winning_tile is T.EAST
    assert parse_hand("b123 +🀀").winning_tile is T.EAST
    assert parse_hand("b123").winning_tile is None


def test_parse_meld() -> None:
    assert parse_meld("[b123]") == Meld(MeldKind.CHOW, T.B1)
    assert parse_meld(" (CCCC) ") == Meld(MeldKind.KONG, T.RED, open=False)
    for bad in ("b123", "[b123] [b123]", "[b123] b4", "", "[b123] +b4"):
        with pytest.raises(InvalidNotation):
            parse_meld(bad)


# --- formatting -----------------------------------------------------------------------------


def test_format_canonical() -> None:
    assert format_hand(parse_hand("+k5 s3 f1 (CCCC) [t789] FF EEE k55 b654321")) == (
        "b123456 k55 EEE FF (CCCC) [t789] f1 s3 +k5"
    )
    assert format_hand(parse_hand("P E b1 C N k9 t5 F S W")) == "b1 k9 t5 ESWN FCP"
    assert format_hand(parse_hand("oost zuid bamboe1 rood")) == "b1 ES C"
    assert format_hand(Hand(())) == ""


def test_format_meld() -> None:
    assert format_meld(Meld(MeldKind.CHOW, T.B1)) == "[b123]"
    assert format_meld(Meld(MeldKind.KONG, T.RED, open=False)) == "(CCCC)"
    assert format_meld(Meld(MeldKind.PUNG, T.T9, open=False)) == "(t999)"
    assert format_meld(Meld(MeldKind.KONG, T.K5)) == "[k5555]"


def test_format_tiles() -> None:
    assert format_tiles([T.EAST, T.B3, T.F1, T.RED, T.B1, T.S2, T.F3]) == "b13 E C f1 f3 s2"
    assert format_tiles([]) == ""
    assert parse_tiles(format_tiles([T.B1, T.B1, T.EAST, T.F2])) == (T.B1, T.B1, T.EAST, T.F2)


def test_glyphs() -> None:
    hand = parse_hand("b123 EE [k111] (CCCC) f1 +b3")
    assert glyphs(hand) == "🀐🀑🀒 🀀🀀 [🀙🀙🀙] (🀄🀄🀄🀄) 🀢 +🀒"
    assert parse_hand(glyphs(hand)) == hand
    assert glyphs([T.EAST, T.B1]) == "🀐 🀀"


# --- errors, with positions ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("b123 x9 k1", InvalidTile, r"unknown tile 'x9' at column 6 of 'b123 x9 k1'"),
        ("b123x9", InvalidTile, r"unknown tile 'x9' at column 5"),
        ("b", InvalidNotation, r"empty group 'b'.* at column 1"),
        ("k55 t", InvalidNotation, r"empty group 't'.* at column 5"),
        ("b1f", InvalidNotation, r"empty group 'f'.* at column 3"),
        ("b102", InvalidTile, r"no tile b0 .*at column 3"),
        ("f5", InvalidTile, r"flowers run f1..f4.*column 2"),
        ("s0", InvalidTile, r"seasons run s1..s4"),
        ("S1", InvalidNotation, r"unexpected digit '1' after honour letters 'S'.*column 2"),
        ("b1 23", InvalidNotation, r"digit '2' without a suit letter before it at column 4"),
        ("[b123", InvalidNotation, r"'\[' is never closed .*column 1"),
        ("b55 (CCCC", InvalidNotation, r"'\(' is never closed .*column 5"),
        ("b123]", InvalidNotation, r"'\]' without a matching '\[' at column 5"),
        ("[b123)", InvalidNotation, r"'\)' closes the '\[' at column 1; expected '\]'"),
        ("[b1 (b23)]", InvalidNotation, r"melds cannot nest at column 5"),
        ("[]", InvalidNotation, r"empty meld '\[\]' at column 1"),
        ("b55 [b124]", InvalidMeld, r"b1 b2 b4 is not a chow, pung or kong at column 5"),
        ("[EEEE E]", InvalidMeld, r"is not a chow, pung or kong"),
        ("[b12 f1]", InvalidMeld, r"flowers and seasons cannot be in a meld"),
        ("b1 +", InvalidNotation, r"'\+' must be followed directly .*column 4"),
        ("b1 + b2", InvalidNotation, r"'\+' must be followed directly"),
        ("b1 +[b123]", InvalidNotation, r"'\+' must be followed directly"),
        ("+b5 +b6", InvalidNotation, r"second winning tile \(the first is at column 1\)"),
        ("+b55", InvalidNotation, r"the winning tile is one tile"),
        ("+f1", InvalidNotation, r"cannot be a flower or season"),
        ("[b12 +b3]", InvalidNotation, r"outside brackets"),
        ("b11111", InvalidHand, r"5 copies of b1"),
        ("b11 [b111]", InvalidHand, r"5 copies of b1"),
        ("EEEE +E", InvalidHand, r"5 copies of E"),
        ("f1 b1 f1", InvalidHand, r"f1 twice \(at columns 1 and 7\)"),
        ("bamboe", InvalidTile, r"a rank is missing, e.g. 'bamboe3'"),
        ("bambo3", InvalidTile, r"did you mean 'bamboo3'"),
        ("oostt", InvalidTile, r"did you mean 'oost'"),
        ("eee", InvalidTile, r"unknown tile 'eee'"),
        ("\ufe0f", InvalidTile, r"unknown tile"),
        ("🀫", InvalidTile, r"unknown tile"),
    ],
)
def test_errors(text: str, error: type[MahjongError], message: str) -> None:
    with pytest.raises(error, match=message):
        parse_hand(text)


def test_error_position_in_long_text() -> None:
    text = "b123 " * 3 + "k1 " * 10 + "zz " + "t9 " * 10
    with pytest.raises(
        InvalidTile, match=r"unknown tile 'zz' at column 46 of '\.\.\..*zz.*\.\.\.'"
    ):
        parse_hand(text)


def test_parse_tiles_rejects_structure() -> None:
    for text in ("[b123]", "b1 +b2", "(CCCC)", "b1]"):
        with pytest.raises(InvalidNotation, match="not allowed in a list of tiles"):
            parse_tiles(text)


def test_parse_tiles_keeps_order_and_allows_any_count() -> None:
    assert parse_tiles("E b1 E") == (T.EAST, T.B1, T.EAST)
    assert parse_tiles("b11111") == (T.B1,) * 5


def test_not_a_string() -> None:
    with pytest.raises(InvalidNotation):
        parse_hand(123)  # type: ignore[arg-type]


# --- properties ------------------------------------------------------------------------------


@st.composite
def legal_hands(draw: st.DrawFn) -> Hand:
    counts = [0] * NUM_KINDS
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(list(MeldKind)))
        if kind is MeldKind.CHOW:
            suit = draw(st.integers(0, 2))
            first = suit * 9 + draw(st.integers(0, 6))
            needed = [first, first + 1, first + 2]
        else:
            first = draw(st.integers(0, NUM_KINDS - 1))
            needed = [first] * (4 if kind is MeldKind.KONG else 3)
        if all(counts[t] + needed.count(t) <= 4 for t in set(needed)):
            for t in needed:
                counts[t] += 1
            melds.append(Meld(kind, Tile(first), open=draw(st.booleans())))
    concealed: list[Tile] = []
    for _ in range(draw(st.integers(0, 14))):
        t = draw(st.integers(0, NUM_KINDS - 1))
        if counts[t] < 4:
            counts[t] += 1
            concealed.append(Tile(t))
    bonus = draw(st.lists(st.sampled_from(BONUS_TILES), unique=True, max_size=8))
    winning = draw(st.none() | st.sampled_from(concealed)) if concealed else None
    return Hand(tuple(concealed), tuple(melds), tuple(bonus), winning)


@given(legal_hands())
@settings(max_examples=300)
def test_round_trip(hand: Hand) -> None:
    text = format_hand(hand)
    assert parse_hand(text) == hand
    assert format_hand(parse_hand(text)) == text
    assert parse_hand(glyphs(hand)) == hand
    # without spaces too (the canonical form never runs two groups into a different reading)
    assert parse_hand(text.replace(" ", "")) == hand


@given(st.lists(st.sampled_from(list(Tile)), max_size=20))
def test_tiles_round_trip(tiles: list[Tile]) -> None:
    assert sorted(parse_tiles(format_tiles(tiles))) == sorted(tiles)
    assert sorted(parse_tiles(glyphs(tiles))) == sorted(tiles)
    assert parse_tiles(" ".join(t.token for t in tiles)) == tuple(tiles)


_NOTATION_CHARS = "bktfsESWNOZFCP0123456789[]()+ \t" + "".join(tile_glyph(t) for t in Tile)


@given(st.text())
@settings(max_examples=500)
def test_fuzz_only_mahjong_errors(text: str) -> None:
    with contextlib.suppress(MahjongError):
        parse_hand(text)


@given(st.text(alphabet=_NOTATION_CHARS, max_size=40))
@settings(max_examples=1000)
def test_fuzz_notation_alphabet(text: str) -> None:
    try:
        hand = parse_hand(text)
    except MahjongError:
        return
    assert parse_hand(format_hand(hand)) == hand
    assert format_hand(parse_hand(format_hand(hand))) == format_hand(hand)


@given(st.text(alphabet=_NOTATION_CHARS, max_size=40))
def test_fuzz_parse_tiles(text: str) -> None:
    with contextlib.suppress(MahjongError):
        parse_tiles(text)


# --- remembered words ------------------------------------------------------------------------


def scanned(text: str) -> tuple[Tile, ...] | str:
    """``text`` read character by character, as before any word was remembered: its
    tiles, or the message of its error."""
    notation._remembered.clear()
    try:
        return tuple(t for t, _ in notation._scan(text, allow_structure=False).tiles)
    except MahjongError as exc:
        return str(exc)


def read(text: str) -> tuple[Tile, ...] | str:
    try:
        return parse_tiles(text)
    except MahjongError as exc:
        return str(exc)


_WORDS = ["b1", "b123", "k55", "EEE", "O", "Z", "oost", "bamboe3", "Fa", "🀄", "b0", "x"]
_GAPS = [" ", "  ", "\t", "\n", "\u3000", "\u00a0", "[", "]", "(", ")", "+", "", " +"]


@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_GAPS)), max_size=8))
@settings(max_examples=500)
def test_remembered_words_read_as_the_scan_reads(parts: list[tuple[str, str]]) -> None:
    text = "".join(word + gap for word, gap in parts)
    expected = scanned(text)  # with nothing remembered
    assert read(text) == expected  # the words are remembered now
    assert read(text) == expected  # read from memory (or scanned again, for an error)
    for word, _ in parts:  # each word remembered alone, then the whole again
        read(word)
    assert read(text) == expected


def test_an_error_is_not_remembered_and_keeps_its_column() -> None:
    notation._remembered.clear()
    assert parse_tiles("b1 k2") == (T.B1, T.K2)
    for _ in range(2):
        with pytest.raises(InvalidTile, match="at column 7"):
            parse_tiles("b1 k2 q1")
    assert "q1" not in notation._remembered
    with pytest.raises(InvalidNotation, match="not allowed in a list of tiles"):
        parse_tiles("b1 [k2]")  # remembered words, and a bracket


def test_the_memory_is_bounded() -> None:
    notation._remembered.clear()
    long_word = "b" + "1" * notation.MAX_REMEMBERED_WORD_CHARS
    assert parse_tiles(long_word) == (T.B1,) * notation.MAX_REMEMBERED_WORD_CHARS
    assert long_word not in notation._remembered
    ranks = (str(n) for n in itertools.count(1) if "0" not in str(n))
    words = ["b" + r for r in itertools.islice(ranks, notation.MAX_REMEMBERED_WORDS + 1)]
    for word in words:
        parse_tiles(word)
        assert len(notation._remembered) <= notation.MAX_REMEMBERED_WORDS
    assert len(notation._remembered) == 1  # full, so emptied, then the last word
    assert parse_tiles(words[-1]) == (T.B5, T.B5, T.B5, T.B2)  # b5552


# --- the fast path for plain hands ---------------------------------------------------------


def parsed_fully(text: str) -> Hand | str:
    """``text`` read the full way (no fast path): its hand, or the message of its error."""
    try:
        return notation._parse_fully(text)
    except MahjongError as exc:
        return str(exc)


def parsed(text: str) -> Hand | str:
    try:
        return parse_hand(text)
    except MahjongError as exc:
        return str(exc)


_HAND_WORDS = [
    *("b1", "b123", "k5555", "t99", "EEE", "FCP", "O", "Z", "f1", "s4", "f13", "b12EE"),
    *("EEb1", "k1s2", "+k5", "+E", "+f1", "+b12", "+", "++b1", "b0", "f5", "E1", "b", "bE"),
    *("oost", "Fa", "🀄", "[b123]", "(CCCC)", "b1+b1", "x"),
]


@given(st.lists(st.tuples(st.sampled_from(_HAND_WORDS), st.sampled_from(_GAPS)), max_size=8))
@settings(max_examples=800)
def test_plain_hands_read_as_the_full_parser_reads(parts: list[tuple[str, str]]) -> None:
    text = "".join(word + gap for word, gap in parts)
    expected = parsed_fully(text)
    got = parsed(text)
    assert got == expected
    if isinstance(got, Hand) and isinstance(expected, Hand):
        assert got.counts == expected.counts
        assert all(type(t) is Tile for t in (*got.concealed, *got.bonus))


def test_the_fast_path_reads_a_plain_hand_and_leaves_the_rest() -> None:
    notation._remembered.clear()  # (a word read before is read from memory, aliases too)
    hand = notation._fast_hand("b123 k55  EEE f1 s2 +k5")
    assert hand == Hand(
        (T.B1, T.B2, T.B3, T.K5, T.K5, T.K5, T.EAST, T.EAST, T.EAST),
        bonus=(T.F1, T.S2),
        winning_tile=T.K5,
    )
    assert hand is not None and hand.counts[T.K5] == 3
    # melds, aliases, a fifth copy, a flower twice, two winning tiles: the full parser's
    for text in ("b123 [k555] +b1", "oost b1", "b11111", "f1 f1", "b1 +b1 +b1", "b1+b1"):
        assert notation._fast_hand(text) is None


@given(
    st.lists(st.integers(0, 6), min_size=NUM_KINDS, max_size=NUM_KINDS),
    st.randoms(use_true_random=False),
)
@settings(max_examples=300)
def test_many_copies_read_as_the_full_parser_reads(copies: list[int], rng: random.Random) -> None:
    # up to 6 of every kind, in any order and grouping: the same hand, or the same error
    # (a fifth copy)
    tiles = [t for t in range(NUM_KINDS) for _ in range(copies[t])]
    rng.shuffle(tiles)
    words = [format_tiles(tiles[i : i + 5]) for i in range(0, len(tiles), 5)]
    text = " ".join(words)
    expected = parsed_fully(text)
    got = parsed(text)
    assert got == expected
    if isinstance(got, Hand) and isinstance(expected, Hand):
        assert got.counts == expected.counts == tuple(copies)


def test_the_fast_path_leaves_a_fifth_copy_of_any_kind_to_the_full_parser() -> None:
    every = " ".join(format_tiles([t] * 4) for t in range(NUM_KINDS))  # 136 tiles
    hand = notation._fast_hand(every)
    assert hand is not None and hand.counts == (4,) * NUM_KINDS
    for t in range(NUM_KINDS):
        text = every + " " + format_tiles([t])
        assert notation._fast_hand(text) is None
        with pytest.raises(InvalidHand, match=f"5 copies of {Tile(t).token}"):
            parse_hand(text)
