"""The calculator, the home page: a hand's score, every item explained.

``GET /`` renders the whole page for the hand in the query (the shareable URL:
``/?hand=b123+k456+t789+EEE+C+%2BC&seat=E&round=E&from=wall&ruleset=nts-2016``), so
it works without JavaScript: the form is a GET form and each palette tile is a
submit button (``add=b3`` appends the tile).  ``GET /calc/result`` takes the same
query and answers only the result as an HTML fragment; ``static/calc.js`` fetches
it on every change and swaps it in.  The server computes everything: the hand is
read by :func:`mahjong_nts.core.notation.parse_hand` and scored through
:func:`mahjong_nts.formats.wire.score`, the function behind ``POST /api/score``,
so the page and the API answer alike.

A hand without a winning tile and with fewer than 13 tiles (a kong counting as 3)
is scored as a *partial* hand: only the sets shown (``"partial": true``).
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import ValidationError

from mahjong_nts.core.errors import InvalidWin, MahjongError
from mahjong_nts.core.hand import Hand, MeldKind
from mahjong_nts.core.notation import parse_hand
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import NUM_KINDS, Tile
from mahjong_nts.formats import wire
from mahjong_nts.formats.citations import item_citations
from mahjong_nts.formats.rulefiles import MAX_REQUEST_SPEC_CHARS, load_untrusted
from mahjong_nts.web.templating import Pages, request_language
from mahjong_nts.web.tiles import picture_file, spoken_name

__all__ = ["RULESET_CHOICES", "CalcState", "router"]

router = APIRouter(include_in_schema=False)

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
_COLUMN: Final = re.compile(r"at column (\d+)")
_FIELD_MELD: Final = re.compile(r"^melds\[(\d+)\]")
_TILE_IN_MESSAGE: Final = re.compile(
    r"(?:copies of |^)([bkt][1-9]|[ESWNFCP]|[fs][1-4])(?: is not played|:| twice|\b)"
)


@dataclasses.dataclass(frozen=True, slots=True)
class CalcState:
    """What the query says: the hand and how it was won (every value bounded)."""

    hand: str = ""
    seat: str = "E"
    round: str = "E"
    source: str = "wall"
    flags: frozenset[str] = frozenset()
    ruleset: str = wire.DEFAULT_RULESET_NAME
    house: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> tuple[CalcState, list[Problem]]:
        """The state of a query; what is out of bounds is dropped with a problem."""
        problems: list[Problem] = []

        def bounded(key: str, default: str, limit: int) -> str:
            value = query.get(key, default)
            if len(value) > limit:
                problems.append(
                    Problem(key, f"{key} is {len(value)} characters long: at most {limit}")
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
                ruleset=bounded("ruleset", wire.DEFAULT_RULESET_NAME, MAX_RULESET_CHARS),
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
    the hand's text) and ``tile`` (a token) narrow it down when known."""

    where: str
    message: str
    column: int | None = None
    tile: str | None = None

    def as_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))


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
        raise _Refused(Problem("house", f"the house rules are not valid TOML: {exc}")) from None
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


def _tile_in(message: str) -> str | None:
    found = _TILE_IN_MESSAGE.search(message)
    return found.group(1) if found else None


