"""A tournament table's result taken from where its hands were played: an online table
(the sum of each seat's settlements over its hands) or an evening score sheet (its
running totals), with each player's mahjongs and deal-ins (the tie-breaks) counted from
the same hands, entered through :func:`~mahjong_nts.store.tournaments.enter_result`
(the zero-sum check, the history, the versions).

The source is named by its link or its id as text (an online table's ``/online/ID`` or
``/online/watch/ID``, a sheet's ``/sheet/TOKEN``, or the id or token alone): it is
read from the database, never from a file or the network.  The players are matched to
the tournament's seating by seat order: the online table's seat 0 (East in its first
hand) or the sheet's first player is the table's East, and so on.  A source that is
unknown, not finished, or has another number of players is an
:class:`~mahjong_nts.tournament.InvalidResult` and nothing is stored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import urlsplit

from sqlalchemy import select

from mahjong_nts.core.errors import quote
from mahjong_nts.core.text import N_
from mahjong_nts.online.table import played_hands
from mahjong_nts.store.db import NotFound, Store
from mahjong_nts.store.models import TABLE_ID_CHARS, TOKEN_CHARS, OnlineTable
from mahjong_nts.store.online import load_table
from mahjong_nts.store.sheets import get_sheet
from mahjong_nts.store.tournaments import (
    ResultView,
    enter_result,
    get_tournament,
)
from mahjong_nts.tournament import InvalidResult

__all__ = [
    "MAX_SOURCE_CHARS",
    "Source",
    "enter_result_from",
    "online_source",
    "sheet_source",
    "source_of",
]

MAX_SOURCE_CHARS: Final = 300
"""Characters of an online table's or a sheet's link (or id) given for a result."""

_ID: Final = r"[A-Za-z0-9_-]"
_ONLINE_PATH: Final = re.compile(rf"(?:^|/)online/(?:(watch)/)?({_ID}{{{TABLE_ID_CHARS}}})/?$")
_ONLINE_ID: Final = re.compile(rf"{_ID}{{{TABLE_ID_CHARS}}}")
_SHEET_PATH: Final = re.compile(rf"(?:^|/)sheet/({_ID}{{{TOKEN_CHARS}}})(?:/print|/live|\.csv)?/?$")
_SHEET_TOKEN: Final = re.compile(rf"{_ID}{{{TOKEN_CHARS}}}")


@dataclass(frozen=True, slots=True)
class Source:
    """What an online table or a sheet says of a table, each per player in seat order:
    the balance (what they won or lost, summing to zero), the hands they went mahjong
    in, and the hands won on their discard (a deal-in; a robbed kong counts as one)."""

    kind: Literal["online", "sheet"]
    balances: tuple[int, ...]
    hands: int
    mahjongs: tuple[int, ...]
    deal_ins: tuple[int, ...]


def _path(text: object, online: bool) -> str:
    if not isinstance(text, str) or not 0 < len(text.strip()) <= MAX_SOURCE_CHARS:
        raise InvalidResult(
            N_("the online table: give its link or id, 1 to {most} characters")
            if online
            else N_("the score sheet: give its link, 1 to {most} characters"),
            most=MAX_SOURCE_CHARS,
        )
    text = text.strip()
    if "://" in text:
        try:
            return urlsplit(text).path
        except ValueError:
            return text
    return text.split("?", 1)[0].split("#", 1)[0]


def online_source(store: Store, text: str) -> Source:
    """The online table named by ``text`` (its link, its watching link, or its id):
    each seat's settlements summed over its hands.  It must be finished."""
    path = _path(text, online=True)
    found = _ONLINE_PATH.search(path)
    unknown = InvalidResult(
        N_("no online table has the link or id {link}"), link=quote(text.strip())
    )
    if found is not None:
        watch, ident = found.group(1) is not None, found.group(2)
    elif _ONLINE_ID.fullmatch(path):
        watch, ident = False, path
    else:
        raise unknown
    if watch:
        with store.transaction() as session:
            table_id = session.scalars(
                select(OnlineTable.id).where(OnlineTable.watch_id == ident)
            ).one_or_none()
        if table_id is None:
            raise unknown
        ident = table_id
    try:
        table = load_table(store, ident)
    except NotFound:
        raise unknown from None
    if table.info.status != "finished":
        raise InvalidResult(
            N_(
                "online table {link} is not finished: enter its result when its last hand is played"
            ),
            link=quote(text.strip()),
        )
    seats = table.info.players
    balances = [0] * seats
    hands = 0
    for event in table.events:
        if event.kind != "ended":
            continue
        got = event.payload.get("balances")
        if (
            not isinstance(got, list)
            or len(got) != seats
            or not all(isinstance(b, int) and not isinstance(b, bool) for b in got)
        ):
            raise InvalidResult(
                N_("online table {link}: hand {hand} is stored without its settlement"),
                link=quote(text.strip()),
                hand=(event.hand or 0) + 1,
            )
        hands += 1
        for i, b in enumerate(got):
            balances[i] += b
    # who won and on whose discard: the "ended" events name the winner only, so the
    # hands are played again from their seeds and stored actions
    try:
        played = played_hands(table, store)
    except (ValueError, KeyError, TypeError, IndexError, AssertionError):
        played = ()  # (a MahjongError is a ValueError) events that were altered or damaged
    if len(played) != hands:
        raise InvalidResult(
            N_("online table {link}: its hands cannot be played again from what is stored"),
            link=quote(text.strip()),
        )
    mahjongs, deal_ins = [0] * seats, [0] * seats
    for record in played:
        result, at = record.result, record.setup.players
        if result.winner is not None:
            mahjongs[at[result.winner]] += 1
            if result.discarder is not None:
                deal_ins[at[result.discarder]] += 1
    return Source("online", tuple(balances), hands, tuple(mahjongs), tuple(deal_ins))


