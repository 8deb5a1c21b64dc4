"""docs/rules.md is generated from the rule-set data and must not go stale."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mahjong_nts.core.items import LIMIT_HANDS
from mahjong_nts.formats.rulefiles import (
    OVERLAYS,
    SHIPPED,
    load_ruleset,
    overlay_info,
    shipped_mapping,
)
from mahjong_nts.formats.rulesdoc import BOOKS, REGENERATE, RULINGS, render_rules_doc

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def test_docs_rules_md_is_up_to_date() -> None:
    assert DOC.exists(), f"docs/rules.md is missing; generate it with: {REGENERATE}"
    assert DOC.read_text(encoding="utf-8") == render_rules_doc(), (
        f"docs/rules.md is stale (the rule-set data or the generator changed); "
        f"regenerate it with: {REGENERATE}"
    )


def test_render_is_deterministic() -> None:
    assert render_rules_doc() == render_rules_doc()


def test_doc_shows_every_set_side_by_side() -> None:
    doc = render_rules_doc()
    for section in (
        "## Points",
        "## Doublings",
        "## Limit hands",
        "## Caps and scoring switches",
        "## Settlement",
        "## Table",
        "## Overlays",
        "## Rulings",
    ):
        assert section in doc
    header = "| item | Nederlands | English | for | " + " | ".join(SHIPPED) + " |"
    assert doc.count(header) == 2  # points and doublings
    assert "| `seven_pairs` | Zeven tweelingen | Seven pairs | irregular | 250 / 250 / 125 |" in doc
    assert "Zelf gepakt van de muur" in doc and "Self-drawn winning tile" in doc
    for name in OVERLAYS:
        assert f"### `{name}`: {overlay_info(name)[0]}" in doc


def test_every_limit_hand_in_use_is_listed() -> None:
    doc = render_rules_doc()
    used = {h for name in SHIPPED for h in load_ruleset(name).scoring.limit_hands}
    for hand in used:
        assert f"| `{hand}` | {LIMIT_HANDS[hand].nl} |" in doc


def test_rulings_are_numbered_and_include_every_note() -> None:
    doc = render_rules_doc()
    notes = [n for name in SHIPPED for n in load_ruleset(name).notes]
    notes += [n for name in OVERLAYS for n in overlay_info(name)[2]]
    total = len(RULINGS) + len(notes)
    for i in range(1, total + 1):
        assert f"\n{i}. " in doc
    for note in notes:
        assert note in doc
    for text, source in RULINGS:
        assert f"{text} *({source})*" in doc


def test_module_prints_the_doc() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.formats.rulesdoc"],
        check=True,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert result.stdout == render_rules_doc()


SHORT_NAMES = [short for short, _, _ in BOOKS]
INTERNAL = re.compile(r"seeds/|seeds\b|RULES\.md|/work/|shared/|\bOCR\b|(?<![\d.])00[0-4]\b")


def test_every_ruling_cites_a_book_by_title_and_section() -> None:
    for text, source in RULINGS:
        assert any(source.startswith(name) or f"; {name}" in source for name in SHORT_NAMES), source
        assert not INTERNAL.search(text) and not INTERNAL.search(source), source
    used = " ".join(source for _, source in RULINGS)
    for name in SHORT_NAMES:
        assert name in used, f"{name} is listed but never cited"


def test_data_rulings_name_their_book() -> None:
    for name in (*SHIPPED, *OVERLAYS):
        data = shipped_mapping(name)
        assert any(short in data["source"] for short in SHORT_NAMES), name
        for note in data["notes"]:
            if note.startswith("Ruling"):
                assert any(short in note for short in SHORT_NAMES), note


def test_nothing_shown_names_internal_files() -> None:
    doc = render_rules_doc()
    assert not INTERNAL.search(doc), INTERNAL.search(doc)
    for name in (*SHIPPED, *OVERLAYS):
        raw = (
            Path(__file__).resolve().parents[1] / "src/mahjong_nts/data/rulesets" / f"{name}.toml"
        ).read_text(encoding="utf-8")
        assert not INTERNAL.search(raw), (name, INTERNAL.search(raw))


# --- the shared views of rules show / diff and the web's rules page -----------------------


def test_rule_tables_side_by_side() -> None:
    from mahjong_nts.formats.rulefiles import load_ruleset
    from mahjong_nts.formats.rulesdoc import rule_tables

    tables = {t.key: t for t in rule_tables([load_ruleset("nts-2016"), load_ruleset("nmb-2009")])}
    assert list(tables) == ["points", "doublings", "limit_hands", "scoring", "settlement", "table"]
    rows = {r.key: r for t in tables.values() for r in t.rows}
    # NTS 2016 2.4.1 "Mahjong met een zelf uit de muur gepakte steen 2"; NMB 2009: 15.
    self_drawn = rows["points.self_drawn"]
    assert self_drawn.values == (2, 15) and self_drawn.differs and self_drawn.kind == "winner"
    assert rows["points.mahjong"].values == (20, 20) and not rows["points.mahjong"].differs
    # NTS 2016 2.1: East pays and receives double; NMB 2009 does not.
    east = rows["settlement.east_double"]
    assert east.values == (True, False) and east.differs
    assert east.nl == "Oost betaalt en ontvangt dubbel"
    # An item only one set scores is still a row, None for the other.
    assert rows["doublings.last_discard"].values == (None, 1)


def test_key_label_names_items_hands_and_switches() -> None:
    from mahjong_nts.formats.rulesdoc import key_label

    assert key_label("points.self_drawn") == ("Zelf gepakt van de muur", "Self-drawn winning tile")
    assert key_label("settlement.east_double") == (
        "Oost betaalt en ontvangt dubbel",
        "East pays and receives double",
    )
    assert key_label("points.nonsense") is None


def test_citations_come_from_the_data_files() -> None:
    from mahjong_nts.formats.rulesdoc import citations

    nts = citations("nts-2016")
    assert nts["settlement.east_double"] == (
        '2.1: "De speler die Oost is, betaalt en ontvangt altijd dubbel"'
    )
    # The heading above a value and the comment beside it.
    assert nts["points.self_drawn"].startswith("2.4.1, points for the winner · ")
    assert nts["points.pung_simple_open"] == "2.4.1 Punten, Basispunten"
    # An overlay's value is cited from the overlay's file.
    flowers = citations("nmb-2009+flowers")
    assert flowers["table.wall_length"].startswith('flowers: "uit 18x2 stenen"')
    assert flowers["points.bonus_tile"].startswith("flowers: ")
    with pytest.raises(ValueError, match="shipped"):
        citations("/etc/passwd")
