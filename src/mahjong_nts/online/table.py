"""A live table: one match of the core, its seats, its connections, its clock.

Each table has one asyncio task (:meth:`Table.run`, the driver: bots, timers, claim
windows, the next hand) and one :class:`asyncio.Lock`.  Everything that reads or
changes the table holds the lock, and every change goes the same way:

1. **check** without changing anything: the seat comes from the connection's token,
   never from the message; the hand and the decision number (``seq``) it answers; then
   the core's own check (``Game.check``, the authority form of ``Game.apply``);
2. **store** the event (an append to the table's events, in a thread, while the lock is
   held): an action the store did not take did not happen;
3. **apply** it to the core game;
4. **broadcast**: each connection gets its own view (:mod:`mahjong_nts.online.view`).

Claim windows are fair and simultaneous.  The game holds a window after every discard
and promoted kong (``Game.hold_windows``), also when nobody can use the tile; every seat
that may claim is asked at once (``Game.window_options``), each answer is checked as it
comes and stored, and the window closes no earlier than ``window_seconds`` after it
opened, when every seat asked has answered (or the claim timer has run out: a bot
answers for the seat).  Then the answers go to the core in its order.  Nothing about an
answer reaches another seat before the window closes: not the answer, not a message, not
a counter.

A table's events are enough to rebuild it (:meth:`Table.rebuild`): the match is dealt
again from its seed and every stored action applied again, so a server killed at any
moment continues every table where the store says it stood, its timers started afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mahjong_nts.bots import make_bot
from mahjong_nts.bots.base import Player
from mahjong_nts.core.actions import Action
from mahjong_nts.core.errors import IllegalAction, MahjongError, NotYourTurn, StaleAction
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.match import HandRecord, HandSetup, Match
from mahjong_nts.core.observation import observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import SeedRng, derive_seed, seed_commitment
from mahjong_nts.formats import gamelog
from mahjong_nts.online import protocol
from mahjong_nts.online.config import OnlineConfig
from mahjong_nts.online.limits import (
    CHAT_KEPT,
    MAX_CHAT_LINES,
    MAX_CONNECTIONS_PER_TABLE,
    MAX_KEPT_LOGS,
    MAX_NICKNAME_CHARS,
    OUTBOX_MESSAGES,
)
from mahjong_nts.online.settings import TableSettings, check_settings, ruleset_label
from mahjong_nts.online.storecall import append, store_call
from mahjong_nts.online.tokens import new_token, token_hash
from mahjong_nts.online.view import table_view
from mahjong_nts.store import Store, StoreError
from mahjong_nts.store.online import NewEvent, StoredTable, take_seat

__all__ = [
    "MAX_REFUSED",
    "Connection",
    "OnlineError",
    "SeatState",
    "Table",
    "Window",
    "played_hands",
]

log = logging.getLogger("mahjong_nts.online")

MAX_REFUSED: Final = 50
"""Messages refused in a row (rate limit, size, malformed) before a connection is closed."""

CLOSE_FLOOD: Final = 1008
CLOSE_SLOW: Final = 4008
CLOSE_GONE: Final = 4410
CLOSE_RELOAD: Final = 1012


class OnlineError(Exception):
    """A request the tables refuse: ``status`` (HTTP: 403, 404, 409, 422, 429, 503)
    and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(slots=True)
class SeatState:
    """A table seat as the live table holds it (``connections`` and ``away`` are never
    stored)."""

    seat: int
    kind: str
    bot: str | None
    nickname: str | None = None
    token_hash: str | None = None
    connections: int = 0
    away: bool = False
    """A human who let a turn run out: a bot plays for the seat until the player acts on
    a turn, says ``back`` or connects again."""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def connected(self) -> bool:
        return self.kind == "bot" or self.connections > 0

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.away


@dataclass(slots=True)
class Window:
    """A claim or rob window as the server runs it (the game holds it open)."""

    hand: int
    seq: int
    opened: float
    closes: float
    """The earliest it closes: ``opened + window_seconds``, whoever can claim."""
    deadline: float | None
    """When seats that have not answered are answered for by a bot (the claim timer)."""
    answers: dict[int, tuple[Action, str]] = field(default_factory=dict)
    """Hand seat -> (answer, by whom: ``player``, ``bot``, ``timeout``)."""


