"""The JSON contract: request and response models for ``score`` and ``settle``.

Requests are validated with pydantic (unknown fields are refused, types are
strict) and then turned into core values; every problem comes back as one line
that names the field, e.g. ``melds[1].tiles: b1 b2 b4 is not a chow, pung or
kong``.  The framing (one JSON object per line) lives in :func:`handle_score_line`
and :func:`handle_settle_line`, which never raise: a bad line is answered with
``{"error": "..."}``.  See ``docs/json.md``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.items import LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import NUM_KINDS, WINDS, Tile, parse_tile

__all__ = [
    "DEFAULT_RULESET_NAME",
    "FieldError",
    "MeldRequest",
    "ScoreRequest",
    "SettleRequest",
    "WinRequest",
    "error_message",
    "handle_score_line",
    "handle_settle_line",
    "load_rules",
    "score_request",
    "score_response",
    "seat_wind",
    "settle_request",
]

DEFAULT_RULESET_NAME = "nts-2016"

_T = TypeVar("_T")

SEAT_NAMES_EN = ("East", "South", "West", "North")


class FieldError(MahjongError):
    """A request value that is well-typed but wrong; ``field`` says which one."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


# --------------------------------------------------------------------------- models


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Tiles = str | list[str]
"""Tiles: a string of space-separated tokens (or compact groups), or a list of tokens."""


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


class ScoreRequest(_Model):
    ruleset: str = DEFAULT_RULESET_NAME
    seat_wind: str
    round_wind: str
    concealed: Tiles
    melds: list[MeldRequest] = []
    flowers: Tiles = ""
    winning_tile: str | None = None
    win: WinRequest | None = None
    dead: bool = False


class HandRequest(_Model):
    """A score request inside a settle request: the seat wind follows from the
    hand's index and ``east``, the round wind and rule set from the settle request."""

    ruleset: str | None = None
    seat_wind: str | None = None
    round_wind: str | None = None
    concealed: Tiles
    melds: list[MeldRequest] = []
    flowers: Tiles = ""
    winning_tile: str | None = None
    win: WinRequest | None = None
    dead: bool = False


Seat = Annotated[int, Field(ge=0, le=3)]
"""A seat index 0-3 (booleans are refused: strict mode)."""


class SettleRequest(_Model):
    ruleset: str = DEFAULT_RULESET_NAME
    east: Seat = 0
    winner: Seat | None
    discarder: Seat | None = None
    dominant: Seat | None = None
    round_wind: str = "E"
    round_to: int | None = Field(default=None, ge=0)
    scores: list[int] | None = Field(default=None, min_length=4, max_length=4)
    hands: list[HandRequest] | None = Field(default=None, min_length=4, max_length=4)


# --------------------------------------------------------------------------- errors


