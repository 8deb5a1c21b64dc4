"""Simulate many hands between bots and summarise who does better (no CLI code here).

Hands are independent: hand ``i`` of a run with seed ``S`` is fully determined by
``(S, i)``:

* its wall comes from ``SeedRng(hand_seed(S, i))`` (a 256-bit seed derived from
  ``S`` and ``i``), so the hand can be replayed alone, and its log (``--log``) records it;
* the bots rotate round the table: entry ``j`` of the bot list sits at seat
  ``(j + i) % seats`` (seat 0 is East), so over ``seats`` hands every bot sits everywhere
  once; each bot gets its own seed hashed from ``(S, i, j)``;
* the round wind goes round as in a match: East for hands ``0 .. seats-1``, then South,
  and so on through the table's winds (always East when the rule set has no rotating
  round wind).  Green-dragon hands are not simulated.

A table of the rule set's size plays each hand (3 or 4 seats; a 5-player rule set plays
4 seats, the dreamer's chair is not simulated).  Because the outcomes are merged in hand
order and the summary is computed from them in that order, the same seed gives the same
summary whatever the number of processes (``jobs``).

The summary (:func:`summarize`) is a plain JSON-ready dict; its fields are described in
``docs/simulate.md``.
"""

from __future__ import annotations

import math
import multiprocessing
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mahjong_nts.bots import BOTS, make_bot
from mahjong_nts.core.game import Game
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.observation import observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import SeedRng, derive_seed
from mahjong_nts.core.tiles import WINDS, Tile
from mahjong_nts.formats.logkeys import LogKey
from mahjong_nts.formats.rulefiles import load_ruleset

