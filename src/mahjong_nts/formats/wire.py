"""The JSON contract: request and response models for ``score`` and ``settle``.

Requests are validated with pydantic (unknown fields are refused, types are
strict) and then turned into core values; every problem comes back as one line
that names the field, e.g. ``melds[1].tiles: b1 b2 b4 is not a chow, pung or
kong``.  The framing (one JSON object per line) lives in :func:`handle_score_line`
and :func:`handle_settle_line`, which never raise: a bad line is answered with
``{"error": "..."}``.  :func:`answer_score_line` and :func:`answer_settle_line`
also write the answer as its JSON line inside the same guard, and
:func:`read_lines` reads request lines from a stream without ever holding more
than :data:`MAX_LINE_BYTES` of one.  See ``docs/json.md``.

Bounds (each has a clear error past it): a request line is at most
:data:`MAX_LINE_BYTES` bytes, parsed by :func:`mahjong_nts.formats.safejson.loads`
(no duplicate keys, at most 80 digits in a number, nesting at most 16 deep); an
error message is at most :data:`MAX_ERROR_CHARS` characters.

What follows the validation of a score request (reading it into core values,
scoring, the answer) is :mod:`mahjong_nts.formats.scorejob`, which needs no
pydantic; its names are re-exported here.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import IO, Annotated, Any, Final, Literal, TypedDict

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from mahjong_nts.core import rules as core_rules
from mahjong_nts.core.errors import MahjongError, quote
from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.text import N_, Text
from mahjong_nts.core.tiles import WINDS, Tile
from mahjong_nts.formats import safejson
from mahjong_nts.formats.scorejob import (
    DEFAULT_RULESET_NAME,
    MAX_ERROR_CHARS,
    MAX_MELDS,
    FieldError,
    ScoreJob,
    Tiles,
    _hand,
    _rules,
    load_rules,
    parse_wind,
    run_score,
    score,
    score_request,
    score_response,
    seat_wind,
    short_message,
    short_text,
    table_hand,
)

__all__ = [
    "DEFAULT_RULESET_NAME",
    "MAX_ERROR_CHARS",
    "MAX_LINE_BYTES",
    "MAX_MELDS",
    "MAX_ROUND_TO",
    "MAX_SEATS",
    "FieldError",
    "LineTooLong",
    "MeldRequest",
    "ScoreJob",
    "ScoreRequest",
    "Seats",
    "SettleRequest",
    "WinRequest",
    "answer_score_line",
    "answer_settle_line",
    "check_round_to",
    "check_score",
    "check_seat",
    "check_seats",
    "error_line",
    "error_message",
    "handle_score_line",
    "handle_settle_line",
    "hands_job",
    "load_rules",
    "parse_wind",
    "read_lines",
    "run_score",
    "score",
    "score_request",
    "score_response",
    "scores_job",
    "seat_wind",
    "settle_request",
    "settle_round_wind",
    "short_message",
    "short_text",
    "table_hand",
    "table_seats",
]

MAX_LINE_BYTES: Final = 64 * 1024
"""Bytes in one request line (the newline not counted).  A settle request with
five hands takes about 2 KB; the rest is room for inline house rules."""

MAX_ROUND_TO: Final = 1000
"""The largest ``round_to``: rounding to more would make nearly every hand 0."""

MAX_SEATS: Final = 5
"""Seats at a table: three, four, or five (four playing and the dreamer)."""

SEAT_NAMES_EN = ("East", "South", "West", "North")
_SEAT_NAMES: Final = (Text(N_("East")), Text(N_("South")), Text(N_("West")), Text(N_("North")))


# --------------------------------------------------------------------------- models


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class MeldRequest(_Model):
    kind: Literal["chow", "pung", "kong"]
    tiles: Tiles
    open: bool = True


class WinRequest(_Model):
    source: Literal["wall", "discard", "loose_tile", "robbed_kong"] = Field(
        default="wall", alias="from"
    )
    last_tile: bool = False
    last_discard: bool = False
    kong_on_kong: bool = False
    first_discard: bool = False
    heaven: bool = False
    lucky_thirteen: bool = False


def _ruleset_value(value: Any) -> str | dict[str, Any]:
    if isinstance(value, str | dict):
        return value
    raise PydanticCustomError(
        "ruleset_type",
        "expected a shipped rule set name (e.g. 'nmb-2009+flowers') or house rules as an object",
    )


RulesetField = Annotated[
    str | dict[str, Any],
    PlainValidator(_ruleset_value),
    WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "object"}]}),
]
"""A request's rule set: a shipped name with overlays (``"nmb-2009+flowers"``) or
house rules inline as an object (``{"base": "nts-2016", "scoring": {...}}``); never
a file (see :func:`load_rules`)."""


class ScoreRequest(_Model):
    ruleset: RulesetField = DEFAULT_RULESET_NAME
    seat_wind: str
    round_wind: str
    concealed: Tiles
    melds: list[MeldRequest] = Field(default=[], max_length=MAX_MELDS)
    flowers: Tiles = ""
    winning_tile: str | None = None
    win: WinRequest | None = None
    dead: bool = False
    partial: bool = False


class HandRequest(_Model):
    """A score request inside a settle request: the seat wind follows from the
    hand's index and ``east``, the round wind and rule set from the settle request."""

    ruleset: RulesetField | None = None
    seat_wind: str | None = None
    round_wind: str | None = None
    concealed: Tiles
    melds: list[MeldRequest] = Field(default=[], max_length=MAX_MELDS)
    flowers: Tiles = ""
    winning_tile: str | None = None
    win: WinRequest | None = None
    dead: bool = False
    partial: bool = False


