"""The settle page, ``/settle``: who pays whom after a hand.

A form of plain GET fields (so a result has a shareable URL, and the page works
without JavaScript): the rule set, each player's score or hand, who won, who
discarded, East, the dreamer and the dominant player where the rule set has them.
Everything is checked and computed by ``formats.wire``'s settle path (the one the
``settle`` command and ``POST /api/settle`` take) and the core's settlement; this
module only reads the fields, names the field an error belongs to, and draws.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup, escape

from mahjong_nts.calc import result as calc_result
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.core.notation import parse_hand
from mahjong_nts.core.rules import MAX_SCORE, RuleSet
from mahjong_nts.core.settlement import Settlement
from mahjong_nts.core.tiles import WINDS
from mahjong_nts.formats import wire
from mahjong_nts.formats.rulefiles import OVERLAYS, SHIPPED, load_untrusted
from mahjong_nts.i18n import translator
from mahjong_nts.web.templating import Pages, request_language

__all__ = [
    "MAX_HAND_CHARS",
    "MAX_NAME_CHARS",
    "MAX_QUERY_CHARS",
    "SettleForm",
    "read_form",
    "router",
    "settle_form",
    "table_svg",
]

MAX_QUERY_CHARS: Final = 4096
"""Characters in the query string of ``/settle`` (the form fits in under 1500)."""
MAX_NAME_CHARS: Final = 40
"""Characters in a player's name."""
MAX_HAND_CHARS: Final = 200
"""Characters in a hand's notation (a hand with flowers takes about 60)."""
MAX_SCORE_CHARS: Final = len(str(MAX_SCORE))
"""Digits in a score (the largest, ``core.rules.MAX_SCORE``, has 15)."""

LIVE_HEADER: Final = "X-Settle-Live"
"""Sent by settle.js: the answer is 200 with the errors in the page (a plain form
submission with errors is 422)."""

SOURCES: Final = ("auto", "wall", "discard", "loose_tile", "robbed_kong")
FLAGS: Final = calc_result.FLAGS
"""The special ways of winning the form offers: the calculator's."""
_DIGITS = re.compile(r"[0-9]+")

router = APIRouter(include_in_schema=False)


def ruleset_choices() -> list[str]:
    """The rule sets the page offers: every shipped set, alone and with each overlay
    that makes a valid set (a request may name any shipped spec)."""
    out: list[str] = []
    for name in SHIPPED:
        for spec in (name, *(f"{name}+{o}" for o in OVERLAYS)):
            try:
                load_untrusted(spec)
            except MahjongError:
                continue
            out.append(spec)
    return out


@dataclass
class SettleForm:
    """The fields of the settle form as typed (text), bounded."""

    ruleset: str = wire.DEFAULT_RULESET_NAME
    mode: str = "scores"
    names: list[str] = field(default_factory=list)
    scores: list[str] = field(default_factory=list)
    hands: list[str] = field(default_factory=list)
    winner: str = ""
    discarder: str = ""
    east: str = "0"
    dreamer: str = ""
    dominant: str = ""
    round_wind: str = "E"
    source: str = "auto"
    flags: set[str] = field(default_factory=set)
    dead: set[int] = field(default_factory=set)
    submitted: bool = False


@dataclass
class Outcome:
    """What the page shows after a settlement."""

    settlement: Settlement
    names: list[str]
    winds: list[str | None]
    """Each seat's wind token (E S W N), ``None`` for the dreamer."""
    winner: int | None
    discarder: int | None
    dreamer: int | None
    hands: tuple[dict[str, Any] | None, ...] | None
    svg: Markup


def _cut(text: str | None, limit: int) -> str:
    return (text or "").strip()[: limit + 1]


