"""The shipped rule files, overlays, house-rule files and the loader's errors."""

from __future__ import annotations

import itertools
import os
import re
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_nts.core.errors import InvalidRuleSet
from mahjong_nts.core.rules import LimitValue, RuleSet
from mahjong_nts.formats import rulefiles
from mahjong_nts.formats.rulefiles import (
    DEFAULT_RULESET,
    MAX_BASE_CHAIN,
    MAX_FILE_BYTES,
    MAX_INLINE_VALUES,
    MAX_NESTING,
    OVERLAYS,
    SHIPPED,
    load_mapping,
    load_ruleset,
    load_untrusted,
    ruleset_diff,
    shipped_mapping,
)

SPECS = [
    "+".join((base, *combo))
    for base in SHIPPED
    for n in range(len(OVERLAYS) + 1)
    for combo in itertools.permutations(OVERLAYS, n)
    if not {"three-players", "five-players"} <= set(combo)  # a dreamer at three: refused
]


# --------------------------------------------------------------------------- loading


@pytest.mark.parametrize("spec", SPECS)
def test_every_shipped_set_and_overlay_combination_loads(spec: str) -> None:
    rs = load_ruleset(spec)
    assert isinstance(rs, RuleSet)
    assert rs.name == spec
    assert rs.title and rs.source


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_sets_are_complete_and_round_trip(name: str) -> None:
    data = shipped_mapping(name)
    assert "base" not in data
    assert data["name"] == name
    assert data["notes"], "every set records the rulings applied"
    rs = load_ruleset(name)
    assert RuleSet.from_mapping(rs.to_mapping()) == rs


def test_default_and_cache() -> None:
    assert DEFAULT_RULESET == "nts-2016" == SHIPPED[0]
    assert load_ruleset("nts-2016") is load_ruleset("nts-2016")


@pytest.mark.parametrize("name", OVERLAYS)
def test_overlays_are_partial_and_nameless(name: str) -> None:
    data = shipped_mapping(name)
    assert "name" not in data and "base" not in data
    assert data["title"] and data["source"] and data["notes"]
    with pytest.raises(InvalidRuleSet, match="overlay"):
        load_ruleset(name)


# --------------------------------------------------------------------------- values


def lv(rs: RuleSet, hand: str) -> LimitValue | None:
    return rs.scoring.limit_hands.get(hand)


def test_nts_2016_values() -> None:
    rs = load_ruleset("nts-2016")
    assert lv(rs, "seven_pairs") == LimitValue(250, 250, 125)
    assert lv(rs, "nine_gates") == LimitValue(2000, 2000, 1000)
    assert lv(rs, "seven_pairs_clean") == LimitValue(500, 500, 250)
    assert lv(rs, "heaven") == LimitValue(2000, None)
    assert lv(rs, "earth") == LimitValue(None, 1000)
    assert lv(rs, "twisting_snake") == LimitValue(1000, 1000)
    assert lv(rs, "four_concealed_kongs") == LimitValue(2000, 2000)
    assert lv(rs, "four_kongs") is None and rs.doublings("four_kongs") == 3
    assert (rs.scoring.limit, rs.scoring.limit_claimed, rs.scoring.limit_non_winner) == (
        2000,
        2000,
        2000,
    )
    assert rs.points("self_drawn") == 2 and rs.points("completes_pair") == 2
    assert rs.points("peling_eats_cake") == 10 and rs.points("mahjong") == 20
    assert rs.doublings("fully_concealed") == 2 and rs.doublings("kong_on_kong") == 2
    assert rs.doublings("clean_suit") == rs.doublings("clean_terminals") == 1
    assert rs.doublings("very_clean") == 2
    assert rs.doublings("pure_suit") == rs.doublings("pure_honours") == 3
    assert rs.doublings("pure_terminals") == 0 and rs.doublings("three_kongs") == 0
    assert rs.settlement.east_double and not rs.settlement.discarder_double
    t = rs.table
    assert (t.priority_limit, t.round_wind, t.rounds, t.hands) == ("any", "rotating", 4, 16)
    assert t.rotate_on_east_win and t.rotate_on_remise and not t.hands_at_least
    assert t.mahjong_priority == ("limit", "pair", "pung", "chow")
    assert (t.wall_length, t.dead_wall, t.max_kongs) == (17, 14, 14)
    assert t.false_mahjong == "dead_hand"
    assert rs.scoring.min_doublings == 2 and not rs.scoring.clean_hand_may_win