Seat = int
"""A seat index: 0-2, 0-3 or 0-4 as the rule set seats three, four, or five with
a dreamer; checked against the rule set by :func:`check_seats` (booleans are
refused: strict mode)."""


class SettleRequest(_Model):
    ruleset: RulesetField = DEFAULT_RULESET_NAME
    east: Seat = 0
    winner: Seat | None
    discarder: Seat | None = None
    dominant: Seat | None = None
    dreamer: Seat | None = None
    round_wind: str = "E"
    round_to: int | None = None
    scores: list[int] | None = None
    hands: list[HandRequest | None] | None = None


# --------------------------------------------------------------------------- errors


_TILES_TAGS: Final = frozenset({"str", "list[str]"})
"""What pydantic adds to the location of an error in a :data:`Tiles` field, the one
union of the requests with two members (the ``X | None`` fields add nothing)."""


def _validation_line(exc: ValidationError) -> str:
    """The most useful error of a pydantic ValidationError, as one line."""
    errors = sorted(
        exc.errors(include_url=False), key=lambda e: e["type"] != "extra_forbidden"
    )  # unknown fields first
    seen: dict[str, str] = {}
    for err in errors:
        kind = err["type"]
        parts = list(err["loc"])
        if kind != "extra_forbidden":
            # a Tiles error comes once per member ("concealed.str", "concealed.list[str]"):
            # drop the member and report the field once (an unknown key is never a member)
            parts = [p for p in parts if p not in _TILES_TAGS]
        where = safejson.field_path(parts) or "request"
        if kind == "extra_forbidden":
            msg = "unknown field"
        elif kind == "missing":
            msg = "required field is missing"
        elif kind == "too_long":  # melds: the only bounded list of the models
            ctx = err.get("ctx", {})
            msg = f"expected at most {ctx.get('max_length')} items, got {ctx.get('actual_length')}"
        else:
            msg = f"{err['msg']}, got {quote(err['input'])}"
        if where in seen:  # the second member of a Tiles union
            seen[where] = (
                f"expected tiles as a string or a list of strings, got {quote(err['input'])}"
            )
            continue
        seen[where] = msg
    lines = [f"{where}: {msg}" for where, msg in seen.items()]
    if len(lines) > 3:
        lines = [*lines[:3], f"and {len(lines) - 3} more"]
    return "; ".join(lines)