def read_form(query: Mapping[str, str], seats: int) -> SettleForm:
    """The form's fields from a query (unknown keys ignored, each value cut to one
    character past its bound, so the check below can say it is too long)."""
    form = SettleForm()
    form.ruleset = _cut(query.get("ruleset"), 200) or wire.DEFAULT_RULESET_NAME
    form.mode = "hands" if query.get("mode") == "hands" else "scores"
    form.names = [_cut(query.get(f"name{i}"), MAX_NAME_CHARS) for i in range(seats)]
    form.scores = [_cut(query.get(f"score{i}"), MAX_SCORE_CHARS) for i in range(seats)]
    form.hands = [_cut(query.get(f"hand{i}"), MAX_HAND_CHARS) for i in range(seats)]
    for key in ("winner", "discarder", "east", "dreamer", "dominant", "round_wind", "source"):
        value = query.get(key)
        if value is not None:
            setattr(form, key, _cut(value, 10))
    form.flags = {f for f in FLAGS if query.get(f) in ("1", "on", "true")}
    form.dead = {i for i in range(seats) if query.get(f"dead{i}") in ("1", "on", "true")}
    form.submitted = "winner" in query
    return form


def _seat_value(text: str, key: str, errors: dict[str, str], *, allow_none: bool) -> int | None:
    if text in ("", "none") and allow_none:
        return None
    if _DIGITS.fullmatch(text) and len(text) <= 2:
        return int(text)
    errors[key] = "choose a player"
    return None


def _win(form: SettleForm, default: WinSource) -> Win:
    """The winner's win: the form's source (``auto``: ``default``, a discard when
    someone discarded, else the wall) and flags."""
    source = form.source if form.source in SOURCES else "auto"
    chosen = default if source == "auto" else WinSource(source)
    try:
        return Win(chosen, **{f: f in form.flags for f in FLAGS})
    except MahjongError as exc:
        raise wire.FieldError("source", exc.text) from exc


def settle_form(
    form: SettleForm, rules: RuleSet, gettext: Callable[[str], str]
) -> tuple[Outcome | None, dict[str, str]]:
    """Settle the form's hand under ``rules``: the outcome, or the errors by field
    name (``score2``, ``hand0``, ``winner``, ...).  Every check of the seats,
    scores and hands is wire's (:func:`wire.scores_job`, :func:`wire.settle_jobs`)."""
    seats = wire.table_seats(rules)
    errors: dict[str, str] = {}
    for i, name in enumerate(form.names):
        if len(name) > MAX_NAME_CHARS:
            errors[f"name{i}"] = gettext("A name has at most {n} characters.").format(
                n=MAX_NAME_CHARS
            )
    if form.winner == "":
        errors["winner"] = gettext("Choose who won, or remise.")
    winner = _seat_value(form.winner, "winner", errors, allow_none=True)
    discarder = _seat_value(form.discarder, "discarder", errors, allow_none=True)
    east = _seat_value(form.east, "east", errors, allow_none=False)
    dreamer = _seat_value(form.dreamer, "dreamer", errors, allow_none=True)
    dominant = _seat_value(form.dominant, "dominant", errors, allow_none=True)
    if errors:
        return None, errors
    assert east is not None
    seats_given = wire.Seats(
        winner=winner, discarder=discarder, east=east, dominant=dominant, dreamer=dreamer
    )
    try:
        if form.mode == "scores":
            values: list[int] = []
            for i, text in enumerate(form.scores):
                if i == dreamer and text == "":
                    text = "0"
                if not _DIGITS.fullmatch(text) or len(text) > MAX_SCORE_CHARS:
                    errors[f"score{i}"] = gettext("Give a whole number of points, 0 or more.")
                else:
                    values.append(int(text))
            if errors:
                return None, errors
            job = wire.scores_job(rules, values, **seats_given, label=lambda i: f"score{i}")
        else:
            hands: list[Hand | None] = []
            for i, text in enumerate(form.hands):
                hands.append(None)
                if i == dreamer:
                    continue
                if len(text) > MAX_HAND_CHARS:
                    errors[f"hand{i}"] = gettext("A hand has at most {n} characters.").format(
                        n=MAX_HAND_CHARS
                    )
                elif not text:
                    errors[f"hand{i}"] = gettext("Type this player's hand.")
                else:
                    try:
                        hands[i] = wire.table_hand(parse_hand(text))
                    except MahjongError as exc:
                        errors[f"hand{i}"] = exc.text
            if errors:
                return None, errors
            job = wire.hands_job(
                rules,
                hands,
                **seats_given,
                round_wind=form.round_wind,
                win=lambda default: _win(form, default),
                dead=form.dead,
                label=lambda i: f"hand{i}",
            )
        settlement: Settlement = wire.run_settle(job)
    except wire.FieldError as exc:
        return None, {exc.field: exc.message}
    except MahjongError as exc:
        return None, {"form": exc.text}
    names = [form.names[i] or gettext("Player {n}").format(n=i + 1) for i in range(seats)]
    winds: list[str | None] = [
        None if i == dreamer else wire.seat_wind(i, east, seats=seats, dreamer=dreamer).token
        for i in range(seats)
    ]
    outcome = Outcome(
        settlement=settlement,
        names=names,
        winds=winds,
        winner=winner,
        discarder=discarder,
        dreamer=dreamer,
        hands=job.hands,
        svg=Markup(""),
    )
    outcome.svg = table_svg(outcome, gettext)
    return outcome, {}


