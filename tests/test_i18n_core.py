"""The texts of the rules core and the formats in Dutch (issue 9): every error, what a
scored item counted, why an item did not count, why a hand may not go mahjong, the
citations' notes.  The core keeps them English with their templates and parameters
(core/text.py); :func:`mahjong_nts.i18n.render` says them in Dutch; English stays as it
was, byte for byte."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

import mahjong_nts.i18n as i18n
from mahjong_nts.core import errors as core_errors
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.hand import Win, WinSource
from mahjong_nts.core.notation import parse_hand
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.text import N_, Text, TextList, join
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats import gamelog, logkeys, safejson, wire
from mahjong_nts.formats.citations import PHRASES, item_citations
from mahjong_nts.formats.rulefiles import OVERLAYS, SHIPPED, load_ruleset, load_untrusted
from mahjong_nts.formats.rulesdoc import citations
from mahjong_nts.i18n import LOCALES_DIR, render, render_error

SRC = Path(__file__).resolve().parents[1] / "src" / "mahjong_nts"
PO = LOCALES_DIR / "nl" / "LC_MESSAGES" / "mahjong_nts.po"


def _catalogue() -> dict[str, str]:
    with PO.open("rb") as f:
        return {str(m.id): str(m.string) for m in read_po(f, locale="nl") if m.id}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _templates(folder: str) -> set[str]:
    """The templates marked N_ (and other gettext keywords) in a source folder, as
    ``pybabel extract`` collects them."""
    found = extract_from_dir(str(SRC / folder), method_map=[("**.py", "python")])
    return {msgid for _file, _line, msgid, _comments, _context in found if isinstance(msgid, str)}


# --------------------------------------------------------------------------- the catalogue


@pytest.mark.parametrize("folder", ["core", "formats"])
def test_every_template_of_core_and_formats_has_dutch(folder: str) -> None:
    """Every template the core and the formats mark is in the Dutch catalogue, with a
    translation that uses exactly the same fields (a field the English has and the
    Dutch lacks, or one the Dutch invents, would lose or break a value)."""
    templates = _templates(folder)
    assert len(templates) > (250 if folder == "core" else 150)
    nl = _catalogue()
    missing = sorted(t for t in templates if not nl.get(t))
    assert missing == [], "no Dutch for: " + "; ".join(missing[:10])
    for template in templates:
        assert _fields(nl[template]) == _fields(template), template
        assert (
            nl[template] != template
            or not re.search(r"[a-z]{4}", template)
            or (template in _SAME_IN_DUTCH)
        ), f"not translated: {template!r}"


_SAME_IN_DUTCH = {
    "chow",
    "pung",
    "kong",
    "{n} chows: {sets}",
    "{n} kongs: {sets}",
    "{n} pungs: {sets}",
    "{problem} {where}",
    "{set} (open)",
    "{tile}, {how}",
    "ruleset: {problem}",
    "{field} is {seat}",
    "{field}: {message}",
    "{spec}: {problem}",
    "{where}: base = {base}: {problem}",
    "{where}: {why}",
}
"""Templates whose Dutch is the English: only fields, notation or words Dutch borrows."""


_ERRORS = {
    name
    for module in (core_errors, wire, gamelog, logkeys, safejson)
    for name, value in vars(module).items()
    if isinstance(value, type) and issubclass(value, MahjongError)
}
_MESSAGE_ARG = {"FieldError": 1, "LogFormatError": 1, "LogMismatch": 3}
"""Where the message is among an error's arguments: FieldError(field, message),
LogFormatError(line, message), LogMismatch(line, expected, found, why): the expected
and found parts of a LogMismatch say what a log line holds in the log's own words
("prev 3fa1...", "round_wind F"), so only its why is a sentence."""


def _messages() -> Iterator[tuple[str, int, str, ast.expr]]:
    """Every message given to an error of the package (raised or made) and every text
    made, in core/ and formats/."""
    for folder in ("core", "formats"):
        for path in sorted((SRC / folder).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = _name(node.func)
                if name in _ERRORS or name == "Text":
                    at = _MESSAGE_ARG.get(name, 0)
                    if len(node.args) > at:
                        yield f"{folder}/{path.name}", node.lineno, name, node.args[at]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _marked(arg: ast.expr) -> bool:
    """A message that a translation can reach: a template marked ``N_(...)``, a text
    built elsewhere (a name, ``exc.text``, a helper's result), a choice of those; never
    an f-string, a bare literal or ``str(...)`` of something."""
    if isinstance(arg, ast.JoinedStr | ast.BinOp):
        return False
    if isinstance(arg, ast.Constant):
        return not isinstance(arg.value, str) or arg.value == ""
    if isinstance(arg, ast.IfExp):
        return _marked(arg.body) and _marked(arg.orelse)
    if isinstance(arg, ast.BoolOp):
        return all(_marked(v) for v in arg.values)
    if isinstance(arg, ast.Call):
        return _name(arg.func) != "str"
    return True


def test_every_error_of_core_and_formats_is_raised_with_a_template() -> None:
    found = list(_messages())
    assert len(found) > 300
    assert {name for _, _, name, _ in found} >= {"InvalidTile", "InvalidRuleSet", "FieldError"}
    bad = [
        f"{file}:{line} {name}"
        for file, line, name, arg in found
        if not _marked(arg) and (file, name) != ("core/errors.py", "Text")
    ]  # (MahjongError.text makes a text of a message someone gave as a plain str)
    assert bad == []


# --------------------------------------------------------------------------- rendering


def _error(fn: Any) -> MahjongError:
    with pytest.raises(MahjongError) as caught:
        fn()
    return caught.value


@pytest.mark.parametrize(
    ("make", "english", "dutch"),
    [
        (
            lambda: parse_hand("b123 WWW CCC b23 b55 X +b4"),
            "unknown tile 'X' at column 22 of 'b123 WWW CCC b23 b55 X +b4'; tiles are written",
            "onbekende steen 'X' in kolom 22 van 'b123 WWW CCC b23 b55 X +b4'; stenen schrijf je",
        ),
        (
            lambda: parse_hand("b1 b1 [b111]"),
            "5 copies of b1 (2 concealed, 3 in melds): there are only 4 of each tile",
            "5 exemplaren van b1 (2 dicht, 3 in combinaties): er zijn maar 4 van elke steen",
        ),
        (
            lambda: parse_hand("b12 [b124]"),
            "b1 b2 b4 is not a chow, pung or kong at column 5 of 'b12 [b124]'",
            "b1 b2 b4 is geen chow, pung of kong in kolom 5 van 'b12 [b124]'",
        ),
        (
            lambda: parse_hand("b123 WWW CCC b23 b55 b4").check_size(False),
            "a non-winning hand has 13 tiles (a kong counting as 3), this one has 14",
            "een hand zonder mahjong heeft 13 stenen (een kong telt als 3), deze heeft er 14",
        ),
        (
            lambda: Win(WinSource.DISCARD, last_tile=True),
            "last_tile (the last tile of the wall) needs from=wall, not from=discard",
            "last_tile (de laatste steen van de muur) hoort bij from=wall, niet bij from=discard",
        ),
        (
            lambda: load_untrusted("nts-2017"),
            "unknown rule set 'nts-2017' (did you mean 'nts-2016'?); shipped:",
            "onbekende spelregels 'nts-2017' (bedoel je 'nts-2016'?); meegeleverd:",
        ),
        (
            lambda: load_untrusted("flowers"),
            "'flowers': 'flowers' is an overlay, not a complete rule set;",
            "'flowers': 'flowers' is een aanvulling, geen volledige spelregels;",
        ),
        (
            lambda: RuleSet.from_mapping({"name": "x", "scoring": 3}, "club.toml"),
            "club.toml: [scoring] must be a table, not 3",
            "club.toml: [scoring] moet een tabel zijn, niet 3",
        ),
        (
            lambda: wire.check_score(-1, "scores[2]"),
            "scores[2]: a score is a whole number 0-",
            "scores[2]: een score is een geheel getal 0-",
        ),
        (
            lambda: safejson.loads('{"a": 1, "a": 2}', max_bytes=100),
            "duplicate key 'a' in an object",
            "sleutel 'a' staat twee keer in een object",
        ),
        (
            lambda: gamelog.parse_hand_log(b"\n"),
            "line 1: empty line",
            "regel 1: lege regel",
        ),
    ],
)
def test_real_errors_in_dutch_and_english(make: Any, english: str, dutch: str) -> None:
    error = _error(make)
    assert english in str(error)
    assert render(error.text, "en") == str(error)  # English: the message as it always was
    said = render_error(error, "nl")
    assert said is not None and dutch in said
    assert english not in said


WON_ON_A_DISCARD = "b123 WWW CCC b23 b55 +b4"
"""The brief's hand: b123 b234 WWW CCC b55, b4 claimed (South, round East, nts-2016).
Points: mahjong 20 + two concealed pungs of honours 2 x 8 = 36; doublings: the dragon
pung 1 and a clean hand (bamboo with honours) 1; 36 x 2^2 = 144.  b4 was not the only
tile (b1 also completes b23 to b123), W is neither the seat (S) nor the round wind (E),
and a claimed tile makes no fully concealed hand."""


def _scored(notation: str, seat: Tile, win: Win | None) -> Any:
    return score_hand(
        parse_hand(notation), Situation(seat, Tile.EAST, win), load_ruleset("nts-2016")
    )


def test_details_and_reasons_in_dutch() -> None:
    result = _scored(WON_ON_A_DISCARD, Tile.SOUTH, Win(WinSource.DISCARD))
    assert result.score == 144 and result.points == 36 and result.doublings == 2
    details = {it.id: it.detail for it in result.items}
    assert details["mahjong"] == "b4, claimed from a discard"
    assert render(details["mahjong"], "nl") == "b4, van de tafel geclaimd"
    assert details["pung_major_concealed"] == "pung of W (concealed), pung of C (concealed)"
    assert render(details["pung_major_concealed"], "nl") == "pung van W (dicht), pung van C (dicht)"
    assert render(details["clean_suit"], "nl") == "bamboe met winden en draken"
    reasons = {n.id: n.reason for n in result.not_counted}
    assert reasons["only_possible_tile"] == (
        "b4 was not the only tile that completed the hand: b1 also did"
    )
    assert render(reasons["only_possible_tile"], "nl") == (
        "b4 was niet de enige steen die de hand afmaakte: b1 ook"
    )
    assert render(reasons["pung_own_wind"], "nl") == (
        "pung van W: een pung winden telt alleen voor de eigen wind (S) of de rondewind (E)"
    )
    assert render(reasons["fully_concealed"], "nl").startswith("b4 was van de tafel geclaimd:")


def test_a_refusal_in_dutch() -> None:
    # b123 b456 k789 t111 t55, t5 claimed by West: three suits, a chow and a pung, no
    # honours: not one doubling (nts-2016 2.4.2), and mahjong needs two (1.8)
    result = _scored("b123 b456 k789 t111 t5 +t5", Tile.WEST, Win(WinSource.DISCARD))
    assert result.mahjong_allowed is False and result.doublings == 0
    assert result.refusal == "0 doublings: a mahjong needs at least 2"
    assert render(result.refusal, "nl") == "0 verdubbelingen: voor mahjong zijn er minstens 2 nodig"


def test_list_separators_are_translated() -> None:
    others = join(Text(N_(" and ")), ["b1", "b4"])
    assert others == "b1 and b4"
    assert render(others, "nl") == "b1 en b4"


def test_a_plain_string_is_looked_up_whole() -> None:
    # a remise reason read back from a hand log is plain English
    assert render("the live wall is exhausted", "nl") == "de levende muur is op"
    assert render("no such text in the catalogue", "nl") == "no such text in the catalogue"
    assert render("", "nl") == ""
    assert render(12, "nl") == "12"
    assert render_error(ValueError("x"), "nl") is None


# --------------------------------------------------------------------------- never raises


class _Garbled:
    """A catalogue whose every translation is ``text``: a typo'd field, a brace too many."""

    def __init__(self, text: str) -> None:
        self.text = text

    def gettext(self, message: str) -> str:
        return self.text


_TEMPLATES = sorted(_templates("core") | _templates("formats"))


@st.composite
def texts(draw: st.DrawFn, depth: int = 0) -> Text | TextList:
    """A text from a real template with drawn values for its fields (some of them
    texts themselves), or a list of such."""
    if depth < 2 and draw(st.integers(0, 5)) == 0:
        return join(
            draw(st.sampled_from([", ", Text(N_(" and "))])),
            draw(st.lists(texts(depth + 1), max_size=3)),
        )
    template = draw(st.sampled_from(_TEMPLATES))
    values: dict[str, Any] = {}
    for name in _fields(template):
        if depth < 2 and draw(st.booleans()):
            values[name] = draw(texts(depth + 1))
        else:
            values[name] = draw(st.one_of(st.integers(-(10**6), 10**12), st.text(max_size=12)))
    try:
        return Text(template, **values)
    except (ValueError, TypeError):  # a format spec (":,", ":.0f") that the value does not take
        return Text(template, **{name: 1 for name in values})


@settings(max_examples=300)
@given(texts())
def test_rendering_a_text_never_raises(text: Text | TextList) -> None:
    said = render(text, "nl")
    assert isinstance(said, str)
    assert render(text, "en") == str(text)


@settings(max_examples=300)
@given(
    texts(),
    st.lists(
        st.sampled_from([*"{}!:.,0srax_ abc", "{tile}", "{n:,}", "{x.y}", "{0}", "{w}"]),
        max_size=12,
    ).map("".join),
)
def test_a_garbled_translation_falls_back_to_english(
    text: Text | TextList, translation: str
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "translator", lambda lang: _Garbled(translation))
        said = render(text, "nl")
    assert isinstance(said, str)


@settings(max_examples=400)
@given(st.text(alphabet=st.sampled_from(list("bktfsESWNOZFCP0123456789[]()+ xX🀐")), max_size=30))
def test_any_notation_error_renders_in_dutch(notation: str) -> None:
    try:
        hand = parse_hand(notation)
        hand.check_size(hand.winning_tile is not None)
    except MahjongError as exc:
        said = render_error(exc, "nl")
        assert isinstance(said, str) and said
        assert render(exc.text, "en") == str(exc)


@settings(max_examples=200)
@given(
    st.dictionaries(
        st.sampled_from(["name", "table", "scoring", "points", "doublings", "limit_hands", "x"]),
        st.one_of(
            st.integers(-3, 3),
            st.text(max_size=5),
            st.dictionaries(st.text(max_size=8), st.integers(-1, 5), max_size=3),
        ),
        max_size=5,
    )
)
def test_any_rule_set_error_renders_in_dutch(data: dict[str, Any]) -> None:
    try:
        RuleSet.from_mapping(data, "club.toml")
    except MahjongError as exc:
        said = render_error(exc, "nl")
        assert isinstance(said, str) and said.startswith("club.toml")


# --------------------------------------------------------------------------- citations

_ENGLISH = re.compile(
    r"\b(the|for|only|winner|waiting|value|claimed|once|twice|times|page|notes|sheet|"
    r"decision|ruling|every|here|except|after|too|exact|receives|each|other|same|cap|"
    r"points|doublings|hands|rounds|suit|honours|terminals|dragons|winds|with|book|"
    r"allowed|concealed|legible|pays|side|copy|house|rules|not|no|or|one|as|at|on)\b"
)


def _all_citations() -> Iterator[str]:
    for name in SHIPPED:
        yield from citations(name).values()
        yield from item_citations(name).values()
    for overlay in OVERLAYS:
        yield from citations(f"nts-2016+{overlay}").values()
        yield from item_citations(f"nts-2016+{overlay}").values()
    yield from item_citations("nts-2016", {"points": {"mahjong": 30}}).values()


def test_a_dutch_citation_has_no_english_note_left() -> None:
    """Outside the book's quotes a Dutch citation is Dutch: the English notes of the rule
    files are all among the phrases said in Dutch (a new comment needs its phrase)."""
    left = set()
    for citation in _all_citations():
        dutch = render(citation, "nl")
        assert render(citation, "en") == citation  # English: as the rule file says it
        outside = re.sub(r'"[^"]*"', "", dutch)
        outside = re.sub(
            r"\b(three-players|five-players|nts-2002|nts-2016|nmb-2009)\b", "", outside
        )
        left.update(m.group() for m in _ENGLISH.finditer(outside))
    assert left == set()


def test_every_phrase_is_found_in_a_citation() -> None:
    """No phrase is kept for a note no rule file has any more."""
    used: set[str] = set()

    def walk(text: object) -> None:
        if isinstance(text, TextList):
            for part in text.parts:
                walk(part)
        elif isinstance(text, Text):
            used.add(text.template)

    for citation in _all_citations():
        walk(citation)
    assert set(PHRASES) - used == set()


def test_rendering_is_bounded_in_depth() -> None:
    """A text nested deeper than MAX_RENDER_DEPTH is said in English from there on (the
    core nests at most four; a deeper one is not ours, and no input makes it recurse)."""
    text: Text = Text(N_("the hand is over"))
    for _ in range(i18n.MAX_RENDER_DEPTH + 5):
        text = Text(N_("{problem} {where}"), problem=text, where="")
    said = render(text, "nl")
    assert said.startswith("the hand is over")  # the innermost, past the bound: English
    shallow = Text(N_("{problem} {where}"), problem=Text(N_("the hand is over")), where="")
    assert render(shallow, "nl").startswith("de hand is afgelopen")
