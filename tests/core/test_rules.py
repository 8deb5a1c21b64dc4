"""Rule-set validation (mahjong_nts.core.rules): every value in a range that can be dealt
and scored.

The expected numbers are worked out by hand: a table of ``s`` suits, ``w`` winds and the
three dragons has 4 * (9s + w + 3) tiles (8 more with flowers); the deal takes 13 a player
and one more for East; the dead wall is whole stacks; the live wall keeps at least one
tile a player after the deal.
"""

from __future__ import annotations

from typing import Any

import pytest
from core_helpers import load
from game_helpers import check_invariants, random_hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_nts.core.errors import InvalidRuleSet, MahjongError
from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.items import ITEMS, ItemKind
from mahjong_nts.core.rules import (
    _SET_POINTS,
    _TIMES,
    MAX_HANDS,
    MAX_ITEM_DOUBLINGS,
    MAX_ITEM_POINTS,
    MAX_KONGS,
    MAX_LIMIT,
    MAX_NAME_CHARS,
    MAX_NOTE_CHARS,
    MAX_NOTES,
    MAX_ROUND_TO,
    MAX_ROUNDS,
    MAX_SCORE,
    MAX_TITLE_CHARS,
    RuleSet,
    merge,
    score_bound,
    table_tile_count,
)
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile


def build(over: dict[str, Any], base: str = "nts-2016") -> RuleSet:
    data = merge(load(base).to_mapping(), over)
    return RuleSet.from_mapping(data, "club.toml")


def refused(over: dict[str, Any], base: str = "nts-2016") -> str:
    with pytest.raises(InvalidRuleSet) as info:
        build(over, base)
    message = str(info.value)
    assert message.startswith("club.toml"), message
    return message


# --------------------------------------------------------------------------- the table


def test_tile_counts() -> None:
    assert table_tile_count("bkt", "ESWN", False) == 136
    assert table_tile_count("bkt", "ESWN", True) == 144
    assert table_tile_count("bk", "ESW", False) == 96  # NMB 2009, Drie spelers
    assert table_tile_count("b", "ESWN", False) == 64


def test_a_single_suit_at_four_players_cannot_fill_the_deal_and_a_dead_wall_of_14() -> None:
    # 64 tiles: 17 stacks a side hold 136, so the walls do not fit first ...
    msg = refused({"table": {"suits": "b"}})
    assert "[table].wall_length" in msg and "hold 136 tiles" in msg and "has 64" in msg
    assert "use 8" in msg  # 64 / (2 * 4)
    # ... and with walls of 8: deal 53 + dead 14 + live 4 = 71 > 64; at most 64-53-4 = 7 -> 6
    msg = refused({"table": {"suits": "b", "wall_length": 8}})
    assert "[table].dead_wall" in msg and "deal (53)" in msg and "at most 6" in msg
    rules = build({"table": {"suits": "b", "wall_length": 8, "dead_wall": 6}})
    game, _ = random_hand(rules, 1, each=check_invariants)
    assert game.is_over


def test_four_players_need_four_winds_and_three_players_may_play_one_suit() -> None:
    msg = refused({"table": {"winds": "ESW"}})
    assert "[table].winds: 4 players need 4 seat winds" in msg
    # one suit, three winds, dragons: 4 * (9 + 3 + 3) = 60 tiles; walls of 60 / 6 = 10;
    # deal 40, dead wall 10, live wall 10
    rules = build(
        {"table": {"players": 3, "suits": "b", "winds": "ESW", "wall_length": 10}},
        base="nts-2016+three-players",
    )
    assert rules.table.dead_wall == 10
    game, _ = random_hand(rules, 3, each=check_invariants)
    assert game.is_over


def test_dead_wall_bounds() -> None:
    # 136 - 53 - 100 < 4: at most 136 - 53 - 4 = 79, even: 78
    msg = refused({"table": {"dead_wall": 100}})
    assert "[table].dead_wall" in msg and "a dead wall of 100" in msg and "at most 78" in msg
    assert build({"table": {"dead_wall": 78}}).table.dead_wall == 78
    assert "even number" in refused({"table": {"dead_wall": 13}})
    assert "from 2 to 136" in refused({"table": {"dead_wall": 0}})


