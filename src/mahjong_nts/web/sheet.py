"""The evening score sheet's pages (``/sheet``): start a session, the sheet at its
unguessable link with a form for the next hand, a page per hand to correct it
(with its history), the CSV export and a printable page.

Every number comes from the store (:mod:`mahjong_nts.store`, which computes the
rows with :mod:`mahjong_nts.sheet` and scores calculator hands with
:mod:`mahjong_nts.formats.wire`); these routes read forms, call it, and render.
A form with a problem is shown again with the message beside the field (422)
and nothing stored.  Store errors: see :mod:`mahjong_nts.web.database`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, Final, TypeVar
from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.tiles import parse_tile
from mahjong_nts.formats.rulefiles import SHIPPED, load_untrusted
from mahjong_nts.i18n import translator
from mahjong_nts.sheet import ScoresEntry, SheetError, compute
from mahjong_nts.store import (
    Change,
    Conflict,
    NotFound,
    SheetView,
    Store,
    StoreError,
    add_hand,
    changes,
    correct_hand,
    create_session,
    get_sheet,
    sheet_version,
)
from mahjong_nts.store.entries import score_hands
from mahjong_nts.web.api.body import read_bounded
from mahjong_nts.web.database import database, status_of
from mahjong_nts.web.sheetforms import (
    MAX_FORM_BYTES,
    MAX_HAND_CHARS,
    SCORE_DIGITS,
    Form,
    FormProblem,
    Gettext,
    csv_text,
    describe_entry,
    entry_from_form,
    entry_values,
    error_field,
    euros,
    form_keys,
    parse_form,
    session_from_form,
    wind_name,
)
from mahjong_nts.web.templating import pages_of, request_language

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

FORM_TYPE: Final = "application/x-www-form-urlencoded"
LIVE_SECONDS: Final = 3
"""How often an open sheet asks whether it changed (``GET /sheet/TOKEN/live``)."""
_QUERY_KEYS: Final = frozenset(
    ["kind", "hand", "player", "winner", "discarder", "dominant", "how", "from", "last_tile"]
    + ["seat", "round", "ruleset"]
    + [f"hand{p}" for p in range(5)]
    + [f"score{p}" for p in range(5)]
)

_T = TypeVar("_T")


def _gettext(request: Request) -> tuple[str, Gettext]:
    lang, _chosen = request_language(request, pages_of(request).default_language)
    return lang, translator(lang).gettext


async def _call(request: Request, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """``fn(store, *args)`` in a worker thread (the store is synchronous)."""
    store = database(request).store
    return await run_in_threadpool(lambda: fn(store(), *args, **kwargs))


def _problem(request: Request, exc: StoreError) -> HTMLResponse:
    """A page for a store error that is not about a form field."""
    status = status_of(exc)
    if status == 404:
        return pages_of(request).render(request, "404.html", status_code=404, active="sheet")
    _lang, _ = _gettext(request)
    message = (
        _("The score sheets cannot be reached now: {reason}").format(reason=exc)
        if status == 503
        else str(exc)
    )
    return pages_of(request).render(
        request, "sheet_error.html", status_code=status, active="sheet", message=message
    )


def _form_too_large() -> HTTPException:
    return HTTPException(413, f"a form has at most {MAX_FORM_BYTES} bytes")


async def _read_form(request: Request) -> Form:
    """The urlencoded body, within :data:`MAX_FORM_BYTES` (413 past it, 415 for
    another content type)."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != FORM_TYPE:
        raise HTTPException(415, f"send the form as {FORM_TYPE}")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length[:20]) > MAX_FORM_BYTES):
        raise _form_too_large()
    body = await read_bounded(request, MAX_FORM_BYTES, _form_too_large)
    try:
        return parse_form(body)
    except FormProblem as exc:
        raise HTTPException(413 if "fields" in str(exc) else 400, str(exc)) from None


# --------------------------------------------------------------------------- start


def _start_page(request: Request, form: Form, status: int = 200) -> HTMLResponse:
    names = [*form.names, *[""] * 5][:5]
    return pages_of(request).render(
        request,
        "sheet_start.html",
        status_code=status,
        active="sheet",
        form=form,
        names=names,
        rulesets=SHIPPED,
    )


