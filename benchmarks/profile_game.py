"""Where a random-bot hand's time goes: the simulate runner's loop (``_play_game``) over
four random bots, with each part of a decision timed by ``time.process_time_ns``
(issue 13).

Run: ``python benchmarks/profile_game.py [--hands 300] [--seed 1] [--ruleset nts-2016]``.

A decision of the runner, in its parts: the core's legal actions of the seat asked
(``Game.legal_actions``, worked out on first use after a step: the self-drawn win,
kongs, discards), the observation (``observe``: the ``Observation``'s cheap fields; its
seat views, sorted tiles and history are left until first read, and a random bot reads
only the legal actions), the bot's choice (``RandomBot.act``), the runner's legality
check (``among``; the observation is let go first, as the runner does) and the core's step
(``Game.apply``: the pending parts of observations still held worked out, the action read
and checked, the discard, the claim options of the other seats and their waits, the next
draw).  What is left ("other": dealing, the loop, making the bots) is printed apart.  The
timer calls cost something themselves (printed: each part holds about one), so the whole
is more than an untimed decision.  The last lines time, by ``timeit`` on one position,
building an ``Observation`` and a ``SeatView`` from values already at hand.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
import timeit

from mahjong_nts.bots.base import RandomBot
from mahjong_nts.core.actions import among
from mahjong_nts.core.game import Game
from mahjong_nts.core.observation import Observation, SeatView, observe
from mahjong_nts.core.seeding import SeedRng, derive_seed
from mahjong_nts.formats.scorejob import load_rules
from profiling import print_parts


def profile(hands: int, seed: int, ruleset: str) -> tuple[int, int, dict[str, int], Game]:
    """Process time (ns) of ``hands`` hands, the decisions, each part's time, a game."""
    rules = load_rules(ruleset)
    clock = time.process_time_ns
    parts = dict.fromkeys(("core legal actions", "observe", "bot", "check", "core apply"), 0)
    decisions = 0
    game = Game(rules, SeedRng(derive_seed(seed, "profile", 0)))
    start = clock()
    for hand in range(hands):
        game = Game(rules, SeedRng(derive_seed(seed, "profile", hand)))
        bots = [RandomBot(derive_seed(seed, "bot", hand, s)) for s in range(game.n)]
        while not game.is_over:
            t0 = clock()
            seat = game.current_seat
            game.legal_actions()
            t1 = clock()
            obs = observe(game, seat)
            t2 = clock()
            act = bots[seat].act(obs)
            legal = obs.legal
            del obs  # (as the simulate runner: let go of it before the game changes)
            t3 = clock()
            if not among(act, legal):
                raise AssertionError(f"{act} is not legal")
            t4 = clock()
            game.apply(act)
            t5 = clock()
            for name, took in zip(
                parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True
            ):
                parts[name] += took
            decisions += 1
    return clock() - start, decisions, parts, game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="nts-2016")
    args = parser.parse_args(argv)
    if not 1 <= args.hands <= 100_000:
        print("--hands is 1..100000", file=sys.stderr)
        return 2
    profile(min(args.hands, 50), args.seed + 1, args.ruleset)  # warm the tables
    total, decisions, parts, game = profile(args.hands, args.seed, args.ruleset)
    print(
        f"{args.hands} random-bot hands, {decisions / args.hands:.1f} decisions a hand, "
        f"{total / decisions / 1000:.1f} us a decision (process time, timers included)"
    )
    print_parts(parts, total, decisions)
    obs = observe(game, 0)
    values = tuple(getattr(obs, f.name) for f in dataclasses.fields(Observation))
    view = obs.seats[0]
    view_values = tuple(getattr(view, f.name) for f in dataclasses.fields(SeatView))
    number = 20_000
    for name, make in (
        ("Observation(...)", lambda: Observation(*values)),
        ("SeatView(...)", lambda: SeatView(*view_values)),
    ):
        took = min(timeit.repeat(make, time.process_time, number=number, repeat=5)) / number
        print(f"  building an {name:17s} {took * 1e6:6.2f} us (timeit, process time, best of 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