def test_nts_2002_differs_from_2016_only_in_table_procedure() -> None:
    diff = ruleset_diff(load_ruleset("nts-2016"), load_ruleset("nts-2002"))
    assert diff == [
        ("table.priority_limit", "any", "irregular"),
        ("table.round_wind", "rotating", "east"),
    ]


def test_nmb_2009_values() -> None:
    rs = load_ruleset("nmb-2009")
    assert rs.points("self_drawn") == 15
    assert (rs.scoring.limit, rs.scoring.limit_claimed, rs.scoring.limit_non_winner) == (
        2000,
        1500,
        1500,
    )
    assert lv(rs, "nine_gates") == LimitValue(2000, 1500, 750)
    assert lv(rs, "seven_pairs_terminals") == LimitValue(2000, 1500, 750)
    assert lv(rs, "wind_snake") == LimitValue(1000, 750, 500)
    assert lv(rs, "seven_pairs_clean") == LimitValue(500, 375, 250)
    assert lv(rs, "seven_pairs") == LimitValue(200, 150, 100)
    assert lv(rs, "four_kongs") == LimitValue(2000, 1500)
    assert lv(rs, "twisting_snake") == LimitValue(2000, 1500)
    assert lv(rs, "only_honours") == LimitValue(2000, 1500)
    assert lv(rs, "heaven") == LimitValue(2000, None)
    assert lv(rs, "earth") == LimitValue(None, 1000)
    assert lv(rs, "four_concealed_kongs") is None
    assert rs.doublings("four_kongs") == 0
    assert rs.doublings("three_kongs") == 2 and rs.doublings("three_concealed_kongs") == 3
    assert rs.doublings("three_concealed_pungs") == 2
    assert rs.doublings("four_concealed_pungs") == 3
    assert rs.doublings("clean_suit") == 2 and rs.doublings("very_clean") == 3
    assert rs.doublings("pure_suit") == 4 and rs.doublings("pure_honours") == 4
    assert rs.doublings("fully_concealed") == 1 and rs.doublings("last_tile") == 2
    assert rs.doublings("last_discard") == 1 and rs.doublings("kong_on_kong") == 3
    assert rs.scoring.four_chows_simples_concealed
    s = rs.settlement
    assert not s.east_double and s.discarder_double and not s.dominant_double
    t = rs.table
    assert not t.rotate_on_east_win and not t.rotate_on_remise and t.hands_at_least
    assert (t.rounds, t.hands, t.priority_limit) == (4, 16, "irregular")


def test_rode_draak_values() -> None:
    rs = load_ruleset("rode-draak")
    sc = rs.scoring
    assert (sc.limit, sc.limit_claimed, sc.limit_non_winner) == (None, None, None)
    assert sc.limit_hand_concealed_doublings == 1 and sc.clean_hand_may_win
    assert sc.min_doublings == 2
    points = {
        "mahjong": 20,
        "self_drawn": 2,
        "only_possible_tile": 2,
        "last_tile_points": 10,
        "chows_and_pair_points": 10,
        "peling_eats_cake": 10,
        "pair_round_wind": 2,
        "completes_pair": 0,
    }
    assert {k: rs.points(k) for k in points} == points
    doublings = {
        "four_pungs": 1,
        "all_pungs_simples": 1,
        "loose_tile": 1,
        "robbing_kong": 1,
        "lucky_thirteen": 1,
        "earth_doublings": 2,
        "fully_concealed": 3,
        "three_wise_men": 3,
        "clean_suit": 1,
        "clean_terminals": 1,
        "pure_suit": 3,
        "pure_terminals": 3,
        "pure_honours": 3,
        "pung_dragon": 1,
        "pung_own_wind": 1,
        "pung_round_wind": 1,
        "three_concealed_pungs": 1,
        "three_concealed_kongs": 2,
        "four_concealed_pungs": 2,
        "four_kongs": 3,
        "very_clean": 0,
        "four_chows": 0,
        "kong_on_kong": 0,
    }
    assert {k: rs.doublings(k) for k in doublings} == doublings
    assert lv(rs, "heaven") == LimitValue(1000, None)
    for hand in (
        "nine_gates",
        "thirteen_orphans",
        "seven_pairs_pure",
        "seven_pairs_honours",
        "seven_pairs_terminals",
    ):
        assert lv(rs, hand) == LimitValue(1000, 1000, 500), hand
    for hand in (
        "seven_pairs_clean",
        "seven_pairs_very_clean",
        "seven_pairs_terminals_honours",
        "wind_snake",
        "dragon_snake",
        "peking_garden",
    ):
        assert lv(rs, hand) == LimitValue(500, 500, 250), hand
    assert lv(rs, "red_dragon") == LimitValue(500, 500)
    for hand in ("jade", "four_winds", "twisting_snake"):
        assert lv(rs, hand) == LimitValue(1000, 1000), hand
    for hand in ("seven_pairs", "earth", "three_dragons", "head_and_tail"):
        assert lv(rs, hand) is None, hand
    assert rs.settlement.east_double and not rs.settlement.discarder_double
    assert rs.table.round_wind == "east"  # from nts-2002


