"""Simulate many hands or whole matches between bots and summarise who does better (no CLI
code here).

**Hands** (:func:`play_hand`) are independent: hand ``i`` of a run with seed ``S`` is fully
determined by ``(S, i)``:

* its wall comes from ``SeedRng(hand_seed(S, i))`` (a 256-bit seed derived from
  ``S`` and ``i``), so the hand can be replayed alone, and its log (``--log``) records it;
* the bots rotate round the table: entry ``j`` of the bot list sits at seat
  ``(j + i) % seats`` (seat 0 is East), so over ``seats`` hands every bot sits everywhere
  once; each bot gets its own seed hashed from ``(S, i, j)``;
* the round wind goes round as in a match: East for hands ``0 .. seats-1``, then South,
  and so on through the table's winds (always East when the rule set has no rotating
  round wind).  Green-dragon hands are not played this way.

A table of the rule set's size plays each hand (3 or 4 seats; a 5-player rule set plays
4 seats, the dreamer's chair is not simulated).

**Matches** (:func:`play_match`) are played by :class:`~mahjong_nts.core.match.Match`, which
moves the winds and rounds on as the rule set says, deals the green-dragon hands and seats
the dreamer of a 5-player table.  Match ``m`` of a run with seed ``S`` is fully determined by
``(S, m)``: the match's chance comes from ``SeedRng(match_seed(S, m), "match")``, entry
``j`` of the bot list is player ``(j + m) % players`` (player 0 is East in the first hand)
and keeps its bot, seeded from ``(S, m, j)``, for the whole match.  A match that has not
ended after :data:`MATCH_HAND_LIMIT` hands is cut there (nmb-2009 keeps the winds after a
remise and after an East win, so weak bots can play one for ever) and counted as cut.

Work is streamed: hands (or matches) are played in chunks, a bounded number at a time
(:func:`run_simulation` yields the outcomes in order and never holds them all), and the
summary is built by a streaming accumulator (:class:`Summary`) from exact integer and
fraction sums, so the same seed gives the same summary whatever the number of processes.

The summary (:meth:`Summary.result`) is a plain JSON-ready dict; its fields are described
in ``docs/simulate.md``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from mahjong_nts.bots import Player
from mahjong_nts.bots.loader import BotLoadError, check_bot, make_named_bot
from mahjong_nts.core.actions import among
from mahjong_nts.core.game import Game
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.match import Match
from mahjong_nts.core.observation import observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import SeedRng, check_seed, derive_seed
from mahjong_nts.core.tiles import WINDS, Tile
from mahjong_nts.formats.logkeys import LogKey
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.runner import Backend, WorkerFailure, available_cpus, chunk_size, run_chunks

__all__ = [
    "MATCH_HAND_LIMIT",
    "MAX_HANDS",
    "MAX_MATCHES",
    "Z95",
    "BotError",
    "BotLoadError",
    "HandOutcome",
    "MatchOutcome",
    "SimulationSpec",
    "Summary",
    "WorkerFailure",
    "available_cpus",
    "bot_seed",
    "hand_seed",
    "match_bot_seed",
    "match_seed",
    "play_hand",
    "play_match",
    "round_wind_of",
    "run_simulation",
    "seat_entries",
    "summarize",
    "validate_bots",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

MAX_HANDS: Final = 1_000_000
"""Most hands one run plays (``--hands``): about an hour a core for the heuristic bot at
this size's lower end, and the log names (``hand-000042``) have six digits."""
MAX_MATCHES: Final = 100_000
"""Most matches one run plays (``--matches``); a match is 12 to 25 hands or more."""
MATCH_HAND_LIMIT: Final = 500
"""Hands after which a match that has not ended is cut (counted in ``cut_matches``)."""


class BotError(RuntimeError):
    """A bot chose an action that was not among its legal actions, or raised an error."""


