"""The online table drawn by the server: a ``state`` message (docs/online.md) as HTML.

:func:`live_context` puts a state message in the shape of the bot game's state
(:func:`mahjong_nts.web.bottable.table_state`), so that ``templates/table.html`` draws the
hand of both, and adds what only an online table has: who is connected, whose turn it is
and its timer, the discard on the table that every seat sees for the window's fixed time,
readiness for the next hand and the match's score sheet (``templates/online_live.html``).
Nothing here decides anything about the game: every value comes from the message, and
the message from the server's one view function (:mod:`mahjong_nts.online.view`).

:class:`LiveDrawer` serves one socket opened with ``?html=1``: each state message it
sends gets an ``html`` field, the fragment drawn in the language of the socket's page.
A state carries only the events since the connection's previous state, so the drawer
keeps the last moves it has passed on (a new connection starts with none: a snapshot,
never a replay).
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import jinja2
from starlette.requests import HTTPConnection

from mahjong_nts.i18n import Language, language, negotiate, translator
from mahjong_nts.web.bottable import HAND_KEYS
from mahjong_nts.web.play import ACTION_KEYS
from mahjong_nts.web.templating import LANG_COOKIE, Pages
from mahjong_nts.web.tiles import template_helpers

__all__ = [
    "MOVES_SHOWN",
    "LiveDrawer",
    "connection_language",
    "draw_live",
    "live_context",
]

log = logging.getLogger("mahjong_nts.web.online")

MOVES_SHOWN: Final = 8
"""The last moves a table shows (as the bot game does)."""

WORD_JOINER: Final = "\u2060"


def connection_language(conn: HTTPConnection, default: Language) -> Language:
    """The language of a page or socket: ``?lang=``, else the ``lang`` cookie, else
    Accept-Language, else ``default`` (as :func:`~mahjong_nts.web.templating.request_language`)."""
    asked = language(conn.query_params.get("lang"))
    if asked is not None:
        return asked
    return negotiate(
        conn.headers.get("accept-language"), conn.cookies.get(LANG_COOKIE), default=default
    )


def _label(seat: Mapping[str, Any], gettext: Callable[[str], str]) -> str:
    """A table seat as the table shows it: its nickname, or "bot 3"; "free seat"."""
    if seat["kind"] == "bot":
        return gettext("bot {n}").format(n=seat["seat"] + 1)
    nickname = seat["nickname"]
    if nickname is None:
        return gettext("free seat {n}").format(n=seat["seat"] + 1)
    # "you" is how the templates name the reader's own seat; a player called so keeps
    # the name (an invisible word joiner tells them apart)
    return str(nickname) + WORD_JOINER if nickname == "you" else str(nickname)


def _answer(text: str | None, gettext: Callable[[str], str]) -> str | None:
    if text is None:
        return None
    word, _, rest = text.partition(" ")
    shown = {
        "pass": gettext("Pass"),
        "chow": gettext("Chow"),
        "pung": gettext("Pung"),
        "kong": gettext("Kong"),
        "mahjong": gettext("Mahjong!"),
    }.get(word, word)
    return f"{shown} {rest}".strip()


def _sheet(state: Mapping[str, Any], labels: Sequence[str]) -> list[dict[str, Any]]:
    """The match's score sheet: per hand played, its winner and each seat's balance
    and running total (table seats)."""
    rows = []
    totals = [0] * len(labels)
    for rec in state["match"]["history"]:
        totals = [a + b for a, b in zip(totals, rec["balances"], strict=True)]
        winner = rec["winner"]
        rows.append(
            {
                "number": rec["number"] + 1,
                "winner": None if winner is None else labels[winner],
                "balances": list(rec["balances"]),
                "totals": list(totals),
            }
        )
    return rows


def _players(state: Mapping[str, Any], labels: Sequence[str]) -> list[dict[str, Any]]:
    """The table seats as the strip above the table shows them: name, wind in the hand
    (or the dreamer), who is here, who is on turn."""
    hand = state["hand"]
    you = state["you"]
    out = []
    for seat, label in zip(state["seats"], labels, strict=True):
        number = seat["seat"]
        wind = None
        dreamer = False
        on_turn = False
        if hand is not None:
            if number in hand["seating"]:
                hs = hand["seating"].index(number)
                wind = hand["seats"][hs]["wind"]
                on_turn = hand["phase"] == "turn" and hand["turn"] == hs
            else:
                dreamer = True
        kind = seat["kind"] if seat["kind"] == "bot" or seat["nickname"] else "free"
        out.append(
            {
                "label": label,
                "me": you is not None and you["seat"] == number,
                "kind": kind,
                "connected": seat["connected"],
                "away": seat["away"],
                "wind": wind,
                "dreamer": dreamer,
                "on_turn": on_turn,
            }
        )
    return out


def live_context(
    state: Mapping[str, Any], moves: Sequence[Mapping[str, Any]], first_move: int, lang: str
) -> dict[str, Any]:
    """What ``online_live.html`` draws ``state`` with: ``moves`` are the last events of
    the hand (``first_move`` the number of the first one shown)."""
    gettext = translator(lang).gettext
    seats = state["seats"]
    you = state["you"]
    match = state["match"]
    labels = [_label(seat, gettext) for seat in seats]
    ctx: dict[str, Any] = {
        "state": state,
        "you": you,
        "labels": labels,
        "sheet": _sheet(state, labels),
        "taken": sum(1 for seat in seats if seat["kind"] == "bot" or seat["nickname"]),
        "s": None,
        "live": None,
        "keys": HAND_KEYS,
        "action_keys": ACTION_KEYS,
        "discards": [],
        "form_action": None,
        "hint_url": None,
        "log_url": None,
        "rules_file": None,
        "error": None,
        **template_helpers(lang),
    }
    hand = state["hand"]
    ctx["players"] = _players(state, labels)
    if hand is None:
        return ctx
    me = hand["me"]
    seating = hand["seating"]
    window = hand["window"]
    names: list[str | None] = [
        None if hs == me else labels[player] for hs, player in enumerate(seating)
    ]
    ctx["s"] = {
        "game": None,
        "hand": hand["number"],
        "seat": me,
        "names": names,
        "round_wind": hand["round_wind"],
        "dominant": hand["dominant"],
        "phase": hand["phase"],
        "seq": hand["seq"],
        "turn": hand["turn"],
        "to_act": hand["to_act"],
        "legal": hand["legal"],
        "concealed": hand["concealed"],
        "drawn": hand["drawn"],
        "offered": window["tile"] if window is not None and hand["to_act"] else None,
        "seats": hand["seats"],
        "live_left": hand["live_left"],
        "dead_left": hand["dead_left"],
        "events": list(moves),
        "seed_commitment": hand["seed_commitment"],
        "seed": hand["seed"],
        "result": hand["result"],
        "match": {
            "hands_played": match["hands_played"],
            "limit": match["hands"],
            "finished": match["over"],
            "players": labels,
            "balances": match["balances"],
        },
        "hint": hand["hint"],
        "countdown": None,
    }
    ready = hand["ready"]
    ctx["live"] = {
        "now": state["now"],
        "window": window,
        "answer": _answer(window["answer"] if window is not None else None, gettext),
        "turn_deadline": hand["deadline"],
        "presence": [
            {
                "bot": seats[player]["kind"] == "bot",
                "connected": seats[player]["connected"],
                "away": seats[player]["away"],
            }
            for player in seating
        ],
        "ready_names": [labels[p] for p in ready],
        "ready_me": you is not None and you["seat"] in ready,
        "can_ready": you is not None and hand["result"] is not None and not match["over"],
        "next_deadline": hand["next_deadline"],
        "dreamer": you is not None and me is None,
        "first_move": first_move,
    }
    ctx["discards"] = [a for a in hand["legal"] if a.startswith("discard ")]
    ctx["log_url"] = hand["log"]
    rules_file = state["settings"]["rules_file"]
    if rules_file is not None:  # house rules: the log verifies with them (--ruleset)
        ctx["rules_file"] = {"url": rules_file, "name": state["settings"]["ruleset"]}
    return ctx


def draw_live(
    env: jinja2.Environment,
    lang: str,
    state: Mapping[str, Any],
    moves: Sequence[Mapping[str, Any]] = (),
    first_move: int = 1,
) -> str:
    """The fragment of ``state``: ``templates/online_live.html`` in ``lang``."""
    context = live_context(state, moves, first_move, lang)
    return env.get_template("online_live.html").render(lang=lang, **context)


class LiveDrawer:
    """The fragment for every state message of one socket (see the module's docstring)."""

    def __init__(self, pages: Pages, lang: Language) -> None:
        self.env = pages.envs[lang]
        self.lang = lang
        self.hand: int | None = None
        self.moves: deque[dict[str, Any]] = deque(maxlen=MOVES_SHOWN)
        self.seen = 0
        """Events of the hand passed on so far."""

    def __call__(self, text: str) -> str:
        """``text`` with an ``html`` field when it is a state message; else as it is."""
        if '"state"' not in text[:40]:
            return text
        state = json.loads(text)
        if state.get("type") != "state":
            return text
        hand = state["hand"]
        number = None if hand is None else hand["number"]
        if number != self.hand:
            self.hand, self.seen = number, 0
            self.moves.clear()
        events = state["events"]
        self.moves.extend(events)
        self.seen += len(events)
        try:
            state["html"] = draw_live(
                self.env, self.lang, state, list(self.moves), self.seen - len(self.moves) + 1
            )
        except Exception:  # a bug in drawing: the client still gets the state
            log.exception("the online table could not be drawn")
            return text
        return json.dumps(state)