# --------------------------------------------------------------------------- the drawing

_WIDTH: Final = 340
_HEIGHT: Final = 320
_SEAT_W: Final = 96
_SEAT_H: Final = 40
_RX: Final = _WIDTH / 2 - _SEAT_W / 2 - 4
_RY: Final = _HEIGHT / 2 - _SEAT_H / 2 - 4


def _positions(n: int) -> list[tuple[float, float]]:
    """Seat centres round the table: seat 0 at the bottom, then counter-clockwise
    (as the winds go: South on East's right)."""
    out = []
    for i in range(n):
        angle = math.pi / 2 - 2 * math.pi * i / n  # 0: bottom (y grows downwards)
        out.append((_WIDTH / 2 + _RX * math.cos(angle), _HEIGHT / 2 + _RY * math.sin(angle)))
    return out


def _short(name: str, limit: int = 11) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def table_svg(outcome: Outcome, gettext: Callable[[str], str]) -> Markup:
    """The table seen from above, as inline SVG: a box per seat (name, wind, net
    result) and an arrow per net payment, from payer to payee, with its amount."""
    n = len(outcome.names)
    pos = _positions(n)
    wind_names = {
        "E": gettext("East"),
        "S": gettext("South"),
        "W": gettext("West"),
        "N": gettext("North"),
    }
    parts: list[str] = []
    said: list[str] = []
    for p in outcome.settlement.payments:
        (x1, y1), (x2, y2) = pos[p.payer], pos[p.payee]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length

        # start and end outside the seat boxes (an ellipse round each box)
        def edge(u: float, v: float) -> float:
            return 1 / math.sqrt((u / (_SEAT_W / 2 + 6)) ** 2 + (v / (_SEAT_H / 2 + 6)) ** 2)

        cut = edge(ux, uy)
        sx, sy = x1 + ux * cut, y1 + uy * cut
        ex, ey = x2 - ux * cut, y2 - uy * cut
        # labels 60% of the way to the payee: crossing diagonals keep theirs apart
        lx, ly = sx + (ex - sx) * 0.6, sy + (ey - sy) * 0.6
        amount = str(p.amount)
        width = 8 + 8 * len(amount)
        parts.append(
            f'<line class="pay" x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" '
            'marker-end="url(#arrow)"/>'
            f'<rect class="amount-bg" x="{lx - width / 2:.1f}" y="{ly - 10:.1f}" '
            f'width="{width}" height="20" rx="4"/>'
            f'<text class="amount" x="{lx:.1f}" y="{ly + 5:.1f}">{amount}</text>'
        )
        said.append(
            gettext("{payer} pays {payee} {amount}").format(
                payer=outcome.names[p.payer], payee=outcome.names[p.payee], amount=p.amount
            )
        )
    for i, (x, y) in enumerate(pos):
        wind = outcome.winds[i]
        role = wind_names[wind] if wind else gettext("dreamer")
        balance = outcome.settlement.balances[i]
        net = f"{balance:+d}" if balance else "0"
        cls = "seat winner" if i == outcome.winner else "seat"
        parts.append(
            f'<g class="{cls}"><rect x="{x - _SEAT_W / 2:.1f}" y="{y - _SEAT_H / 2:.1f}" '
            f'width="{_SEAT_W}" height="{_SEAT_H}" rx="6"/>'
            f'<text class="name" x="{x:.1f}" y="{y - 4:.1f}">{escape(_short(outcome.names[i]))}'
            f"</text>"
            f'<text class="role" x="{x:.1f}" y="{y + 13:.1f}">{escape(role)} {net}</text></g>'
        )
    title = gettext("Who pays whom")
    desc = "; ".join(said) if said else gettext("Nobody pays anybody.")
    return Markup(
        f'<svg class="table-svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" '
        'aria-labelledby="svg-title svg-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="svg-title">{escape(title)}</title>'
        f'<desc id="svg-desc">{escape(desc)}</desc>'
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker></defs>'
        f'<rect class="felt" x="{_WIDTH / 2 - 70}" y="{_HEIGHT / 2 - 70}" width="140" '
        'height="140" rx="10"/>' + "".join(parts) + "</svg>"
    )


