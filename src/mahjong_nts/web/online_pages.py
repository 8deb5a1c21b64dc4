"""The pages of the online tables: the lobby, a new table, joining, the table, watching.

* ``GET /online``: the club's public tables (waiting for players, and in play to watch)
  and the form of a new table; ``POST /online`` makes the table and sends the browser to
  it (303), where the invite links are.
* ``GET /online/{table}``: the table for the seat the browser's seat cookie holds;
  without one the join form (nickname, and a seat unless ``?seat=N`` fixes it).
  ``POST /online/{table}/join`` takes the seat (the cookie is set) and sends the browser
  back to the table.
* ``GET /online/watch/{watch}``: the table as a spectator sees it.

The pages are drawn on the server, the live part with :mod:`mahjong_nts.web.livetable`
(the bot game's table); ``static/online.js`` then opens the table's WebSocket with
``?html=1`` and puts each state's ``html`` in place.  The routes only parse forms and
call :mod:`mahjong_nts.online`; every refusal is the page again with the message (4xx).
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.exceptions import HTTPException

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.formats.rulefiles import SHIPPED, load_untrusted, parse_toml_text
from mahjong_nts.i18n import render, translator
from mahjong_nts.online import Moved, OnlineError, OnlineServer, Table
from mahjong_nts.online.limits import (
    CLAIM_SECONDS,
    MAX_CHAT_CHARS,
    MAX_HANDS,
    MAX_NICKNAME_CHARS,
    TURN_SECONDS,
)
from mahjong_nts.online.protocol import ERROR_CODES
from mahjong_nts.online.settings import BOT_LEVELS, ruleset_label
from mahjong_nts.online.tokens import cookie_name, unsign
from mahjong_nts.store import StoreError
from mahjong_nts.web.livetable import draw_live
from mahjong_nts.web.online import (
    _client,
    _links,
    _server,
    _set_seat_cookie,
    _state,
    moved_response,
)
from mahjong_nts.web.templating import pages_of, request_language

__all__ = [
    "MAX_FORM_BYTES",
    "MAX_FORM_FIELDS",
    "MAX_HOUSE_RULES_CHARS",
    "MAX_NEW_TABLE_FORM_BYTES",
    "router",
]

router = APIRouter()

MAX_FORM_BYTES: Final = 4096
"""A form of the online pages (a new table, joining) is at most 4 KiB ..."""
MAX_FORM_FIELDS: Final = 24
"""... of at most 24 fields."""
MAX_NEW_TABLE_FORM_BYTES: Final = 32 * 1024
"""The new-table form may be longer, for its house rules (TOML text, sent encoded) ..."""
MAX_HOUSE_RULES_CHARS: Final = 8000
"""... of at most 8000 characters (the example of docs/house-rules.md has 1200)."""

PLAYER_COUNTS: Final = (3, 4, 5)
PLAYER_OVERLAY: Final = {3: "+three-players", 4: "", 5: "+five-players"}
MAX_SEATS: Final = 5
TURN_CHOICES: Final = (15, 30, 60, 120, 300)
CLAIM_CHOICES: Final = (5, 10, 20, 30, 60)
HAND_CHOICES: Final = (1, 2, 4, 8, MAX_HANDS)
SEAT_CHOICES: Final = ("human", *BOT_LEVELS)

DEFAULTS: Final[dict[str, Any]] = {
    "ruleset": "nts-2016",
    "flowers": False,
    "players": 4,
    "seats": ["human"] * MAX_SEATS,
    "bot": "heuristic",
    "turn": "30",
    "claim": "10",
    "hands": "match",
    "public": False,
    "hints": False,
    "house": "",
}


class FormError(Exception):
    """A form the page refuses: the status and the message shown beside it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def _form(request: Request, most: int = MAX_FORM_BYTES) -> dict[str, str]:
    """A small urlencoded form: ``most`` bytes (:data:`MAX_FORM_BYTES`),
    :data:`MAX_FORM_FIELDS`."""
    length = request.headers.get("content-length")
    if length is None or not length.isdigit() or len(length) > 20:
        raise FormError(411, "send the form with its Content-Length")
    if int(length) > most:
        raise FormError(413, f"the form is {length} bytes long: at most {most}")
    try:
        form = await request.form(max_files=0, max_fields=MAX_FORM_FIELDS, max_part_size=most)
    except HTTPException as exc:  # too many fields: Starlette's 400
        raise FormError(exc.status_code, str(exc.detail)) from None
    return {k: v for k, v in form.items() if isinstance(v, str)}


def _gettext(request: Request) -> Any:
    return translator(_lang(request)).gettext


def _lang(request: Request) -> str:
    lang, _ = request_language(request, pages_of(request).default_language)
    return lang


# ------------------------------------------------------------------------ the new table


