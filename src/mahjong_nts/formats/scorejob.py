"""A score request turned into core values and its answer, without pydantic.

The JSON contract's models (:mod:`mahjong_nts.formats.wire`) validate a request's
types with pydantic; everything after that lives here, in plain Python: reading the
tiles, winds and melds into core values (every problem a :class:`FieldError` naming
the field), scoring, and the answer's dictionary.  The calculator
(:mod:`mahjong_nts.calc`) builds its requests in code (:class:`ScoreSpec`) and runs
the same conversion, so it can also run in the browser (Pyodide), where pydantic's
compiled core is not available.  ``wire`` re-exports every name here.

A request is anything with the fields of :class:`ScoreFields` (a pydantic
``ScoreRequest``, or a :class:`ScoreSpec`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol, TypeVar

from mahjong_nts.core.errors import QUOTE_CHARS, MahjongError
from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.items import LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.text import N_, Text
from mahjong_nts.core.tiles import NUM_KINDS, WINDS, Tile, parse_tile
from mahjong_nts.formats import safejson

__all__ = [
    "DEFAULT_RULESET_NAME",
    "MAX_ERROR_CHARS",
    "MAX_MELDS",
    "FieldError",
    "HandFields",
    "MeldFields",
    "MeldSpec",
    "ScoreFields",
    "ScoreJob",
    "ScoreSpec",
    "WinFields",
    "WinSpec",
    "load_rules",
    "parse_tiles_field",
    "parse_wind",
    "run_score",
    "score",
    "score_request",
    "score_response",
    "seat_wind",
    "short_message",
    "short_text",
    "table_hand",
]

DEFAULT_RULESET_NAME: Final = "nts-2016"

MAX_ERROR_CHARS: Final = 500
"""Characters in one error message: the last bound on text quoted from a request."""

MAX_MELDS: Final = 8
"""Declared melds in one hand (a hand has at most four, a dead hand may show more)."""

_T = TypeVar("_T")

Tiles = str | list[str]
"""Tiles: a string of space-separated tokens (or compact groups), or a list of tokens."""


class FieldError(MahjongError):
    """A request value that is well-typed but wrong; ``field`` says which one and
    ``message`` what is wrong (a :class:`~mahjong_nts.core.text.Text`)."""

    def __init__(self, field: str, message: str, /, **params: Any) -> None:
        text = Text(message, **params) if params or not isinstance(message, Text) else message
        if field:
            super().__init__(N_("{field}: {message}"), field=field, message=text)
        else:
            super().__init__(text)
        self.field = field
        self.message = text


# --------------------------------------------------------------------------- requests


class MeldFields(Protocol):
    """A declared meld of a request (``wire.MeldRequest``, :class:`MeldSpec`)."""

    @property
    def kind(self) -> str: ...
    @property
    def tiles(self) -> Tiles: ...
    @property
    def open(self) -> bool: ...


class WinFields(Protocol):
    """How a hand was won (``wire.WinRequest``, :class:`WinSpec`)."""

    @property
    def source(self) -> str: ...
    @property
    def last_tile(self) -> bool: ...
    @property
    def last_discard(self) -> bool: ...
    @property
    def kong_on_kong(self) -> bool: ...
    @property
    def first_discard(self) -> bool: ...
    @property
    def heaven(self) -> bool: ...
    @property
    def lucky_thirteen(self) -> bool: ...


class HandFields(Protocol):
    """The hand of a request (``wire.ScoreRequest``, ``wire.HandRequest``)."""

    @property
    def concealed(self) -> Tiles: ...
    @property
    def melds(self) -> Sequence[MeldFields]: ...
    @property
    def flowers(self) -> Tiles: ...
    @property
    def winning_tile(self) -> str | None: ...
    @property
    def win(self) -> WinFields | None: ...
    @property
    def partial(self) -> bool: ...


class ScoreFields(HandFields, Protocol):
    """A whole score request (``wire.ScoreRequest``, :class:`ScoreSpec`)."""

    @property
    def ruleset(self) -> str | dict[str, Any]: ...
    @property
    def seat_wind(self) -> str: ...
    @property
    def round_wind(self) -> str: ...
    @property
    def dead(self) -> bool: ...


@dataclasses.dataclass(frozen=True, slots=True)
class MeldSpec:
    """A meld of a request built in code (the fields of ``wire.MeldRequest``)."""

    kind: str
    tiles: Tiles
    open: bool = True


@dataclasses.dataclass(frozen=True, slots=True)
class WinSpec:
    """How a hand was won, built in code (the fields of ``wire.WinRequest``)."""

    source: str = "wall"
    last_tile: bool = False
    last_discard: bool = False
    kong_on_kong: bool = False
    first_discard: bool = False
    heaven: bool = False
    lucky_thirteen: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreSpec:
    """A score request built in code, its values already of the right types (the
    fields of ``wire.ScoreRequest``; the checks of its values are the same)."""

    seat_wind: str
    round_wind: str
    concealed: Tiles
    ruleset: str | dict[str, Any] = DEFAULT_RULESET_NAME
    melds: tuple[MeldSpec, ...] = ()
    flowers: Tiles = ""
    winning_tile: str | None = None
    win: WinSpec | None = None
    dead: bool = False
    partial: bool = False


# --------------------------------------------------------------------------- errors


_LONG: Final = QUOTE_CHARS - 1
_QUOTED: Final = re.compile(
    rf"(?<!\w)'[^'\n]{{{_LONG},}}'(?!\w)|(?<!\w)\"[^\"\n]{{{_LONG},}}\"(?!\w)"
)
"""A quoted piece longer than an excerpt.  A quote mark between letters (the
apostrophe of "winner's") neither opens nor closes one."""


def _cut_quote(match: re.Match[str]) -> str:
    text = match.group()
    return text[: QUOTE_CHARS - 4] + "..." + text[0]


def short_message(message: str) -> str:
    """``message`` made safe to show: every quoted piece (``'...'`` or ``"..."``)
    cut to an excerpt of at most 60 characters, control characters escaped
    (``\\x1b``), and the whole cut to :data:`MAX_ERROR_CHARS` characters.  Every
    error message of the JSON lines and of the ``score``/``settle`` commands
    passes here last, so text quoted from a request (by this module or by the
    core) never comes back long or raw.  Each step takes time linear in the
    message.

    Saying it twice says the same (a web answer bounds a message the JSON lines
    already bounded): a cut can leave quote marks that pair into a new long piece (a
    value's repr holding both kinds of quote), so the bounded message is cut again
    until nothing changes; each cut makes it shorter, and it is at most
    :data:`MAX_ERROR_CHARS` long by then."""
    message = safejson.printable(_QUOTED.sub(_cut_quote, message))
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 3] + "..."
    while (again := _QUOTED.sub(_cut_quote, message)) != message:
        message = again
    return message


def short_text(text: str) -> str:
    """``text`` bounded as :func:`short_message` bounds it; a core
    :class:`~mahjong_nts.core.text.Text` that is short enough already is kept as it is
    (so that a page can still say it in its language)."""
    short = short_message(text)
    return text if short == text else short


def _field(where: str, fn: Callable[[], _T]) -> _T:
    """Run ``fn``; a core error becomes a :class:`FieldError` for ``where``."""
    try:
        return fn()
    except FieldError:
        raise
    except MahjongError as exc:
        raise FieldError(where, exc.text) from exc


# --------------------------------------------------------------------------- conversion


def load_rules(value: object) -> RuleSet:
    """A request's rule set: a shipped name with overlays, or house rules inline as
    an object whose optional ``base`` is a shipped name.

    Network input never names a file: a path (``"club.toml"``, ``"/dev/zero"``) is
    refused with a message and nothing is opened.  File paths are for the local
    command line only (``--ruleset club.toml``, through
    :func:`mahjong_nts.formats.rulefiles.load_ruleset`).  Shipped sets and recent
    inline rule sets are cached by :mod:`~mahjong_nts.formats.rulefiles` (bounded).
    """
    from mahjong_nts.formats.rulefiles import load_untrusted

    return load_untrusted(value)


def _rules(value: object, where: str = "ruleset") -> RuleSet:
    try:
        return load_rules(value)
    except MahjongError as exc:
        raise FieldError(where, exc.text) from exc


def parse_tiles_field(value: str | list[str], where: str) -> tuple[Tile, ...]:
    """Tiles from a string (tokens or compact groups) or a list of tokens."""
    if isinstance(value, list):
        out = []
        for i, token in enumerate(value):
            try:
                out.append(parse_tile(token))
            except MahjongError as exc:
                raise FieldError(f"{where}[{i}]", exc.text) from exc
        return tuple(out)
    if not value.strip():
        return ()
    from mahjong_nts.core.notation import parse_tiles

    try:
        return tuple(parse_tiles(value))
    except MahjongError as exc:
        raise FieldError(where, exc.text) from exc


def parse_wind(text: str, where: str, *, allow_green: bool = False) -> Tile:
    """A wind: ``E S W N``, Dutch ``O Z``, or a name (``oost``, ``south``).  With
    ``allow_green``, also the green dragon (``F``) for the green-dragon hand."""
    try:
        tile = parse_tile(text)
    except MahjongError:
        tile = None
    if tile in WINDS or (allow_green and tile is Tile.GREEN):
        return tile
    raise FieldError(
        where,
        N_(
            "{value!r} is not a wind (expected E, S, W, N (or O, Z), or F for the "
            "green-dragon hand)"
        )
        if allow_green
        else N_("{value!r} is not a wind (expected E, S, W, N (or O, Z))"),
        value=text,
    )


def seat_wind(seat: int, east: int, *, seats: int = 4, dreamer: int | None = None) -> Tile:
    """The wind of seat index ``seat`` when seat ``east`` is East, at a table of
    ``seats`` (3, 4, or 5 with a ``dreamer``).  The winds follow the seat indices
    round from East (East, South, West, then North), passing over the dreamer,
    who has none (``seat`` is not the dreamer): a table of five numbered as the
    match numbers it (the dreamer just before East) gives East ``east``, South
    ``east + 1``, and so on."""
    order = [(east + k) % seats for k in range(seats)]
    if dreamer is not None:
        order.remove(dreamer)
    return WINDS[order.index(seat)]


_KIND_NAMES = {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"}
_KIND_WORDS: Final = {
    MeldKind.CHOW: N_("chow"),
    MeldKind.PUNG: N_("pung"),
    MeldKind.KONG: N_("kong"),
}


def _meld(req: MeldFields, where: str) -> Meld:
    tiles = parse_tiles_field(req.tiles, f"{where}.tiles")
    meld = _field(f"{where}.tiles", lambda: Meld.from_tiles(tiles, req.open))
    if _KIND_NAMES[meld.kind] != req.kind:
        shown = " ".join(t.token for t in tiles)
        raise FieldError(
            where,
            N_("kind is {kind!r} but {tiles} is a {other}"),
            kind=req.kind,
            tiles=shown,
            other=Text(_KIND_WORDS[meld.kind]),
        )
    return meld


def _win(req: WinFields | None, where: str) -> Win:
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


def _hand(req: HandFields, prefix: str) -> tuple[Hand, Win | None]:
    concealed = parse_tiles_field(req.concealed, f"{prefix}concealed")
    for t in concealed:
        if t >= NUM_KINDS:
            raise FieldError(
                f"{prefix}concealed",
                N_("{tile} is a flower or season: list it under flowers"),
                tile=t.token,
            )
    melds = tuple(_meld(m, f"{prefix}melds[{i}]") for i, m in enumerate(req.melds))
    flowers = parse_tiles_field(req.flowers, f"{prefix}flowers")
    for t in flowers:
        if t < NUM_KINDS:
            raise FieldError(
                f"{prefix}flowers", N_("{tile} is not a flower or season"), tile=t.token
            )
    if len(set(flowers)) != len(flowers):
        raise FieldError(f"{prefix}flowers", N_("each flower and season exists only once"))
    winning: Tile | None = None
    if req.winning_tile is not None:
        winning = _field(f"{prefix}winning_tile", lambda: parse_tile(req.winning_tile or ""))
        if winning not in concealed:
            raise FieldError(
                f"{prefix}winning_tile",
                N_(
                    "{tile} must be among the concealed tiles "
                    "(concealed lists every tile not in a declared meld, "
                    "the winning tile included)"
                ),
                tile=winning.token,
            )
    elif req.win is not None:
        raise FieldError(
            f"{prefix}win",
            N_(
                "a win needs winning_tile (the tile that completed "
                "the hand); leave win out for a non-winner"
            ),
        )
    if req.partial and winning is not None:
        raise FieldError(
            f"{prefix}partial",
            N_(
                "a partial hand (only the sets that score) is a non-winner's: "
                "leave out winning_tile, or give every tile of the winning hand"
            ),
        )
    hand = _field(
        f"{prefix}hand" if prefix else "hand",
        lambda: Hand(concealed, melds, flowers, winning, partial=req.partial),
    )
    win = _win(req.win, f"{prefix}win") if winning is not None else None
    return hand, win


def score_request(req: ScoreFields) -> ScoreJob:
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


def score(req: ScoreFields) -> dict[str, Any]:
    """Answer a validated score request (raises FieldError / MahjongError when bad)."""
    job = score_request(req)
    return score_response(run_score(job), job.rules)


def table_hand(hand: Hand) -> Hand:
    """A hand as the table gives it: without a winning tile and with fewer than 13
    tiles (a kong counting as 3) it is a non-winner's :attr:`~Hand.partial` hand,
    scored from the sets shown (nobody enters the loose tiles that score nothing);
    any other hand as it is.  The calculator, the settle page and the score sheet's
    form read hands this way; the JSON contract says ``"partial": true`` itself."""
    if hand.winning_tile is None and hand.tile_count < 13 and not hand.partial:
        return dataclasses.replace(hand, partial=True)
    return hand