def error_message(exc: BaseException) -> str:
    """One clear line for a bad request: which field and what is wrong (at most
    :data:`MAX_ERROR_CHARS` characters, see :func:`short_message`)."""
    return short_message(_error_text(exc))


def _error_text(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return _validation_line(exc)
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON at column {exc.colno}: {exc.msg}"
    if isinstance(exc, RecursionError):
        return "invalid JSON: nested too deeply"
    if isinstance(exc, UnicodeDecodeError):
        return "the line is not valid UTF-8"
    if isinstance(exc, MahjongError | ValueError):
        return str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {exc}"


# --------------------------------------------------------------------------- settle


@dataclasses.dataclass(frozen=True, slots=True)
class SettleJob:
    """A checked settle request in core values: one score per seat (0 for the
    dreamer), and with hands each seat's score response (``None`` for the dreamer)."""

    scores: tuple[int, ...]
    winner: int | None
    discarder: int | None
    east: int
    dominant: int | None
    rules: RuleSet
    hands: tuple[dict[str, Any] | None, ...] | None
    dreamer: int | None = None


_COUNT_WORDS: Final = {3: Text(N_("three")), 4: Text(N_("four")), 5: Text(N_("five"))}


def table_seats(rules: RuleSet) -> int:
    """The seats a settlement under ``rules`` has: the players of a hand (3 or 4),
    and one more for the dreamer at a table of five (``rules.table.dreamer``)."""
    return rules.table.players + (1 if rules.table.dreamer else 0)


def _table_words(rules: RuleSet) -> Text:
    if rules.table.dreamer:
        return Text(
            N_(
                "rule set {rules!r} seats five players (four play each hand, the fifth "
                "is the dreamer)"
            ),
            rules=rules.name,
        )
    return Text(
        N_("rule set {rules!r} is played by {count} players"),
        rules=rules.name,
        count=_COUNT_WORDS[table_seats(rules)],
    )


def _same(key: str) -> str:
    return key


class Seats(TypedDict):
    """Who sits where in a settlement, as :func:`check_seats`, :func:`scores_job` and
    :func:`hands_job` take them (``**seats``)."""

    winner: int | None
    discarder: int | None
    east: int
    dominant: int | None
    dreamer: int | None


def check_seats(
    rules: RuleSet,
    count: int,
    count_key: str,
    *,
    east: int,
    winner: int | None,
    discarder: int | None,
    dominant: int | None,
    dreamer: int | None,
    name: Callable[[str], str] = _same,
) -> None:
    """Check the seats of a settlement against the table of ``rules``.

    ``count`` scores or hands were given (under ``count_key``: ``"scores"`` or
    ``"hands"``); there must be one per seat (:func:`table_seats`).  Every seat
    index must be a seat; a table of five needs its dreamer, and the dreamer
    (sitting the hand out) cannot be East, win, discard or be dominant; a remise
    has no discarder; the winner is not the discarder; a dominant player exists
    only where the rule set plays green-dragon hands.  ``name(key)`` names a
    field in the error (``"winner"`` in JSON, ``"--winner"`` on the command
    line).  Raises :class:`FieldError`."""
    seats = table_seats(rules)
    if count != seats:
        raise FieldError(
            name(count_key),
            N_("{table}: give {seats} scores, got {count}")
            if count_key == "scores"
            else N_("{table}: give {seats} hands, got {count}"),
            table=_table_words(rules),
            seats=seats,
            count=count,
        )
    given = {
        "east": east,
        "winner": winner,
        "discarder": discarder,
        "dominant": dominant,
        "dreamer": dreamer,
    }
    for key, value in given.items():
        if value is not None:
            check_seat(value, seats, name(key))
    if rules.table.dreamer and dreamer is None:
        raise FieldError(
            name("dreamer"),
            N_(
                "at a table of five one player sits each hand out: give the dreamer's "
                "seat (0-{last})"
            ),
            last=seats - 1,
        )
    if not rules.table.dreamer and dreamer is not None:
        raise FieldError(
            name("dreamer"),
            N_("only a table of five has a dreamer; {table}"),
            table=_table_words(rules),
        )
    if dreamer is not None:
        for key, template in (
            ("east", N_("seat {seat} is the dreamer, who sits the hand out and cannot be East")),
            ("winner", N_("seat {seat} is the dreamer, who sits the hand out and cannot win")),
            (
                "discarder",
                N_(
                    "seat {seat} is the dreamer, who sits the hand out and cannot give the "
                    "winning tile"
                ),
            ),
            (
                "dominant",
                N_(
                    "seat {seat} is the dreamer, who sits the hand out and cannot be the "
                    "dominant player"
                ),
            ),
        ):
            if given[key] == dreamer:
                raise FieldError(name(key), template, seat=dreamer)
    if winner is None and discarder is not None:
        raise FieldError(name("discarder"), N_("a remise (no winner) has no discarder"))
    if winner is not None and discarder == winner:
        raise FieldError(name("discarder"), N_("the winner cannot be the discarder"))
    if dominant is not None and rules.table.green_dragon == "none":
        raise FieldError(
            name("dominant"),
            N_("rule set {rules!r} plays no green-dragon hand, so there is no dominant player"),
            rules=rules.name,
        )


def check_seat(value: int, seats: int, where: str) -> int:
    """A seat index at a table of ``seats`` (3, 4 or 5): 0 to ``seats - 1``."""
    if not 0 <= value < seats:
        raise FieldError(
            where,
            N_("{value} is not a seat at a table of {count} (seats 0-{last})"),
            value=value,
            count=_COUNT_WORDS[seats],
            last=seats - 1,
        )
    return value


def check_score(value: int, where: str) -> int:
    """A score: a whole number 0 to :data:`mahjong_nts.core.rules.MAX_SCORE` (FieldError
    otherwise).  That is the most a hand can score under any valid rule set (2**48), so
    every score a game reaches can be settled, and every balance (at most 8 times a
    score) stays a whole number that JavaScript holds exactly (below 2**53)."""
    if not 0 <= value <= core_rules.MAX_SCORE:
        raise FieldError(
            where,
            N_("a score is a whole number 0-{most}, got {value}"),
            most=core_rules.MAX_SCORE,
            value=value,
        )
    return value


def check_round_to(value: int, where: str) -> int:
    """A ``round_to``: a whole number 0 to :data:`MAX_ROUND_TO` (FieldError otherwise)."""
    if not 0 <= value <= MAX_ROUND_TO:
        raise FieldError(
            where,
            N_("expected a whole number 0-{most}, got {value}"),
            most=MAX_ROUND_TO,
            value=value,
        )
    return value


def _hand_job(
    req: HandRequest, i: int, sreq: SettleRequest, rules: RuleSet, round_wind: Tile
) -> ScoreJob:
    prefix = f"hands[{i}]."
    if req.ruleset is not None and _rules(req.ruleset, f"{prefix}ruleset") != rules:
        raise FieldError(
            f"{prefix}ruleset",
            N_("differs from the settle request's rule set ({rules}); leave it out"),
            rules=rules.name,
        )
    seat = seat_wind(i, sreq.east, seats=table_seats(rules), dreamer=sreq.dreamer)
    if req.seat_wind is not None and parse_wind(req.seat_wind, f"{prefix}seat_wind") != seat:
        raise FieldError(
            f"{prefix}seat_wind",
            N_("seat {seat} is {wind} when seat {east} is East, not {value!r}"),
            seat=i,
            wind=_SEAT_NAMES[WINDS.index(seat)],
            east=sreq.east,
            value=req.seat_wind,
        )
    if req.round_wind is not None:
        rnd = parse_wind(req.round_wind, f"{prefix}round_wind", allow_green=True)
        if rnd != round_wind:
            raise FieldError(
                f"{prefix}round_wind",
                N_("{value!r} differs from the settle request's round wind {round!r}"),
                value=req.round_wind,
                round=sreq.round_wind,
            )
    hand, win = _hand(req, prefix)
    return ScoreJob(hand, seat, round_wind, win, req.dead, rules)


def settle_round_wind(
    text: str,
    rules: RuleSet,
    dominant: int | None,
    where: str = "round_wind",
    dominant_key: str = "dominant",
) -> Tile:
    """The round wind of a settlement from hands: a wind the table plays with, or
    the green dragon (``F``) in a green-dragon hand, which has a dominant player."""
    rnd = parse_wind(text, where, allow_green=True)
    if rnd is Tile.GREEN:
        if rules.table.green_dragon == "none":
            raise FieldError(
                where, N_("F: rule set {rules!r} plays no green-dragon hand"), rules=rules.name
            )
        if dominant is None:
            raise FieldError(
                dominant_key,
                N_("the green-dragon hand (round wind F) has a dominant player: give his seat"),
            )
    else:
        if rnd.token not in rules.table.winds:
            raise FieldError(
                where,
                N_("{value!r}: rule set {rules!r} plays with the winds {winds} only"),
                value=text,
                rules=rules.name,
                winds=", ".join(rules.table.winds),
            )
        if dominant is not None:
            raise FieldError(
                dominant_key,
                N_(
                    "the dominant player belongs to the green-dragon hand, whose round wind "
                    "is F, not {value!r}"
                ),
                value=text,
            )
    return rnd


def settle_request(req: SettleRequest) -> SettleJob:
    """Check a settle request and score its hands, if any (FieldError when wrong)."""
    rules = _rules(req.ruleset)
    if (req.scores is None) == (req.hands is None):
        raise FieldError(
            "request", N_("give either scores (one number per seat) or hands (one per seat)")
        )
    given = req.scores if req.scores is not None else req.hands
    assert given is not None
    check_seats(
        rules,
        len(given),
        "scores" if req.scores is not None else "hands",
        east=req.east,
        winner=req.winner,
        discarder=req.discarder,
        dominant=req.dominant,
        dreamer=req.dreamer,
    )
    if req.round_to is not None:
        check_round_to(req.round_to, "round_to")
    if req.scores is not None:
        return scores_job(
            rules,
            req.scores,
            winner=req.winner,
            discarder=req.discarder,
            east=req.east,
            dominant=req.dominant,
            dreamer=req.dreamer,
        )
    assert req.hands is not None
    round_wind = settle_round_wind(req.round_wind, rules, req.dominant)
    jobs: list[ScoreJob | None] = []
    for i, h in enumerate(req.hands):
        if i == req.dreamer:
            if h is not None:
                raise FieldError(
                    f"hands[{i}]",
                    N_("seat {seat} is the dreamer, who plays no hand: give null"),
                    seat=i,
                )
            jobs.append(None)
        elif h is None:
            if req.dreamer is not None:
                raise FieldError(
                    f"hands[{i}]",
                    N_("null stands for the dreamer's hand, and the dreamer is seat {seat}"),
                    seat=req.dreamer,
                )
            raise FieldError(
                f"hands[{i}]", N_("null stands for the dreamer's hand, and this table has none")
            )
        else:
            jobs.append(_hand_job(h, i, req, rules, round_wind))
    return settle_jobs(
        jobs,
        winner=req.winner,
        discarder=req.discarder,
        east=req.east,
        dominant=req.dominant,
        dreamer=req.dreamer,
        rules=rules,
    )


def _hands_label(i: int) -> str:
    return f"hands[{i}]"


def _scores_label(i: int) -> str:
    return f"scores[{i}]"


def scores_job(
    rules: RuleSet,
    scores: Sequence[int],
    *,
    winner: int | None,
    discarder: int | None,
    east: int,
    dominant: int | None,
    dreamer: int | None,
    label: Callable[[int], str] = _scores_label,
    name: Callable[[str], str] = _same,
) -> SettleJob:
    """The settlement of final scores, checked (FieldError when wrong): the seats
    (:func:`check_seats`), each score (:func:`check_score`), the dreamer's score 0.
    The one path for ``settle`` from scores, JSON and command line alike; ``label(i)``
    names score ``i`` and ``name(key)`` a field in the errors."""
    check_seats(
        rules,
        len(scores),
        "scores",
        east=east,
        winner=winner,
        discarder=discarder,
        dominant=dominant,
        dreamer=dreamer,
        name=name,
    )
    for i, value in enumerate(scores):
        check_score(value, label(i))
    if dreamer is not None and scores[dreamer]:
        raise FieldError(
            label(dreamer),
            N_("seat {seat} is the dreamer, who plays no hand: his score is 0, not {score}"),
            seat=dreamer,
            score=scores[dreamer],
        )
    return SettleJob(tuple(scores), winner, discarder, east, dominant, rules, None, dreamer)


def hands_job(
    rules: RuleSet,
    hands: Sequence[Hand | None],
    *,
    winner: int | None,
    discarder: int | None,
    east: int,
    dominant: int | None,
    dreamer: int | None,
    round_wind: str = "E",
    win: Callable[[WinSource], Win] = Win,
    dead: Collection[int] = (),
    label: Callable[[int], str] = _hands_label,
    name: Callable[[str], str] = _same,
) -> SettleJob:
    """The settlement of the hands of a table, each given as a core :class:`Hand` in
    seat order (``None`` for the dreamer's), checked and scored: the one path of the
    ``settle`` command's ``--hand`` and of the settle page.  Each hand's seat wind
    follows from its seat and ``east`` (:func:`seat_wind`), the round wind from
    ``round_wind`` (:func:`settle_round_wind`); ``win(source)`` says how the winner
    won, given the source a settlement assumes (``discard`` when there is a
    discarder, else ``wall``); any other hand with a winning tile is refused by
    :func:`settle_jobs`.  The seats in ``dead`` are dead hands.  ``label(i)`` names
    hand ``i`` and ``name(key)`` a field in the errors (FieldError)."""
    given = Seats(winner=winner, discarder=discarder, east=east, dominant=dominant, dreamer=dreamer)
    check_seats(rules, len(hands), "hands", **given, name=name)  # before the winds
    rnd = settle_round_wind(
        round_wind, rules, dominant, where=name("round_wind"), dominant_key=name("dominant")
    )
    seats = table_seats(rules)
    default = WinSource.DISCARD if discarder is not None else WinSource.WALL
    jobs: list[ScoreJob | None] = []
    for i, hand in enumerate(hands):
        if hand is None:
            jobs.append(None)
            continue
        hand_win = None
        if hand.winning_tile is not None:
            hand_win = win(default) if i == winner else Win()
        wind = seat_wind(i, east, seats=seats, dreamer=dreamer)
        jobs.append(ScoreJob(hand, wind, rnd, hand_win, i in dead, rules))
    return settle_jobs(jobs, **given, rules=rules, label=label, name=name)


def settle_jobs(
    jobs: Sequence[ScoreJob | None],
    *,
    winner: int | None,
    discarder: int | None,
    east: int,
    dominant: int | None,
    rules: RuleSet,
    dreamer: int | None = None,
    label: Callable[[int], str] = _hands_label,
    name: Callable[[str], str] = _same,
) -> SettleJob:
    """Check the hands of a table (``None`` for the dreamer's) against who won and
    who discarded, score them, and make the settle job.  ``label(i)`` names hand
    ``i`` in error messages, ``name(key)`` a field (see :func:`check_seats`)."""
    check_seats(
        rules,
        len(jobs),
        "hands",
        east=east,
        winner=winner,
        discarder=discarder,
        dominant=dominant,
        dreamer=dreamer,
        name=name,
    )
    for i, maybe in enumerate(jobs):
        if (maybe is None) != (i == dreamer):
            if i == dreamer:
                raise FieldError(
                    label(i), N_("seat {seat} is the dreamer, who plays no hand"), seat=i
                )
            raise FieldError(label(i), N_("only the dreamer has no hand"))
    if winner is not None:
        i, job = winner, jobs[winner]
        assert job is not None  # the winner is not the dreamer (check_seats)
        if job.win is None:
            raise FieldError(
                label(i), N_("seat {seat} is the winner: its hand needs a winning tile"), seat=i
            )
        if job.dead:
            raise FieldError(label(i), N_("the winner's hand cannot be dead"))
        source = job.win.source
        if discarder is None and not source.self_drawn:
            raise FieldError(
                label(i),
                N_(
                    "won from {source}: the winning tile was "
                    "claimed, so say who gave it (discarder)"
                ),
                source=source.value,
            )
        if discarder is not None and source.self_drawn:
            raise FieldError(
                label(i),
                N_("won from {source}: the winning tile was self-drawn, so there is no discarder"),
                source=source.value,
            )
    for i, maybe in enumerate(jobs):
        if i != winner and maybe is not None and maybe.win is not None:
            if winner is None:
                raise FieldError(
                    label(i), N_("only the winner has a winning tile (a remise has no winner)")
                )
            raise FieldError(
                label(i),
                N_("only the winner has a winning tile (seat {seat} won)"),
                seat=winner,
            )
    responses: list[dict[str, Any] | None] = []
    scores: list[int] = []
    for i, maybe in enumerate(jobs):
        if maybe is None:
            responses.append(None)
            scores.append(0)
            continue
        try:
            result = run_score(maybe)
        except FieldError:
            raise
        except MahjongError as exc:
            raise FieldError(label(i), exc.text) from exc
        if i == winner and not result.mahjong_allowed:
            raise FieldError(
                label(i),
                N_("the winner's hand may not go mahjong: {why}"),
                why=result.refusal or Text(N_("not allowed")),
            )
        responses.append(score_response(result, rules))
        scores.append(int(result.score))
    return SettleJob(
        tuple(scores), winner, discarder, east, dominant, rules, tuple(responses), dreamer
    )


def run_settle(job: SettleJob, round_to: int | None = None) -> Any:
    """Settle a job with the rules core; returns a ``Settlement``."""
    from mahjong_nts.core.settlement import settle as core_settle

    srules = job.rules.settlement
    if round_to is not None:
        srules = dataclasses.replace(srules, round_to=round_to)
    return core_settle(
        list(job.scores),
        winner=job.winner,
        discarder=job.discarder,
        east=job.east,
        rules=srules,
        dominant=job.dominant,
        dreamer=job.dreamer,
    )


def settle_response(job: SettleJob, settlement: Any) -> dict[str, Any]:
    """The JSON response of a settlement: one balance and one score per seat."""
    out: dict[str, Any] = {
        "balances": [int(b) for b in settlement.balances],
        "payments": [[p.payer, p.payee, p.amount] for p in settlement.payments],
        "scores": [int(s) for s in settlement.scores],
        "ruleset": job.rules.name,
    }
    if job.hands is not None:
        out["hands"] = list(job.hands)
    return out


def settle(req: SettleRequest) -> dict[str, Any]:
    """Answer a validated settle request (raises FieldError / MahjongError when bad)."""
    job = settle_request(req)
    return settle_response(job, run_settle(job, req.round_to))


# --------------------------------------------------------------------------- framing


def _too_long(size: int | None = None) -> str:
    said = f"{size} bytes long" if size is not None else f"longer than {MAX_LINE_BYTES} bytes"
    return f"the line is {said}: a request has at most {MAX_LINE_BYTES} bytes"


def _handle(
    line: str | bytes, model: type[_Model], answer: Callable[[Any], dict[str, Any]]
) -> dict[str, Any]:
    try:
        if len(line) > MAX_LINE_BYTES:  # a str has at least as many bytes as characters
            return {"error": _too_long()}
        data = safejson.loads(line, max_bytes=MAX_LINE_BYTES)
        if not isinstance(data, dict):
            kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
            return {
                "error": f"a request must be a JSON object, not {kind.get(type(data), 'a number')}"
            }
        return answer(model.model_validate(data))
    except (ValidationError, MahjongError, ValueError, RecursionError) as exc:
        return {"error": error_message(exc)}
    except Exception as exc:  # a bug: answer the line, keep the stream going
        return {"error": short_message(f"internal error: {type(exc).__name__}: {exc}")}


def handle_score_line(line: str | bytes) -> dict[str, Any]:
    """Answer one line of ``score --json``: a score response or ``{"error": ...}``."""
    return _handle(line, ScoreRequest, score)


def handle_settle_line(line: str | bytes) -> dict[str, Any]:
    """Answer one line of ``settle --json``: a settle response or ``{"error": ...}``."""
    return _handle(line, SettleRequest, settle)


def error_line(message: str) -> str:
    """The JSON line ``{"error": message}`` (the message bounded by :func:`short_message`)."""
    return json.dumps({"error": short_message(message)})


def _answer(line: str | bytes, handle: Callable[[str | bytes], dict[str, Any]]) -> str:
    try:
        return json.dumps(handle(line))
    except Exception as exc:  # a bug: the answer could not be written; the stream goes on
        return error_line(f"internal error: {type(exc).__name__}: {exc}")


def answer_score_line(line: str | bytes) -> str:
    """:func:`handle_score_line` written as one line of JSON (ASCII, no newline).

    Writing the answer happens inside the same guard, so no line can end a
    stream of requests."""
    return _answer(line, handle_score_line)


def answer_settle_line(line: str | bytes) -> str:
    """:func:`handle_settle_line` written as one line of JSON (ASCII, no newline)."""
    return _answer(line, handle_settle_line)


@dataclasses.dataclass(frozen=True, slots=True)
class LineTooLong:
    """A request line longer than :data:`MAX_LINE_BYTES`: :func:`read_lines` read
    only its start and skips the rest; it is answered by :attr:`answer`."""

    size: int | None = None
    """Its length in bytes, when known (the line ended within the read)."""

    @property
    def answer(self) -> str:
        return error_line(_too_long(self.size))


def _text_bytes(text: str) -> bytes:
    """A line of a text stream as bytes: a byte the decoder escaped (stdin read with
    ``surrogateescape``) comes back as that byte; any other lone surrogate
    (``'\\ud800'``) as its three bytes, which no UTF-8 decoder accepts."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def read_lines(
    stream: IO[bytes] | IO[str], max_bytes: int = MAX_LINE_BYTES
) -> Iterator[bytes | LineTooLong]:
    """The request lines of ``stream``, without their line ending; blank lines are
    skipped.  No read takes more than ``max_bytes + 2`` bytes, so a longer line is
    never held whole: it comes as :class:`LineTooLong` as soon as the bound is
    passed (so its answer can be written at once), and the rest of it is read
    and dropped, a piece at a time, when the next line is asked for.  A text
    stream's lines are encoded as UTF-8, a lone surrogate kept as invalid bytes
    (the byte it escapes, or its own three bytes), so that its line is answered
    as not UTF-8 and the stream goes on."""
    while True:
        raw = stream.readline(max_bytes + 2)  # room for the line's own "\r\n"
        if not raw:
            return
        line = _text_bytes(raw) if isinstance(raw, str) else raw
        ended = line.endswith(b"\n")
        if not ended and len(raw) >= max_bytes + 2:
            yield LineTooLong()
            while True:  # drop the rest of the line
                rest = stream.readline(max_bytes + 2)
                if not rest or rest[-1:] in ("\n", b"\n"):
                    break
            continue
        line = line.rstrip(b"\r\n")
        if len(line) > max_bytes:
            yield LineTooLong(len(line))
        elif line.strip():
            yield line