def test_with_flowers_the_dead_wall_can_replace_every_flower_dealt() -> None:
    """Found by the property test below: a one-suit table with flowers and a dead wall of
    2 ran out of loose tiles while replacing the flowers of the deal."""
    over = {"table": {"flowers": True, "wall_length": 18, "dead_wall": 6}}
    msg = refused(over, "nts-2016")
    assert "at least 8 tiles" in msg and "every flower and season" in msg
    over["table"]["dead_wall"] = 8
    assert build(over).table.dead_wall == 8


@pytest.mark.parametrize("dead_wall", [2, 4, 78])
def test_the_extreme_dead_walls_deal_and_play(dead_wall: int) -> None:
    rules = build({"table": {"dead_wall": dead_wall}})
    for seed in range(5):
        game, _ = random_hand(rules, seed, each=check_invariants)
        assert game.result is not None


def test_wall_length_must_fit_the_tiles() -> None:
    msg = refused({"table": {"wall_length": 16}})
    assert "4 walls of 2 x 16 hold 128 tiles, but the table has 136" in msg and "use 17" in msg
    # with flowers 8 tiles of slack: 2 x 4 x 17 = 136 places for 144 tiles is allowed
    assert build({"table": {"wall_length": 17}}, base="nts-2016+flowers")
    assert "wall_length" in refused({"table": {"wall_length": 16}}, base="nts-2016+flowers")


def test_three_players_with_flowers_both_orders() -> None:
    # NMB 2009 gives no wall for three players with flowers: 104 tiles in walls of 16
    # (96 places, 8 off) or of 18 (108 places, 4 off) are both allowed
    a = load("nmb-2009+flowers+three-players").table
    b = load("nmb-2009+three-players+flowers").table
    assert (a.wall_length, b.wall_length) == (16, 18)


def test_a_dreamer_only_at_a_table_of_five() -> None:
    """Regression: three-players + five-players gave a 3-player table with a dreamer
    (a fifth player at a table of three), and it passed validation."""
    for spec in ("nmb-2009+three-players+five-players", "nmb-2009+five-players+three-players"):
        with pytest.raises(InvalidRuleSet, match=r"\[table\]\.dreamer: .*a table of 3 players"):
            load(spec)
    assert "table of 3 players has none" in refused(
        {"table": {"dreamer": True}}, base="nmb-2009+three-players"
    )
    five = build({"table": {"dreamer": True}})  # 4 players and the dreamer
    assert five.table.dreamer and five.table.players == 4


def test_suits_are_kept_in_one_order() -> None:
    assert build({"table": {"suits": "tkb"}}).table.suits == "bkt"
    assert "letters from 'bkt'" in refused({"table": {"suits": "bb"}})
    assert "letters from 'bkt'" in refused({"table": {"suits": ""}})


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("max_kongs", MAX_KONGS + 1, f"from 0 to {MAX_KONGS}"),
        ("rounds", 0, f"from 1 to {MAX_ROUNDS}"),
        ("rounds", 10**6, f"from 1 to {MAX_ROUNDS}"),
        ("hands", MAX_HANDS + 1, f"from 1 to {MAX_HANDS}"),
        ("players", 5, "from 3 to 4"),
        ("players", True, "expected a whole number"),
    ],
)
def test_table_counts_have_a_range(key: str, value: Any, message: str) -> None:
    msg = refused({"table": {key: value}})
    assert f"[table].{key}" in msg and message in msg


