"""Games against the bots in the browser: the tables, held in a bounded registry.

A :class:`BotTable` is one player's match against the heuristic bots: the core
:class:`~mahjong_nts.core.match.Match` deals the hands, the bots move on the server, and
the player's actions come in through the authority form ``Game.apply(act, seat=, seq=)``,
paired with the hand's number, so a stale or doubled submit is refused (409) and changes
nothing.  The player is player 0 (East in the first hand).

The client gets only :func:`table_state`: the player's own observation
(:func:`~mahjong_nts.core.observation.observe`) and the events the seat may see
(:func:`~mahjong_nts.core.observation.visible_events`); never another seat's concealed
tiles, the wall or the seed before the hand is over.  Each hand's seed comes from
``secrets`` (through the match seed); its commitment is in the state from the deal on, the
seed itself once the hand is over, with the hand log (hash-chained, ``replay --verify``
checks it).

:class:`Registry` holds at most :data:`MAX_GAMES` tables, each forgotten after
:data:`IDLE_SECONDS` without a request (a :class:`~mahjong_nts.web.held.Held`); a table's
id is 128 random bits (``secrets.token_urlsafe``), its only key.

No HTTP here: the routes (``web/play.py``) turn :class:`PlayError` into a status.  The
JSON of tiles, melds, events, results and hints is :mod:`mahjong_nts.online.state`'s,
shared with the online tables.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final

from mahjong_nts.bots import make_bot
from mahjong_nts.bots.base import Player
from mahjong_nts.core.actions import Action, parse_action
from mahjong_nts.core.errors import MahjongError, NotYourTurn, StaleAction, quote
from mahjong_nts.core.game import Game
from mahjong_nts.core.match import HandSetup, Match
from mahjong_nts.core.observation import observe, visible_events
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS, SeedRng, derive_seed, seed_commitment
from mahjong_nts.core.text import N_, Text
from mahjong_nts.formats import gamelog
from mahjong_nts.online.state import (
    event_state,
    hand_order,
    hint,
    meld_state,
    result_state,
    seat_state,
)
from mahjong_nts.web.held import Held

__all__ = [
    "BOT",
    "CLAIM_SECONDS",
    "HAND_KEYS",
    "IDLE_SECONDS",
    "MAX_GAMES",
    "MAX_HANDS",
    "MAX_KEPT_LOGS",
    "BotTable",
    "PlayError",
    "Registry",
    "hint",
    "meld_state",
    "result_state",
    "table_state",
]

MAX_GAMES: Final = 100
"""Tables held at once; a new game past it is refused (503) until one expires."""
IDLE_SECONDS: Final = 30 * 60
"""A table nobody asked about for this long is forgotten."""
MAX_HANDS: Final = 16
"""Hands a player may ask for (1 .. 16), or the whole match."""
MAX_KEPT_LOGS: Final = 8
"""Hand logs kept per table for download: those of the last 8 hands."""
CLAIM_SECONDS: Final = 20
"""The countdown of a claim prompt in the page; at 0 the page sends ``pass``."""
BOT: Final = "heuristic"
HAND_KEYS: Final = "1234567890qwertyu"
"""The key of each tile position in the player's hand, left to right (17 positions: a
hand has at most 14 concealed tiles; c, p, k, m, x, h are kept for the actions)."""


class PlayError(Exception):
    """A request the table refuses: ``status`` (404, 409, 422, 503) and one line
    (English; a core :class:`~mahjong_nts.core.text.Text` the pages say in their
    language)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class BotTable:
    """One player's match against the bots (the player is player 0)."""

    def __init__(
        self,
        game_id: str,
        rules: RuleSet,
        spec: str,
        seed: int,
        hands: int | None,
    ) -> None:
        self.id = game_id
        self.rules = rules
        self.spec = spec
        self.seed = seed
        self.limit = hands
        """Hands to play; ``None``: the whole match."""
        self.lock = threading.Lock()
        self.match = Match(rules, SeedRng(seed, "match"), SeedRng)
        self.bots: dict[int, Player] = {
            p: make_bot(BOT, derive_seed(seed, "bot", p), rules)
            for p in range(1, self.match.players)
        }
        self.names = ["you"] + [f"{BOT}-{p}" for p in range(1, self.match.players)]
        self.played = 0
        self.logs: OrderedDict[int, str] = OrderedDict()
        self.setup: HandSetup
        self.game: Game
        self.me: int | None
        self._deal()

    # ---------------------------------------------------------------- the hand

    @property
    def hand(self) -> int:
        """The number of the hand in play or just over (0-based)."""
        return self.setup.number

    @property
    def seat_names(self) -> list[str]:
        return [self.names[p] for p in self.setup.players]

    @property
    def finished(self) -> bool:
        """No more hands: the match is over or the hands asked for are played."""
        return self.match.is_over or (self.limit is not None and self.played >= self.limit)

    def _deal(self) -> None:
        self.setup, self.game = self.match.next_hand()
        self.me = self.setup.players.index(0) if 0 in self.setup.players else None
        self._run_bots()

    def _run_bots(self) -> None:
        """Let the bots move until the player must decide or the hand is over."""
        game = self.game
        while not game.is_over and game.current_seat != self.me:
            seat = game.current_seat
            bot = self.bots[self.setup.players[seat]]
            game.apply(bot.act(observe(game, seat)), seat=seat, seq=game.seq)
        if game.is_over:
            self.match.record(game)
            self.played += 1
            self.logs[self.hand] = gamelog.hand_log_text(
                game,
                ruleset=self.spec,
                seed=self.setup.seed,
                setup=self.setup,
                players=self.seat_names,
            )
            while len(self.logs) > MAX_KEPT_LOGS:
                self.logs.popitem(last=False)

    def _check_hand(self, hand: int) -> None:
        if hand != self.hand:
            raise PlayError(
                409,
                f"that was sent for hand {quote(hand + 1)}; hand {self.hand + 1} is on the "
                "table now (reload the page)",
            )

    def act(self, hand: int, seq: int, text: str) -> Action:
        """Apply the player's action ``text`` (``discard b3``, ``pung``, ...) answering
        decision ``seq`` of hand ``hand``; then the bots move.  Nothing changes when it
        is refused: 409 for a stale, doubled or out-of-turn submit, 422 for an action
        that is malformed or not allowed now."""
        self._check_hand(hand)
        game = self.game
        if game.is_over:
            raise PlayError(
                409, Text(N_("hand {number} is over: it takes no more actions"), number=hand + 1)
            )
        if self.me is None:  # (never reached: the bots play such a hand to its end)
            raise PlayError(409, Text(N_("you sit this hand out")))
        try:
            act = parse_action(text)  # InvalidAction for text that is no action
            game.apply(act, seat=self.me, seq=seq)
        except (NotYourTurn, StaleAction) as exc:
            raise PlayError(
                409,
                Text(N_("{problem} (it was sent twice, or the table moved on)"), problem=exc.text),
            ) from None
        except MahjongError as exc:
            raise PlayError(422, exc.text) from None
        self._run_bots()
        return act

    def next_hand(self, hand: int) -> None:
        """Deal the hand after ``hand`` (which must be the one just over)."""
        self._check_hand(hand)
        if not self.game.is_over:
            raise PlayError(409, Text(N_("hand {number} is still in play"), number=hand + 1))
        if self.finished:
            raise PlayError(409, Text(N_("the game is over: no more hands (start a new game)")))
        self._deal()

    def log(self, hand: int) -> tuple[str, str]:
        """The log of ``hand`` (0-based) and its file name; 404 when there is none."""
        text = self.logs.get(hand)
        if text is None:
            raise PlayError(
                404,
                f"no log of hand {quote(hand + 1)}: a log is there once its hand is over "
                f"(the last {MAX_KEPT_LOGS} hands are kept)",
            )
        tag = seed_commitment(self.seed)[:12]
        return text, f"play-{tag}-hand{hand + 1:02d}.jsonl"