@router.get("/sheet", response_class=HTMLResponse)
async def start(request: Request) -> HTMLResponse:
    return _start_page(request, Form(values={"ruleset": SHIPPED[0]}))


@router.post("/sheet", response_class=HTMLResponse)
async def create(request: Request) -> Response:
    form = await _read_form(request)
    _lang, _ = _gettext(request)
    names, index, spec, chip = session_from_form(form, _)
    if form.errors:
        return _start_page(request, form, 422)
    try:
        info = await _call(request, create_session, names=names, ruleset=spec, chip=chip)
    except SheetError as exc:
        key = error_field(exc, len(names))
        if key.startswith("name") and key[4:].isdigit():
            key = f"name{index[int(key[4:])]}"  # the field it came from
        form.errors[key if key in form_keys(5) else "names"] = exc.message
        return _start_page(request, form, 422)
    except StoreError as exc:
        return _problem(request, exc)
    return RedirectResponse(f"/sheet/{info.token}", status_code=303)


# --------------------------------------------------------------------------- the sheet


def _next_hand(view: SheetView) -> dict[str, Any]:
    """Who is East, the round wind, the dreamer and the seat winds of the next
    hand: the place a remise appended to the sheet would have."""
    n = view.sheet.players
    entries = [*(h.row.entry for h in view.hands), ScoresEntry((0,) * n, None)]
    row = compute(view.sheet, entries, score_hands)[-1]
    return {
        "number": row.number + 1,
        "east": row.east,
        "round_wind": row.round_wind,
        "dreamer": row.dreamer,
        "green": row.green,
        "seat_winds": row.seat_winds,
    }


def _rows(view: SheetView, lang: str, _: Gettext) -> list[dict[str, Any]]:
    names = view.session.names
    out = []
    for hand in view.hands:
        row = hand.row
        entry = row.entry
        cells = []
        for p in range(len(names)):
            cells.append(
                {
                    "wind": wind_name(row.seat_winds[p], _),
                    "score": row.scores[p],
                    "balance": row.balances[p],
                    "total": row.totals[p],
                    "money_total": None
                    if row.money_totals is None
                    else euros(row.money_totals[p], lang),
                    "winner": entry.winner == p,
                    "discarder": entry.discarder == p,
                    "dreamer": row.dreamer == p,
                }
            )
        out.append(
            {
                "number": row.number + 1,
                "game": row.game + 1,
                "round_wind": wind_name(row.round_wind, _),
                "east": names[row.east],
                "problem": row.problem,
                "version": hand.version,
                "cells": cells,
                "describe": describe_entry(hand.entry, names, _),
            }
        )
    return out


def _standings(view: SheetView, lang: str) -> list[dict[str, Any]]:
    names = view.session.names
    last = view.hands[-1].row if view.hands else None
    return [
        {
            "name": name,
            "total": last.totals[p] if last else 0,
            "money": None
            if view.session.chip is None
            else euros(last.money_totals[p] if last and last.money_totals else Decimal(0), lang),
        }
        for p, name in enumerate(names)
    ]


def _query_values(
    request: Request, view: SheetView, nxt: dict[str, Any], _: Gettext
) -> tuple[dict[str, str], str | None]:
    """The add form prefilled from the query, and a note for the reader.

    The calculator links here with its own query (``?hand=NOTATION&seat=S&round=E
    &from=discard&ruleset=nts-2016...``): the hand goes to the player who has seat
    wind ``seat`` in the next hand (``player=P`` names him instead; default the
    winner, else player 0), and a hand with a winning tile makes him the winner
    unless ``winner`` says otherwise.  Known keys only, each cut to
    :data:`MAX_HAND_CHARS`.  The note says so when the calculator scored the hand in
    another round or under another rule set than the sheet will."""
    values = {k: v[:MAX_HAND_CHARS] for k, v in request.query_params.items() if k in _QUERY_KEYS}
    hand = values.pop("hand", None)
    source = values.pop("from", None)  # the calculator's name for it
    if source is not None:
        values.setdefault("how", source)
    seat = values.pop("seat", None)
    calc_round = values.pop("round", None)
    if calc_round not in ("E", "S", "W", "N", "F"):
        calc_round = None
    calc_rules = values.pop("ruleset", None)
    player = values.pop("player", None)
    winds = [w.token if w is not None else None for w in nxt["seat_winds"]]
    if not player and seat in winds:
        player = str(winds.index(seat))
    player = player or values.get("winner") or "0"
    players = view.sheet.players
    if hand is not None and player.isdigit() and len(player) == 1 and int(player) < players:
        values[f"hand{player}"] = hand
        values.setdefault("kind", "hands")
        if "+" in hand:
            values.setdefault("winner", player)
    notice = None
    sheet_round = nxt["round_wind"].token
    differs = (calc_round is not None and calc_round != sheet_round) or (
        calc_rules is not None and calc_rules != view.session.ruleset_name
    )
    if hand is not None and differs:
        notice = _(
            "The calculator scored this hand in the {round} round under {ruleset}; the sheet "
            "scores it in its place: the {sheet_round} round under {sheet_ruleset}."
        ).format(
            round=wind_name(parse_tile(calc_round or sheet_round), _),
            ruleset=calc_rules or view.session.ruleset_name,
            sheet_round=wind_name(nxt["round_wind"], _),
            sheet_ruleset=view.session.ruleset_name,
        )
    return values, notice


