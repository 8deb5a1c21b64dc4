"""The calculator's result for a query: read the hand, score it, render the fragment.

``render_fragment(query, lang)`` gives the HTML of ``GET /calc/result`` for a query
string such as ``hand=b123+k456+t789+EEE+C+%2BC&seat=E&round=E&from=wall&ruleset=nts-2016``.
The hand is read by :func:`mahjong_nts.core.notation.parse_hand` and scored by
:func:`mahjong_nts.formats.scorejob.score`, the conversion behind ``POST /api/score``
(the API validates its JSON with pydantic first; here the request is built in code,
its values of the right types by construction), so the page and the API answer alike.
The same function runs on the server and, offline, in the browser (Pyodide): one
code path, one template, one catalogue, so both give the same bytes.

A hand without a winning tile and with fewer than 13 tiles (a kong counting as 3)
is scored as a *partial* hand: only the sets shown (``"partial": true``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode

import jinja2

from mahjong_nts.core.errors import InvalidWin, MahjongError
from mahjong_nts.core.hand import Hand, MeldKind
from mahjong_nts.core.notation import parse_hand
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.text import N_, Text, find_param
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats import scorejob
from mahjong_nts.formats.citations import item_citations
from mahjong_nts.formats.rulefiles import MAX_REQUEST_SPEC_CHARS, load_untrusted
from mahjong_nts.i18n import Language, language, render, translator

__all__ = [
    "FLAGS",
    "JINJA_OPTIONS",
    "MAX_HAND_CHARS",
    "MAX_HOUSE_CHARS",
    "MAX_RULESET_CHARS",
    "RULESET_CHOICES",
    "SOURCES",
    "TEMPLATES_DIR",
    "WIND_TOKENS",
    "CalcState",
    "Outcome",
    "Problem",
    "compute",
    "fragment_context",
    "in_play",
    "render_fragment",
]

TEMPLATES_DIR: Final = Path(__file__).resolve().parent / "templates"
"""``calc_result.html``; the web pages' loader searches it too (``calc.html`` includes it)."""

JINJA_OPTIONS: Final[Mapping[str, Any]] = {
    "autoescape": jinja2.select_autoescape(["html"]),
    "extensions": ["jinja2.ext.i18n"],
    "undefined": jinja2.StrictUndefined,
    "auto_reload": False,
    "trim_blocks": True,
    "lstrip_blocks": True,
}
"""How every template of the app is read (``web.templating.Pages`` uses these too)."""

FRAGMENT: Final = "calc_result.html"

MAX_HAND_CHARS: Final = 300
"""The hand's notation in the query (18 tiles with brackets, in glyphs, fit)."""
MAX_HOUSE_CHARS: Final = 2000
"""House rules pasted as TOML text (they travel in the share URL)."""
MAX_RULESET_CHARS: Final = MAX_REQUEST_SPEC_CHARS
"""A rule set spec in the query, as in a score request."""

RULESET_CHOICES: Final = (
    "nts-2016",
    "nts-2016+flowers",
    "nts-2002",
    "nts-2002+flowers",
    "nmb-2009",
    "nmb-2009+flowers",
    "nmb-2009+three-players",
    "nmb-2009+five-players",
    "rode-draak",
)
SOURCES: Final = ("wall", "discard", "loose_tile", "robbed_kong")
FLAGS: Final = (
    "last_tile",
    "last_discard",
    "kong_on_kong",
    "first_discard",
    "heaven",
    "lucky_thirteen",
)
WIND_TOKENS: Final = ("E", "S", "W", "N")
_FIELD_MELD: Final = re.compile(r"^melds\[(\d+)\]")