@dataclass(frozen=True, slots=True)
class SimulationSpec:
    """What to simulate; plain values, so it travels to worker processes."""

    ruleset: str
    """A rule-set spec for :func:`load_ruleset` (name, ``name+overlay`` or a file path)."""
    bots: tuple[str, ...]
    """Bot names, one entry per seat of the table (per player of the match with ``matches``)."""
    seed: int = 0
    log_dir: str | None = None
    """Write each hand's JSON Lines log here (``hand-000042.jsonl``, or
    ``match-000003-hand-012.jsonl`` with ``matches``) when set."""
    log_key: LogKey | None = None
    """Sign the logs with this key when set."""
    matches: bool = False
    """Play whole matches instead of single hands."""

    def __post_init__(self) -> None:
        check_seed(self.seed, "seed")

    def play_unit(self, rules: RuleSet, index: int) -> Outcome:
        """Hand (or match) ``index`` (:func:`play_hand`, :func:`play_match`)."""
        return play_match(self, rules, index) if self.matches else play_hand(self, rules, index)


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What the summary needs of one hand; indices are *entries* of the bot list."""

    index: int
    """The hand's index in the run (in its match, from 0, for a match's hand)."""
    seats: tuple[int, ...]
    """The entry at each seat (index 0 is East)."""
    winner: int | None
    """The winning entry; ``None`` for a remise."""
    self_drawn: bool
    balances: tuple[int, ...]
    """What each entry won or lost (by entry, not by seat; 0 for a dreamer)."""
    decisions: int
    draws: int
    """Tiles drawn from the live wall (loose tiles and flower replacements not counted)."""
    items: tuple[str, ...]
    """The winner's scoring items (ids), each once."""
    limit_hand: str | None
    reason: str
    """``"mahjong"`` or why the hand was a remise."""
    green: bool = False
    """A green-dragon hand (only in a match)."""
    discards: int = 0
    """Tiles discarded in the hand by every seat (an announcement's discard included)."""
    score: int = 0
    """The winner's score (his hand's value, capped as the rule set says); 0 for a remise."""
    discarder: int | None = None
    """The entry whose discard (or promoted kong) gave the winning tile; ``None`` when the
    winner drew it himself, and for a remise."""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """One match: its hands (at most :data:`MATCH_HAND_LIMIT`) and each entry's total."""

    index: int
    players: tuple[int, ...]
    """The entry of each player (player 0 is East in the first hand)."""
    hands: tuple[HandOutcome, ...]
    balances: tuple[int, ...]
    """Each entry's balance over the match."""
    cut: bool
    """The match had not ended after :data:`MATCH_HAND_LIMIT` hands."""


Outcome = HandOutcome | MatchOutcome


# --------------------------------------------------------------------------- one hand


def hand_seed(seed: int, index: int) -> int:
    """The seed of hand ``index`` of a run with ``seed`` (its wall's :class:`SeedRng`)."""
    return derive_seed(seed, "simulate", index)