def _form_context(view: SheetView, _: Gettext) -> dict[str, Any]:
    return {
        "players": list(enumerate(view.session.names)),
        "how": [
            ("wall", _("from the wall")),
            ("discard", _("on a discard")),
            ("loose_tile", _("a loose tile after a kong")),
            ("robbed_kong", _("robbing a kong")),
        ],
        "green_dragon": view.sheet.rules.table.green_dragon != "none",
        "score_digits": SCORE_DIGITS,
    }


def _calc_link(view: SheetView, nxt: dict[str, Any]) -> str:
    """The calculator, set to the next hand's round and the sheet's rule set (when
    the calculator knows it: a shipped set)."""
    pairs = [("round", nxt["round_wind"].token)]
    try:
        load_untrusted(view.session.ruleset_name)
        pairs.append(("ruleset", view.session.ruleset_name))
    except MahjongError:
        pass  # a sheet with house rules inline (made through the store): the default
    return "/?" + urlencode(pairs)


def _sheet_page(
    request: Request,
    view: SheetView,
    form: Form,
    status: int = 200,
    added: str = "",
    *,
    nxt: dict[str, Any] | None = None,
    notice: str | None = None,
    prefilled: bool = False,
    template: str = "sheet.html",
) -> HTMLResponse:
    lang, _ = _gettext(request)
    nxt = nxt or _next_hand(view)
    return pages_of(request).render(
        request,
        template,
        status_code=status,
        active="sheet",
        view=view,
        token=view.session.token,
        link=str(request.base_url).rstrip("/") + f"/sheet/{view.session.token}",
        chip=None
        if view.session.chip is None
        else str(view.session.chip).replace(".", "," if lang == "nl" else "."),
        rows=_rows(view, lang, _),
        standings=_standings(view, lang),
        next=nxt,
        next_east=view.session.names[nxt["east"]],
        next_round=wind_name(nxt["round_wind"], _),
        winds=[wind_name(w, _) for w in nxt["seat_winds"]],
        dreamer=nxt["dreamer"],
        green=nxt["green"],
        added=added,
        form=form,
        action=f"/sheet/{view.session.token}/hands",
        notice=notice,
        prefilled=prefilled or status != 200,
        live_seconds=LIVE_SECONDS,
        etag=_etag(view.version, lang),
        calc_link=_calc_link(view, nxt),
        **_form_context(view, _),
    )


@router.get("/sheet/{token}.csv")
async def sheet_csv(request: Request, token: str) -> Response:
    _lang, _ = _gettext(request)
    try:
        view = await _call(request, get_sheet, token)
    except StoreError as exc:
        raise HTTPException(status_of(exc), str(exc)) from None
    return Response(
        csv_text(view, _).encode("utf-8-sig"),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": 'attachment; filename="score-sheet.csv"',
            "Cache-Control": "no-store",
        },
    )