def _seconds(text: str, what: str, bounds: tuple[int, int], gettext: Any) -> int | None:
    if text == "off":
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 4) or not (
        bounds[0] <= int(text) <= bounds[1]
    ):
        raise FormError(
            422,
            gettext("{what}: from {low} to {high} seconds, or off.").format(
                what=what, low=bounds[0], high=bounds[1]
            ),
        )
    return int(text)


def _house_rules(text: str, spec: str, players: int, gettext: Any, lang: str) -> dict[str, Any]:
    """The house rules of the form (TOML text: a house-rule file, whose ``base`` is the
    rule set chosen above unless it names one), read and checked, as the inline object
    of ``POST /api/online/tables``.  Never a file: a ``base`` that names one is refused."""
    if len(text) > MAX_HOUSE_RULES_CHARS:
        raise FormError(
            422,
            gettext("House rules: at most {n} characters, these have {m}.").format(
                n=MAX_HOUSE_RULES_CHARS, m=len(text)
            ),
        )
    where = gettext("house rules")
    try:
        data = parse_toml_text(text, where)
        data.setdefault("base", spec)
        rules = load_untrusted(data, where)
    except MahjongError as exc:
        raise FormError(422, render(exc.text, lang)) from None
    seats = rules.table.players + (1 if rules.table.dreamer else 0)
    if seats != players:
        raise FormError(
            422,
            gettext("The house rules are played by {n} players: choose {n} players.").format(
                n=seats
            ),
        )
    return data


def table_settings(form: dict[str, str], gettext: Any, lang: str = "en") -> dict[str, Any]:
    """The settings of ``POST /api/online/tables`` from the new-table form (the server
    checks them again)."""
    base = form.get("ruleset", DEFAULTS["ruleset"])
    if base not in SHIPPED:
        raise FormError(422, gettext("Choose one of the rule sets shown."))
    players_text = form.get("players", "4")
    if players_text not in ("3", "4", "5"):
        raise FormError(422, gettext("Choose 3, 4 or 5 players."))
    players = int(players_text)
    spec = base + ("+flowers" if form.get("flowers") == "1" else "") + PLAYER_OVERLAY[players]
    seats: list[dict[str, Any]] = []
    for i in range(players):
        kind = form.get(f"seat{i}", "human")
        if kind not in SEAT_CHOICES:
            raise FormError(422, gettext("Seat {n}: a player or a bot.").format(n=i + 1))
        seats.append({"kind": "human"} if kind == "human" else {"kind": "bot", "bot": kind})
    if all(s["kind"] == "bot" for s in seats):
        raise FormError(422, gettext("Keep at least one seat for a player."))
    bot = form.get("bot", "heuristic")
    if bot not in BOT_LEVELS:
        raise FormError(422, gettext("Choose one of the bots shown."))
    hands_text = form.get("hands", "match")
    hands: int | None = None
    if hands_text != "match":
        if not (hands_text.isascii() and hands_text.isdigit() and len(hands_text) <= 3) or not (
            1 <= int(hands_text) <= MAX_HANDS
        ):
            raise FormError(
                422,
                gettext("Hands: from 1 to {n}, or the whole match.").format(n=MAX_HANDS),
            )
        hands = int(hands_text)
    house = form.get("house", "").strip()
    return {
        "ruleset": _house_rules(house, spec, players, gettext, lang) if house else spec,
        "seats": seats,
        "bot": bot,
        "turn_seconds": _seconds(
            form.get("turn", "30"), gettext("Turn timer"), TURN_SECONDS, gettext
        ),
        "claim_seconds": _seconds(
            form.get("claim", "10"), gettext("Claim timer"), CLAIM_SECONDS, gettext
        ),
        "hands": hands,
        "public": form.get("public") == "1",
        "hints": form.get("hints") == "1",
    }


def _chosen(form: dict[str, str] | None) -> dict[str, Any]:
    """The form's values to show again (the defaults for a new form)."""
    if form is None:
        return dict(DEFAULTS)
    players = form.get("players", "4")
    return {
        "ruleset": form.get("ruleset", "nts-2016")[:40],
        "flowers": form.get("flowers") == "1",
        "players": int(players) if players in ("3", "4", "5") else 4,
        "seats": [form.get(f"seat{i}", "human")[:20] for i in range(MAX_SEATS)],
        "bot": form.get("bot", "heuristic")[:20],
        "turn": form.get("turn", "30")[:10],
        "claim": form.get("claim", "10")[:10],
        "hands": form.get("hands", "match")[:10],
        "public": form.get("public") == "1",
        "hints": form.get("hints") == "1",
        "house": form.get("house", "")[:MAX_HOUSE_RULES_CHARS],
    }