def sheet_source(store: Store, text: str) -> Source:
    """The evening score sheet named by ``text`` (its link or its token): its running
    totals after its last hand."""
    path = _path(text, online=False)
    found = _SHEET_PATH.search(path)
    unknown = InvalidResult(N_("no score sheet has the link {link}"), link=quote(text.strip()))
    if found is not None:
        token = found.group(1)
    elif _SHEET_TOKEN.fullmatch(path):
        token = path
    else:
        raise unknown
    try:
        view = get_sheet(store, token)
    except NotFound:
        raise unknown from None
    if not view.hands:
        raise InvalidResult(N_("score sheet {link} has no hands yet"), link=quote(text.strip()))
    players = len(view.rows[-1].totals)
    mahjongs, deal_ins = [0] * players, [0] * players
    for row in view.rows:
        # a hand the sheet marks as not fitting settles nothing and counts nothing
        winner, discarder = row.entry.winner, row.entry.discarder
        if row.problem is None and winner is not None:
            mahjongs[winner] += 1
            if discarder is not None:  # None: self-drawn
                deal_ins[discarder] += 1
    return Source(
        "sheet", tuple(view.rows[-1].totals), len(view.hands), tuple(mahjongs), tuple(deal_ins)
    )


def source_of(store: Store, text: str) -> Source:
    """An online table's or a score sheet's link (or id, or token), told apart by its
    path (``/online/``, ``/sheet/``) or its length (22 or 32 characters)."""
    path = _path(text, online=True)
    if _ONLINE_PATH.search(path) or _ONLINE_ID.fullmatch(path):
        return online_source(store, text)
    if _SHEET_PATH.search(path) or _SHEET_TOKEN.fullmatch(path):
        return sheet_source(store, text)
    raise InvalidResult(
        N_("{link} is not the link of an online table or a score sheet"),
        link=quote(text.strip()),
    )


def enter_result_from(
    store: Store,
    ref: int | str,
    round_number: int,
    table: int,
    source: Source,
    *,
    by: object = "",
    version: int | None = None,
) -> ResultView:
    """Enter (``version=None``) or correct (``version=v``) a table's result from
    ``source``: the players seated at the table in seat order get the starting score
    plus the source's balances in its seat order, and its mahjongs and deal-ins."""
    view = get_tournament(store, ref)
    seated: Sequence[int] | None = None
    if 1 <= round_number <= len(view.rounds):
        tables = view.rounds[round_number - 1].tables
        if 1 <= table <= len(tables):
            seated = tables[table - 1]
    if seated is not None and len(seated) != len(source.balances):
        raise InvalidResult(
            N_(
                "round {round}, table {table} seats {seated} players and the online table "
                "has {players}: take the result of a table with as many players"
            )
            if source.kind == "online"
            else N_(
                "round {round}, table {table} seats {seated} players and the score sheet "
                "has {players}: take the result of a sheet with as many players"
            ),
            round=round_number,
            table=table,
            seated=len(seated),
            players=len(source.balances),
        )
    start = view.info.ranking.start
    finals = [start + b for b in source.balances]
    return enter_result(
        store,
        ref,
        round_number,
        table,
        finals,
        mahjongs=source.mahjongs,
        deal_ins=source.deal_ins,
        by=by,
        version=version,
    )