class Connection:
    """One open socket to a table: its seat (``None``: a spectator), its outbox (the web
    layer sends what is put there, in order), its rate bucket, and the point up to which
    it has had the hand's events."""

    def __init__(self, seat: int | None, *, by_table_id: bool) -> None:
        self.seat = seat
        self.by_table_id = by_table_id
        """Opened with the players' link (not the watch link): it may see the table id."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_MESSAGES)
        self.bucket = protocol.TokenBucket()
        self.refused = 0
        self.seen: tuple[int, int] | None = None
        """(hand number, events of that hand) when its last state was built."""
        self.close_code: int | None = None

    def push(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client that does not keep up is disconnected."""
        if self.close_code is not None:
            return
        text = message if isinstance(message, str) else json.dumps(message)
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close(CLOSE_SLOW)

    def close(self, code: int) -> None:
        """Stop sending: the web layer closes the socket with ``code``."""
        if self.close_code is not None:
            return
        self.close_code = code
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(None)


def _bot_name(seat: SeatState) -> str:
    return f"{seat.bot}-{seat.seat}"


class Table:
    """One live table (see the module's docstring).  Made by :meth:`new` or
    :meth:`rebuild`; :meth:`start` starts its task."""

    def __init__(
        self,
        *,
        table_id: str,
        watch_id: str,
        settings: TableSettings,
        rules: RuleSet,
        seats: Sequence[SeatState],
        match_seed: int,
        store: Store,
        config: OnlineConfig,
        on_close: Callable[[Table], None] = lambda t: None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        owner: str | None = None,
    ) -> None:
        self.id = table_id
        self.owner = owner
        """The node (server process) that holds the table: every write names it, so a
        node that lost the table to another cannot write it (``None``: not checked)."""
        self.watch_id = watch_id
        self.settings = settings
        self.rules = rules
        self.seats = list(seats)
        self.store = store
        self.config = config
        self.on_close = on_close
        self.clock = clock
        self.wall_clock = wall_clock
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.status = "waiting"
        self.next_seq = 0
        """Events stored: the store's number of the next one."""
        self.match_seed = match_seed
        self.match = Match(rules, SeedRng(match_seed, "match"), SeedRng)
        self.bots: dict[int, Player] = {
            s.seat: make_bot(s.bot or "heuristic", derive_seed(match_seed, "bot", s.seat), rules)
            for s in self.seats
            if s.kind == "bot"
        }
        self.standins: dict[int, Player] = {}
        """The bots that play for humans who timed out (the table's ``bot``)."""
        self.setup: HandSetup | None = None
        self.game: Game | None = None
        self.recorded = False
        """The hand in play is over and recorded in the match (its ``ended`` stored)."""
        self.played = 0
        self.window: Window | None = None
        self.turn_key: tuple[int, int] | None = None
        self.turn_started = 0.0
        self.turn_deadline: float | None = None
        self.ready: set[int] = set()
        self.next_deadline: float | None = None
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.chat_lines = 0
        self.logs: OrderedDict[int, str] = OrderedDict()
        self.connections: set[Connection] = set()
        self.idle_since = clock()
        self.paused = self._no_human_here()
        self.broken = False

    # ---------------------------------------------------------------- making one

    @classmethod
    def new(
        cls,
        *,
        table_id: str,
        watch_id: str,
        settings: TableSettings,
        rules: RuleSet,
        match_seed: int,
        store: Store,
        config: OnlineConfig,
        events: int,
        **kw: Any,
    ) -> Table:
        assert settings.seats is not None
        seats = [SeatState(i, s.kind, s.bot) for i, s in enumerate(settings.seats)]
        table = cls(
            table_id=table_id,
            watch_id=watch_id,
            settings=settings,
            rules=rules,
            seats=seats,
            match_seed=match_seed,
            store=store,
            config=config,
            **kw,
        )
        table.next_seq = events
        return table

    @classmethod
    def rebuild(
        cls, stored: StoredTable, *, store: Store, config: OnlineConfig, **kw: Any
    ) -> Table:
        """The table as its stored events leave it: the match dealt again from its seed,
        every stored action applied again in order, window answers collected, the chat
        and the logs of finished hands as they were.  Timers start afresh."""
        info = stored.info
        first = stored.events[0]
        if first.kind != "created":
            raise ValueError(f"table {info.id}: its first event is {first.kind!r}, not created")
        settings, rules = check_settings(first.payload["settings"])
        seats = [SeatState(s.seat, s.kind, s.bot, s.nickname, s.token_hash) for s in stored.seats]
        table = cls(
            table_id=info.id,
            watch_id=info.watch_id,
            settings=settings,
            rules=rules,
            seats=seats,
            match_seed=int(first.payload["match_seed"]),
            store=store,
            config=config,
            **kw,
        )
        table.status = info.status
        table.next_seq = info.events
        for event in stored.events[1:]:
            table._replay(event.kind, event.hand, event.payload)
        if table.game is not None:
            table._track()
            if table.recorded and table.settings.turn_seconds is not None:
                table.next_deadline = table.clock() + config.next_hand_seconds
        return table

    def _replay(self, kind: str, hand: int | None, payload: dict[str, Any]) -> None:
        """One stored event applied again (no store, no broadcast)."""
        if kind == "joined":
            return  # the seat rows hold the nickname and the token's hash
        if kind == "chat":
            self._add_chat(payload)
            return
        if kind in ("finished", "closed"):
            return  # the status is the table row's
        if kind == "answer":
            game = self._game()
            self._track()
            assert self.window is not None and game.seq == payload["seq"], (kind, payload)
            self.window.answers[payload["hand_seat"]] = (
                game.check(payload["action"], seat=payload["hand_seat"], seq=payload["seq"]),
                payload["by"],
            )
            return
        if self.game is not None:
            self._close_window_if_open()
        if kind == "dealt":
            setup, game = self.match.next_hand()
            if str(setup.seed) != payload["seed"] or setup.number != hand:
                raise ValueError(f"table {self.id}: hand {hand} is not the one its seed deals")
            game.hold_windows = True
            self.setup, self.game, self.recorded = setup, game, False
            self.window, self.turn_key = None, None
        elif kind == "act":
            game = self._game()
            game.apply(payload["action"], seat=payload["hand_seat"], seq=payload["seq"])
        elif kind == "ended":
            self._record()
        else:
            raise ValueError(f"table {self.id}: unknown event {kind!r}")

    def _game(self) -> Game:
        if self.game is None:
            raise ValueError(f"table {self.id}: an action before the first deal")
        return self.game

    # ---------------------------------------------------------------- the task

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table {self.id}")

    async def stop(self, code: int = CLOSE_RELOAD) -> None:
        """Stop the task and close every connection (the server is going down)."""
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for conn in list(self.connections):
            conn.close(code)

    async def run(self) -> None:
        """The driver: whatever is due (a bot's move, a timer, a window that closes, the
        next hand), then sleep until the next thing is due or something wakes it."""
        try:
            while True:
                async with self.lock:
                    if self.status == "closed" or self.broken:
                        return
                    try:
                        busy = await self._step()
                    except StoreError as exc:
                        self._break(f"the database failed: {exc}")
                        return
                    delay = None if busy else self._next_due()
                if busy:  # the lock is let go after each step: a player's message or a
                    await asyncio.sleep(0)  # request waits for one step, not a whole match
                    continue
                self.wake.clear()
                if delay is None:
                    await self.wake.wait()
                elif delay > 0:  # (asyncio.wait_for can lose a cancellation in 3.11)
                    alarm = asyncio.get_running_loop().call_later(delay, self.wake.set)
                    try:
                        await self.wake.wait()
                    finally:
                        alarm.cancel()
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug: the table stops, the server goes on
            log.exception("table %s stopped", self.id[:6])
            self._break("a server error")

    def _break(self, why: str) -> None:
        """The table cannot go on in memory (its store write failed after a change):
        every client is disconnected and comes back to the table rebuilt from the store."""
        log.error("table %s: %s; it is rebuilt from the store", self.id[:6], why)
        self.broken = True
        for conn in list(self.connections):
            conn.close(CLOSE_RELOAD)
        self.on_close(self)

    def _no_human_here(self) -> bool:
        """A table with human seats and none of them connected waits (its timers stop)."""
        humans = [s for s in self.seats if s.kind == "human"]
        return bool(humans) and not any(s.connections for s in humans)

    def _next_due(self) -> float | None:
        """Seconds until the next thing is due; ``None``: nothing until woken."""
        now = self.clock()
        times: list[float] = []
        if not self.connections:
            times.append(self.idle_since + self.config.idle_seconds)
        game = self.game
        if self.status == "playing" and game is not None and not self.paused:
            if game.is_over:
                if self.next_deadline is not None:
                    times.append(self.next_deadline)
                if self.recorded and not self._finished() and self._all_ready():
                    times.append(now)
            elif self.window is not None:
                # a window closes at its least time once every seat asked has answered;
                # past that time, with answers missing, it waits for them (an answer wakes
                # the task): the past time would be due again at once, for ever
                answered = len(self.window.answers) == len(game.window_seats())
                if answered or now < self.window.closes:
                    times.append(self.window.closes)
                if self.window.deadline is not None:
                    times.append(self.window.deadline)
            else:
                seat = self._seat_on_turn()
                if seat is not None and seat.played_by_bot:
                    times.append(self.turn_started + self.config.bot_delay)
                elif self.turn_deadline is not None:
                    times.append(self.turn_deadline)
        if not times:
            return None
        return max(0.0, min(times) - now)

    async def _step(self) -> bool:
        """Do one thing that is due; False when nothing is."""
        now = self.clock()
        if not self.connections and now - self.idle_since >= self.config.idle_seconds:
            await self._close("idle")
            return False
        if self.status == "waiting":
            if all(s.taken for s in self.seats):
                await self._deal()
                return True
            return False
        if self.status != "playing":
            return False
        game = self._game()
        if game.is_over and not self.recorded:  # (also while the table waits)
            await self._settle()
            self._broadcast()
            return True
        if self.paused:
            return False
        if game.is_over:
            if self._finished():
                return False
            due = self.next_deadline is not None and now >= self.next_deadline
            if due or self._all_ready():
                await self._deal()
                return True
            return False
        window = self.window
        if window is not None:
            setup = self._setup()
            bots: list[tuple[int, str]] = []
            for hs in game.window_seats():
                if hs in window.answers:
                    continue
                seat = self.seats[setup.players[hs]]
                if seat.played_by_bot:
                    bots.append((hs, "bot"))
                elif window.deadline is not None and now >= window.deadline:
                    bots.append((hs, "timeout"))
            if bots:  # the bots' answers stored together (one write, not one each)
                await self._answers([(hs, self._bot_choice(hs), by) for hs, by in bots])
                return True
            if len(window.answers) == len(game.window_seats()) and now >= window.closes:
                self._close_window_if_open()
                await self._settle()
                self._broadcast()
                return True
            return False
        on_turn = self._seat_on_turn()
        assert on_turn is not None
        hs = game.current_seat
        if on_turn.played_by_bot:
            if now >= self.turn_started + self.config.bot_delay:
                await self._turn_act(hs, self._bot_choice(hs), "bot")
                return True
            return False
        if self.turn_deadline is not None and now >= self.turn_deadline:
            on_turn.away = True
            await self._turn_act(hs, self._bot_choice(hs), "timeout")
            return True
        return False

    # ---------------------------------------------------------------- the hand

    def _setup(self) -> HandSetup:
        assert self.setup is not None
        return self.setup

    def _seat_on_turn(self) -> SeatState | None:
        game = self.game
        if game is None or game.is_over or game.phase is not Phase.TURN:
            return None
        return self.seats[self._setup().players[game.current_seat]]

    def hand_seat(self, seat: int) -> int | None:
        """The hand seat of table seat ``seat`` in the hand in play (``None``: the
        dreamer, or no hand yet)."""
        setup = self.setup
        if setup is None or seat not in setup.players:
            return None
        return setup.players.index(seat)

    def _finished(self) -> bool:
        """No more hands: the match is over or the hands asked for are played."""
        limit = self.settings.hands
        return self.match.is_over or (limit is not None and self.played >= limit)

    def _all_ready(self) -> bool:
        """Every human seat that is here and not played by a bot asked for the next hand
        (a table of bots goes on at once)."""
        return all(
            s.seat in self.ready
            for s in self.seats
            if s.kind == "human" and s.connections and not s.away
        )

    def _bot_choice(self, hs: int) -> Action:
        """The move of the bot that plays hand seat ``hs`` now, from its observation."""
        seat = self.seats[self._setup().players[hs]]
        bot = self.bots.get(seat.seat)
        if bot is None:
            bot = self.standins.get(seat.seat)
            if bot is None:
                seed = derive_seed(self.match_seed, "stand-in", seat.seat)
                bot = make_bot(self.settings.bot, seed, self.rules)
                self.standins[seat.seat] = bot
        return bot.act(observe(self._game(), hs, simultaneous=True))

    def _track(self) -> None:
        """Start the clock of the decision the game asks now, if it is a new one: a turn
        (bot delay, turn timer) or a window (its minimum length, the claim timer)."""
        game = self._game()
        if game.is_over:
            self.window, self.turn_key = None, None
            return
        now = self.clock()
        key = (self._setup().number, game.seq)
        if game.phase is Phase.CLAIM or game.phase is Phase.ROB:
            self.turn_key = None
            if self.window is None or (self.window.hand, self.window.seq) != key:
                self.window = self._new_window(key, now)
            return
        self.window = None
        if self.turn_key != key:
            self.turn_key = key
            self.turn_started = now
            seconds = self.settings.turn_seconds
            self.turn_deadline = None if seconds is None else now + seconds

    def _new_window(self, key: tuple[int, int], now: float) -> Window:
        least = self.config.window_seconds
        claim = self.settings.claim_seconds
        return Window(
            hand=key[0],
            seq=key[1],
            opened=now,
            closes=now + least,
            deadline=None if claim is None else now + max(claim, least),
        )

    def restart_timers(self) -> None:
        """Every clock from now (after a restart, or when a player comes back to a table
        that waited): the turn's timer, the window's minimum length and timer, the next
        hand's deadline."""
        now = self.clock()
        self.turn_started = now
        seconds = self.settings.turn_seconds
        self.turn_deadline = None if seconds is None else now + seconds
        if self.window is not None:
            fresh = self._new_window((self.window.hand, self.window.seq), now)
            fresh.answers = self.window.answers
            self.window = fresh
        if self.next_deadline is not None:
            self.next_deadline = now + self.config.next_hand_seconds

    def _close_window_if_open(self) -> None:
        """Close the window: its answers go to the core in the core's order (a window
        nobody was asked in is closed as such)."""
        game = self._game()
        if not (game.phase is Phase.CLAIM or game.phase is Phase.ROB):
            return
        seats = game.window_seats()
        if not seats:
            game.close_window()
        else:
            window = self.window
            assert window is not None and len(window.answers) == len(seats), "answers missing"
            seq = game.seq
            for hs in seats:
                game.apply(window.answers[hs][0], seat=hs, seq=seq)
        self.window = None
        self._track()

    def _record(self) -> None:
        """Record the hand that is over in the match; keep its log."""
        game, setup = self._game(), self._setup()
        assert game.is_over and not self.recorded
        self.match.record(game)
        self.recorded = True
        self.played += 1
        names = [self.seats[p].nickname or _bot_name(self.seats[p]) for p in setup.players]
        self.logs[setup.number] = gamelog.hand_log_text(
            game,
            ruleset=ruleset_label(self.settings.ruleset, self.rules),
            seed=setup.seed,
            setup=setup,
            players=names,
        )
        while len(self.logs) > MAX_KEPT_LOGS:
            self.logs.popitem(last=False)
        self.window, self.turn_key, self.ready = None, None, set()

    async def _settle(self) -> None:
        """After a change: a hand that ended is recorded and its end stored (the seed
        revealed); else the clock of the next decision starts."""
        game = self._game()
        if not game.is_over:
            self._track()
            return
        if self.recorded:
            return
        setup = self._setup()
        result = game.result
        assert result is not None
        self._record()
        record = self.match.history[-1]
        finished = self._finished()
        events = [
            NewEvent(
                "ended",
                {
                    "seed": str(setup.seed),
                    "reason": result.reason,
                    "winner": result.winner,
                    "balances": list(record.balances),
                },
                hand=setup.number,
            )
        ]
        if finished:
            events.append(NewEvent("finished", {}, hand=setup.number))
        await self._write(events, status="finished" if finished else None)
        if finished:
            self.status = "finished"
        seconds = self.config.next_hand_seconds
        self.next_deadline = None if self.settings.turn_seconds is None else self.clock() + seconds

    async def _deal(self) -> None:
        setup, game = self.match.next_hand()
        game.hold_windows = True
        event = NewEvent(
            "dealt",
            {
                "seed": str(setup.seed),
                "commitment": seed_commitment(setup.seed),
                "players": list(setup.players),
                "round_wind": setup.round_wind.token,
            },
            hand=setup.number,
        )
        self.setup, self.game, self.recorded = setup, game, False
        self.window, self.turn_key, self.ready, self.next_deadline = None, None, set(), None
        await self._write([event], status="playing" if self.status == "waiting" else None)
        self.status = "playing"
        self._track()
        self._broadcast()

    async def _write(self, events: list[NewEvent], *, status: str | None = None) -> None:
        """Append events to the store (in a thread, on SQLite committed with the other
        tables' appends: ``online/storecall.py``; the lock is held): the only way
        anything about the table is recorded.  :class:`StoreError` when it fails."""
        self.next_seq = await append(
            self.store, self.id, self.next_seq, events, status=status, owner=self.owner
        )

    def _action_event(self, kind: str, hs: int, act: Action, by: str) -> NewEvent:
        setup, game = self._setup(), self._game()
        return NewEvent(
            kind,
            {
                "seat": setup.players[hs],
                "hand_seat": hs,
                "seq": game.seq,
                "action": str(act),
                "by": by,
            },
            hand=setup.number,
        )

    async def _turn_act(self, hs: int, act: Action, by: str) -> None:
        """A turn's action, checked before: stored, applied, broadcast."""
        game = self._game()
        seq = game.seq
        game.check(act, seat=hs, seq=seq)  # (a player's was checked; a bot's is checked here)
        await self._write([self._action_event("act", hs, act, by)])
        game.apply(act, seat=hs, seq=seq)
        await self._settle()
        self._broadcast()

    async def _answers(self, answers: list[tuple[int, Action, str]]) -> None:
        """Answers in the window (hand seat, answer, by whom), checked before: stored
        and kept until the window closes.  Only each answering seat's own connections
        hear of its answer."""
        window = self.window
        assert window is not None
        game = self._game()
        for hs, act, _ in answers:
            game.check(act, seat=hs, seq=game.seq)
        await self._write([self._action_event("answer", hs, act, by) for hs, act, by in answers])
        for hs, act, by in answers:
            window.answers[hs] = (act, by)
            self._send_to_seat(self._setup().players[hs])

    # ---------------------------------------------------------------- clients

    async def receive(self, conn: Connection, raw: str | bytes) -> None:
        """One message from a client: answered (to it alone) when refused."""
        if not conn.bucket.take():
            self._refuse(conn, "rate_limited", "too many messages: slow down")
            return
        try:
            message = protocol.parse_message(raw)
        except protocol.ProtocolError as exc:
            self._refuse(conn, exc.code, exc.message)
            return
        if isinstance(message, protocol.Ping):
            conn.refused = 0
            conn.push({"type": "pong"})
            return
        async with self.lock:
            try:
                await self._handle(conn, message)
            except protocol.ProtocolError as exc:
                self._refuse(conn, exc.code, exc.message)
                return
            except StoreError as exc:
                log.error("table %s: the database failed: %s", self.id[:6], exc)
                self._refuse(conn, "unavailable", "the database failed: nothing happened")
                return
        conn.refused = 0
        self.wake.set()

    def _refuse(self, conn: Connection, code: str, message: str) -> None:
        game, setup = self.game, self.setup
        conn.push(
            protocol.error(
                code,
                message,
                hand=None if setup is None else setup.number,
                seq=None if game is None or game.is_over else game.seq,
            )
        )
        conn.refused += 1
        if conn.refused > MAX_REFUSED:
            conn.close(CLOSE_FLOOD)

    async def _handle(self, conn: Connection, message: protocol.Message) -> None:
        if self.status == "closed" or self.broken:
            raise protocol.ProtocolError("closed", "the table is closed")
        seat = conn.seat
        if seat is None:
            raise protocol.ProtocolError("spectator", "a spectator only watches")
        state = self.seats[seat]
        if isinstance(message, protocol.Chat):
            await self._chat(state, message.text)
        elif isinstance(message, protocol.Back):
            if state.away:
                state.away = False
                self._track_fresh_turn()
                self._broadcast()
        elif isinstance(message, protocol.Next):
            self._next(seat, message.hand)
        elif isinstance(message, protocol.Act):
            await self._player_act(seat, message)

    def _track_fresh_turn(self) -> None:
        """A player back on his turn gets the whole turn timer again."""
        seat = self._seat_on_turn()
        if seat is not None and not seat.played_by_bot:
            self.turn_key = None
            self._track()

    def _next(self, seat: int, hand: int) -> None:
        game, setup = self.game, self.setup
        if game is None or setup is None or not game.is_over or not self.recorded:
            raise protocol.ProtocolError("not_now", "the hand is still in play")
        if hand != setup.number:
            raise protocol.ProtocolError(
                "not_now", f"hand {hand + 1} is not the hand just over ({setup.number + 1})"
            )
        if self._finished():
            raise protocol.ProtocolError("not_now", "the match is over: no more hands")
        if seat not in self.ready:
            self.ready.add(seat)
            self._broadcast()

    async def _player_act(self, seat: int, message: protocol.Act) -> None:
        game, setup = self.game, self.setup
        if self.status != "playing" or game is None or setup is None:
            raise protocol.ProtocolError("not_now", "no hand is in play")
        if message.hand != setup.number:
            raise protocol.ProtocolError(
                "stale",
                f"that was sent for hand {message.hand + 1}; hand {setup.number + 1} is on "
                "the table now",
            )
        hs = self.hand_seat(seat)
        if hs is None:
            raise protocol.ProtocolError("not_your_turn", "you sit this hand out")
        if game.is_over:
            raise protocol.ProtocolError("stale", f"hand {setup.number + 1} is over")
        if message.seq != game.seq:
            when = "an earlier" if message.seq < game.seq else "a later"
            raise protocol.ProtocolError(
                "stale",
                f"stale action: it answers decision {message.seq}, {when} one than the "
                f"decision asked now ({game.seq})",
            )
        window = self.window
        if window is not None and hs in window.answers:
            raise protocol.ProtocolError("answered", "you answered in this window already")
        try:
            act = game.check(message.action, seat=hs, seq=message.seq)
        except NotYourTurn:
            raise protocol.ProtocolError(
                "not_your_turn", "you are not asked to decide now"
            ) from None
        except StaleAction as exc:
            raise protocol.ProtocolError("stale", str(exc)) from None
        except (IllegalAction, MahjongError) as exc:
            raise protocol.ProtocolError("illegal", str(exc)) from None
        if window is not None:
            await self._answers([(hs, act, "player")])
            return
        self.seats[seat].away = False  # acting on a turn: the player is back
        await self._turn_act(hs, act, "player")

    async def _chat(self, seat: SeatState, text: str) -> None:
        if self.chat_lines >= MAX_CHAT_LINES:
            raise protocol.ProtocolError(
                "not_now", f"this table has had {MAX_CHAT_LINES} chat lines: no more"
            )
        line = {"seat": seat.seat, "text": text}
        await self._write([NewEvent("chat", line)])
        shown = self._add_chat(line)
        for conn in self.connections:
            conn.push({"type": "chat", "line": shown})

    def _add_chat(self, line: dict[str, Any]) -> dict[str, Any]:
        seat = self.seats[line["seat"]]
        shown = {
            "seat": seat.seat,
            "nickname": seat.nickname,
            "text": line["text"],
            "time": int(self.wall_clock() * 1000),
        }
        self.chat.append(shown)
        self.chat_lines += 1
        return shown

    async def join(self, nickname: str, seat: int | None) -> tuple[int, str]:
        """Take a free human seat (``None``: the first) for ``nickname``; the seat and
        its token (only its hash is stored)."""
        async with self.lock:
            if self.status not in ("waiting", "playing") or self.broken:
                raise OnlineError(409, "this table is over: it takes no more players")
            name = check_nickname(nickname)
            if any(s.nickname and s.nickname.casefold() == name.casefold() for s in self.seats):
                raise OnlineError(409, f"the nickname {name!r} is taken at this table")
            free = [s.seat for s in self.seats if s.kind == "human" and not s.taken]
            if seat is None:
                if not free:
                    raise OnlineError(409, "every seat at this table is taken")
                seat = free[0]
            elif not 0 <= seat < len(self.seats):
                raise OnlineError(422, f"seat: 0 to {len(self.seats) - 1}, not {seat}")
            elif seat not in free:
                kind = "a bot's" if self.seats[seat].kind == "bot" else "taken"
                raise OnlineError(409, f"seat {seat} is {kind}: choose another")
            token = new_token()
            hashed = token_hash(token)
            event = NewEvent("joined", {"seat": seat, "nickname": name})
            self.next_seq = await store_call(
                self.store,
                take_seat,
                self.id,
                seat,
                nickname=name,
                token_hash=hashed,
                first_seq=self.next_seq,
                event=event,
                owner=self.owner,
            )
            state = self.seats[seat]
            state.nickname, state.token_hash = name, hashed
            self._broadcast()
        self.wake.set()
        return seat, token

    def seat_of_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return s.seat
        return None

    async def attach(self, conn: Connection) -> None:
        """A socket opened: it gets the snapshot; the others see the seat connected."""
        async with self.lock:
            if len(self.connections) >= MAX_CONNECTIONS_PER_TABLE:
                raise OnlineError(429, "too many connections to this table")
            self.connections.add(conn)
            if conn.seat is not None:
                seat = self.seats[conn.seat]
                seat.connections += 1
                seat.away = False  # back
                self._track_fresh_turn()
            was_paused, self.paused = self.paused, self._no_human_here()
            if was_paused and not self.paused:
                self.restart_timers()
            self._push_state(conn, first=True)
            if conn.seat is not None:
                self._broadcast(skip=conn)
        self.wake.set()

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            if conn not in self.connections:
                return
            self.connections.discard(conn)
            if conn.seat is not None:
                self.seats[conn.seat].connections -= 1
                self._broadcast()
            self.paused = self._no_human_here()
            if not self.connections:
                self.idle_since = self.clock()
        self.wake.set()

    async def make_way(self) -> bool:
        """Close this table if it is finished and nobody is looking at it (True then), to
        make room for a table in play: its events stay in the store, as after an idle
        hour."""
        async with self.lock:
            if self.status != "finished" or self.connections:
                return False
            await self._close("room")
        self.wake.set()  # the task sees the closed status and ends
        return True

    async def _close(self, reason: str) -> None:
        if self.status in ("waiting", "playing"):
            await self._write([NewEvent("closed", {"reason": reason})], status="closed")
        self.status = "closed"
        for conn in list(self.connections):
            conn.close(CLOSE_GONE)
        self.on_close(self)

    # ---------------------------------------------------------------- views

    def view(self, seat: int | None, *, by_table_id: bool) -> dict[str, Any]:
        """The state as ``seat`` sees it (``None``: a spectator), without events (for
        HTTP; the sockets get theirs from :meth:`_push_state`)."""
        state, _ = table_view(self, seat, by_table_id=by_table_id, since=None, chat=True)
        return state

    def _push_state(self, conn: Connection, *, first: bool = False) -> None:
        state, conn.seen = table_view(
            self,
            conn.seat,
            by_table_id=conn.by_table_id,
            since=None if first else conn.seen,
            chat=first,
        )
        conn.push(state)

    def _broadcast(self, skip: Connection | None = None) -> None:
        """Every connection its own view (the same text for connections that had the
        same view before)."""
        cache: dict[tuple[int | None, bool, tuple[int, int] | None], tuple[str, Any]] = {}
        for conn in self.connections:
            if conn is skip or conn.close_code is not None:
                continue
            key = (conn.seat, conn.by_table_id, conn.seen)
            hit = cache.get(key)
            if hit is None:
                state, seen = table_view(
                    self, conn.seat, by_table_id=conn.by_table_id, since=conn.seen, chat=False
                )
                hit = cache[key] = (json.dumps(state), seen)
            conn.push(hit[0])
            conn.seen = hit[1]

    def _send_to_seat(self, seat: int) -> None:
        for conn in self.connections:
            if conn.seat == seat:
                self._push_state(conn)

    def log(self, number: int) -> tuple[str, str]:
        """The log of hand ``number`` (0-based) and its file name."""
        text = self.logs.get(number)
        if text is None:
            raise OnlineError(
                404,
                f"no log of hand {number + 1}: a log is there once its hand is over "
                f"(the last {MAX_KEPT_LOGS} hands are kept)",
            )
        return text, f"online-{self.watch_id[:8]}-hand{number + 1:02d}.jsonl"


def played_hands(stored: StoredTable, store: Store) -> tuple[HandRecord, ...]:
    """The hands a stored table played, as its match recorded them: each hand's setup
    (``setup.players[s]`` is the table seat at hand seat ``s``) and result (the winner
    and the discarder, hand seats), dealt again from the seed with every stored action
    applied again (:meth:`Table.rebuild`; nothing is written, no task started).
    ``ValueError`` (a ``MahjongError`` among them; or ``KeyError``, ``TypeError``,
    ``IndexError``, ``AssertionError``) when the events do not replay."""
    table = Table.rebuild(stored, store=store, config=OnlineConfig())
    return tuple(table.match.history)


def check_nickname(nickname: object) -> str:
    """A nickname: 1 to :data:`MAX_NICKNAME_CHARS` printable characters, no space at
    either end."""
    if not isinstance(nickname, str) or not nickname:
        raise OnlineError(422, "nickname: give a name of 1 to 24 characters")
    if len(nickname) > MAX_NICKNAME_CHARS:
        raise OnlineError(422, f"nickname: at most {MAX_NICKNAME_CHARS} characters")
    if not nickname.isprintable() or nickname.strip() != nickname:
        raise OnlineError(422, "nickname: printable characters, no space at either end")
    return nickname