# --------------------------------------------------------------------------- the route


def _seats_of(rules: RuleSet) -> int:
    return wire.table_seats(rules)


@router.get("/settle", response_class=HTMLResponse)
async def settle_page(request: Request) -> HTMLResponse:
    pages: Pages = request.app.state.pages
    lang, _ = request_language(request, pages.default_language)
    gettext = translator(lang).gettext
    choices = ruleset_choices()
    if len(request.url.query) > MAX_QUERY_CHARS:
        form = read_form({}, 4)
        return pages.render(
            request,
            "settle.html",
            status_code=414,
            active="settle",
            form=form,
            seats=4,
            rules=load_untrusted(form.ruleset),
            choices=choices,
            outcome=None,
            errors={
                "form": gettext("This address is too long: at most {n} characters.").format(
                    n=MAX_QUERY_CHARS
                )
            },
            sources=SOURCES,
            flags=FLAGS,
            winds_of=_winds_of,
            share_url="/settle",
        )
    query = request.query_params
    spec = (query.get("ruleset") or wire.DEFAULT_RULESET_NAME).strip()
    errors: dict[str, str] = {}
    try:
        rules = load_untrusted(spec[:200])
    except MahjongError as exc:
        errors["ruleset"] = exc.text
        spec = wire.DEFAULT_RULESET_NAME
        rules = load_untrusted(spec)
    seats = _seats_of(rules)
    form = read_form(query, seats)
    form.ruleset = spec
    if rules.table.dreamer and form.dreamer == "":
        form.dreamer = str(seats - 1)
    outcome = None
    if form.submitted and not errors:
        outcome, errors = settle_form(form, rules, gettext)
        shown = _fields(rules, seats)
        errors = {(k if k in shown else "form"): v for k, v in errors.items()}
    return pages.render(
        request,
        "settle.html",
        # settle.js asks as the player types: a half-typed form is not a failed request
        status_code=422 if errors and not request.headers.get(LIVE_HEADER) else 200,
        active="settle",
        form=form,
        seats=seats,
        rules=rules,
        choices=choices if spec in choices else [spec, *choices],
        outcome=outcome,
        errors=errors,
        sources=SOURCES,
        flags=FLAGS,
        winds_of=_winds_of,
        share_url=f"/settle?{request.url.query}",
    )


def _fields(rules: RuleSet, seats: int) -> set[str]:
    """The fields the form shows for ``rules`` (an error about another goes on top)."""
    out = {"ruleset", "winner", "discarder", "east", "round_wind", "source"}
    out.update(f"{k}{i}" for k in ("name", "score", "hand") for i in range(seats))
    if rules.table.dreamer:
        out.add("dreamer")
    if rules.table.green_dragon != "none":
        out.add("dominant")
    return out


def _winds_of(rules: RuleSet) -> Sequence[str]:
    """The round winds a hand under ``rules`` can have (``F``: a green-dragon hand)."""
    winds = [w.token for w in WINDS if w.token in rules.table.winds]
    if rules.table.green_dragon != "none":
        winds.append("F")
    return winds