def test_overlays_values() -> None:
    fl = load_ruleset("nmb-2009+flowers")
    assert fl.table.flowers and fl.table.wall_length == 18 and fl.table.dead_wall_replenish
    assert fl.points("bonus_tile") == 4
    assert all(
        fl.doublings(k) == 1 for k in ("own_flower", "own_season", "all_flowers", "all_seasons")
    )
    assert fl.points("self_drawn") == 15  # the base stays
    three = load_ruleset("nmb-2009+three-players")
    t = three.table
    assert (t.players, t.suits, t.winds, t.wall_length, t.dead_wall) == (3, "bk", "ESW", 16, 10)
    assert not t.open_chows and t.green_dragon == "hand_per_round"
    assert three.settlement.dominant_double and three.doublings("pung_ruling_dragon") == 1
    five = load_ruleset("nts-2016+five-players")
    assert (
        five.table.dreamer and five.table.players == 4 and five.table.green_dragon == "final_round"
    )
    assert five.settlement.dominant_double and five.doublings("pung_ruling_dragon") == 1
    both = load_ruleset("nmb-2009+flowers+three-players")
    assert both.table.flowers and both.table.wall_length == 16 and both.table.players == 3
    assert len(both.notes) == len(load_ruleset("nmb-2009").notes) + len(
        shipped_mapping("flowers")["notes"]
    ) + len(shipped_mapping("three-players")["notes"])


def test_diff_reports_absent_values_as_none() -> None:
    diff = dict(
        (k, (a, b)) for k, a, b in ruleset_diff(load_ruleset("nts-2016"), load_ruleset("nmb-2009"))
    )
    assert diff["points.self_drawn"] == (2, 15)
    assert diff["doublings.four_kongs"] == (3, None)
    assert diff["limit_hands.four_kongs.self_drawn"] == (None, 2000)
    assert diff["scoring.limit_claimed"] == (2000, 1500)
    assert "name" not in diff
    assert ruleset_diff(load_ruleset("nmb-2009"), load_ruleset("nmb-2009")) == []
    meta = ruleset_diff(load_ruleset("nts-2016"), load_ruleset("nts-2002"), metadata=True)
    assert meta[0] == ("name", "nts-2016", "nts-2002")


# --------------------------------------------------------------------------- house rules


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "name", ["nts-2016", "nmb-2009+flowers", "NTS-2016", "flowers", "rode-draak+club"]
)
def test_house_rules_may_not_take_a_shipped_name(tmp_path: Path, name: str) -> None:
    """Regression: a house or inline rule set could call itself "nts-2016", so a log
    or an output said the book's rules were played when they were not."""
    words = re.escape(f"name {name!r} is taken by a shipped rule set")
    path = write(
        tmp_path, "club.toml", f'base = "nts-2016"\nname = "{name}"\n[settlement]\nround_to = 10\n'
    )
    with pytest.raises(InvalidRuleSet, match=words) as info:
        load_ruleset(str(path))
    assert str(info.value).startswith(str(path))
    inline = {"base": "nts-2016", "name": name, "settlement": {"round_to": 10}}
    with pytest.raises(InvalidRuleSet, match=words) as info:
        load_untrusted(inline, where="ruleset")
    assert str(info.value).startswith("ruleset")
    with pytest.raises(InvalidRuleSet, match=words):
        load_mapping(inline)