def bot_seed(seed: int, index: int, entry: int) -> int:
    """The seed of bot entry ``entry`` in hand ``index``."""
    return derive_seed(seed, "simulate", index, "bot", entry)


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run with ``seed`` (the match's ``SeedRng(.., "match")``)."""
    return derive_seed(seed, "simulate-match", index)


def match_bot_seed(seed: int, index: int, entry: int) -> int:
    """The seed of bot entry ``entry`` in match ``index`` (one bot for the whole match)."""
    return derive_seed(seed, "simulate-match", index, "bot", entry)


def seat_entries(index: int, seats: int) -> tuple[int, ...]:
    """The bot entry at each seat of hand ``index``: entry ``j`` sits at ``(j + index) % seats``.

    The same rotation places the entries as players of match ``index``."""
    return tuple((s - index) % seats for s in range(seats))


def round_wind_of(index: int, rules: RuleSet) -> Tile:
    """The round wind of hand ``index``: each wind of the table for ``seats`` hands in turn."""
    table = rules.table
    if table.round_wind == "east":
        return Tile.EAST
    return WINDS[(index // table.players) % len(table.winds)]


def table_size(rules: RuleSet, matches: bool = False) -> int:
    """Bots a run needs: one per seat, or per player of a match (a dreamer included)."""
    table = rules.table
    return table.players + (1 if matches and table.dreamer else 0)


def validate_bots(
    names: Sequence[str], rules: RuleSet, *, matches: bool = False
) -> tuple[str, ...]:
    """The bot list checked against the registry and the table; raises ValueError."""
    count = table_size(rules, matches)
    names = tuple(n.strip() for n in names)
    for name in dict.fromkeys(names):
        check_bot(name, rules)  # BotLoadError, a ValueError saying what is wrong
    if len(names) != count:
        what = "players a match" if matches else "seats a hand"
        raise ValueError(f"{rules.name} plays {count} {what}: give {count} bots, not {len(names)}")
    return names


def _play_game(game: Game, players: Sequence[Player], names: Sequence[str], where: str) -> int:
    """Let the bots play ``game`` to its end; the number of decisions taken."""
    decisions = 0
    while not game.is_over:
        seat = game.current_seat
        obs = observe(game, seat)
        legal = obs.legal
        try:
            act = players[seat].act(obs)
        except Exception as exc:  # a bot of module:Class or an entry point: its own bug
            raise BotError(
                f"bot {names[seat]!r} (seat {seat}, {where}) failed: {type(exc).__name__}: {exc}"
            ) from None
        # let go of the observation before the game changes: the parts of it that the bot
        # did not read (a random bot reads only the legal actions) are then never worked out
        del obs
        if not among(act, legal) and act not in legal:  # (identity first: cheap)
            raise BotError(
                f"bot {names[seat]!r} (seat {seat}, {where}) chose "
                f"{act!s}, not one of its legal actions"
            )
        game.apply(act)
        decisions += 1
    return decisions


def _hand_outcome(
    index: int,
    game: Game,
    seats: tuple[int, ...],
    entries: int,
    decisions: int,
    green: bool = False,
) -> HandOutcome:
    """The outcome of a finished ``game`` whose seat ``s`` held entry ``seats[s]``."""
    result = game.result
    assert result is not None
    balances = [0] * entries
    for seat, entry in enumerate(seats):
        balances[entry] = result.settlement.balances[seat]
    items: tuple[str, ...] = ()
    limit_hand = None
    winner = None
    self_drawn = False
    points = 0
    discarder = None
    if result.winner is not None:
        winner = seats[result.winner]
        score = result.scores[result.winner]
        items = tuple(dict.fromkeys(item.id for item in score.items))
        limit_hand = score.limit_hand
        points = score.score
        self_drawn = result.discarder is None
        if result.discarder is not None:
            discarder = seats[result.discarder]
    draws = sum(1 for e in game.events if e.kind == "draw")
    return HandOutcome(
        index=index,
        seats=seats,
        winner=winner,
        self_drawn=self_drawn,
        balances=tuple(balances),
        decisions=decisions,
        draws=draws,
        items=items,
        limit_hand=limit_hand,
        reason=result.reason,
        green=green,
        discards=game.discard_count,
        score=points,
        discarder=discarder,
    )


def play_hand(spec: SimulationSpec, rules: RuleSet, index: int) -> HandOutcome:
    """Play hand ``index`` of ``spec`` to its end (writing its log when asked)."""
    n = rules.table.players
    seats = seat_entries(index, n)
    hseed = hand_seed(spec.seed, index)
    game = Game(rules, SeedRng(hseed), round_wind=round_wind_of(index, rules))
    players = [make_named_bot(spec.bots[e], bot_seed(spec.seed, index, e), rules) for e in seats]
    names = [spec.bots[e] for e in seats]
    decisions = _play_game(game, players, names, f"hand {index}")
    if spec.log_dir is not None:
        from mahjong_nts.formats.gamelog import write_hand_log

        write_hand_log(
            Path(spec.log_dir) / f"hand-{index:06d}.jsonl",
            game,
            ruleset=spec.ruleset,
            seed=hseed,
            players=[spec.bots[e] for e in seats],
            key=spec.log_key,
        )
    return _hand_outcome(index, game, seats, n, decisions)


def play_match(spec: SimulationSpec, rules: RuleSet, index: int) -> MatchOutcome:
    """Play match ``index`` of ``spec`` (at most :data:`MATCH_HAND_LIMIT` hands), driven by
    :class:`Match`; writes each hand's log when asked."""
    count = table_size(rules, matches=True)
    entries = seat_entries(index, count)  # the entry of each player
    match = Match(rules, SeedRng(match_seed(spec.seed, index), "match"), SeedRng)
    bots = [
        make_named_bot(spec.bots[e], match_bot_seed(spec.seed, index, e), rules) for e in entries
    ]
    hands: list[HandOutcome] = []
    while not match.is_over and len(hands) < MATCH_HAND_LIMIT:
        setup, game = match.next_hand()
        seats = tuple(entries[p] for p in setup.players)
        names = [spec.bots[e] for e in seats]
        where = f"match {index}, hand {setup.number}"
        decisions = _play_game(game, [bots[p] for p in setup.players], names, where)
        if spec.log_dir is not None:
            from mahjong_nts.formats.gamelog import write_hand_log

            write_hand_log(
                Path(spec.log_dir) / f"match-{index:06d}-hand-{setup.number + 1:03d}.jsonl",
                game,
                ruleset=spec.ruleset,
                seed=setup.seed,
                setup=setup,
                players=names,
                key=spec.log_key,
            )
        match.record(game)
        green = setup.round_wind == Tile.GREEN
        hands.append(_hand_outcome(setup.number, game, seats, count, decisions, green=green))
    balances = [0] * count
    for player, entry in enumerate(entries):
        balances[entry] = match.balances[player]
    return MatchOutcome(
        index=index,
        players=entries,
        hands=tuple(hands),
        balances=tuple(balances),
        cut=not match.is_over,
    )


# --------------------------------------------------------------------------- many hands


def run_simulation(
    spec: SimulationSpec,
    count: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    rules: RuleSet | None = None,
    backend: Backend | None = None,
) -> Iterator[Outcome]:
    """Play hands (or matches, with ``spec.matches``) ``0 .. count-1``; yields the outcomes
    in order, whatever ``jobs`` is, holding only a few chunks at a time.

    ``jobs == 1`` plays in this process; more use a process pool (``jobs`` is capped to
    :func:`available_cpus` and to the number of chunks) fed a bounded number of chunks.
    With a ``backend`` (Ray: :mod:`mahjong_nts.sim.raybackend`) the chunks are played there,
    ``jobs`` of them at once (the backend has capped it to its processors).
    ``progress(k)`` is called as each chunk of ``k`` units is done.  ``rules`` is
    ``load_ruleset(spec.ruleset)`` when given (it is loaded otherwise).  Arguments are
    checked at once (ValueError), before the first outcome is asked for.
    """
    limit = MAX_MATCHES if spec.matches else MAX_HANDS
    what = "matches" if spec.matches else "hands"
    if not 1 <= count <= limit:
        raise ValueError(f"{what} must be from 1 to {limit}, not {count}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if rules is None:
        rules = load_ruleset(spec.ruleset)
    validate_bots(spec.bots, rules, matches=spec.matches)
    if backend is None:
        jobs = min(jobs, available_cpus())
    size = chunk_size(count, jobs, *((1, 4) if spec.matches else (10, 100)))
    workers = min(jobs, math.ceil(count / size))
    return run_chunks(spec, rules, count, size, workers, progress, backend)


# --------------------------------------------------------------------------- summary


class _Moments:
    """Count, sum and sum of squares of values (ints or fractions), kept exactly, so the
    mean and its interval do not depend on the order the values came in."""

    __slots__ = ("n", "q", "s")

    def __init__(self) -> None:
        self.n = 0
        self.s: int | Fraction = 0
        self.q: int | Fraction = 0

    def add(self, value: int | Fraction) -> None:
        self.n += 1
        self.s += value
        self.q += value * value

    def mean_ci(self, scale: int = 1) -> tuple[float, list[float]]:
        """Mean of ``value / scale`` and its 95% interval by the normal approximation
        (sample standard deviation)."""
        n = self.n
        mean = Fraction(self.s) / (n * scale)
        if n < 2:
            return float(mean), [float(mean), float(mean)]
        var = (Fraction(self.q) - Fraction(self.s) ** 2 / n) / ((n - 1) * scale * scale)
        half = Z95 * math.sqrt(float(var) / n)
        m = float(mean)
        return m, [m - half, m + half]


def _mean_ci(values: Iterable[int | Fraction]) -> tuple[float, list[float]]:
    """Mean and its 95% interval by the normal approximation (sample standard deviation)."""
    acc = _Moments()
    for v in values:
        acc.add(v)
    return acc.mean_ci()


def _wilson(successes: int, trials: int) -> list[float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


class Summary:
    """The summary of a run, built one outcome at a time (in memory: a few numbers per
    entry and counters of reasons and items, never the outcomes).

    The *unit* is a hand, or a match with ``spec.matches``: mean balances and margins are
    per unit (paired by unit); win rates are per seat-hand played.
    """

    def __init__(self, spec: SimulationSpec, rules: RuleSet) -> None:
        self.spec = spec
        self.rules = rules
        bots = spec.bots
        self.names = list(dict.fromkeys(bots))
        self.copies = {name: [j for j, b in enumerate(bots) if b == name] for name in self.names}
        self.units = 0
        self.hands = 0
        self.cut = 0
        self.green = 0
        e = len(bots)
        self.entry_wins = [0] * e
        self.entry_hands = [0] * e
        self.entry_balance = [_Moments() for _ in range(e)]
        self.bot_wins = dict.fromkeys(self.names, 0)
        self.bot_hands = dict.fromkeys(self.names, 0)
        self.bot_balance = {name: _Moments() for name in self.names}
        self.margin_balance = [_Moments() for _ in self.names[1:]]
        self.margin_win = [_Moments() for _ in self.names[1:]]
        self.reasons: Counter[str] = Counter()
        self.items: Counter[str] = Counter()
        self.limits: Counter[str] = Counter()
        self.won = 0
        self.self_drawn = 0
        self.decisions = 0
        self.draws = 0

    def _add_hand(self, o: HandOutcome) -> None:
        self.hands += 1
        self.decisions += o.decisions
        self.draws += o.draws
        self.green += o.green
        for entry in o.seats:
            self.entry_hands[entry] += 1
        if o.winner is None:
            self.reasons[o.reason] += 1
            return
        self.won += 1
        self.entry_wins[o.winner] += 1
        self.self_drawn += o.self_drawn
        self.items.update(o.items)
        if o.limit_hand is not None:
            self.limits[o.limit_hand] += 1

    def add(self, outcome: Outcome) -> None:
        """Count one hand (a run of hands) or one match (a run of matches)."""
        if isinstance(outcome, MatchOutcome):
            hands = outcome.hands
            self.cut += outcome.cut
        else:
            hands = (outcome,)
        e = len(self.spec.bots)
        wins = [0] * e
        played = [0] * e
        for hand in hands:
            self._add_hand(hand)
            if hand.winner is not None:
                wins[hand.winner] += 1
            for entry in hand.seats:
                played[entry] += 1
        self.units += 1
        balances = outcome.balances
        for j in range(e):
            self.entry_balance[j].add(balances[j])
        bot_balance: dict[str, int] = {}
        bot_rate: dict[str, Fraction] = {}
        for name in self.names:
            js = self.copies[name]
            bot_balance[name] = sum(balances[j] for j in js)
            w = sum(wins[j] for j in js)
            h = sum(played[j] for j in js)
            self.bot_wins[name] += w
            self.bot_hands[name] += h
            self.bot_balance[name].add(bot_balance[name])
            bot_rate[name] = Fraction(w, h) if h else Fraction(0)
        first = self.names[0]
        k1 = len(self.copies[first])
        for m, other in enumerate(self.names[1:]):
            k2 = len(self.copies[other])
            # per copy: B1 / k1 - B2 / k2, kept as an integer over the scale k1 * k2
            self.margin_balance[m].add(k2 * bot_balance[first] - k1 * bot_balance[other])
            self.margin_win[m].add(bot_rate[first] - bot_rate[other])

    def result(self) -> dict[str, Any]:
        """The summary: a JSON-ready dict (fields in ``docs/simulate.md``)."""
        if self.units == 0:
            raise ValueError("nothing to summarise: no hand was played")
        spec, rules, bots = self.spec, self.rules, self.spec.bots
        entries = []
        for j, name in enumerate(bots):
            mean, ci = self.entry_balance[j].mean_ci()
            wins, played = self.entry_wins[j], self.entry_hands[j]
            entries.append(
                {
                    "entry": j,
                    "bot": name,
                    "hands": played,
                    "wins": wins,
                    "win_rate": _rate(wins, played),
                    "win_rate_ci": _wilson(wins, played),
                    "mean_balance": mean,
                    "mean_balance_ci": ci,
                }
            )
        by_bot: dict[str, Any] = {}
        for name in self.names:
            k = len(self.copies[name])
            wins, played = self.bot_wins[name], self.bot_hands[name]
            mean, ci = self.bot_balance[name].mean_ci(k)
            by_bot[name] = {
                "seats": k,
                "hands": played,
                "wins": wins,
                "win_rate": _rate(wins, played),
                "win_rate_ci": _wilson(wins, played),
                "mean_balance": mean,
                "mean_balance_ci": ci,
            }
        margins = []
        first = self.names[0]
        k1 = len(self.copies[first])
        for m, other in enumerate(self.names[1:]):
            k2 = len(self.copies[other])
            mb, mb_ci = self.margin_balance[m].mean_ci(k1 * k2)
            mw, mw_ci = self.margin_win[m].mean_ci()
            margins.append(
                {
                    "bot": first,
                    "versus": other,
                    "mean_balance_diff": mb,
                    "mean_balance_diff_ci": mb_ci,
                    "win_rate_diff": mw,
                    "win_rate_diff_ci": mw_ci,
                }
            )
        remises = self.hands - self.won

        def table(counts: Counter[str], order: Sequence[str]) -> dict[str, Any]:
            rank = {key: i for i, key in enumerate(order)}
            keys = sorted(counts, key=lambda k: (-counts[k], rank.get(k, len(rank)), k))
            return {k: {"count": counts[k], "rate": counts[k] / self.won} for k in keys}

        return {
            "unit": "match" if spec.matches else "hand",
            "hands": self.hands,
            "matches": self.units if spec.matches else None,
            "cut_matches": self.cut,
            "green_dragon_hands": self.green,
            "seed": spec.seed,
            "ruleset": spec.ruleset,
            "ruleset_name": rules.name,
            "seats": rules.table.players,
            "bots": list(bots),
            "confidence": 0.95,
            "entries": entries,
            "by_bot": by_bot,
            "margins": margins,
            "remise": {
                "count": remises,
                "rate": remises / self.hands,
                "rate_ci": _wilson(remises, self.hands),
                "reasons": dict(sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
            },
            "wins": {
                "count": self.won,
                "self_drawn": self.self_drawn,
                "claimed": self.won - self.self_drawn,
            },
            "hand_length": {
                "decisions": self.decisions / self.hands,
                "draws": self.draws / self.hands,
            },
            "items": table(self.items, list(ITEMS)),
            "limit_hands": table(self.limits, list(LIMIT_HANDS)),
        }


def summarize(spec: SimulationSpec, rules: RuleSet, outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """The summary of a run's outcomes (consumed one at a time): a JSON-ready dict."""
    acc = Summary(spec, rules)
    for o in outcomes:
        acc.add(o)
    return acc.result()