@dataclasses.dataclass(frozen=True, slots=True)
class CalcState:
    """What the query says: the hand and how it was won (every value bounded)."""

    hand: str = ""
    seat: str = "E"
    round: str = "E"
    source: str = "wall"
    flags: frozenset[str] = frozenset()
    ruleset: str = scorejob.DEFAULT_RULESET_NAME
    house: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> tuple[CalcState, list[Problem]]:
        """The state of a query; what is out of bounds is dropped with a problem."""
        problems: list[Problem] = []

        def bounded(key: str, default: str, limit: int) -> str:
            value = query.get(key, default)
            if len(value) > limit:
                problems.append(
                    Problem(
                        key,
                        Text(
                            N_("{key} is {count} characters long: at most {most}"),
                            key=key,
                            count=len(value),
                            most=limit,
                        ),
                    )
                )
                return default
            return value

        hand = bounded("hand", "", MAX_HAND_CHARS)
        add = query.get("add", "")
        if add and len(add) <= 3 and len(hand) + len(add) < MAX_HAND_CHARS:
            hand = f"{hand} {add}".strip()
        seat = query.get("seat", "E")
        rnd = query.get("round", "E")
        source = query.get("from", "wall")
        return (
            cls(
                hand=hand,
                seat=seat if seat in WIND_TOKENS else "E",
                round=rnd if rnd in (*WIND_TOKENS, "F") else "E",
                source=source if source in SOURCES else "wall",
                flags=frozenset(f for f in FLAGS if query.get(f) in ("1", "on", "true")),
                ruleset=bounded("ruleset", scorejob.DEFAULT_RULESET_NAME, MAX_RULESET_CHARS),
                house=bounded("house", "", MAX_HOUSE_CHARS),
            ),
            problems,
        )

    def query(self) -> str:
        """The share URL's query: what differs from the defaults."""
        pairs: list[tuple[str, str]] = [("hand", self.hand)] if self.hand else []
        pairs += [("seat", self.seat), ("round", self.round), ("from", self.source)]
        pairs += [(f, "1") for f in FLAGS if f in self.flags]
        pairs.append(("ruleset", self.ruleset))
        if self.house.strip():
            pairs.append(("house", self.house))
        return urlencode(pairs)


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """Why a hand could not be scored, and where: ``where`` is ``hand`` (the text
    field), ``loose`` (the concealed tiles), ``meld:N``, ``bonus``, ``winning``,
    ``seat``, ``round``, ``from``, ``ruleset`` or ``house``; ``column`` (1-based, in
    the hand's text) and ``tile`` (a token) narrow it down when known.  ``message`` is
    English (a core :class:`~mahjong_nts.core.text.Text`): the page says it in its
    language."""

    where: str
    message: str
    column: int | None = None
    tile: str | None = None

    def as_json(self, lang: str = "en") -> str:
        return json.dumps({**dataclasses.asdict(self), "message": render(self.message, lang)})


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """Everything the result shows."""

    state: CalcState
    model: dict[str, Any] | None
    answer: dict[str, Any] | None
    problem: Problem | None
    citations: dict[str, str]
    partial: bool
    rules: RuleSet | None


def _model(hand: Hand) -> dict[str, Any]:
    """The hand as the page's editor holds it (tokens, the winning tile apart)."""
    loose = list(hand.concealed)
    if hand.winning_tile is not None:
        loose.remove(hand.winning_tile)
    return {
        "loose": [t.token for t in loose],
        "winning": hand.winning_tile.token if hand.winning_tile is not None else None,
        "melds": [{"tiles": [t.token for t in m.tiles], "open": m.open} for m in hand.melds],
        "bonus": [t.token for t in hand.bonus],
    }


def _rules_value(state: CalcState) -> tuple[str | dict[str, Any], dict[str, Any] | None]:
    """The request's ``ruleset``: the spec, or the house rules over it."""
    if not state.house.strip():
        return state.ruleset, None
    try:
        house = tomllib.loads(state.house)
    except tomllib.TOMLDecodeError as exc:
        raise _Refused(
            Problem(
                "house", Text(N_("the house rules are not valid TOML: {error}"), error=str(exc))
            )
        ) from None
    house.setdefault("base", state.ruleset)
    return house, house