def test_a_house_file_named_like_a_shipped_set_needs_a_name(tmp_path: Path) -> None:
    """Without a name a file is named after itself: nts-2016.toml with changes would
    pass for nts-2016."""
    path = write(tmp_path, "nts-2016.toml", 'base = "nts-2016"\n[settlement]\nround_to = 10\n')
    with pytest.raises(InvalidRuleSet, match="name 'nts-2016' is taken by a shipped rule set"):
        load_ruleset(str(path))
    assert load_ruleset(str(write(tmp_path, "nts-2016-club.toml", path.read_text()))).name == (
        "nts-2016-club"
    )


def test_an_exact_copy_of_a_shipped_set_keeps_its_name() -> None:
    """What ``rules show NAME --json`` prints loads back as that rule set: same name,
    same values, nothing ambiguous."""
    for spec in ("rode-draak", "nmb-2009+flowers+three-players"):
        copy = load_untrusted(load_ruleset(spec).to_mapping())
        assert copy.name == spec and ruleset_diff(copy, load_ruleset(spec)) == []


def test_house_rules_over_a_base_change_only_their_values(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "club.toml",
        """
base = "nts-2016"
name = "club"
notes = ["Our club pays in chips."]

[settlement]
round_to = 10

[doublings]
four_kongs = 4
""",
    )
    rs = load_ruleset(str(path))
    base = load_ruleset("nts-2016")
    assert rs.name == "club"
    assert ruleset_diff(base, rs) == [
        ("doublings.four_kongs", 3, 4),
        ("settlement.round_to", 0, 10),
    ]
    assert rs.notes == (*base.notes, "Our club pays in chips.")


def test_house_rules_name_defaults_to_file_stem_and_remove_items(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "thuis.toml",
        """
base = "nmb-2009+flowers"
[doublings]
last_discard = false
[limit_hands]
only_honours = false
seven_pairs = { waiting = 50 }
""",
    )
    rs = load_ruleset(str(path))
    assert rs.name == "thuis"
    assert rs.doublings("last_discard") == 0 and "only_honours" not in rs.scoring.limit_hands
    assert rs.scoring.limit_hands["seven_pairs"] == LimitValue(200, 150, 50)
    assert rs.table.flowers
    assert load_ruleset(f"{path}+three-players").table.players == 3


def test_house_file_base_may_be_another_file(tmp_path: Path) -> None:
    write(tmp_path, "one.toml", 'base = "rode-draak"\n[points]\nmahjong = 30\n')
    two = write(tmp_path, "two.toml", 'base = "one.toml"\n[scoring]\nmin_doublings = 1\n')
    rs = load_ruleset(str(two))
    assert rs.points("mahjong") == 30 and rs.scoring.min_doublings == 1
    assert rs.scoring.limit is None


def test_complete_house_file_without_base(tmp_path: Path) -> None:
    text = (
        (Path(__file__).parents[1] / "src/mahjong_nts/data/rulesets/nmb-2009.toml")
        .read_text(encoding="utf-8")
        .replace('name = "nmb-2009"', 'name = "eigen"')
    )
    rs = load_ruleset(str(write(tmp_path, "eigen.toml", text)))
    assert rs.name == "eigen" and ruleset_diff(rs, load_ruleset("nmb-2009")) == []


def test_load_mapping() -> None:
    rs = load_mapping({"base": "nts-2016", "points": {"mahjong": 25}}, name="inline")
    assert rs.name == "inline" and rs.points("mahjong") == 25
    with pytest.raises(InvalidRuleSet, match="inline-json"):
        load_mapping({"base": "nts-2016", "pointz": {}}, where="inline-json")


