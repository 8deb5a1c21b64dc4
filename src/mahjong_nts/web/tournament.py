"""The tournament pages.

For the organiser, at the tournament's secret link ``/tournaments/TOKEN``: make a
tournament (``/tournaments``), register players one by one or from pasted CSV, mark
them late, gone or absent, seat the next round, enter and correct each table's
result, give penalties, see the standings; a printable page of score cards (each
player's QR code to their own page) and the seating list.

For everyone with the public link ``/t/PUBLIC``: the standings and the seating; each
player's own page for a phone (``/t/PUBLIC/p/N``: their table and wind in the round
seated last, their results so far, their place); the big screen
(``/t/PUBLIC/screen``, refreshing itself) with the seating and the standings.

Every check is the store's and the tournament logic's
(:mod:`mahjong_nts.store.tournaments`); these routes read forms, call it, render.  A
refused form is shown again with the message (422; 409 when another official was
first) and nothing stored.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final, TypeVar

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.formats.rulefiles import SHIPPED
from mahjong_nts.i18n import translator
from mahjong_nts.online.tournament_sources import MAX_SOURCE_CHARS, enter_result_from, source_of
from mahjong_nts.store import Conflict, NotFound, Store, StoreError
from mahjong_nts.store.tournaments import (
    TournamentView,
    add_penalty,
    add_player,
    create_tournament,
    edit_player,
    enter_result,
    get_tournament,
    import_players,
    seat_next_round,
    set_rounds,
    swap_players,
    tournament_version,
)
from mahjong_nts.tournament import Round, Standing, format_points, read_schedule
from mahjong_nts.tournament.players import MAX_PLAYERS
from mahjong_nts.tournament.registration import MAX_PLAYERS_BYTES, status
from mahjong_nts.web.api.body import read_bounded
from mahjong_nts.web.database import database, status_of
from mahjong_nts.web.sheetforms import FormProblem, parse_form
from mahjong_nts.web.templating import pages_of, request_language

__all__ = ["SCREEN_SECONDS", "router"]

router = APIRouter(include_in_schema=False)

FORM_TYPE: Final = "application/x-www-form-urlencoded"
MAX_FORM_BYTES: Final = 160 * 1024
"""Bytes of a form's body: a pasted players file (128 KiB) urlencoded fits."""
SCREEN_SECONDS: Final = 10
"""How often the big screen asks whether the tournament changed (one small query,
``GET /t/PUBLIC/version``); it loads itself again only when it did."""
NUMBER_DIGITS: Final = 16
"""Digits of a number typed into a form (scores within 2^48 have 15)."""

_T = TypeVar("_T")