# -------------------------------------------------------------------- the registry


class Registry:
    """At most ``max_games`` tables; one idle for ``idle`` seconds is forgotten.

    Each new table's match seed comes from ``secrets``; with ``seed`` (the
    ``MAHJONG_NTS_PLAY_SEED`` setting, for tests and screenshots only) the n-th table
    of this registry is dealt from ``derive_seed(seed, "web-play", n)`` instead, so the
    same games come again on every run."""

    def __init__(
        self,
        max_games: int = MAX_GAMES,
        idle: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
    ) -> None:
        self.max_games = max_games
        self.idle = idle
        self.seed = seed
        self._made = 0
        self._tables: Held[BotTable] = Held(max_games, idle, evict=False, clock=clock)

    def __len__(self) -> int:
        return len(self._tables)

    def _next_seed(self) -> int:
        self._made += 1
        if self.seed is None:
            return secrets.randbits(DEFAULT_SEED_BITS)
        return derive_seed(self.seed, "web-play", self._made)

    def create(self, rules: RuleSet, spec: str, hands: int | None) -> BotTable:
        """A new table with a random id and a random match seed (503 when full)."""
        made = self._tables.add(lambda key: BotTable(key, rules, spec, self._next_seed(), hands))
        if made is None:
            raise PlayError(
                503,
                f"{self.max_games} games are in play on this server: try again in a few minutes",
            )
        return made[1]

    def get(self, game_id: str) -> BotTable:
        """The table ``game_id`` (404 when unknown or expired); marks it used."""
        table = self._tables.get(game_id)
        if table is None:
            raise PlayError(
                404,
                "no such game: it ended, or was idle for more than "
                f"{self.idle // 60:.0f} minutes (start a new one)",
            )
        return table


