"""What a connection to an online table sees: the one function that builds it.

:func:`table_view` builds the ``state`` message of docs/online.md for a table seat (or a
spectator, ``seat=None``) from the core's observation of that seat (``observe(game,
hand_seat, simultaneous=True)``; a spectator's and the dreamer's from
``observe_public``), the events that seat may see (``visible_events``) and the table's
public metadata: nicknames, who is connected, whose turn it is, the timers, the match's
scores.  Nothing else about a hand is ever sent to a client.

What it leaves out on purpose: other seats' concealed tiles and options, the wall, the
seed before the hand is over, and every trace of other seats' answers in a claim window
(no answer, no count of answers, no number that grows with them: the table's count of
stored events is never sent).  A seat sees its own answer once it is recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from mahjong_nts.core.actions import Action
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.match import HandSetup, Match
from mahjong_nts.core.observation import (
    Observation,
    observe,
    observe_public,
    visible_events,
)
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import seed_commitment
from mahjong_nts.online.settings import ruleset_label
from mahjong_nts.online.state import event_state, hand_order, hint, result_state, seat_state

__all__ = ["TableLike", "table_view"]


class _Seat(Protocol):
    seat: int
    kind: str
    bot: str | None
    nickname: str | None
    away: bool

    @property
    def connected(self) -> bool: ...


class _Window(Protocol):
    hand: int
    seq: int
    closes: float
    deadline: float | None
    answers: dict[int, tuple[Action, str]]


class _Settings(Protocol):
    @property
    def ruleset(self) -> str | dict[str, Any]: ...
    @property
    def turn_seconds(self) -> int | None: ...
    @property
    def claim_seconds(self) -> int | None: ...
    @property
    def hands(self) -> int | None: ...
    @property
    def public(self) -> bool: ...
    @property
    def hints(self) -> bool: ...
    @property
    def bot(self) -> str: ...


class _Config(Protocol):
    @property
    def window_seconds(self) -> float: ...


class TableLike(Protocol):
    """What the view reads of a table (:class:`mahjong_nts.online.table.Table`)."""

    id: str
    watch_id: str
    status: str
    rules: RuleSet
    match: Match
    played: int
    recorded: bool
    setup: HandSetup | None
    game: Game | None
    turn_deadline: float | None
    next_deadline: float | None
    ready: set[int]

    @property
    def settings(self) -> _Settings: ...
    @property
    def config(self) -> _Config: ...
    @property
    def seats(self) -> Sequence[_Seat]: ...
    @property
    def window(self) -> _Window | None: ...
    @property
    def chat(self) -> Sequence[dict[str, Any]]: ...

    def clock(self) -> float: ...
    def wall_clock(self) -> float: ...
    def _finished(self) -> bool: ...


def table_view(
    table: TableLike,
    seat: int | None,
    *,
    by_table_id: bool,
    since: tuple[int, int] | None,
    chat: bool,
) -> tuple[dict[str, Any], tuple[int, int] | None]:
    """The ``state`` message for table seat ``seat`` (``None``: a spectator) and the
    point up to which it carries the hand's events.

    ``since``: where the connection's previous state left off (hand number, events of
    that hand); ``None`` for a first state, which carries no events (a snapshot, never a
    replay).  ``chat``: include the last chat lines (first states).  ``by_table_id``:
    the connection came with the players' link, so it may see the table id.
    """
    mono, epoch = table.clock(), table.wall_clock()

    def at(t: float | None) -> int | None:
        return None if t is None else int((epoch + (t - mono)) * 1000)

    settings = table.settings
    seats = table.seats
    link = (
        f"/api/online/tables/{table.id}" if by_table_id else f"/api/online/watch/{table.watch_id}"
    )
    you = None
    if seat is not None:
        mine = seats[seat]
        you = {"seat": seat, "nickname": mine.nickname, "away": mine.away}
    hand, seen = _hand_view(table, seat, since, by_table_id, at)
    match = table.match
    winners: list[int | None] = []
    for rec in match.history:
        w = rec.result.winner
        winners.append(None if w is None else rec.setup.players[w])
    state: dict[str, Any] = {
        "type": "state",
        "now": int(epoch * 1000),
        "table": table.id if by_table_id else None,
        "watch": table.watch_id,
        "status": table.status,
        "settings": {
            "ruleset": ruleset_label(settings.ruleset, table.rules),
            "ruleset_name": table.rules.name,
            "rules_file": None if isinstance(settings.ruleset, str) else f"{link}/rules.toml",
            "players": len(seats),
            "turn_seconds": settings.turn_seconds,
            "claim_seconds": settings.claim_seconds,
            "window_seconds": table.config.window_seconds,
            "hands": settings.hands,
            "public": settings.public,
            "hints": settings.hints,
            "bot": settings.bot,
        },
        "you": you,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "nickname": s.nickname,
                "bot": s.bot,
                "connected": s.connected,
                "away": s.away,
            }
            for s in seats
        ],
        "match": {
            "hands_played": table.played,
            "hands": settings.hands,
            "over": table._finished(),
            "balances": list(match.balances),
            "history": [
                {"number": rec.setup.number, "winner": w, "balances": list(rec.balances)}
                for rec, w in zip(match.history, winners, strict=True)
            ],
        },
        "hand": hand,
        "events": [],
    }
    if chat:
        state["chat"] = list(table.chat)
    if hand is not None:
        state["events"] = hand.pop("_events")
    return state, seen


def _hand_view(
    table: TableLike,
    seat: int | None,
    since: tuple[int, int] | None,
    by_table_id: bool,
    at: Any,
) -> tuple[dict[str, Any] | None, tuple[int, int] | None]:
    game, setup = table.game, table.setup
    if game is None or setup is None:
        return None, since
    number = setup.number
    me = setup.players.index(seat) if seat is not None and seat in setup.players else None
    over = game.is_over
    window = table.window if not over else None
    in_window = game.phase is Phase.CLAIM or game.phase is Phase.ROB
    obs: Observation | None = None
    if me is not None:
        obs = observe(game, me, simultaneous=True)
        seat_views = obs.seats
    else:
        seat_views = observe_public(game).seats
    answer = None
    legal: tuple[Action, ...] = ()
    to_act = False
    if obs is not None and not over:
        if in_window:
            recorded = window.answers.get(me) if window is not None and me is not None else None
            if recorded is not None:
                answer = str(recorded[0])
            else:
                legal = obs.legal
                to_act = obs.to_act
        else:
            legal, to_act = obs.legal, obs.to_act
    phase = "over" if over else ("turn" if not in_window else game.phase.name.lower())
    seat_on_turn = None
    if not over and not in_window:
        seat_on_turn = table.seats[setup.players[game.current_seat]]
    deadline = None
    if seat_on_turn is not None and seat_on_turn.kind == "human" and not seat_on_turn.away:
        deadline = at(table.turn_deadline)
    link = (
        f"/api/online/tables/{table.id}" if by_table_id else f"/api/online/watch/{table.watch_id}"
    )
    state: dict[str, Any] = {
        "number": number,
        "round": setup.round,
        "round_wind": setup.round_wind.token,
        "dominant": game.dominant,
        "dreamer": setup.dreamer,
        "seating": list(setup.players),
        "me": me,
        "seed_commitment": seed_commitment(setup.seed),
        "seed": str(setup.seed) if over and table.recorded else None,
        "phase": phase,
        "seq": game.seq,
        "turn": game.turn,
        "deadline": deadline,
        "to_act": to_act,
        "legal": [str(a) for a in legal],
        "concealed": hand_order(obs) if obs is not None else [],
        "drawn": None if obs is None or obs.drawn is None else obs.drawn.token,
        "window": None,
        "seats": [seat_state(v, player=setup.players[v.seat]) for v in seat_views],
        "live_left": game.wall.live_left,
        "dead_left": game.wall.dead_left,
        "hint": None,
        "result": None,
        "log": None,
        "ready": [],
        "next_deadline": None,
    }
    if in_window and not over:
        assert game.tile is not None
        state["window"] = {
            "tile": game.tile.token,
            "from": game.turn,
            "kind": game.phase.name.lower(),
            "closes": None if window is None else at(window.closes),
            "deadline": None if window is None else at(window.deadline),
            "answer": answer,
        }
    if over and table.recorded:
        assert game.result is not None
        state["result"] = result_state(game.result, game, table.rules)
        state["log"] = f"{link}/log/{number + 1}"
        state["ready"] = sorted(table.ready)
        state["next_deadline"] = at(table.next_deadline)
    if to_act and obs is not None and table.settings.hints:
        state["hint"] = hint(obs, table.rules)
    # the events this connection has not had yet, as its seat may see them
    if since is None:
        events: list[dict[str, Any]] = []
    else:
        start = since[1] if since[0] == number else 0
        events = [event_state(e) for e in visible_events(game, me, start)]
    state["_events"] = events
    return state, (number, len(game.events))
