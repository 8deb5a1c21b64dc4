"""The translations (mahjong_nts/i18n): negotiation, and a catalogue that is complete,
compiled, and holds every text of the sources."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from mahjong_nts.i18n import (
    LOCALES_DIR,
    language,
    negotiate,
    parse_accept_language,
    translator,
)

ROOT = Path(__file__).resolve().parents[1]
PO = LOCALES_DIR / "nl" / "LC_MESSAGES" / "mahjong_nts.po"
MO = PO.with_suffix(".mo")


@pytest.mark.parametrize(
    ("header", "cookie", "expected"),
    [
        ("nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7", None, "nl"),
        ("nl-BE", None, "nl"),
        ("nl", None, "nl"),
        ("en-US,en;q=0.9,nl;q=0.8", None, "en"),
        ("de-DE,de;q=0.9,nl;q=0.8,en;q=0.7", None, "nl"),  # the first language we have
        ("de-DE,en;q=0.5,nl;q=0.7", None, "nl"),  # by weight, not by order
        ("fr-FR,de", None, "en"),  # none we have: the default
        ("nl;q=0,en", None, "en"),  # q=0: not wanted
        ("*", None, "en"),
        ("", None, "en"),
        (None, None, "en"),
        ("en", "nl", "nl"),  # the cookie (the page's switch) wins
        ("nl", "en", "en"),
        ("nl", "de", "nl"),  # a cookie naming no language of ours is ignored
        (";;,,q=,nl;q=abc,nl;q=2,nl;q=0.1", None, "nl"),  # bad entries skipped
    ],
)
def test_negotiate(header: str | None, cookie: str | None, expected: str) -> None:
    assert negotiate(header, cookie) == expected


def test_negotiate_default() -> None:
    assert negotiate("de", None, default="nl") == "nl"
    assert negotiate(None, None, default="nl") == "nl"


def test_parse_accept_language_is_bounded() -> None:
    assert parse_accept_language("nl-NL, en;q=0.5, de;q=0.9") == ["nl_NL", "de", "en"]
    assert len(parse_accept_language(",".join(["nl"] * 10_000))) == 20
    assert parse_accept_language("en," + "x" * 100_000 + ",nl") == ["en"]  # 1000 characters
    assert parse_accept_language("x" * 9 + ",nl-abcdefghi,zh-Hant-TW") == ["zh_Hant_TW"]


def test_language() -> None:
    assert [language(v) for v in ["nl", "NL", "nl_NL", "nl-BE", "en", "en-GB"]] == [
        "nl",
        "nl",
        "nl",
        "nl",
        "en",
        "en",
    ]
    assert [language(v) for v in ["de", "", None, 3, "dutch"]] == [None] * 5


def test_translator() -> None:
    assert translator("nl").gettext("Settle") == "Afrekenen"
    assert translator("nl").gettext("Calculator") == "Hand berekenen"
    assert translator("en").gettext("Settle") == "Settle"
    assert translator("de").gettext("Settle") == "Settle"  # source texts


def read_catalog(path: Path):  # type: ignore[no-untyped-def]
    with path.open("rb") as f:
        return read_po(f, locale="nl")


def test_every_text_is_translated() -> None:
    catalog = read_catalog(PO)
    untranslated = [m.id for m in catalog if m.id and not m.string]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert untranslated == [] and fuzzy == []
    for m in catalog:  # placeholders are kept (each plural form keeps its source's)
        if not m.id or "{" not in str(m.id):
            continue
        if isinstance(m.id, tuple):
            pairs = [(m.id[0], m.string[0])] + [(m.id[1], form) for form in m.string[1:]]
        else:
            pairs = [(m.id, m.string)]
        for source, translated in pairs:
            assert sorted(re.findall(r"{\w*}", source)) == sorted(
                re.findall(r"{\w*}", translated)
            ), (source, translated)


def _mo_messages(data: bytes) -> dict[object, object]:
    """A compiled catalogue's messages, the header without its ``Generated-By`` line (the
    version of Babel that compiled it, which a newer Babel writes differently)."""
    messages: dict[object, object] = {}
    for m in read_mo(io.BytesIO(data)):
        string = m.string
        if m.id == "" and isinstance(string, str):
            string = "\n".join(
                line for line in string.splitlines() if not line.startswith("Generated-By:")
            )
        messages[m.id if isinstance(m.id, str) else tuple(m.id)] = (
            string if isinstance(string, str) else tuple(string)
        )
    return messages


def test_committed_mo_is_the_compiled_po() -> None:
    out = io.BytesIO()
    write_mo(out, read_catalog(PO))
    assert _mo_messages(MO.read_bytes()) == _mo_messages(out.getvalue()), (
        "the .mo is stale: pybabel compile -d src/mahjong_nts/i18n/locales -D mahjong_nts"
    )


def test_catalogue_holds_every_text_of_the_sources(tmp_path: Path) -> None:
    """Extract as docs/web.md says: every wrapped text is in the Dutch catalogue, and the
    catalogue has no text the sources no longer use."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
         "--no-location", "-o", str(pot), "src"],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    with pot.open("rb") as f:
        extracted = {m.id for m in read_po(f) if m.id}
    translated = {m.id for m in read_catalog(PO) if m.id}
    assert extracted, "nothing extracted: check babel.cfg"
    assert extracted - translated == set(), "pybabel update, then translate the new texts"
    assert translated - extracted == set(), "texts no source uses: pybabel update drops them"


def test_module_examples() -> None:
    import doctest

    import mahjong_nts.i18n

    result = doctest.testmod(mahjong_nts.i18n)
    assert result.attempted >= 3 and result.failed == 0