def _problem(exc: Exception, state: CalcState) -> Problem:
    if isinstance(exc, _Refused):
        return exc.problem
    if isinstance(exc, ValidationError):
        return Problem("hand", wire.error_message(exc))
    if isinstance(exc, wire.FieldError):
        where = _where(exc.field)
        if where == "ruleset" and state.house.strip():
            where = "house"
        return Problem(where, exc.message, tile=_tile_in(exc.message))
    message = str(exc)
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
            raise _Refused(Problem("house" if house else "ruleset", str(exc))) from None
        citations = item_citations(state.ruleset, house)
    except _Refused as exc:
        return Outcome(state, None, None, exc.problem, {}, False, None)
    if not state.hand.strip():
        return Outcome(state, _model(Hand(())), None, None, citations, False, rules)
    try:
        hand = parse_hand(state.hand)
    except MahjongError as exc:
        message = str(exc).replace(f" of {state.hand!r}", "")
        found = _COLUMN.search(message)
        column = int(found.group(1)) if found else None
        problem = Problem("hand", message, column=column, tile=_tile_in(message))
        return Outcome(state, None, None, problem, citations, False, rules)
    model = _model(hand)
    partial = wire.table_hand(hand).partial
    request: dict[str, Any] = {
        "ruleset": spec,
        "seat_wind": state.seat,
        "round_wind": state.round,
        "concealed": [t.token for t in hand.concealed],
        "melds": [
            {
                "kind": m.kind.name.lower(),
                "tiles": [t.token for t in m.tiles],
                "open": m.open,
            }
            for m in hand.melds
        ],
        "flowers": [t.token for t in hand.bonus],
        "partial": partial,
    }
    if hand.winning_tile is not None:
        request["winning_tile"] = hand.winning_tile.token
        request["win"] = {"from": state.source, **{f: True for f in state.flags}}
    try:
        answer = wire.score(wire.ScoreRequest.model_validate(request))
    except (MahjongError, ValidationError) as exc:
        return Outcome(state, model, None, _problem(exc, state), citations, partial, rules)
    return Outcome(state, model, answer, None, citations, partial, rules)


def _in_play(rules: RuleSet | None) -> dict[str, Any]:
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


def _palette(lang: str) -> list[tuple[str, list[dict[str, str]]]]:
    rows: list[tuple[str, list[int]]] = [
        ("bamboo", list(range(0, 9))),
        ("circles", list(range(9, 18))),
        ("characters", list(range(18, 27))),
        ("honours", list(range(27, NUM_KINDS))),
        ("bonus", list(range(NUM_KINDS, NUM_KINDS + 8))),
    ]
    return [
        (
            key,
            [
                {
                    "token": Tile(t).token,
                    "src": "/static/" + picture_file(Tile(t)),
                    "name": spoken_name(Tile(t), lang),
                }
                for t in tiles
            ],
        )
        for key, tiles in rows
    ]


def _tile_info(lang: str) -> dict[str, dict[str, str]]:
    return {
        Tile(t).token: {
            "src": "/static/" + picture_file(Tile(t)),
            "name": spoken_name(Tile(t), lang),
        }
        for t in Tile
    }


def _context(request: Request, outcome: Outcome) -> dict[str, Any]:
    pages: Pages = request.app.state.pages
    lang, _ = request_language(request, pages.default_language)
    in_play = _in_play(outcome.rules)
    state = outcome.state
    choices = list(RULESET_CHOICES)
    if state.ruleset not in choices:
        choices.append(state.ruleset)
    return {
        "state": state,
        "outcome": outcome,
        "answer": outcome.answer,
        "problem": outcome.problem,
        "model": outcome.model,
        "model_json": json.dumps(outcome.model),
        "problem_json": outcome.problem.as_json() if outcome.problem else "null",
        "in_play": in_play,
        "in_play_json": json.dumps(in_play),
        "share": "/?" + state.query(),
        "choices": choices,
        "sources": SOURCES,
        "flags": FLAGS,
        "tiles": _tile_info(lang),
        "palette": _palette(lang),
        "other_lang": "en" if lang == "nl" else "nl",
        "item_lang": lang,
        "meld_kinds": {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"},
        "max_hand": MAX_HAND_CHARS,
        "max_house": MAX_HOUSE_CHARS,
    }


def _answer(request: Request, template: str, **extra: Any) -> HTMLResponse:
    """The page or the fragment.  A hand that cannot be scored is still a page that
    says why (200); a query value past its bound, which the form never sends, is a
    422 whose page says which."""
    state, problems = CalcState.from_query(request.query_params)
    outcome = compute(state)
    if problems:
        outcome = dataclasses.replace(outcome, problem=problems[0])
    pages: Pages = request.app.state.pages
    return pages.render(
        request,
        template,
        status_code=422 if problems else 200,
        **extra,
        **_context(request, outcome),
    )


@router.get("/", response_class=HTMLResponse)
async def calculator(request: Request) -> HTMLResponse:
    """The calculator page for the hand in the query."""
    return _answer(request, "calc.html", active="calculator")


@router.get("/calc/result", response_class=HTMLResponse)
async def calculator_result(request: Request) -> HTMLResponse:
    """Only the result, as an HTML fragment, for ``static/calc.js``."""
    return _answer(request, "calc_result.html")