# --------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("section", "key", "value", "message"),
    [
        ("doublings", "four_kongs", 10**8, f"from 0 to {MAX_ITEM_DOUBLINGS}, got 100000000"),
        ("doublings", "four_kongs", -1, "from 0 to 8"),
        ("points", "mahjong", MAX_ITEM_POINTS + 1, f"from 0 to {MAX_ITEM_POINTS}"),
        ("scoring", "limit", MAX_LIMIT + 1, f"from 1 to {MAX_LIMIT}"),
        ("scoring", "limit_claimed", 0, "from 1 to"),
        ("scoring", "min_doublings", 9, "from 0 to 8"),
        ("scoring", "limit_hand_concealed_doublings", 10**9, "from 0 to 8"),
        ("settlement", "round_to", MAX_ROUND_TO + 1, f"from 0 to {MAX_ROUND_TO}"),
    ],
)
def test_scoring_values_have_a_range(section: str, key: str, value: int, message: str) -> None:
    msg = refused({section: {key: value}})
    assert f"[{section}].{key}" in msg and message in msg


def test_limit_hand_values_have_a_range() -> None:
    msg = refused({"limit_hands": {"nine_gates": {"self_drawn": 10**7}}})
    assert "[limit_hands].nine_gates.self_drawn" in msg and f"from 1 to {MAX_LIMIT}" in msg


def test_a_huge_number_is_described_not_written_out() -> None:
    msg = refused({"doublings": {"four_kongs": 10**5000}})
    assert "a whole number of about 5001 digits" in msg and len(msg) < 200


def test_doublings_that_together_reach_past_the_bound() -> None:
    # nts-2016 with every doubling shown set to 8:
    #   pung_dragon 3 x 8, pung_own_wind 8, pung_round_wind 8, the concealed-sets group 8,
    #   the clean group 8, four chows/pungs, pure simples, small winds/dragons 5 x 8,
    #   fully concealed 8, last-tile group 8, loose-tile group 8, robbing a kong 8:
    #   24 + 8 + 8 + 8 + 8 + 40 + 8 + 8 + 8 + 8 = 128 doublings
    # points: 4 concealed kongs of honours 4 x 32, pair 2 + 2, mahjong 20, self-drawn 2,
    #   only possible 2, completes pair 2, Pe-ling 10: 128 + 4 + 36 = 168
    eights = {item: 8 for item, v in load("nts-2016").scoring.doublings.items() if v}
    msg = refused({"doublings": eights})
    assert "up to 168 points and 128 doublings" in msg and "2**48" in msg
    # one more doubling than the shipped sets is fine
    assert build({"doublings": {"pure_suit": 4}})


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+flowers+three-players", "rode-draak"])
def test_shipped_sets_are_well_inside_the_bound(spec: str) -> None:
    assert score_bound(load(spec).scoring) * 256 < MAX_SCORE  # 8 doublings of headroom


def test_the_bound_for_nts_2016() -> None:
    # points 168 (above); doublings: dragons 3, own wind 1, round wind 1, four kongs 3,
    # pure 3, four chows 1, four pungs 1, pure simples 1, small four winds 1, small three
    # dragons 1, fully concealed 2, last tile (circles 1) 3, loose tile (circles 5) 3,
    # robbing a kong 1: 25
    assert score_bound(load("nts-2016").scoring) == 168 << 25


# --------------------------------------------------------------------------- text


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"name": "[bold red]x\x1b[0m"}, "name: control character U+001B"),
        ({"name": "club\nrules"}, "name: line break U+000A"),
        ({"name": "x" * (MAX_NAME_CHARS + 1)}, f"at most {MAX_NAME_CHARS} characters"),
        ({"name": " club"}, "starts or ends with a space"),
        ({"name": ""}, "name must not be empty"),
        ({"name": 7}, "name: expected text"),
        ({"title": "t" * (MAX_TITLE_CHARS + 1)}, "title: at most"),
        ({"title": "a\u202eb"}, "title: control character U+202E"),
        ({"source": "\x07"}, "source: control character U+0007"),
        ({"notes": ["ok", "bad\x1b]0;x\x07"]}, "notes[1]: control character U+001B"),
        ({"notes": ["n"] * (MAX_NOTES + 1)}, f"at most {MAX_NOTES} notes"),
        ({"notes": ["n" * (MAX_NOTE_CHARS + 1)]}, "notes[0]: at most"),
        ({"notes": "one"}, "notes must be a list"),
    ],
)
def test_text_is_short_printable_and_one_line(over: dict[str, Any], message: str) -> None:
    assert message in refused(over)