@router.get("/sheet/{token}", response_class=HTMLResponse)
async def sheet_page(request: Request, token: str) -> HTMLResponse:
    try:
        view = await _call(request, get_sheet, token)
    except StoreError as exc:
        return _problem(request, exc)
    _lang, _ = _gettext(request)
    nxt = _next_hand(view)
    values, notice = _query_values(request, view, nxt, _)
    prefilled = bool(set(values) - {"kind"})
    values.setdefault("kind", "scores")
    return _sheet_page(
        request,
        view,
        Form(values=values),
        added=_done(request, view),
        nxt=nxt,
        notice=notice,
        prefilled=prefilled,
    )


def _etag(version: int, lang: str) -> str:
    """The live fragment's ETag: the sheet's version (:func:`sheet_version`) in a
    language (the page's own ETag, given to sheet.js, is the same)."""
    return f'W/"sheet-{version}-{lang}"'


def _matches(header: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (weak comparison)."""
    if not header:
        return False
    tags = {t.strip().removeprefix("W/") for t in header[:1000].split(",")}
    return "*" in tags or etag.removeprefix("W/") in tags


@router.get("/sheet/{token}/live")
async def sheet_live(request: Request, token: str) -> Response:
    """What changes when a hand is added or corrected (``templates/sheet_live.html``),
    for ``sheet.js``'s polling: ``304 Not Modified`` (no body) while the sheet is at
    the version the client's ``If-None-Match`` names, which costs two small queries;
    else the fragment with its ``ETag``.  ``kind=hands`` renders the add form for hands."""
    lang, _ = _gettext(request)
    kind = "hands" if request.query_params.get("kind") == "hands" else "scores"
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"}
    try:
        version = await _call(request, sheet_version, token)
        if _matches(request.headers.get("if-none-match"), _etag(version, lang)):
            return Response(status_code=304, headers={**headers, "ETag": _etag(version, lang)})
        view = await _call(request, get_sheet, token)
    except StoreError as exc:
        return Response(
            str(exc), status_code=status_of(exc), media_type="text/plain; charset=utf-8"
        )
    page = _sheet_page(request, view, Form(values={"kind": kind}), template="sheet_live.html")
    page.headers.update({**headers, "ETag": _etag(view.version, lang)})
    return page


def _done(request: Request, view: SheetView) -> str:
    """What the last form did (``?added=N`` / ``?corrected=N`` after its
    redirect), for the page's status line (read out by screen readers)."""
    _lang, _ = _gettext(request)
    for key, text in (("added", _("Hand {n} added.")), ("corrected", _("Hand {n} corrected."))):
        value = request.query_params.get(key, "")
        if value.isdigit() and len(value) <= 4 and 1 <= int(value) <= len(view.hands):
            row = view.hands[int(value) - 1].row
            totals = ", ".join(
                f"{name} {total}"
                for name, total in zip(view.session.names, row.totals, strict=True)
            )
            return text.format(n=value) + " " + _("Totals: {totals}").format(totals=totals)
    return ""


@router.get("/sheet/{token}/print", response_class=HTMLResponse)
async def print_page(request: Request, token: str) -> HTMLResponse:
    lang, _ = _gettext(request)
    try:
        view = await _call(request, get_sheet, token)
    except StoreError as exc:
        return _problem(request, exc)
    return pages_of(request).render(
        request,
        "sheet_print.html",
        active="sheet",
        view=view,
        token=token,
        rows=_rows(view, lang, _),
        standings=_standings(view, lang),
    )


def _form_errors(form: Form, exc: SheetError, players: int) -> None:
    key = error_field(exc, players)
    form.errors[key] = exc.message if key != "entry" else exc.text


@router.get("/sheet/{token}/hands")
async def hands_list(request: Request, token: str) -> RedirectResponse:
    """The add form's address opened (the language switch of a form with a
    problem links here): the sheet."""
    lang = request.query_params.get("lang")
    query = f"?lang={lang}" if lang in ("nl", "en") else ""
    return RedirectResponse(f"/sheet/{token}{query}", status_code=303)


@router.post("/sheet/{token}/hands", response_class=HTMLResponse)
async def add(request: Request, token: str) -> Response:
    form = await _read_form(request)
    try:
        view = await _call(request, get_sheet, token)
    except StoreError as exc:
        return _problem(request, exc)
    _lang, _ = _gettext(request)
    players = view.sheet.players
    entry = entry_from_form(form, players, _)
    if entry is None:
        return _sheet_page(request, view, form, 422)
    try:
        hand = await _call(request, add_hand, token, entry)
    except SheetError as exc:
        _form_errors(form, exc, players)
        return _sheet_page(request, view, form, 422)
    except StoreError as exc:
        return _problem(request, exc)
    n = hand.number + 1
    kind = "&kind=hands" if "hands" in entry else ""  # the next hand is entered the same way
    return RedirectResponse(f"/sheet/{token}?added={n}{kind}#hand-{n}", status_code=303)


# --------------------------------------------------------------------------- one hand


def _hand_page(
    request: Request,
    view: SheetView,
    number: int,
    form: Form,
    history: Sequence[Change],
    status: int = 200,
    conflict: str | None = None,
) -> HTMLResponse:
    lang, _ = _gettext(request)
    names = view.session.names
    hand = view.hands[number]
    shown = [
        {
            "version": ch.version,
            "changed": ch.changed.strftime("%Y-%m-%d %H:%M UTC"),
            "iso": ch.changed.strftime("%Y-%m-%dT%H:%MZ"),
            "old": describe_entry(ch.old_entry, names, _),
            "new": describe_entry(ch.new_entry, names, _),
        }
        for ch in history
    ]
    row = hand.row
    return pages_of(request).render(
        request,
        "sheet_hand.html",
        status_code=status,
        active="sheet",
        view=view,
        token=view.session.token,
        number=number + 1,
        version=hand.version,
        row=_rows(view, lang, _)[number],
        east=names[row.east],
        round_wind=wind_name(row.round_wind, _),
        winds=[wind_name(w, _) for w in row.seat_winds],
        dreamer=row.dreamer,
        green=row.green,
        history=shown,
        conflict=conflict,
        form=form,
        action=f"/sheet/{view.session.token}/hands/{number + 1}",
        **_form_context(view, _),
    )


def _hand_number(view: SheetView, number: str) -> int:
    if not (number.isdigit() and len(number) <= 4 and 1 <= int(number) <= len(view.hands)):
        raise NotFound(f"this sheet has no hand {number[:8]}")
    return int(number) - 1


async def _load_hand(
    request: Request, token: str, number: str
) -> tuple[SheetView, int, tuple[Change, ...]]:
    """The sheet, the hand's index and its history (404 for a hand it has not)."""

    def load(store: Store) -> tuple[SheetView, int, tuple[Change, ...]]:
        view = get_sheet(store, token)
        n = _hand_number(view, number)
        return view, n, changes(store, token, n)

    return await _call(request, load)


@router.get("/sheet/{token}/hands/{number}", response_class=HTMLResponse)
async def hand_page(request: Request, token: str, number: str) -> HTMLResponse:
    try:
        view, n, history = await _load_hand(request, token, number)
    except StoreError as exc:
        return _problem(request, exc)
    values = entry_values(view.hands[n].entry, view.sheet.players)
    values["version"] = str(view.hands[n].version)
    return _hand_page(request, view, n, Form(values=values), history)


@router.post("/sheet/{token}/hands/{number}", response_class=HTMLResponse)
async def correct(request: Request, token: str, number: str) -> Response:
    form = await _read_form(request)
    try:
        view, n, history = await _load_hand(request, token, number)
    except StoreError as exc:
        return _problem(request, exc)
    _lang, _ = _gettext(request)
    players = view.sheet.players
    version_text = form.get("version")
    if not (version_text.isdigit() and len(version_text) <= 9):
        form.errors["entry"] = _("reload the page and correct the hand again")
    entry = entry_from_form(form, players, _)
    if entry is None or form.errors:
        return _hand_page(request, view, n, form, history, 422)
    try:
        await _call(request, correct_hand, token, n, entry, version=int(version_text))
    except SheetError as exc:
        _form_errors(form, exc, players)
        return _hand_page(request, view, n, form, history, 422)
    except Conflict:
        message = _(
            "Someone else corrected hand {n} since you opened it. Your change is not "
            "saved: reload the hand to see the new version, then correct it again."
        ).format(n=n + 1)
        return _hand_page(request, view, n, form, history, 409, conflict=message)
    except StoreError as exc:
        return _problem(request, exc)
    return RedirectResponse(f"/sheet/{token}?corrected={n + 1}#hand-{n + 1}", status_code=303)
