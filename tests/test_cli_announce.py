"""``play``: the player announces the lucky thirteen by typing ``announce`` (rode-draak)."""

from __future__ import annotations

import pytest

from mahjong_nts.cli.play import Choice, parse_choice
from mahjong_nts.core.actions import parse_action

LEGAL = [parse_action(a) for a in ("discard b2", "discard S", "discard P", "announce P")]


@pytest.mark.parametrize("text", ["announce", "ANNOUNCE", "announce P", "announce wit", "4"])
def test_the_announcement_is_typed(text: str) -> None:
    assert parse_choice(text, LEGAL) == parse_action("announce P")


def test_no_announcement_to_type_when_none_is_offered() -> None:
    with pytest.raises(Choice, match="you cannot announce now"):
        parse_choice("announce", LEGAL[:3])


def test_an_announcement_with_another_tile_is_refused_with_the_one_allowed() -> None:
    with pytest.raises(Choice, match="'announce b2' is not possible now; you may: announce P"):
        parse_choice("announce b2", LEGAL)


def test_east_with_two_announcements_names_the_tile() -> None:
    legal = [*LEGAL[:3], parse_action("announce b2"), parse_action("announce P")]
    with pytest.raises(Choice, match="which tile"):
        parse_choice("announce", legal)