async def _lobby_page(
    request: Request,
    *,
    status: int = 200,
    error: str | None = None,
    form: dict[str, str] | None = None,
) -> HTMLResponse:
    server = getattr(request.app.state, "online", None)
    tables: list[dict[str, Any]] = []
    if isinstance(server, OnlineServer):
        try:
            tables = await server.lobby()
        except OnlineError as exc:
            if error is None:
                status, error = exc.status, exc.message
    elif error is None:
        status, error = 503, "the online tables are not available (no database)"
    return pages_of(request).render(
        request,
        "online.html",
        status_code=status,
        active="online",
        error=error,
        tables=tables,
        waiting=[t for t in tables if t["status"] == "waiting" and t["table"]],
        playing=[t for t in tables if t["status"] == "playing"],
        rulesets=SHIPPED,
        chosen=_chosen(form),
        player_counts=PLAYER_COUNTS,
        max_seats=MAX_SEATS,
        seat_choices=SEAT_CHOICES,
        bot_levels=BOT_LEVELS,
        turn_choices=TURN_CHOICES,
        claim_choices=CLAIM_CHOICES,
        hand_choices=HAND_CHOICES,
        max_house=MAX_HOUSE_RULES_CHARS,
    )


@router.get("/online", response_class=HTMLResponse, include_in_schema=False)
async def lobby_page(request: Request) -> HTMLResponse:
    return await _lobby_page(request)


@router.post("/online", include_in_schema=False)
async def new_table(request: Request) -> Response:
    gettext = _gettext(request)
    form: dict[str, str] | None = None
    try:
        form = await _form(request, MAX_NEW_TABLE_FORM_BYTES)
        data = table_settings(form, gettext, _lang(request))
        table = await _server(request.app).create(data, _client(request))
    except FormError as exc:
        return await _lobby_page(request, status=exc.status, error=exc.message, form=form)
    except OnlineError as exc:
        return await _lobby_page(request, status=exc.status, error=exc.message, form=form)
    except StoreError as exc:
        return await _lobby_page(
            request, status=503, error=f"the database failed: {exc}", form=form
        )
    return RedirectResponse(f"/online/{table.id}?new=1", status_code=303)


# ------------------------------------------------------------------------ a table


def _absolute(request: Request, path: str) -> str:
    return str(request.base_url).rstrip("/") + path


def _invites(request: Request, table: Table) -> dict[str, Any]:
    """The table's links, whole (to copy), with each seat's nickname or bot."""
    links = _links(table)
    seats = []
    for seat, link in zip(table.seats, links["seats"], strict=True):
        seats.append(
            {
                "seat": seat.seat,
                "kind": seat.kind,
                "bot": seat.bot,
                "nickname": seat.nickname,
                "link": None if link is None else _absolute(request, link),
            }
        )
    return {
        "join": _absolute(request, links["join"]),
        "seats": seats,
        "watch": _absolute(request, links["watch"]),
        "open": any(s.kind == "human" and not s.taken for s in table.seats),
    }


def _texts(gettext: Any) -> dict[str, Any]:
    """The lines ``online.js`` shows, in the page's language."""
    errors = {
        "malformed": gettext("The server did not understand that message."),
        "too_big": gettext("That message is too long."),
        "rate_limited": gettext("Too many messages at once: slow down."),
        "spectator": gettext("You are watching: you cannot play or chat here."),
        "not_your_turn": gettext("It is not your turn."),
        "stale": gettext("Too late: the table had moved on. Nothing changed."),
        "answered": gettext("You have answered already."),
        "illegal": gettext("That move is not allowed now."),
        "not_now": gettext("Not now."),
        "closed": gettext("This table is closed."),
        "unavailable": gettext("The server could not store that, so nothing happened: try again."),
        "moved": gettext("This table is played on another server: opening it there…"),
    }
    assert set(errors) == set(ERROR_CODES)
    return {
        "connecting": gettext("Connecting to the table…"),
        "connected": gettext("Connected."),
        "lost": gettext("The connection was lost: trying again in {s} s."),
        "offline": gettext("No network: the table connects again when it is back."),
        "notSent": gettext("Not connected: that was not sent. Reconnecting…"),
        "gone": gettext("This table does not exist (any more)."),
        "closed": gettext("This table is closed."),
        "badSeat": gettext(
            "Your seat cookie is not valid at this table: open your rejoin link, or reload "
            "the page to join again."
        ),
        "yourTurn": gettext("Your turn"),
        "notDrawn": gettext("The table could not be drawn: reload the page."),
        "errors": errors,
    }