def test_markup_like_names_are_allowed_text() -> None:
    # brackets are printable: the terminal front ends escape them
    assert build({"name": "[bold red]x[/]"}).name == "[bold red]x[/]"


# --------------------------------------------------------------------------- properties

_tables = st.fixed_dictionaries(
    {},
    optional={
        "players": st.one_of(st.sampled_from([3, 4]), st.integers(2, 5)),
        "dreamer": st.booleans(),
        "suits": st.sampled_from(["bkt", "bk", "b", "k", "kt", "tb"]),
        "winds": st.sampled_from(["ESWN", "ESW"]),
        "flowers": st.booleans(),
        "wall_length": st.one_of(st.sampled_from([8, 10, 12, 16, 17, 18]), st.integers(0, 40)),
        "dead_wall": st.one_of(st.integers(1, 30).map(lambda n: 2 * n), st.integers(0, 100)),
        "dead_wall_replenish": st.booleans(),
        "max_kongs": st.integers(0, 17),
        "open_chows": st.booleans(),
        "green_dragon": st.sampled_from(["none", "hand_per_round", "final_round"]),
    },
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=_tables,
    base=st.sampled_from(["nts-2016", "nmb-2009+three-players"]),
    seed=st.integers(0, 999),
)
def test_every_table_that_passes_can_be_dealt_and_played(
    table: dict[str, Any], base: str, seed: int
) -> None:
    try:
        rules = build({"table": table}, base)
    except InvalidRuleSet as exc:
        assert str(exc).startswith("club.toml")
        return
    game, _ = random_hand(rules, seed, each=check_invariants)
    assert game.result is not None


_SETS = st.one_of(
    st.tuples(
        st.just(MeldKind.CHOW), st.sampled_from([s * 9 + r for s in range(3) for r in range(7)])
    ),
    st.tuples(st.just(MeldKind.PUNG), st.sampled_from([0, 8, 9, 27, 28, 31, 32, 33])),
    st.tuples(st.just(MeldKind.KONG), st.sampled_from([0, 8, 27, 28, 29, 30, 31, 32, 33])),
)
_BONUS = [Tile(t) for t in range(Tile.F1, Tile.S4 + 1)]


@st.composite
def _hands(draw: Any) -> tuple[Hand, Win | None]:
    """Four sets and a pair, heavy in honours and kongs (where doublings pile up); some
    declared; a winner or (one tile fewer) a non-winner."""
    sets = draw(st.lists(_SETS, min_size=4, max_size=4))
    pair = draw(st.sampled_from([27, 28, 31, 0, 13]))
    counts = [0] * 34
    for kind, t in sets:
        for x in Meld(kind, Tile(t)).tiles:
            counts[x] += 1
    counts[pair] += 2
    if any(c > 4 for c in counts):
        sets = [(MeldKind.CHOW, 0), (MeldKind.CHOW, 9), (MeldKind.PUNG, 27), (MeldKind.PUNG, 31)]
        pair = 32
    melds: list[Meld] = []
    concealed: list[int] = [pair, pair]
    for kind, t in sets:
        if kind is MeldKind.KONG:
            melds.append(Meld(kind, Tile(t), open=draw(st.booleans())))
        elif draw(st.booleans()):
            melds.append(Meld(kind, Tile(t), open=True))
        else:
            concealed.extend(Meld(kind, Tile(t)).tiles)
    bonus = tuple(draw(st.lists(st.sampled_from(_BONUS), unique=True, max_size=8)))
    winning = draw(st.sampled_from(sorted(set(concealed))))
    if draw(st.booleans()):
        concealed.remove(winning)
        return Hand(tuple(concealed), tuple(melds), bonus, None), None
    source = draw(st.sampled_from([WinSource.WALL, WinSource.DISCARD, WinSource.LOOSE_TILE]))
    if source is WinSource.LOOSE_TILE and not any(m.kind is MeldKind.KONG for m in melds):
        source = WinSource.WALL
    flags = {}
    if source is WinSource.WALL:
        flags["last_tile"] = draw(st.booleans())
    elif source is WinSource.LOOSE_TILE:
        flags["kong_on_kong"] = draw(st.booleans()) and len(melds) >= 2
    else:
        flags["last_discard"] = draw(st.booleans())
    return Hand(tuple(concealed), tuple(melds), bonus, Tile(winning)), Win(source, **flags)


