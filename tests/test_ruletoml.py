"""A rule set written as a house-rule TOML file (formats/ruletoml.py) reads back as the
same rule set: every shipped set with its overlays, and house rules whose name and notes
hold quotes, backslashes and characters outside ASCII."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from mahjong_nts.core.rules import RuleSet
from mahjong_nts.formats.gamelog import rules_digest
from mahjong_nts.formats.rulefiles import SHIPPED, load_ruleset, load_untrusted
from mahjong_nts.formats.ruletoml import rules_toml

SPECS = [
    s + o
    for s in SHIPPED
    for o in ("", "+flowers", "+three-players", "+five-players", "+flowers+three-players")
]


def _again(tmp_path: Path, text: str) -> RuleSet:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(str(path))


@pytest.mark.parametrize("spec", SPECS)
def test_a_shipped_rule_set_reads_back_as_itself(tmp_path: Path, spec: str) -> None:
    rules = load_ruleset(spec)
    again = _again(tmp_path, rules_toml(rules, "a comment\non two lines"))
    assert again.to_mapping() == rules.to_mapping()
    assert again.name == spec


def test_house_rules_read_back_with_their_name_and_values(tmp_path: Path) -> None:
    house = load_untrusted(
        {
            "base": "nmb-2009+flowers",
            "name": 'de "kat" \\ é 😀',
            "notes": ["Club decision: één limiet van 1000 voor iedereen."],
            "scoring": {"limit": 1000},
            "limit_hands": {"heaven": False, "seven_pairs": {"waiting": 50}},
        }
    )
    text = rules_toml(house)
    assert "base" not in tomllib.loads(text)  # complete: it needs no other file
    again = _again(tmp_path, text)
    assert again.to_mapping() == house.to_mapping()
    assert rules_digest(again) == rules_digest(house)
    assert again.scoring.limit == 1000
    assert "heaven" not in again.scoring.limit_hands
