"""docs/house-rules.md: its examples load as written, and its bounds are the code's.

The example is read out of the doc itself (the block after its marker comment), so the doc
cannot drift from what loads.  The expected values are worked out by hand from the example
and from the NTS 2016 tables (2.2 and 2.4.1) and the flowers overlay (NMB 2009, Spelen met
gelukstenen).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mahjong_nts.core import rules as core_rules
from mahjong_nts.core.hand import Win, WinSource
from mahjong_nts.core.notation import parse_hand
from mahjong_nts.core.rules import LimitValue
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats import rulefiles
from mahjong_nts.formats.rulefiles import load_ruleset, load_untrusted, ruleset_diff

DOC = Path(__file__).resolve().parents[1] / "docs" / "house-rules.md"


def block(marker: str, lang: str) -> str:
    """The fenced block of ``lang`` that follows the comment containing ``marker``."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(marker)
    match = re.compile(rf"```{lang}\n(.*?)```", re.S).search(text, start)
    assert match is not None, f"no ```{lang} block after {marker!r}"
    return match.group(1)


@pytest.fixture
def club(tmp_path: Path) -> Path:
    path = tmp_path / "groene-draak.toml"
    path.write_text(block("house-rule example", "toml"), encoding="utf-8")
    return path


def test_the_example_loads_with_the_values_it_says(club: Path) -> None:
    rs = load_ruleset(str(club))
    assert rs.name == "groene-draak"
    assert rs.title == "Clubregels De Groene Draak (NTS 2016 met bloemen, limiet 1000)"
    sc = rs.scoring
    assert (sc.limit, sc.limit_claimed, sc.limit_non_winner) == (1000, 1000, 1000)
    assert rs.settlement.round_to == 10
    hands = sc.limit_hands
    for hand in ("nine_gates", "thirteen_orphans", "seven_pairs_honours"):
        assert hands[hand] == LimitValue(1000, 1000, 500), hand
    for hand in ("four_winds", "three_dragons", "jade", "four_concealed_kongs", "head_and_tail"):
        assert hands[hand] == LimitValue(1000, 1000), hand
    assert hands["heaven"] == LimitValue(1000, None)
    # the book's values of 1000 and less stay (NTS 2016, 2.4.1)
    assert hands["earth"] == LimitValue(None, 1000)
    assert hands["wind_snake"] == LimitValue(1000, 1000, 500)
    assert hands["seven_pairs"] == LimitValue(250, 250, 125)
    # flowers and seasons from the overlay: walls of 18, 4 points a flower
    assert rs.table.flowers and rs.table.wall_length == 18 and rs.table.dead_wall_replenish
    assert rs.points("bonus_tile") == 4 and rs.doublings("own_flower") == 1
    base = load_ruleset("nts-2016+flowers")
    assert rs.notes[: len(base.notes)] == base.notes and len(rs.notes) == len(base.notes) + 2


def test_the_example_changes_only_what_it_says(club: Path) -> None:
    diff = {
        key: (a, b)
        for key, a, b in ruleset_diff(load_ruleset("nts-2016+flowers"), load_ruleset(str(club)))
    }
    limits = {f"scoring.{k}": (2000, 1000) for k in ("limit", "limit_claimed", "limit_non_winner")}
    values = {}
    for hand, kinds in {
        "nine_gates": ("self_drawn", "claimed", "waiting"),
        "thirteen_orphans": ("self_drawn", "claimed", "waiting"),
        "seven_pairs_honours": ("self_drawn", "claimed", "waiting"),
        "four_winds": ("self_drawn", "claimed"),
        "three_dragons": ("self_drawn", "claimed"),
        "jade": ("self_drawn", "claimed"),
        "heaven": ("self_drawn",),
        "four_concealed_kongs": ("self_drawn", "claimed"),
        "head_and_tail": ("self_drawn", "claimed"),
    }.items():
        for kind in kinds:
            values[f"limit_hands.{hand}.{kind}"] = (
                (1000, 500) if kind == "waiting" else (2000, 1000)
            )
    assert diff == {**limits, **values, "settlement.round_to": (0, 10)}


def test_the_example_scores_under_its_limit(club: Path) -> None:
    rs = load_ruleset(str(club))
    east = Situation(Tile.EAST, Tile.EAST, Win(WinSource.WALL))
    orphans = score_hand(parse_hand("b19 k19 t19 ESWNFCP +P"), east, rs)
    assert orphans.limit_hand == "thirteen_orphans" and orphans.score == 1000
    # four concealed pungs of bamboo, b555 completed self-drawn (b4 or b5 would do: not the
    # only possible tile): 8 + 4 + 4 + 4 + 20 + 2 = 42 points and
    # zuiver 3 + 4 concealed pungs 2 + four pungs 1 + fully concealed 2 = 8 doublings:
    # 42 x 256 = 10752, capped at 1000
    big = score_hand(parse_hand("b111 b222 b333 b44 b55 +b5"), east, rs)
    assert big.base == 10752 and big.score == 1000


def test_the_inline_example_is_the_same_house_rules(club: Path) -> None:
    inline = load_untrusted(json.loads(block("inline example", "json")))
    from_file = load_ruleset(str(club))
    assert inline.name == "groene-draak"
    assert inline.scoring.limit == inline.scoring.limit_claimed == 1000
    assert inline.settlement.round_to == 10 and inline.table.flowers
    # the inline example leaves the limit hands as they are; the rest is the file's
    assert {k for k, _, _ in ruleset_diff(inline, from_file)} == {
        k for k, _, _ in ruleset_diff(load_ruleset("nts-2016+flowers"), from_file)
    } - {
        "scoring.limit",
        "scoring.limit_claimed",
        "scoring.limit_non_winner",
        "settlement.round_to",
    }


def _bound_rows() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("<!-- bounds:") :]
    rows = []
    for line in table.splitlines()[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("what", "---"):
            continue
        rows.append((cells[1], cells[2]))
    return rows


def test_every_bound_in_the_doc_is_the_code_s() -> None:
    named: set[str] = set()
    for bound, constants in _bound_rows():
        numbers = {int(n) for n in re.findall(r"\d+", bound)}
        for ref in re.findall(r"`([\w.]+)`", constants):
            module, name = ref.rsplit(".", 1)
            value = getattr(
                {"core.rules": core_rules, "formats.rulefiles": rulefiles}[module], name
            )
            assert value in numbers, f"{ref} = {value}, the doc says {bound!r}"
            named.add(name)
    public = {
        n
        for module in (core_rules, rulefiles)
        for n in module.__all__
        if n.startswith(("MAX_", "WALL_SLACK"))
    }
    assert public <= named, f"bounds missing from the doc: {sorted(public - named)}"
