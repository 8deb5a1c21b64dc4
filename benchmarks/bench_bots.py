"""Bot decision time: total time in ``Player.act`` divided by the decisions made.

Run: ``python benchmarks/bench_bots.py [--hands 100] [--seed 1] [--ruleset nts-2016]
[--bots strong,strong,heuristic,heuristic]``; a bot is named as for ``duel`` (a shipped
name, ``module:Class`` or an entry point).

Plays ``--hands`` hands with the line-up (rotating one seat a hand, as ``simulate``
does), every decision through :func:`observe`, and times each bot's ``act`` calls only
(dealing, applying actions and scoring are not counted).  Prints, per bot name, its
decisions, the mean time a decision (the figure the issue's 20 ms budget is about), the
95th percentile and the slowest, in wall-clock time, and the mean in the process's CPU
time (``time.process_time``), which a busy machine inflates much less.  Target for
``strong``: a mean under 20 ms.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from mahjong_nts.bots.loader import BotLoadError, check_bot, make_named_bot
from mahjong_nts.core.game import Game
from mahjong_nts.core.observation import observe
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.simulate import bot_seed, hand_seed, round_wind_of, seat_entries

TARGET_MS = 20.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="nts-2016")
    ap.add_argument("--bots", default="strong,strong,heuristic,heuristic")
    args = ap.parse_args()
    rules = load_ruleset(args.ruleset)
    names = args.bots.split(",")
    seats = rules.table.players
    if len(names) != seats:
        ap.error(f"--bots: {seats} names for {args.ruleset}, not {len(names)}")
    try:
        for name in set(names):
            check_bot(name, rules)
    except BotLoadError as exc:
        ap.error(str(exc))
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, float] = defaultdict(float)
    for i in range(args.hands):
        entries = seat_entries(i, seats)
        players = [make_named_bot(names[e], bot_seed(args.seed, i, e), rules) for e in entries]
        game = Game(rules, SeedRng(hand_seed(args.seed, i)), round_wind=round_wind_of(i, rules))
        while not game.is_over:
            seat = game.current_seat
            obs = observe(game, seat)
            start, start_cpu = time.perf_counter(), time.process_time()
            act = players[seat].act(obs)
            name = names[entries[seat]]
            cpu[name] += time.process_time() - start_cpu
            times[name].append(time.perf_counter() - start)
            game.apply(act)
    print(f"{args.hands} hands of {args.ruleset}, bots {args.bots}, seed {args.seed}")
    for name, spent in sorted(times.items()):
        spent.sort()
        mean = 1000 * sum(spent) / len(spent)
        p95 = 1000 * spent[int(0.95 * (len(spent) - 1))]
        note = f"  (target < {TARGET_MS:.0f} ms)" if name == "strong" else ""
        mean_cpu = 1000 * cpu[name] / len(spent)
        print(
            f"  {name:10s} {len(spent):7d} decisions  mean {mean:6.2f} ms  "
            f"p95 {p95:6.2f} ms  max {1000 * spent[-1]:6.1f} ms  "
            f"mean CPU {mean_cpu:6.2f} ms{note}"
        )


if __name__ == "__main__":
    main()