BROKEN = [
    (
        "unknown.toml",
        'base = "nts-2016"\n[doubling]\nfour_kongs = 4\n',
        r"unknown key 'doubling' \(did you mean 'doublings'\?\)",
    ),
    (
        "item.toml",
        'base = "nts-2016"\n[doublings]\nfour_kong = 4\n',
        r"unknown item 'four_kong' \(did you mean 'four_kongs'\?\)",
    ),
    (
        "type.toml",
        'base = "nts-2016"\n[scoring]\nlimit = "2000"\n',
        r"\[scoring\]\.limit: expected a whole number",
    ),
    ("syntax.toml", 'base = "nts-2016"\n[scoring\nlimit = 1\n', r"TOML syntax error.*line 2"),
    (
        "nobase.toml",
        'base = "nts-2061"\n',
        r"unknown rule set 'nts-2061' \(did you mean 'nts-2016'",
    ),
    ("basetype.toml", "base = 2016\n", r"base must name a rule set"),
    ("missing.toml", 'base = "elsewhere.toml"\n', r"elsewhere\.toml: no such rule file"),
    ("incomplete.toml", "[scoring]\nlimit = 2000\n", r"missing value"),
    ("overlaybase.toml", 'base = "flowers"\n', r"is an overlay"),
    ("notes.toml", 'base = "nts-2016"\nnotes = "one"\n', r"notes must be a list"),
    ("binary.toml", "", r"not UTF-8"),
    (
        "priority.toml",
        'base = "nts-2016"\n[table]\nmahjong_priority = [1, "pair", "pung", "chow"]\n',
        r"mahjong_priority|malformed",
    ),
]