__all__ = [
    "Z95",
    "BotError",
    "HandOutcome",
    "SimulationSpec",
    "bot_seed",
    "hand_seed",
    "play_hand",
    "round_wind_of",
    "run_simulation",
    "seat_entries",
    "summarize",
    "validate_bots",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


class BotError(RuntimeError):
    """A bot chose an action that was not among its legal actions."""


@dataclass(frozen=True, slots=True)
class SimulationSpec:
    """What to simulate; plain values, so it travels to worker processes."""

    ruleset: str
    """A rule-set spec for :func:`load_ruleset` (name, ``name+overlay`` or a file path)."""
    bots: tuple[str, ...]
    """Bot names, one entry per seat of the table."""
    seed: int = 0
    log_dir: str | None = None
    """Write each hand's JSON Lines log here (``hand-000042.jsonl``) when set."""
    log_key: LogKey | None = None
    """Sign the logs with this key when set."""


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What the summary needs of one hand; indices are *entries* of the bot list."""

    index: int
    seats: tuple[int, ...]
    """The entry at each seat (index 0 is East)."""
    winner: int | None
    """The winning entry; ``None`` for a remise."""
    self_drawn: bool
    balances: tuple[int, ...]
    """What each entry won or lost (by entry, not by seat)."""
    decisions: int
    draws: int
    """Tiles drawn from the live wall (loose tiles and flower replacements not counted)."""
    items: tuple[str, ...]
    """The winner's scoring items (ids), each once."""
    limit_hand: str | None
    reason: str
    """``"mahjong"`` or why the hand was a remise."""


# --------------------------------------------------------------------------- one hand


def hand_seed(seed: int, index: int) -> int:
    """The seed of hand ``index`` of a run with ``seed`` (its wall's :class:`SeedRng`)."""
    return derive_seed(seed, "simulate", index)


def bot_seed(seed: int, index: int, entry: int) -> int:
    """The seed of bot entry ``entry`` in hand ``index``."""
    return derive_seed(seed, "simulate", index, "bot", entry)


def seat_entries(index: int, seats: int) -> tuple[int, ...]:
    """The bot entry at each seat of hand ``index``: entry ``j`` sits at ``(j + index) % seats``."""
    return tuple((s - index) % seats for s in range(seats))


def round_wind_of(index: int, rules: RuleSet) -> Tile:
    """The round wind of hand ``index``: each wind of the table for ``seats`` hands in turn."""
    table = rules.table
    if table.round_wind == "east":
        return Tile.EAST
    return WINDS[(index // table.players) % len(table.winds)]


def validate_bots(names: Sequence[str], rules: RuleSet) -> tuple[str, ...]:
    """The bot list checked against the registry and the table; raises ValueError."""
    seats = rules.table.players
    names = tuple(n.strip() for n in names)
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}: one of {', '.join(sorted(BOTS))}")
    if len(names) != seats:
        raise ValueError(
            f"{rules.name} plays {seats} seats a hand: give {seats} bots, not {len(names)}"
        )
    return names


def play_hand(spec: SimulationSpec, rules: RuleSet, index: int) -> HandOutcome:
    """Play hand ``index`` of ``spec`` to its end (writing its log when asked)."""
    n = rules.table.players
    seats = seat_entries(index, n)
    hseed = hand_seed(spec.seed, index)
    game = Game(rules, SeedRng(hseed), round_wind=round_wind_of(index, rules))
    players = [make_bot(spec.bots[e], bot_seed(spec.seed, index, e), rules) for e in seats]
    decisions = 0
    while not game.is_over:
        seat = game.current_seat
        obs = observe(game, seat)
        act = players[seat].act(obs)
        if act not in obs.legal:
            raise BotError(
                f"bot {spec.bots[seats[seat]]!r} (seat {seat}, hand {index}) chose "
                f"{act!s}, not one of its legal actions"
            )
        game.apply(act)
        decisions += 1
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
    result = game.result
    assert result is not None
    balances = [0] * n
    for seat, entry in enumerate(seats):
        balances[entry] = result.settlement.balances[seat]
    items: tuple[str, ...] = ()
    limit_hand = None
    winner = None
    self_drawn = False
    if result.winner is not None:
        winner = seats[result.winner]
        score = result.scores[result.winner]
        items = tuple(dict.fromkeys(item.id for item in score.items))
        limit_hand = score.limit_hand
        self_drawn = result.discarder is None
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
    )


def _play_range(spec: SimulationSpec, start: int, stop: int) -> list[HandOutcome]:
    rules = load_ruleset(spec.ruleset)
    return [play_hand(spec, rules, i) for i in range(start, stop)]


# --------------------------------------------------------------------------- many hands


def _chunks(hands: int, jobs: int) -> list[tuple[int, int]]:
    """Hand ranges: about 16 per process (for balance and progress), 10-100 hands each."""
    size = max(10, min(100, math.ceil(hands / (jobs * 16))))
    return [(a, min(a + size, hands)) for a in range(0, hands, size)]


def run_simulation(
    spec: SimulationSpec,
    hands: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[HandOutcome]:
    """Play hands ``0 .. hands-1``; the outcomes in hand order, whatever ``jobs`` is.

    ``jobs == 1`` plays in this process; more use a process pool with chunked tasks.
    ``progress(k)`` is called as each chunk of ``k`` hands is done.
    """
    if hands < 1:
        raise ValueError(f"hands must be at least 1, not {hands}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    chunks = _chunks(hands, jobs)
    results: dict[int, list[HandOutcome]] = {}
    if jobs == 1:
        for start, stop in chunks:
            results[start] = _play_range(spec, start, stop)
            if progress is not None:
                progress(stop - start)
    else:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), mp_context=context) as pool:
            pending: dict[Future[list[HandOutcome]], int] = {
                pool.submit(_play_range, spec, a, b): a for a, b in chunks
            }
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    start = pending.pop(fut)
                    results[start] = fut.result()
                    if progress is not None:
                        progress(len(results[start]))
    return [o for start, _ in chunks for o in results[start]]


# --------------------------------------------------------------------------- summary


def _mean_ci(values: Sequence[float]) -> tuple[float, list[float]]:
    """Mean and its 95% interval by the normal approximation (sample standard deviation)."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, [mean, mean]
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, [mean - half, mean + half]


def _wilson(successes: int, trials: int) -> list[float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def summarize(
    spec: SimulationSpec, rules: RuleSet, outcomes: Sequence[HandOutcome]
) -> dict[str, Any]:
    """The summary of a run: a JSON-ready dict (fields in ``docs/simulate.md``)."""
    n_hands = len(outcomes)
    bots = spec.bots
    entries = []
    for j, name in enumerate(bots):
        wins = sum(1 for o in outcomes if o.winner == j)
        mean, ci = _mean_ci([o.balances[j] for o in outcomes])
        entries.append(
            {
                "entry": j,
                "bot": name,
                "wins": wins,
                "win_rate": wins / n_hands,
                "win_rate_ci": _wilson(wins, n_hands),
                "mean_balance": mean,
                "mean_balance_ci": ci,
            }
        )
    names = list(dict.fromkeys(bots))
    copies = {name: [j for j, b in enumerate(bots) if b == name] for name in names}

    def per_hand_balance(name: str) -> list[float]:
        js = copies[name]
        return [sum(o.balances[j] for j in js) / len(js) for o in outcomes]

    def per_hand_win(name: str) -> list[float]:
        js = copies[name]
        return [(1.0 if o.winner in js else 0.0) / len(js) for o in outcomes]

    by_bot: dict[str, Any] = {}
    for name in names:
        k = len(copies[name])
        wins = sum(1 for o in outcomes if o.winner is not None and bots[o.winner] == name)
        mean, ci = _mean_ci(per_hand_balance(name))
        by_bot[name] = {
            "seats": k,
            "wins": wins,
            "win_rate": wins / (k * n_hands),
            "win_rate_ci": _wilson(wins, k * n_hands),
            "mean_balance": mean,
            "mean_balance_ci": ci,
        }
    margins = []
    for other in names[1:]:
        first = names[0]
        diff_b = [
            a - b for a, b in zip(per_hand_balance(first), per_hand_balance(other), strict=True)
        ]
        diff_w = [a - b for a, b in zip(per_hand_win(first), per_hand_win(other), strict=True)]
        mb, mb_ci = _mean_ci(diff_b)
        mw, mw_ci = _mean_ci(diff_w)
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
    remises = [o for o in outcomes if o.winner is None]
    won = [o for o in outcomes if o.winner is not None]
    item_counts: Counter[str] = Counter()
    limit_counts: Counter[str] = Counter()
    for o in won:
        item_counts.update(o.items)
        if o.limit_hand is not None:
            limit_counts[o.limit_hand] += 1
    n_won = len(won)

    def table(counts: Counter[str], order: Sequence[str]) -> dict[str, Any]:
        rank = {key: i for i, key in enumerate(order)}
        keys = sorted(counts, key=lambda k: (-counts[k], rank.get(k, len(rank)), k))
        return {k: {"count": counts[k], "rate": counts[k] / n_won} for k in keys}

    return {
        "hands": n_hands,
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
            "count": len(remises),
            "rate": len(remises) / n_hands,
            "rate_ci": _wilson(len(remises), n_hands),
            "reasons": dict(Counter(o.reason for o in remises).most_common()),
        },
        "wins": {
            "count": n_won,
            "self_drawn": sum(1 for o in won if o.self_drawn),
            "claimed": sum(1 for o in won if not o.self_drawn),
        },
        "hand_length": {
            "decisions": math.fsum(o.decisions for o in outcomes) / n_hands,
            "draws": math.fsum(o.draws for o in outcomes) / n_hands,
        },
        "items": table(item_counts, list(ITEMS)),
        "limit_hands": table(limit_counts, list(LIMIT_HANDS)),
    }