def _loc(parts: Sequence[int | str]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_UNION_TAGS = frozenset({"str", "list[str]", "int", "none", "bool", "literal[0,1,2,3]"})


def _validation_line(exc: ValidationError) -> str:
    """The most useful error of a pydantic ValidationError, as one line."""
    errors = sorted(
        exc.errors(include_url=False), key=lambda e: e["type"] != "extra_forbidden"
    )  # unknown fields first
    seen: dict[str, str] = {}
    for err in errors:
        # Union members appear in the location ("concealed.str", "concealed.list[str]"):
        # drop them and report the field once.
        parts = [p for p in err["loc"] if not (isinstance(p, str) and p in _UNION_TAGS)]
        where = _loc(parts) or "request"
        kind = err["type"]
        if kind == "extra_forbidden":
            msg = "unknown field"
        elif kind == "missing":
            msg = "required field is missing"
        elif kind in ("too_short", "too_long"):
            ctx = err.get("ctx", {})
            want = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
            msg = f"expected {want} items, got {ctx.get('actual_length', 'another number')}"
        else:
            msg = str(err["msg"])
            if "input" in err and kind not in ("too_short", "too_long"):
                msg += f", got {_short(err['input'])}"
        if where in seen:
            if kind.startswith(("string_type", "list_type")):
                seen[where] = (
                    f"expected tiles as a string or a list of strings, got "
                    f"{_short(err.get('input'))}"
                )
            continue
        seen[where] = msg
    lines = [f"{where}: {msg}" for where, msg in seen.items()]
    if len(lines) > 3:
        lines = [*lines[:3], f"and {len(lines) - 3} more"]
    return "; ".join(lines)


def error_message(exc: BaseException) -> str:
    """One clear line for a bad request: which field and what is wrong."""
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


def _field(where: str, fn: Callable[[], _T]) -> _T:
    """Run ``fn``; a core error becomes a :class:`FieldError` for ``where``."""
    try:
        return fn()
    except FieldError:
        raise
    except MahjongError as exc:
        raise FieldError(where, str(exc)) from exc


# --------------------------------------------------------------------------- conversion


@lru_cache(maxsize=32)
def load_rules(spec: str) -> RuleSet:
    """A shipped rule set by name, or a house-rule TOML file by path (cached)."""
    from mahjong_nts.formats.rulefiles import load_ruleset

    return load_ruleset(spec)


def _rules(spec: str, where: str = "ruleset") -> RuleSet:
    try:
        return load_rules(spec)
    except MahjongError as exc:
        raise FieldError(where, str(exc)) from exc
    except OSError as exc:
        raise FieldError(where, f"cannot read {spec!r}: {exc.strerror or exc}") from exc


def parse_tiles_field(value: str | list[str], where: str) -> tuple[Tile, ...]:
    """Tiles from a string (tokens or compact groups) or a list of tokens."""
    if isinstance(value, list):
        out = []
        for i, token in enumerate(value):
            try:
                out.append(parse_tile(token))
            except MahjongError as exc:
                raise FieldError(f"{where}[{i}]", str(exc)) from exc
        return tuple(out)
    if not value.strip():
        return ()
    from mahjong_nts.core.notation import parse_tiles

    try:
        return tuple(parse_tiles(value))
    except MahjongError as exc:
        raise FieldError(where, str(exc)) from exc


def parse_wind(text: str, where: str, *, allow_green: bool = False) -> Tile:
    """A wind: ``E S W N``, Dutch ``O Z``, or a name (``oost``, ``south``).  With
    ``allow_green``, also the green dragon (``F``) for the green-dragon hand."""
    try:
        tile = parse_tile(text)
    except MahjongError:
        tile = None
    if tile in WINDS or (allow_green and tile is Tile.GREEN):
        return tile
    want = "E, S, W, N (or O, Z)" + (", or F for the green-dragon hand" if allow_green else "")
    raise FieldError(where, f"{text!r} is not a wind (expected {want})")


def seat_wind(seat: int, east: int) -> Tile:
    """The wind of seat index ``seat`` when seat ``east`` is East."""
    return WINDS[(seat - east) % 4]


_KIND_NAMES = {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"}


def _meld(req: MeldRequest, where: str) -> Meld:
    tiles = parse_tiles_field(req.tiles, f"{where}.tiles")
    meld = _field(f"{where}.tiles", lambda: Meld.from_tiles(tiles, req.open))
    if _KIND_NAMES[meld.kind] != req.kind:
        shown = " ".join(t.token for t in tiles)
        raise FieldError(where, f"kind is {req.kind!r} but {shown} is a {_KIND_NAMES[meld.kind]}")
    return meld


def _win(req: WinRequest | None, where: str) -> Win:
    if req is None:
        return Win(WinSource.WALL)
    return _field(
        where,
        lambda: Win(
            WinSource(req.source),
            last_tile=req.last_tile,
            last_discard=req.last_discard,
            kong_on_kong=req.kong_on_kong,
            first_discard=req.first_discard,
            heaven=req.heaven,
            lucky_thirteen=req.lucky_thirteen,
        ),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreJob:
    """A validated score request in core values."""

    hand: Hand
    seat_wind: Tile
    round_wind: Tile
    win: Win | None
    dead: bool
    rules: RuleSet


def _hand(req: ScoreRequest | HandRequest, prefix: str) -> tuple[Hand, Win | None]:
    concealed = parse_tiles_field(req.concealed, f"{prefix}concealed")
    for t in concealed:
        if t >= NUM_KINDS:
            raise FieldError(
                f"{prefix}concealed", f"{t.token} is a flower or season: list it under flowers"
            )
    melds = tuple(_meld(m, f"{prefix}melds[{i}]") for i, m in enumerate(req.melds))
    flowers = parse_tiles_field(req.flowers, f"{prefix}flowers")
    for t in flowers:
        if t < NUM_KINDS:
            raise FieldError(f"{prefix}flowers", f"{t.token} is not a flower or season")
    if len(set(flowers)) != len(flowers):
        raise FieldError(f"{prefix}flowers", "each flower and season exists only once")
    winning: Tile | None = None
    if req.winning_tile is not None:
        winning = _field(f"{prefix}winning_tile", lambda: parse_tile(req.winning_tile or ""))
        if winning not in concealed:
            raise FieldError(
                f"{prefix}winning_tile",
                f"{winning.token} must be among the concealed tiles "
                "(concealed lists every tile not in a declared meld, "
                "the winning tile included)",
            )
    elif req.win is not None:
        raise FieldError(
            f"{prefix}win",
            "a win needs winning_tile (the tile that completed "
            "the hand); leave win out for a non-winner",
        )
    hand = _field(
        f"{prefix}hand" if prefix else "hand", lambda: Hand(concealed, melds, flowers, winning)
    )
    win = _win(req.win, f"{prefix}win") if winning is not None else None
    return hand, win


def score_request(req: ScoreRequest) -> ScoreJob:
    """Turn a validated score request into core values (FieldError when wrong)."""
    rules = _rules(req.ruleset)
    seat = parse_wind(req.seat_wind, "seat_wind")
    rnd = parse_wind(req.round_wind, "round_wind", allow_green=True)
    hand, win = _hand(req, "")
    return ScoreJob(hand, seat, rnd, win, req.dead, rules)


def run_score(job: ScoreJob) -> Any:
    """Score a job with the rules core; returns a ``ScoreResult``."""
    from mahjong_nts.core.scoring import Situation, score_hand

    situation = Situation(
        seat_wind=job.seat_wind, round_wind=job.round_wind, win=job.win, dead=job.dead
    )
    return score_hand(job.hand, situation, job.rules)


def score_response(result: Any, rules: RuleSet) -> dict[str, Any]:
    """The JSON response for a ``ScoreResult``."""
    limit = result.limit_hand
    name = None
    if limit is not None:
        info = LIMIT_HANDS.get(limit)
        name = {"nl": info.nl, "en": info.en} if info else {"nl": limit, "en": limit}
    return {
        "score": result.score,
        "points": result.points,
        "doublings": result.doublings,
        "limit_hand": limit,
        "limit_hand_name": name,
        "base": result.base,
        "cap": result.cap,
        "winner": result.winner,
        "mahjong_allowed": result.mahjong_allowed,
        "refusal": result.refusal,
        "dead": result.dead,
        "items": [
            {
                "id": it.id,
                "nl": it.nl,
                "en": it.en,
                "points": it.points,
                "doublings": it.doublings,
                "count": it.count,
                "detail": it.detail,
            }
            for it in result.items
        ],
        "arrangement": list(result.arrangement),
        "not_counted": [
            {"id": n.id, "nl": n.nl, "en": n.en, "reason": n.reason} for n in result.not_counted
        ],
        "ruleset": rules.name,
    }


def score(req: ScoreRequest) -> dict[str, Any]:
    """Answer a validated score request (raises FieldError / MahjongError when bad)."""
    job = score_request(req)
    return score_response(run_score(job), job.rules)


# --------------------------------------------------------------------------- settle


@dataclasses.dataclass(frozen=True, slots=True)
class SettleJob:
    scores: tuple[int, ...]
    winner: int | None
    discarder: int | None
    east: int
    dominant: int | None
    rules: RuleSet
    hands: tuple[dict[str, Any], ...] | None


def _hand_job(req: HandRequest, i: int, sreq: SettleRequest, rules: RuleSet) -> ScoreJob:
    prefix = f"hands[{i}]."
    if req.ruleset is not None and _rules(req.ruleset, f"{prefix}ruleset").name != rules.name:
        raise FieldError(
            f"{prefix}ruleset",
            f"{req.ruleset!r} differs from the settle request's {sreq.ruleset!r}",
        )
    seat = seat_wind(i, sreq.east)
    if req.seat_wind is not None and parse_wind(req.seat_wind, f"{prefix}seat_wind") != seat:
        raise FieldError(
            f"{prefix}seat_wind",
            f"seat {i} is {SEAT_NAMES_EN[(i - sreq.east) % 4]} when seat "
            f"{sreq.east} is East, not {req.seat_wind!r}",
        )
    rnd = parse_wind(
        req.round_wind if req.round_wind is not None else sreq.round_wind,
        f"{prefix}round_wind" if req.round_wind is not None else "round_wind",
        allow_green=True,
    )
    hand, win = _hand(req, prefix)
    return ScoreJob(hand, seat, rnd, win, req.dead, rules)


def settle_request(req: SettleRequest) -> SettleJob:
    """Check a settle request and score its hands, if any (FieldError when wrong)."""
    rules = _rules(req.ruleset)
    winner, discarder = req.winner, req.discarder
    if (req.scores is None) == (req.hands is None):
        raise FieldError(
            "request", "give either scores (four numbers) or hands (four score requests)"
        )
    if winner is None and discarder is not None:
        raise FieldError("discarder", "a remise (winner null) has no discarder")
    if winner is not None and discarder == winner:
        raise FieldError("discarder", "the winner cannot be the discarder")
    if req.scores is not None:
        for i, s in enumerate(req.scores):
            if s < 0:
                raise FieldError(f"scores[{i}]", f"a score cannot be negative, got {s}")
        return SettleJob(tuple(req.scores), winner, discarder, req.east, req.dominant, rules, None)
    assert req.hands is not None
    jobs = [_hand_job(h, i, req, rules) for i, h in enumerate(req.hands)]
    return settle_jobs(
        jobs, winner=winner, discarder=discarder, east=req.east, dominant=req.dominant, rules=rules
    )


def _hands_label(i: int) -> str:
    return f"hands[{i}]"


def settle_jobs(
    jobs: Sequence[ScoreJob],
    *,
    winner: int | None,
    discarder: int | None,
    east: int,
    dominant: int | None,
    rules: RuleSet,
    label: Callable[[int], str] = _hands_label,
) -> SettleJob:
    """Check four hands against who won and who discarded, score them, and make
    the settle job.  ``label(i)`` names hand ``i`` in error messages."""
    if winner is None and discarder is not None:
        raise FieldError("discarder", "a remise (no winner) has no discarder")
    if winner is not None and discarder == winner:
        raise FieldError("discarder", "the winner cannot be the discarder")
    if winner is not None:
        i, job = winner, jobs[winner]
        if job.win is None:
            raise FieldError(label(i), f"seat {i} is the winner: its hand needs a winning tile")
        if job.dead:
            raise FieldError(label(i), "the winner's hand cannot be dead")
        source = job.win.source
        if discarder is None and not source.self_drawn:
            raise FieldError(
                label(i),
                f"won from {source.value}: the winning tile was "
                "claimed, so say who gave it (discarder)",
            )
        if discarder is not None and source.self_drawn:
            raise FieldError(
                label(i),
                f"won from {source.value}: the winning tile was "
                "self-drawn, so there is no discarder",
            )
    for i, job in enumerate(jobs):
        if i != winner and job.win is not None:
            whom = "a remise has no winner" if winner is None else f"seat {winner} won"
            raise FieldError(label(i), f"only the winner has a winning tile ({whom})")
    responses: list[dict[str, Any]] = []
    scores: list[int] = []
    for i, job in enumerate(jobs):
        try:
            result = run_score(job)
        except FieldError:
            raise
        except MahjongError as exc:
            raise FieldError(label(i), str(exc)) from exc
        if i == winner and not result.mahjong_allowed:
            raise FieldError(
                label(i), f"the winner's hand may not go mahjong: {result.refusal or 'not allowed'}"
            )
        responses.append(score_response(result, rules))
        scores.append(int(result.score))
    return SettleJob(tuple(scores), winner, discarder, east, dominant, rules, tuple(responses))


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
    )


def settle_response(job: SettleJob, settlement: Any) -> dict[str, Any]:
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


def _handle(
    line: str | bytes, model: type[_Model], answer: Callable[[Any], dict[str, Any]]
) -> dict[str, Any]:
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        data = json.loads(text)
        if not isinstance(data, dict):
            kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
            return {
                "error": f"a request must be a JSON object, not {kind.get(type(data), 'a number')}"
            }
        return answer(model.model_validate(data))
    except (ValidationError, MahjongError, ValueError, RecursionError) as exc:
        return {"error": error_message(exc)}
    except Exception as exc:  # a bug: answer the line, keep the stream going
        return {"error": f"internal error: {type(exc).__name__}: {exc}"}


def handle_score_line(line: str | bytes) -> dict[str, Any]:
    """Answer one line of ``score --json``: a score response or ``{"error": ...}``."""
    return _handle(line, ScoreRequest, score)


def handle_settle_line(line: str | bytes) -> dict[str, Any]:
    """Answer one line of ``settle --json``: a settle response or ``{"error": ...}``."""
    return _handle(line, SettleRequest, settle)