class _Refused(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _where(field: str) -> str:
    meld = _FIELD_MELD.match(field)
    if meld:
        return f"meld:{meld.group(1)}"
    return {
        "concealed": "loose",
        "flowers": "bonus",
        "winning_tile": "winning",
        "win": "from",
        "partial": "winning",
        "seat_wind": "seat",
        "round_wind": "round",
        "ruleset": "ruleset",
    }.get(field.split(".")[0], "loose")


def _tile_in(message: object) -> str | None:
    """The tile a core error names as the wrong one: its ``tile`` parameter."""
    found = find_param(message, "tile")
    return found if isinstance(found, str) else None


def _column_in(message: object) -> int | None:
    """The column (1-based) of the hand's text a notation error points at."""
    found = find_param(message, "column")
    return found if isinstance(found, int) else None


def _without_hand(message: Text, hand: str) -> Text:
    """A notation error without the hand's text after its column (``at column 5``,
    not ``at column 5 of 'b123 ...'``): the field beside it shows the hand."""
    where = message.params.get("where")
    if isinstance(where, Text) and where.params.get("text") == hand:
        short = Text(N_("at column {column}"), column=where.params["column"])
        return Text(message.template, **{**message.params, "where": short})
    return message


def _problem(exc: Exception, state: CalcState) -> Problem:
    if isinstance(exc, _Refused):
        return exc.problem
    if isinstance(exc, scorejob.FieldError):
        where = _where(exc.field)
        if where == "ruleset" and state.house.strip():
            where = "house"
        return Problem(where, exc.message, tile=_tile_in(exc.message))
    message = exc.text if isinstance(exc, MahjongError) else str(exc)
    if isinstance(exc, InvalidWin):
        return Problem("from", message)
    return Problem("loose", message, tile=_tile_in(message))


def compute(state: CalcState) -> Outcome:
    """Read and score the state's hand; a :class:`Problem` for what is wrong."""
    rules: RuleSet | None = None
    try:
        spec, house = _rules_value(state)
        try:
            rules = load_untrusted(spec)
        except MahjongError as exc:
            raise _Refused(Problem("house" if house else "ruleset", exc.text)) from None
        citations = item_citations(state.ruleset, house)
    except _Refused as exc:
        return Outcome(state, None, None, exc.problem, {}, False, None)
    if not state.hand.strip():
        return Outcome(state, _model(Hand(())), None, None, citations, False, rules)
    try:
        hand = parse_hand(state.hand)
    except MahjongError as exc:
        message = _without_hand(exc.text, state.hand)
        problem = Problem("hand", message, column=_column_in(message), tile=_tile_in(message))
        return Outcome(state, None, None, problem, citations, False, rules)
    model = _model(hand)
    partial = scorejob.table_hand(hand).partial
    if len(hand.melds) > scorejob.MAX_MELDS:
        # the bound of a score request's melds, in the words the API's answer uses
        problem = Problem(
            "hand",
            Text(
                N_("melds: expected at most {most} items, got {count}"),
                most=scorejob.MAX_MELDS,
                count=len(hand.melds),
            ),
        )
        return Outcome(state, model, None, problem, citations, partial, rules)
    winning = hand.winning_tile
    request = scorejob.ScoreSpec(
        ruleset=spec,
        seat_wind=state.seat,
        round_wind=state.round,
        concealed=[t.token for t in hand.concealed],
        melds=tuple(
            scorejob.MeldSpec(m.kind.name.lower(), [t.token for t in m.tiles], m.open)
            for m in hand.melds
        ),
        flowers=[t.token for t in hand.bonus],
        winning_tile=winning.token if winning is not None else None,
        win=(
            scorejob.WinSpec(state.source, **{f: True for f in state.flags})
            if winning is not None
            else None
        ),
        partial=partial,
    )
    try:
        answer = scorejob.score(request)
    except MahjongError as exc:
        return Outcome(state, model, None, _problem(exc, state), citations, partial, rules)
    return Outcome(state, model, answer, None, citations, partial, rules)


def in_play(rules: RuleSet | None) -> dict[str, Any]:
    """Which tiles and options the rule set has: the palette and the form follow it."""
    if rules is None:
        return {"absent": [], "flowers": False, "lucky": False, "winds": list(WIND_TOKENS)}
    table = rules.table
    absent = [
        Tile(base + i).token
        for letter, base in (("b", 0), ("k", 9), ("t", 18))
        if letter not in table.suits
        for i in range(9)
    ]
    absent += [w for w in WIND_TOKENS if w not in table.winds]
    return {
        "absent": absent,
        "flowers": bool(table.flowers),
        "lucky": "lucky_thirteen" in rules.scoring.doublings,
        "winds": [w for w in WIND_TOKENS if w in table.winds],
    }


def fragment_context(outcome: Outcome, lang: Language) -> dict[str, Any]:
    """What ``calc_result.html`` shows of ``outcome``, in ``lang`` (the page's
    template, which includes the fragment, adds its own values to these)."""
    info = in_play(outcome.rules)
    return {
        "state": outcome.state,
        "outcome": outcome,
        "answer": outcome.answer,
        "problem": outcome.problem,
        "model": outcome.model,
        "model_json": json.dumps(outcome.model),
        "problem_json": outcome.problem.as_json(lang) if outcome.problem else "null",
        "in_play": info,
        "in_play_json": json.dumps(info),
        "share": "/?" + outcome.state.query(),
        "item_lang": lang,
        "meld_kinds": {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"},
    }


@functools.cache
def _environment(lang: Language) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES_DIR), **JINJA_OPTIONS)
    env.install_gettext_translations(translator(lang), newstyle=True)  # type: ignore[attr-defined]
    env.filters["tr"] = functools.partial(render, lang=lang)
    return env


def outcome_of(query: Mapping[str, str]) -> tuple[Outcome, bool]:
    """The outcome of a query's values, and whether a value was past its bound (then
    the outcome's problem says which, and the HTTP answer is 422)."""
    state, problems = CalcState.from_query(query)
    outcome = compute(state)
    if problems:
        outcome = dataclasses.replace(outcome, problem=problems[0])
    return outcome, bool(problems)


def render_fragment(query: str, lang: str) -> tuple[int, str]:
    """The status (200, or 422 when a value is past its bound) and the HTML of the
    result for ``query``, a URL's query string (``hand=CCC&seat=S``; a key given
    twice counts with its last value, as the server reads it), in ``lang`` (``nl`` or
    ``en``; any other is English)."""
    outcome, refused = outcome_of(dict(parse_qsl(query, keep_blank_values=True)))
    chosen: Language = language(lang) or "en"
    html = _environment(chosen).get_template(FRAGMENT).render(**fragment_context(outcome, chosen))
    return (422 if refused else 200), html