@pytest.mark.parametrize(("name", "text", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_house_files(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    if name == "binary.toml":
        path.write_bytes(b'base = "\xff\xfe"\n')
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidRuleSet, match=message) as info:
        load_ruleset(str(path))
    assert name in str(info.value)


def test_base_loop(tmp_path: Path) -> None:
    a = write(tmp_path, "a.toml", 'base = "b.toml"\n')
    write(tmp_path, "b.toml", 'base = "a.toml"\n')
    with pytest.raises(InvalidRuleSet, match="base loop") as info:
        load_ruleset(str(a))
    assert "a.toml" in str(info.value) and "b.toml" in str(info.value)
    selfloop = write(tmp_path, "self.toml", 'base = "self.toml"\n')
    with pytest.raises(InvalidRuleSet, match="base loop"):
        load_ruleset(str(selfloop))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nts2016", r"did you mean 'nts-2016'"),
        ("nmb-2009+flower", r"did you mean 'flowers'"),
        ("nts-2016+nmb-2009", r"complete rule set, not an overlay"),
        ("three-players", r"is an overlay"),
        ("+flowers", r"no rule set before"),
        ("", r"non-empty"),
        ("no/such/file.toml", r"no such rule file"),
        ("nmb-2009+flowers+flowers", r"overlay 'flowers' is given twice"),
        ("nmb-2009+", r"empty overlay name"),
        ("nts-2016+" + "x" * 2000, r"2009 characters long; at most 1024"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(InvalidRuleSet, match=message):
        load_ruleset(spec)


def test_a_directory_is_not_a_rule_file(tmp_path: Path) -> None:
    (tmp_path / "dir.toml").mkdir()
    with pytest.raises(InvalidRuleSet, match=r"dir\.toml"):
        load_ruleset(str(tmp_path / "dir.toml"))


# --------------------------------------------------------------------------- bounds


@pytest.mark.parametrize(
    "value",
    [
        "[" * 5000 + "]" * 5000,  # tomllib recursed once per level: RecursionError
        "{ a = " * 3000 + "1" + " }" * 3000,
        "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1),
    ],
    ids=["arrays", "inline-tables", "just-past"],
)
def test_deep_toml_values_are_refused_by_line(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, "deep.toml", f'base = "nts-2016"\n\nnotes = {value}\n')
    with pytest.raises(InvalidRuleSet, match=rf"deep\.toml: line 3: .*more than {MAX_NESTING}"):
        load_ruleset(str(path))


@pytest.mark.parametrize(
    "text",
    ["a" + ".a" * 20000 + " = 1\n", "[" + "a." * 20000 + "a]\nx = 1\n"],
    ids=["dotted-key", "dotted-header"],
)
def test_deep_dotted_keys_are_refused(tmp_path: Path, text: str) -> None:
    # dotted keys nest tables without brackets: tomllib reads them, the check after it
    # refuses them before anything recursive (merge, copy) sees them
    path = write(tmp_path, "dotted.toml", 'base = "nts-2016"\n' + text)
    with pytest.raises(InvalidRuleSet, match=rf"dotted\.toml: .*nested more than {MAX_NESTING}"):
        load_ruleset(str(path))


def test_brackets_in_strings_and_comments_do_not_count(tmp_path: Path) -> None:
    deep = "[" * 40
    text = (
        'base = "nts-2016"\n'
        f"# {deep}\n"
        f"notes = [\"{deep}\", '{deep}', \"\"\"{deep}\\\n   {deep}\"\"\", '''{deep}''',\n"
        f'  "quote \\" {deep}", """ends with a quote"""", "{{ {deep}"]\n'
        f"[points] # {deep}\n"
        "mahjong = 30\n"
    )
    rs = load_ruleset(str(write(tmp_path, "strings.toml", text)))
    assert rs.points("mahjong") == 30
    assert rs.notes[-7:] == (
        deep,
        deep,
        deep + deep,  # a backslash at the end of a line joins the lines
        deep,
        f'quote " {deep}',
        'ends with a quote"',
        "{ " + deep,
    )


def test_file_size_is_bounded(tmp_path: Path) -> None:
    head = 'base = "nts-2016"\n'
    fits = head + "#" * (MAX_FILE_BYTES - len(head) - 1) + "\n"
    assert len(fits.encode()) == MAX_FILE_BYTES
    assert load_ruleset(str(write(tmp_path, "fits.toml", fits))).name == "fits"
    big = write(tmp_path, "big.toml", fits + "#\n")
    with pytest.raises(
        InvalidRuleSet, match=rf"big\.toml: a rule file is at most {MAX_FILE_BYTES}"
    ):
        load_ruleset(str(big))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_not_read() -> None:
    with pytest.raises(InvalidRuleSet, match=r"/dev/zero: not a regular file"):
        load_ruleset("/dev/zero")
    with pytest.raises(InvalidRuleSet, match=r"/dev/zero: not a regular file"):
        load_ruleset("/dev/zero+flowers")


def _fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    return path


def _within(seconds: float, fn: object) -> object:
    """Run ``fn`` in a thread; fail (instead of hanging the suite) if it blocks."""
    out: list[object] = []
    worker = threading.Thread(target=lambda: out.append(_catch(fn)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "the loader blocked"
    return out[0]


def _catch(fn: object) -> object:
    try:
        return fn()  # type: ignore[operator]
    except Exception as exc:
        return exc


def test_a_fifo_is_not_waited_on(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path)
    result = _within(5, lambda: load_ruleset(str(fifo)))
    assert isinstance(result, InvalidRuleSet) and "not a regular file" in str(result)
    base = write(tmp_path, "club.toml", f'base = "{fifo}"\n')
    result = _within(5, lambda: load_ruleset(str(base)))
    assert isinstance(result, InvalidRuleSet) and "pipe.toml: not a regular file" in str(result)


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_a_symlink_loop_is_a_message(tmp_path: Path) -> None:
    (tmp_path / "loop.toml").symlink_to(tmp_path / "loop.toml")
    with pytest.raises(InvalidRuleSet, match=r"loop\.toml: cannot read rule file"):
        load_ruleset(str(tmp_path / "loop.toml"))


def test_base_chain_is_bounded(tmp_path: Path) -> None:
    write(tmp_path, "f0.toml", 'base = "nts-2016"\n')
    for i in range(1, MAX_BASE_CHAIN + 1):
        write(tmp_path, f"f{i}.toml", f'base = "f{i - 1}.toml"\n')
    assert load_ruleset(str(tmp_path / f"f{MAX_BASE_CHAIN - 1}.toml")).name == "f7"
    with pytest.raises(InvalidRuleSet, match=rf"base chain too deep \(at most {MAX_BASE_CHAIN}"):
        load_ruleset(str(tmp_path / f"f{MAX_BASE_CHAIN}.toml"))


@pytest.mark.skipif(sys.platform == "win32", reason="file names with control characters")
def test_a_file_name_with_terminal_escapes_is_shown_escaped(tmp_path: Path) -> None:
    path = write(tmp_path, "a\x1b[31mb.toml", 'base = "nts-2016"\n')
    assert load_ruleset(str(path)).name == "a\\x1b[31mb"
    path.write_text('base = "nts-2016"\n[points]\nmahjong = -1\n', encoding="utf-8")
    with pytest.raises(InvalidRuleSet) as info:
        load_ruleset(str(path))
    assert "\x1b" not in str(info.value) and "a\\x1b[31mb.toml" in str(info.value)


# --------------------------------------------------------------------------- caches


def test_an_edited_house_file_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path, "club.toml", 'base = "nts-2016"\n[points]\nmahjong = 30\n')
    assert load_ruleset(str(path)).points("mahjong") == 30
    path.write_text('base = "nts-2016"\n[points]\nmahjong = 40\n', encoding="utf-8")
    assert load_ruleset(str(path)).points("mahjong") == 40
    # a base file edited under an unchanged house file counts too
    write(tmp_path, "base.toml", 'base = "nts-2016"\n[points]\nmahjong = 25\n')
    top = write(tmp_path, "top.toml", 'base = "base.toml"\n')
    assert load_ruleset(str(top)).points("mahjong") == 25
    write(tmp_path, "base.toml", 'base = "nts-2016"\n[points]\nmahjong = 26\n')
    assert load_ruleset(str(top)).points("mahjong") == 26


def test_shipped_cache_is_bounded_and_keyed_by_the_canonical_spec() -> None:
    info = rulefiles._load_shipped.cache_info()
    assert info.maxsize == len(SHIPPED) * 16  # every base with every ordered overlay set
    a = load_ruleset("nmb-2009+flowers")
    assert load_ruleset(" nmb-2009 + flowers ") is a
    assert load_untrusted("nmb-2009 +flowers") is a


def test_inline_cache_is_bounded() -> None:
    for i in range(100):
        load_untrusted({"base": "nts-2016", "points": {"mahjong": i + 1}})
    assert len(rulefiles._inline_cache) <= 32
    one = load_untrusted({"base": "nts-2016", "points": {"mahjong": 99}})
    assert load_untrusted({"points": {"mahjong": 99}, "base": "nts-2016"}) is one


# --------------------------------------------------------------------------- untrusted


def test_untrusted_names_a_shipped_set_with_overlays() -> None:
    assert load_untrusted("nts-2016") is load_ruleset("nts-2016")
    assert load_untrusted("nmb-2009+flowers+three-players").table.players == 3


@pytest.mark.parametrize(
    "spec",
    ["/dev/zero", "club.toml", "../club.toml", "C:\\rules\\club.toml", "rules/nts-2016"],
)
def test_untrusted_never_names_a_file(spec: str) -> None:
    with pytest.raises(InvalidRuleSet, match=r"never name a file"):
        load_untrusted(spec)


def test_untrusted_does_not_read_an_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "hunter2-do-not-echo"
    write(tmp_path, "secret", f'name = "{secret}"\n')
    write(tmp_path, "secret.toml", f'base = "nts-2016"\nname = "{secret}"\n')
    monkeypatch.chdir(tmp_path)
    for spec in ("secret", "secret.toml", str(tmp_path / "secret.toml")):
        with pytest.raises(InvalidRuleSet) as info:
            load_untrusted(spec)
        assert secret not in str(info.value)
    # the local loader does read them (from the command line only)
    assert load_ruleset("secret.toml").name == secret


def test_untrusted_fifo_is_never_opened(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path)
    result = _within(5, lambda: load_untrusted(str(fifo)))
    assert isinstance(result, InvalidRuleSet) and "never name a file" in str(result)


def test_untrusted_inline_house_rules() -> None:
    rs = load_untrusted(
        {"base": "nmb-2009+flowers", "name": "club", "scoring": {"limit": 1000}},
        where="ruleset",
    )
    assert rs.name == "club" and rs.scoring.limit == 1000 and rs.table.flowers
    assert rs.points("self_drawn") == 15  # from the base
    complete = load_untrusted(load_ruleset("rode-draak").to_mapping())
    assert ruleset_diff(complete, load_ruleset("rode-draak"), metadata=True) == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"base": "club.toml"}, r"ruleset: base = 'club\.toml': .*never name a file"),
        ({"base": "/dev/zero"}, r"never name a file"),
        ({"base": "nts-2016+club.toml"}, r"unknown rule set 'club\.toml'"),
        ({"base": 2016}, r"base must name a rule set"),
        ({"base": "nts-2016", "points": {"mahjong": "x"}}, r"\[points\]\.mahjong"),
        ({"points": {"mahjong": 20}}, r"ruleset: missing value 'name'|missing value"),
        ({"base": "nts-2016", 1: 2}, r"keys must be text"),
        ({"base": "nts-2016", "notes": [[[[[[[[[["x"]]]]]]]]]]}, r"nested more than 8"),
        ({"base": "nts-2016", "notes": ["n"] * MAX_INLINE_VALUES}, r"more than 2000 values"),
    ],
)
def test_untrusted_inline_errors(value: dict, message: str) -> None:
    with pytest.raises(InvalidRuleSet, match=message):
        load_untrusted(value, where="ruleset")