# -------------------------------------------------------------------- what the client gets


def table_state(table: BotTable, *, with_hint: bool = False) -> dict[str, Any]:
    """Everything the player's client gets about its table: the one place that decides
    it.  Built from ``observe(game, seat)`` and ``visible_events(game, seat)`` of the
    player's seat; every hand and the seed only once the hand is over."""
    game = table.game
    over = game.is_over
    me = table.me
    # a hand the player sits out (five players) is played to its end before anyone asks
    obs = observe(game, me if me is not None else 0)
    seen = visible_events(game, me) if me is not None else game.events
    phase = "over" if over else obs.phase.name.lower()
    state: dict[str, Any] = {
        "game": table.id,
        "ruleset": table.rules.name,
        "hand": table.hand,
        "seat": me,
        "names": table.seat_names,
        "round_wind": obs.round_wind.token,
        "dominant": obs.dominant,
        "phase": phase,
        "seq": obs.seq,
        "turn": obs.turn,
        "to_act": obs.to_act,
        "legal": [str(a) for a in obs.legal],
        "concealed": hand_order(obs) if me is not None else [],
        "drawn": None if obs.drawn is None else obs.drawn.token,
        "offered": None if obs.offered is None else obs.offered.token,
        "seats": [seat_state(v, name=table.seat_names[v.seat]) for v in obs.seats],
        "live_left": obs.live_left,
        "dead_left": obs.dead_left,
        "events": [event_state(e) for e in seen],
        "seed_commitment": seed_commitment(table.setup.seed),
        "seed": str(table.setup.seed) if over else None,
        "result": None,
        "match": {
            "hands_played": table.played,
            "limit": table.limit,
            "finished": table.finished,
            "players": table.names,
            "balances": list(table.match.balances),
        },
        "hint": None,
    }
    if over:
        assert game.result is not None
        state["result"] = result_state(game.result, game, table.rules)
    elif with_hint and obs.to_act:
        state["hint"] = hint(obs, table.rules)
    state["countdown"] = CLAIM_SECONDS if phase in ("claim", "rob") else None
    return state
