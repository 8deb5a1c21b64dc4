"""Where a hand of four heuristic bots spends its time, in the process's CPU time.

Run: ``python benchmarks/profile_heuristic.py [--hands 150] [--seed 1000] [--warm 20]
[--replays 3]``.

1. **Live**: ``--warm`` hands (seed ``--seed - 1``) to start the core's tables, then
   ``--hands`` new hands (seed ``--seed``) played as ``simulate`` plays them.  Each
   ``HeuristicBot.act`` is timed, after the observation's parts the bot reads (its
   tiles' counts, the seats' views: worked out when first read) have been worked out
   and timed apart.  Prints the milliseconds a hand: the observation's parts, the bot, the rest
   (the engine and the simulation's loop).
2. **The bot alone**: the same hands played again, every decision kept (the
   observation and the action chosen), then replayed ``--replays`` times to new bots,
   one set a hand as ``simulate`` makes them; the core's tables are warm by then.  Prints the
   microseconds of a turn and of a claim decision, and checks that every decision is
   the one taken live.
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

from mahjong_nts.bots import heuristic
from mahjong_nts.core.actions import Action
from mahjong_nts.core.game import Phase
from mahjong_nts.core.observation import Observation
from mahjong_nts.sim import simulate
from mahjong_nts.sim.simulate import SimulationSpec, run_simulation

clock = time.process_time


def play(seed: int, hands: int) -> None:
    spec = SimulationSpec("nts-2016", ("heuristic",) * 4, seed=seed)
    collections.deque(run_simulation(spec, hands, 1), maxlen=0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--warm", type=int, default=20)
    ap.add_argument("--replays", type=int, default=3)
    args = ap.parse_args()

    play(args.seed - 1, args.warm)
    spent = {"parts": 0.0, "bot": 0.0}
    act = heuristic.HeuristicBot.act

    def timed_act(bot: heuristic.HeuristicBot, obs: Observation) -> Action:
        start = clock()
        obs.concealed_counts  # noqa: B018 (the parts the bot reads, worked out now)
        obs.seats  # noqa: B018
        middle = clock()
        action = act(bot, obs)
        spent["parts"] += middle - start
        spent["bot"] += clock() - middle
        return action

    # setattr: mypy refuses a plain function assigned to a method
    setattr(heuristic.HeuristicBot, "act", timed_act)  # noqa: B010
    start = clock()
    try:
        play(args.seed, args.hands)
    finally:
        setattr(heuristic.HeuristicBot, "act", act)  # noqa: B010
    total = clock() - start
    n = args.hands
    print(
        f"live: {n} hands, {n / total:.1f} hands/s, {1e3 * total / n:.2f} ms a hand: "
        f"observation's parts {1e3 * spent['parts'] / n:.2f}, bot "
        f"{1e3 * spent['bot'] / n:.2f}, rest "
        f"{1e3 * (total - spent['parts'] - spent['bot']) / n:.2f}"
    )

    # the same hands again, every decision kept (held observations cost the game more,
    # so they are not kept while timing)
    hands: list[list[tuple[int, Observation, Any]]] = []
    play_game = simulate._play_game

    def recording_act(bot: heuristic.HeuristicBot, obs: Observation) -> Action:
        action = act(bot, obs)
        hands[-1].append((bot.seat, obs, action))  # type: ignore[attr-defined]
        return action

    def recording_game(game: Any, players: Any, names: Any, where: str) -> int:
        hands.append([])
        for seat, player in enumerate(players):
            player.seat = seat
        return play_game(game, players, names, where)

    setattr(heuristic.HeuristicBot, "act", recording_act)  # noqa: B010
    simulate._play_game = recording_game
    try:
        play(args.seed, args.hands)
    finally:
        setattr(heuristic.HeuristicBot, "act", act)  # noqa: B010
        simulate._play_game = play_game
    print(f"decisions a hand: {sum(len(h) for h in hands) / n:.1f}")
    for _ in range(args.replays):
        turn = claim = 0.0
        turns = claims = wrong = 0
        for hand in hands:
            bots = [heuristic.HeuristicBot(0, None) for _ in range(4)]
            for seat, obs, action in hand:
                start = clock()
                chosen = bots[seat].act(obs)
                took = clock() - start
                if obs.phase is Phase.TURN:
                    turn += took
                    turns += 1
                else:
                    claim += took
                    claims += 1
                wrong += chosen != action
        print(
            f"the bot alone: {1e3 * (turn + claim) / n:.2f} ms a hand; a turn "
            f"{1e6 * turn / turns:.1f} us x {turns / n:.1f}, a claim decision "
            f"{1e6 * claim / claims:.1f} us x {claims / n:.1f}; {wrong} decisions differ"
        )


if __name__ == "__main__":
    main()