async def _table_page(
    request: Request,
    table: Table,
    seat: int | None,
    *,
    watch: bool,
    token: str | None = None,
) -> HTMLResponse:
    pages = pages_of(request)
    lang, _ = request_language(request, pages.default_language)
    state = await _state(table, seat, by_table_id=not watch)
    live_html = Markup(draw_live(pages.envs[lang], lang, state))
    socket = f"/ws/online/watch/{table.watch_id}" if watch else f"/ws/online/{table.id}"
    response = pages.render(
        request,
        "online_table.html",
        active="online",
        state=state,
        live_html=live_html,
        socket=socket,
        watch=watch,
        invites=None if watch else _invites(request, table),
        rejoin=None if token is None else _absolute(request, f"/online/{table.id}/rejoin/{token}"),
        texts=_texts(translator(lang).gettext),
        max_chat=MAX_CHAT_CHARS,
    )
    # the page holds the seat's rejoin link (its token): kept in no cache
    response.headers["Cache-Control"] = "no-store"
    return response


def _join_page(
    request: Request,
    table: Table,
    *,
    status: int = 200,
    error: str | None = None,
    nickname: str = "",
) -> HTMLResponse:
    free = [s.seat for s in table.seats if s.kind == "human" and not s.taken]
    asked = request.query_params.get("seat", "")
    fixed = int(asked) if asked.isascii() and asked.isdigit() and len(asked) < 2 else None
    return pages_of(request).render(
        request,
        "online_join.html",
        status_code=status,
        active="online",
        table=table,
        ruleset=ruleset_label(table.settings.ruleset, table.rules),
        house_rules=not isinstance(table.settings.ruleset, str),
        free=free,
        fixed=fixed if fixed in free else None,
        asked=fixed,
        error=error,
        nickname=nickname,
        max_nickname=MAX_NICKNAME_CHARS,
        invites=_invites(request, table),
        open=table.status in ("waiting", "playing"),
        new=request.query_params.get("new") == "1",
    )


async def _gone_page(request: Request, exc: OnlineError) -> Response:
    """A table that is not here: the same page at the server process that holds it
    (307), or the lobby with the reason."""
    if isinstance(exc, Moved):
        return moved_response(request, exc)
    return await _lobby_page(request, status=exc.status, error=exc.message)


@router.get("/online/watch/{watch_id}", response_class=HTMLResponse, include_in_schema=False)
async def watch_page(request: Request, watch_id: str) -> Response:
    try:
        table = await _server(request.app).get_watched(watch_id)
    except OnlineError as exc:
        return await _gone_page(request, exc)
    return await _table_page(request, table, None, watch=True)


@router.get("/online/{table_id}", response_class=HTMLResponse, include_in_schema=False)
async def table_page(request: Request, table_id: str) -> Response:
    try:
        server = _server(request.app)
        table = await server.get(table_id)
    except OnlineError as exc:
        return await _gone_page(request, exc)
    cookie = request.cookies.get(cookie_name(table.id))
    seat = server.seat_of_cookie(table, cookie)
    if seat is None:
        return _join_page(request, table)
    token = unsign(server.secret, table.id, cookie)
    return await _table_page(request, table, seat, watch=False, token=token)


def _chosen_seat(table: Table, text: str, nickname: str, gettext: Any) -> int | None:
    """The seat the join form asks for (``None``: the first free one), with the page's
    own words for the refusals a player meets (the server checks again, and has the
    last word)."""
    seat = None
    if text:
        if not (text.isascii() and text.isdigit() and int(text) < len(table.seats)):
            raise FormError(422, gettext("Choose one of the free seats."))
        seat = int(text)
        if table.seats[seat].kind != "human" or table.seats[seat].taken:
            raise FormError(
                409, gettext("Seat {n} is taken already: choose another.").format(n=seat + 1)
            )
    if nickname and any(
        s.nickname is not None and s.nickname.casefold() == nickname.casefold() for s in table.seats
    ):
        raise FormError(
            409,
            gettext("The name {name} is taken at this table: choose another.").format(
                name=nickname
            ),
        )
    return seat


@router.post("/online/{table_id}/join", include_in_schema=False)
async def join_form(request: Request, table_id: str) -> Response:
    try:
        server = _server(request.app)
        table = await server.get(table_id)
    except OnlineError as exc:
        return await _gone_page(request, exc)
    nickname = ""
    try:
        form = await _form(request)
        nickname = form.get("nickname", "")[: MAX_NICKNAME_CHARS * 2]
        seat = _chosen_seat(table, form.get("seat", ""), nickname.strip(), _gettext(request))
        taken, token = await server.join(table.id, nickname.strip(), seat)
    except FormError as exc:
        return _join_page(request, table, status=exc.status, error=exc.message, nickname=nickname)
    except OnlineError as exc:
        return _join_page(request, table, status=exc.status, error=exc.message, nickname=nickname)
    response = RedirectResponse(f"/online/{table.id}", status_code=303)
    _set_seat_cookie(response, request, server, table.id, token)
    assert taken >= 0
    return response