async def _call(request: Request, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    store = database(request).store
    return await run_in_threadpool(lambda: fn(store(), *args, **kwargs))


def _gettext(request: Request) -> Callable[[str], str]:
    lang, _chosen = request_language(request, pages_of(request).default_language)
    return translator(lang).gettext


async def _form(request: Request) -> dict[str, str]:
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    body = await read_bounded(
        request,
        MAX_FORM_BYTES,
        lambda: HTTPException(413, f"a form has at most {MAX_FORM_BYTES} bytes"),
    )
    if not body:
        return {}  # a form of a button alone
    if media != FORM_TYPE:
        raise HTTPException(415, f"send the form as {FORM_TYPE}")
    try:
        if len(body) > 64 * 1024:  # only the players file is long: read it alone
            from urllib.parse import parse_qsl

            pairs = parse_qsl(
                body.decode("utf-8"), keep_blank_values=True, max_num_fields=4, errors="strict"
            )
            return {k: v for k, v in pairs}
        parsed = parse_form(body)
        values = dict(parsed.values)
        if parsed.names:  # the sheet's reader keeps every "name" apart
            values["name"] = parsed.names[-1]
        return values
    except (FormProblem, UnicodeDecodeError, ValueError) as exc:
        raise HTTPException(400, str(exc) or "a form that cannot be read") from None


def _int(value: str, default: int | None = None) -> int | None:
    text = value.strip()
    if not text:
        return default
    body = text[1:] if text[:1] in "+-" else text
    if not body.isdigit() or len(body) > NUMBER_DIGITS:
        return None
    return int(text)


class _Refused(Exception):
    """A form field that is not a number: said like the store's refusals."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _number(form: dict[str, str], key: str, what: str, gettext: Callable[[str], str]) -> int:
    value = _int(form.get(key, ""))
    if value is None:
        raise _Refused(gettext("{what}: give a whole number").format(what=what))
    return value


# --------------------------------------------------------------------------- views


def _names(view: TournamentView) -> dict[int, str]:
    return {p.number: p.name for p in view.roster}


def _standings(view: TournamentView) -> list[dict[str, Any]]:
    names = _names(view)
    table: tuple[Standing, ...] = view.standings()
    return [
        {
            "place": s.place,
            "shared": s.shared,
            "player": s.player,
            "name": names.get(s.player, ""),
            "points": format_points(s.table_points),
            "score": s.score,
            "penalty": s.penalty,
            "total": s.total,
            "mahjongs": s.mahjongs,
            "deal_ins": s.deal_ins,
            "rounds": s.rounds,
        }
        for s in table
    ]


_WINDS: Final = ("East", "South", "West", "North", "dreamer")


def _round(view: TournamentView, seating: Round) -> dict[str, Any]:
    names = _names(view)
    ranking = view.info.ranking
    tables = []
    for k, table in enumerate(seating.tables, 1):
        done = view.result(seating.number, k)
        points: tuple[Fraction, ...] = ()
        if done is not None:
            points = ranking.points.award(done.result.finals)
        seats = []
        for i, p in enumerate(table):
            final = None
            if done is not None and p in done.result.players:
                j = done.result.players.index(p)
                final = done.result.finals[j]
            seats.append(
                {
                    "wind": _WINDS[i],
                    "player": p,
                    "name": names.get(p, ""),
                    "final": final,
                    "points": format_points(points[done.result.players.index(p)])
                    if done is not None and p in done.result.players
                    else "",
                }
            )
        tables.append(
            {
                "number": k,
                "seats": seats,
                "version": done.version if done is not None else None,
                "by": done.entered_by if done is not None else "",
            }
        )
    return {"number": seating.number, "tables": tables}


def _players(view: TournamentView) -> list[dict[str, Any]]:
    seated = len(view.rounds)
    upcoming = min(seated + 1, view.info.rounds)
    return [
        {
            "number": p.number,
            "name": p.name,
            "club": p.club,
            "ema": p.ema,
            "nmb": p.nmb,
            "first_round": p.first_round,
            "last_round": p.last_round,
            "absent": ", ".join(map(str, sorted(p.absent))),
            "status": status(p, upcoming, p.number in view.substitutes),
            "substitute_for": view.substitutes.get(p.number),
        }
        for p in view.roster
    ]


def _context(view: TournamentView) -> dict[str, Any]:
    return {
        "t": view.info,
        "players": _players(view),
        "rounds": [_round(view, r) for r in reversed(view.rounds)],
        "standings": _standings(view),
        "all_seated": len(view.rounds) >= view.info.rounds,
        "next_round": len(view.rounds) + 1,
    }


def _organiser(
    request: Request,
    view: TournamentView,
    *,
    status_code: int = 200,
    problem: str = "",
    which: str = "",
    form: dict[str, str] | None = None,
    done: str = "",
    notice: str = "",
) -> HTMLResponse:
    form = form or {}
    placed = any(
        form.get("round") == str(r.number) and form.get("table", "").isdigit()
        and 1 <= int(form["table"][:4]) <= len(r.tables)
        for r in view.rounds
    )  # fmt: skip
    return pages_of(request).render(
        request,
        "tournament.html",
        active="tournaments",
        status_code=status_code,
        result_general=which == "result" and not placed,
        problem=problem,
        which=which,
        form=form,
        done=done,
        notice=notice,
        source_chars=MAX_SOURCE_CHARS,
        **_context(view),
    )


async def _view(request: Request, ref: str) -> TournamentView:
    try:
        return await _call(request, get_tournament, ref)
    except NotFound:
        raise HTTPException(404, "no tournament has this link") from None
    except StoreError as exc:
        raise HTTPException(status_of(exc), str(exc)) from None


# --------------------------------------------------------------------------- making one


def _new_page(
    request: Request, form: dict[str, str], problem: str = "", status_code: int = 200
) -> HTMLResponse:
    return pages_of(request).render(
        request,
        "tournament_new.html",
        active="tournaments",
        status_code=status_code,
        form=form,
        problem=problem,
        rulesets=SHIPPED,
    )


@router.get("/tournaments", response_class=HTMLResponse)
async def new_page(request: Request) -> HTMLResponse:
    return _new_page(
        request,
        {"rounds": "4", "points": "4/2/1/0", "ties": "split", "ranking": "table_points",
         "ruleset": SHIPPED[0], "fives": "1"},
    )  # fmt: skip


@router.post("/tournaments", response_class=HTMLResponse)
async def create(request: Request) -> Response:
    form = await _form(request)
    _ = _gettext(request)
    try:
        rounds = _number(form, "rounds", _("Rounds"), _)
        seed = _number(form, "seed", _("Seed"), _) if form.get("seed", "").strip() else None
        info = await _call(
            request,
            create_tournament,
            name=form.get("name", ""),
            day=form.get("date", ""),
            rounds=rounds,
            ruleset=form.get("ruleset", ""),
            fives=bool(form.get("fives")),
            clubs_apart=bool(form.get("clubs_apart")),
            ranking={
                "method": form.get("ranking", ""),
                "points": form.get("points", ""),
                "ties": form.get("ties", ""),
            },
            seed=seed,
        )
    except _Refused as exc:
        return _new_page(request, form, exc.message, 422)
    except MahjongError as exc:
        return _new_page(request, form, exc.text, 422)
    except StoreError as exc:
        raise HTTPException(status_of(exc), str(exc)) from None
    return RedirectResponse(f"/tournaments/{info.token}", status_code=303)


# --------------------------------------------------------------------------- the organiser


@router.get("/tournaments/{token}", response_class=HTMLResponse)
async def organiser(request: Request, token: str) -> HTMLResponse:
    view = await _view(request, _token(token))
    return _organiser(request, view, done=request.query_params.get("done", "")[:20])


def _token(token: str) -> str:
    if len(token) != 32:  # a public link never opens the organiser's page
        raise HTTPException(404, "no tournament has this link")
    return token


async def _act(
    request: Request, token: str, which: str, work: Callable[[dict[str, str]], Any]
) -> Response:
    """Run ``work(form)`` (which calls the store); on a refusal the organiser's page
    again with the message beside the form ``which``."""
    token = _token(token)
    form = await _form(request)
    try:
        await work(form)
    except _Refused as exc:
        view = await _view(request, token)
        return _organiser(request, view, status_code=422, problem=exc.message, which=which,
                          form=form)  # fmt: skip
    except (MahjongError, Conflict) as exc:
        view = await _view(request, token)
        text = exc.text if isinstance(exc, MahjongError) else exc.args[0]
        code = 409 if isinstance(exc, Conflict) else 422
        return _organiser(request, view, status_code=code, problem=text, which=which, form=form)
    except NotFound:
        raise HTTPException(404, "no tournament has this link") from None
    except StoreError as exc:
        raise HTTPException(status_of(exc), str(exc)) from None
    return RedirectResponse(f"/tournaments/{token}?done={which}#{which}", status_code=303)


@router.post("/tournaments/{token}/players", response_class=HTMLResponse)
async def register(request: Request, token: str) -> Response:
    _ = _gettext(request)

    async def work(form: dict[str, str]) -> Any:
        first = _int(form.get("first_round", ""), 1)
        if first is None:
            raise _Refused(_("{what}: give a whole number").format(what=_("First round")))
        return await _call(
            request,
            add_player,
            token,
            first_name=form.get("first_name", ""),
            last_name=form.get("last_name", ""),
            club=form.get("club", ""),
            ema=form.get("ema", ""),
            nmb=form.get("nmb", ""),
            first_round=first,
        )

    return await _act(request, token, "register", work)


@router.post("/tournaments/{token}/import", response_class=HTMLResponse)
async def import_csv(request: Request, token: str) -> Response:
    async def work(form: dict[str, str]) -> Any:
        text = form.get("csv", "")
        if len(text.encode()) > MAX_PLAYERS_BYTES:
            text = text[: MAX_PLAYERS_BYTES + 1]  # the store says it is too long
        return await _call(request, import_players, token, text)

    return await _act(request, token, "import", work)


@router.post("/tournaments/{token}/status", response_class=HTMLResponse)
async def player_status(request: Request, token: str) -> Response:
    _ = _gettext(request)

    async def work(form: dict[str, str]) -> Any:
        number = _number(form, "player", _("Player"), _)
        changes: dict[str, Any] = {}
        if form.get("plays_on"):  # a drop-out undone: plays to the last round again
            changes["last_round"] = None
        for key, what in (("first_round", _("First round")), ("last_round", _("Last round"))):
            if form.get(key, "").strip():
                changes[key] = _number(form, key, what, _)
        absent = form.get("absent", "").strip()
        if "absent" in form:
            rounds = []
            for cell in absent.replace(" ", "").split(","):
                if cell:
                    value = _int(cell)
                    if value is None:
                        raise _Refused(
                            _("{what}: give a whole number").format(what=_("Absent in rounds"))
                        )
                    rounds.append(value)
            changes["absent"] = rounds
        return await _call(request, edit_player, token, number, **changes)

    return await _act(request, token, "status", work)


@router.post("/tournaments/{token}/schedule", response_class=HTMLResponse)
async def schedule(request: Request, token: str) -> Response:
    """A fixed schedule (a loopschema) pasted: its rounds stored as they are, all or
    none (:func:`~mahjong_nts.tournament.read_schedule`, ``set_rounds``)."""
    _ = _gettext(request)

    async def work(form: dict[str, str]) -> Any:
        text = form.get("schedule", "")
        if not text.strip():
            raise _Refused(_("Paste a schedule: one line per table."))
        return await _call(request, set_rounds, token, read_schedule(text, _("fixed schedule")))

    return await _act(request, token, "schedule", work)


@router.post("/tournaments/{token}/seat", response_class=HTMLResponse)
async def seat(request: Request, token: str) -> Response:
    async def work(form: dict[str, str]) -> Any:
        return await _call(request, seat_next_round, token)

    return await _act(request, token, "seat", work)


@router.post("/tournaments/{token}/result", response_class=HTMLResponse)
async def result(request: Request, token: str) -> Response:
    _ = _gettext(request)

    async def work(form: dict[str, str]) -> Any:
        round_number = _number(form, "round", _("Round"), _)
        table = _number(form, "table", _("Table"), _)
        link = form.get("source", "").strip()
        if link:
            version_seen = _int(form.get("version", ""))

            def take(store: Store) -> Any:
                return enter_result_from(
                    store, token, round_number, table, source_of(store, link),
                    by=form.get("by", ""), version=version_seen,
                )  # fmt: skip

            return await _call(request, take)
        finals = []
        for i in range(5):
            key = f"score{i}"
            if key in form:
                value = _int(form[key], 0)
                if value is None:
                    raise _Refused(
                        _("{what}: give a whole number").format(what=_("Seat {n}").format(n=i + 1))
                    )
                finals.append(value)
        version = _int(form.get("version", ""))
        return await _call(
            request,
            enter_result,
            token,
            round_number,
            table,
            finals,
            by=form.get("by", ""),
            version=version,
        )

    which = "result"
    return await _act(request, token, which, work)


@router.post("/tournaments/{token}/swap", response_class=HTMLResponse)
async def swap(request: Request, token: str) -> Response:
    """Swap two players of a round without results; the page says which repeat
    meetings that brings (the seating is stored: swap back to undo)."""
    _ = _gettext(request)
    found: list[Any] = []

    async def work(form: dict[str, str]) -> Any:
        done = await _call(
            request,
            swap_players,
            token,
            _number(form, "round", _("Round"), _),
            _number(form, "a", _("Player"), _),
            _number(form, "b", _("Player"), _),
        )
        found.append(done)
        return done

    answer = await _act(request, token, "swap", work)
    if not found or not found[0].new_repeats:
        return answer
    repeats = "; ".join(
        _("{a} and {b} meet {times} times").format(a=a, b=b, times=times)
        for a, b, times in found[0].new_repeats
    )
    view = await _view(request, _token(token))
    return _organiser(
        request, view, notice=_("Swapped. Repeat meetings now: {list}.").format(list=repeats)
    )


@router.post("/tournaments/{token}/penalty", response_class=HTMLResponse)
async def penalty(request: Request, token: str) -> Response:
    _ = _gettext(request)

    async def work(form: dict[str, str]) -> Any:
        return await _call(
            request,
            add_penalty,
            token,
            player=_number(form, "player", _("Player"), _),
            round_number=_number(form, "round", _("Round"), _),
            points=_number(form, "points", _("Points"), _),
            reason=form.get("reason", ""),
            by=form.get("by", ""),
        )

    return await _act(request, token, "penalty", work)


@router.get("/tournaments/{token}/print", response_class=HTMLResponse)
async def print_cards(request: Request, token: str) -> HTMLResponse:
    view = await _view(request, _token(token))
    base = str(request.base_url).rstrip("/")
    current = _round(view, view.rounds[-1]) if view.rounds else None
    qr: dict[int, str] = {}
    seating_list: list[dict[str, Any]] = []
    if current is not None:
        for table in current["tables"]:
            for seat in table["seats"]:
                qr[seat["player"]] = _qr_svg(f"{base}/t/{view.info.public_id}/p/{seat['player']}")
                seating_list.append({**seat, "table": table["number"]})
        seating_list.sort(key=lambda s: s["name"].casefold())
    return pages_of(request).render(
        request, "tournament_print.html", active="tournaments", t=view.info, current=current, qr=qr,
        seating_list=seating_list,
    )  # fmt: skip


def _qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` (segno; no script, no style attribute)."""
    import segno

    code = segno.make(url, error="m", micro=False)
    svg: str = code.svg_inline(scale=3, border=2, omitsize=False)
    return svg


# --------------------------------------------------------------------------- public


def _public(public_id: str) -> str:
    if len(public_id) != 22:
        raise HTTPException(404, "no tournament has this link")
    return public_id


@router.get("/t/{public_id}", response_class=HTMLResponse)
async def public(request: Request, public_id: str) -> HTMLResponse:
    view = await _view(request, _public(public_id))
    context = _context(view)
    return pages_of(request).render(
        request, "tournament_public.html", active="tournaments", **context
    )


@router.get("/t/{public_id}/screen", response_class=HTMLResponse)
async def screen(request: Request, public_id: str) -> HTMLResponse:
    view = await _view(request, _public(public_id))
    context = _context(view)
    return pages_of(request).render(
        request,
        "tournament_screen.html",
        active="tournaments",
        refresh=SCREEN_SECONDS,
        current=context["rounds"][0] if context["rounds"] else None,
        **context,
    )


@router.get("/t/{public_id}/version", response_class=PlainTextResponse)
async def version(request: Request, public_id: str) -> PlainTextResponse:
    """How often the tournament was written: the big screen reloads when it changes."""
    try:
        found = await _call(request, tournament_version, _public(public_id))
    except NotFound:
        raise HTTPException(404, "no tournament has this link") from None
    except StoreError as exc:
        raise HTTPException(status_of(exc), str(exc)) from None
    return PlainTextResponse(str(found), headers={"Cache-Control": "no-store"})


@router.get("/t/{public_id}/p/{number}", response_class=HTMLResponse)
async def player_page(request: Request, public_id: str, number: str) -> HTMLResponse:
    if not number.isdigit() or len(number) > 3 or not 1 <= int(number) <= MAX_PLAYERS:
        raise HTTPException(404, "no such player")
    view = await _view(request, _public(public_id))
    p = int(number)
    me = next((q for q in view.roster if q.number == p), None)
    if me is None:
        raise HTTPException(404, "no such player")
    names = _names(view)
    ranking = view.info.ranking
    results = []
    for r in view.rounds:
        k = r.table_of(p)
        done = view.result(r.number, k) if k else None
        row: dict[str, Any] = {"round": r.number, "table": k, "wind": "", "final": None,
                               "points": ""}  # fmt: skip
        if k:
            row["wind"] = _WINDS[r.tables[k - 1].index(p)]
            row["others"] = [names.get(q, "") for q in r.tables[k - 1] if q != p]
        if done is not None:
            j = done.result.players.index(p)
            row["final"] = done.result.finals[j]
            row["points"] = format_points(ranking.points.award(done.result.finals)[j])
        results.append(row)
    latest = results[-1] if results and results[-1]["final"] is None else None
    mine = next((s for s in _standings(view) if s["player"] == p), None)
    return pages_of(request).render(
        request, "tournament_player.html", active="tournaments", t=view.info, me=me,
        results=results, latest=latest, standing=mine, players=len(view.roster),
    )  # fmt: skip