_values = st.fixed_dictionaries(
    {
        "points": st.fixed_dictionaries(
            {i.id: st.integers(1, 60) for i in ITEMS.values() if i.kind is ItemKind.POINTS}
        ),
        "doublings": st.fixed_dictionaries(
            {i.id: st.integers(0, 1) for i in ITEMS.values() if i.kind is ItemKind.DOUBLINGS}
        ),
        "scoring": st.fixed_dictionaries(
            {
                "limit_hand_concealed_doublings": st.integers(0, 3),
                "limit": st.just(False),
                "limit_claimed": st.just(False),
                "limit_non_winner": st.just(False),
            }
        ),
    }
)


@settings(max_examples=400)
@given(
    values=_values,
    hand=_hands(),
    seat=st.sampled_from([27, 28, 29, 30]),
    rnd=st.sampled_from([27, 28, 31]),
)
def test_no_hand_reaches_past_the_bound(
    values: dict[str, Any], hand: tuple[Hand, Win | None], seat: int, rnd: int
) -> None:
    """The bound is an upper bound: score random hands under random values (flowers and
    rode-draak's items too) and compare each base with it."""
    try:
        rules = build(values, base="rode-draak+flowers")
    except InvalidRuleSet as exc:  # values past the bound: refused, nothing to score
        assert "2**48" in str(exc)
        return
    h, win = hand
    try:
        result = score_hand(h, Situation(Tile(seat), Tile(rnd), win), rules)
    except MahjongError:  # a situation the scorer refuses (e.g. heaven-like flags)
        return
    assert result.base <= score_bound(rules.scoring)
    assert result.score <= MAX_SCORE
    # the bound's reasoning, item by item: at most four sets, one pair, each item at
    # most as often as _TIMES says, one item of an exclusive group
    counts = {item.id: item.count for item in result.items}
    if result.limit_hand is None:
        assert sum(n for i, n in counts.items() if i in _SET_POINTS) <= 4
        pairs = {i for i in counts if i.startswith("pair_")}
        assert pairs <= {"pair_dragon"} or pairs <= {"pair_own_wind", "pair_round_wind"}
        for item_id, n in counts.items():
            assert n <= _TIMES.get(item_id, 4 if item_id in _SET_POINTS else 1), item_id
        groups = [ITEMS[i].group for i in counts if ITEMS[i].group]
        assert len(groups) == len(set(groups))


def test_lookup_by_unknown_item_name_raises_not_zero() -> None:
    """A typo in an item name must not read as "not scored" (issue 12)."""
    rules = load("nts-2016")
    # a known item: the book's "Pung of Kong Draken, eigen Wind of Wind van de ronde 1"
    assert rules.doublings("pung_dragon") == 1
    with pytest.raises(InvalidRuleSet, match="no points item is called 'pung_dragon_x'"):
        rules.points("pung_dragon_x")
    with pytest.raises(InvalidRuleSet, match="no doublings item is called 'lucky_thirten'"):
        rules.doublings("lucky_thirten")
    # a doubling item asked for as points is no points item either
    with pytest.raises(InvalidRuleSet, match="no points item"):
        rules.points("lucky_thirteen")
    with pytest.raises(InvalidRuleSet):
        rules.doublings(3)  # type: ignore[arg-type]