@pytest.mark.parametrize("value", [None, 7, ["nts-2016"], b"nts-2016", True])
def test_untrusted_other_types(value: object) -> None:
    with pytest.raises(InvalidRuleSet, match=r"a shipped name .* or house rules as an object"):
        load_untrusted(value)


def test_untrusted_spec_length() -> None:
    with pytest.raises(InvalidRuleSet, match=r"at most 128"):
        load_untrusted("nts-2016" + " " * 200 + "+flowers")


def test_deep_inline_mapping_from_python_is_refused_without_recursion() -> None:
    deep: dict = {}
    node = deep
    for _ in range(100_000):
        node["a"] = {}
        node = node["a"]
    with pytest.raises(InvalidRuleSet, match=r"nested more than 8"):
        load_untrusted({"base": "nts-2016", "points": deep})
    with pytest.raises(InvalidRuleSet, match=r"nested more than 8"):
        load_mapping({"base": "nts-2016", "points": deep})


# --------------------------------------------------------------------------- fuzzing

_scalars = st.one_of(
    st.booleans(), st.integers(-5, 5000), st.text(max_size=8), st.floats(allow_nan=False)
)
_keys = st.one_of(
    st.sampled_from(
        [
            "base",
            "name",
            "title",
            "notes",
            "scoring",
            "points",
            "doublings",
            "limit_hands",
            "settlement",
            "table",
            "limit",
            "four_kongs",
            "seven_pairs",
            "self_drawn",
            "claimed",
            "waiting",
            "players",
            "suits",
            "winds",
            "mahjong_priority",
            "round_wind",
            "nts-2016",
            "flowers",
        ]
    ),
    st.text(max_size=6),
)
_values = st.recursive(
    st.one_of(_scalars, st.sampled_from(["nts-2016", "nmb-2009+flowers", "flowers", "x.toml"])),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(_keys, children, max_size=4)
    ),
    max_leaves=12,
)
_sections = st.dictionaries(
    st.sampled_from(["scoring", "points", "doublings", "limit_hands", "settlement", "table"]),
    st.dictionaries(_keys, _values, max_size=4),
    max_size=3,
)


@settings(max_examples=300)
@given(
    junk=st.dictionaries(_keys, _values, max_size=6),
    sections=_sections,
    base=st.sampled_from([None, "nts-2016", "nmb-2009+three-players", "rode-draak"]),
)
def test_junk_mappings_raise_only_invalid_rule_set(
    junk: dict, sections: dict, base: str | None
) -> None:
    data = {**junk, **sections}
    if base is not None:
        data["base"] = base
    try:
        load_mapping(data, where="junk")
    except InvalidRuleSet as exc:
        assert "junk" in str(exc)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.text(max_size=120), prefix=st.sampled_from(["", 'base = "nts-2016"\n']))
def test_random_toml_text_raises_only_invalid_rule_set(
    tmp_path: Path, body: str, prefix: str
) -> None:
    path = tmp_path / "fuzz.toml"
    path.write_text(prefix + body, encoding="utf-8", errors="surrogatepass")
    try:
        load_ruleset(str(path))
    except InvalidRuleSet as exc:
        assert "fuzz.toml" in str(exc)
