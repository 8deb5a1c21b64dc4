"""Where a duel's margin comes from: each seat's points split by its part in the hand.

Run: ``python benchmarks/duel_breakdown.py A B [--walls 1000] [--seed 1] [--ruleset
nts-2016] [--jobs 2] [--ready]``.

Plays the walls of ``mahjong-nts duel A B --hands 4*walls --seed S`` (the same deals and
bot seeds: :func:`mahjong_nts.sim.duel.seatings`) and sorts every seat's settlement
balance by the seat's part in the hand: the winner (self-drawn, or on a discard), the
seat whose discard the winner took, another seat that paid a discard's winner, a seat
that paid a self-drawn winner, a remise.  Each part's row gives how often a seat of each
bot had it and what it brought a seat a hand, weighted as the duel weighs them (a seat's
balance divided by the seats its bot holds in that hand), so the parts' differences add
up to the duel's margin; each difference has its 95% interval over the walls (the wall
is the unit of independence, as in ``duel``).  The balance is also split into what was
paid to or by the winner and what the non-winners paid each other.

``--ready``: also, after every move, whether each seat's hand is *validly ready*: one tile
short and waiting on a tile with which it may go mahjong self-drawn
(:func:`~mahjong_nts.core.winvalue.win_value`, the rule set's doublings counted), and the
move at which it first is; then the share of seat-hands that get there, when, with how
many declared melds, and how many of them the seat then wins.  (Slower: every seat's
waits are asked after every move until it is ready.)
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from mahjong_nts.bots.loader import BotLoadError, check_bot
from mahjong_nts.core.analysis import waiting_tiles
from mahjong_nts.core.errors import InvalidRuleSet
from mahjong_nts.core.game import Game
from mahjong_nts.core.observation import observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.winvalue import win_value
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.duel import DuelSpec, seatings

MOST_WALLS = 100_000
ROLES = ("win_self", "win_discard", "paid_self", "discarder", "paid_discard", "remise")
LABELS = {
    "win_self": "won self-drawn",
    "win_discard": "won on a discard",
    "paid_self": "paid a self-drawn win",
    "discarder": "gave the winning tile",
    "paid_discard": "paid another's discard win",
    "remise": "remise",
}

# one seat-hand: (bot "A"/"B", weight, role, to/from the winner, among the non-winners,
# first move validly ready or -1, melds then, won)
Row = tuple[str, float, str, int, int, int, int, bool]


def _role(seat: int, winner: int | None, discarder: int | None) -> str:
    if winner is None:
        return "remise"
    if seat == winner:
        return "win_self" if discarder is None else "win_discard"
    if discarder is None:
        return "paid_self"
    return "discarder" if seat == discarder else "paid_discard"


def _validly_ready(game: Game, seat: int) -> int | None:
    """The seat's declared melds when its hand now waits on a tile that may go mahjong
    self-drawn; ``None`` when it does not."""
    obs = observe(game, seat)
    if len(obs.concealed) % 3 != 1:
        return None
    counts = [0] * 34
    for t in obs.concealed:
        counts[t] += 1
    held = list(counts)  # (a kind all four of which the seat holds is no wait)
    for meld in obs.me.melds:
        if meld is not None:  # (the seat's own melds are all face up to it)
            for t in meld.tiles:
                held[t] += 1
    melds = len(obs.me.melds)
    dup = game.rules.scoring.seven_pairs_duplicate
    for w in waiting_tiles(counts, n_melds=melds, held=held, duplicate_pairs=dup):
        if win_value(obs, w, self_drawn=True).allowed:
            return melds
    return None


def play(spec: DuelSpec, ready: bool, index: int) -> list[Row]:
    """Wall ``index``'s seat-hands."""
    rules: RuleSet = load_ruleset(spec.ruleset)
    out: list[Row] = []
    for row, _, players, game in seatings(spec, rules, index):
        n = len(row)
        first = [-1] * n
        melds = [0] * n
        move = 0
        while not game.is_over:
            seat = game.current_seat
            game.apply(players[seat].act(observe(game, seat)))
            move += 1
            if ready and not game.is_over:
                for s in range(n):
                    if first[s] < 0:
                        m = _validly_ready(game, s)
                        if m is not None:
                            first[s], melds[s] = move, m
        result = game.result
        assert result is not None
        w, d = result.winner, result.discarder
        k = sum(row)
        for s in range(n):
            to_winner = among = 0
            for p in result.settlement.payments:
                if s in (p.payer, p.payee):
                    amount = p.amount if p.payee == s else -p.amount
                    if w is not None and w in (p.payer, p.payee):
                        to_winner += amount
                    else:
                        among += amount
            bot = "A" if row[s] else "B"
            weight = 1 / (k if row[s] else n - k)
            out.append((bot, weight, _role(s, w, d), to_winner, among, first[s], melds[s], s == w))
    return out


def _interval(xs: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(xs)
    return mean, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="bot A")
    ap.add_argument("b", help="bot B")
    ap.add_argument("--walls", type=int, default=1000, help=f"2 to {MOST_WALLS}")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="nts-2016")
    ap.add_argument("--jobs", type=int, default=1, help="processes, 1 to 64")
    ap.add_argument("--ready", action="store_true", help="also when hands get ready")
    args = ap.parse_args()
    if not 2 <= args.walls <= MOST_WALLS or not 1 <= args.jobs <= 64:
        ap.error(f"--walls 2 to {MOST_WALLS}, --jobs 1 to 64")
    try:
        rules = load_ruleset(args.ruleset)
        for bot in (args.a, args.b):
            check_bot(bot, rules)
        spec = DuelSpec(args.ruleset, args.a, args.b, args.seed)
    except (InvalidRuleSet, BotLoadError, ValueError) as exc:
        ap.error(str(exc))
    with ProcessPoolExecutor(args.jobs) as pool:
        walls = list(pool.map(partial(play, spec, args.ready), range(args.walls), chunksize=4))
    hands = sum(len(rows) for rows in walls) / rules.table.players
    per_wall = hands / len(walls)

    def share(bot: str, rows: list[Row], pick: str) -> float:
        return sum(r[1] for r in rows if r[0] == bot and r[2] == pick) / hands

    print(
        f"{args.a} (A) - {args.b} (B), {args.ruleset}, seed {args.seed}, {len(walls)} walls, "
        f"{hands:.0f} hands; per seat a hand, weighted as duel weighs seats"
    )
    print(
        f"{'part in the hand':28} {'A share':>8} {'B share':>8} {'A pts':>8} {'B pts':>8}"
        f"  {'A - B [95% interval]':>24}"
    )
    everything = [r for rows in walls for r in rows]
    margins = [0.0] * len(walls)
    for role in ROLES:
        diffs = []
        for i, rows in enumerate(walls):
            diff = sum(
                (r[3] + r[4]) * r[1] * (1 if r[0] == "A" else -1) for r in rows if r[2] == role
            )
            diffs.append(diff / per_wall)
            margins[i] += diffs[-1]
        pts = {
            bot: sum((r[3] + r[4]) * r[1] for r in everything if r[0] == bot and r[2] == role)
            / hands
            for bot in "AB"
        }
        m, h = _interval(diffs)
        print(
            f"{LABELS[role]:28} {share('A', everything, role):8.3f} "
            f"{share('B', everything, role):8.3f} {pts['A']:8.1f} {pts['B']:8.1f}"
            f"  {m:+8.1f} [{m - h:+.1f}, {m + h:+.1f}]"
        )
    m, h = _interval(margins)
    print(f"{'margin (the duel)':28} {'':35}  {m:+8.1f} [{m - h:+.1f}, {m + h:+.1f}]")
    for bot, name in (("A", args.a), ("B", args.b)):
        among = sum(r[4] * r[1] for r in everything if r[0] == bot) / hands
        print(f"{name}: paid and received among the non-winners {among:+.1f} a seat a hand")
    if not args.ready:
        return
    for bot, name in (("A", args.a), ("B", args.b)):
        mine = [r for r in everything if r[0] == bot]
        ready = [r for r in mine if r[5] >= 0]
        won = [r for r in mine if r[7]]
        buckets: dict[int, int] = defaultdict(int)
        for r in ready:
            buckets[min(r[5] // 20, 5) * 20] += 1
        first = statistics.median(r[5] for r in ready) if ready else "-"
        melds = statistics.fmean(r[6] for r in ready) if ready else 0.0
        print(
            f"{name}: validly ready in {len(ready) / len(mine):.1%} of its seat-hands "
            f"(first at move {first}, median; declared melds then {melds:.2f}, "
            f"mean); won {len(won) / len(mine):.1%} of its seat-hands, "
            f"{sum(r[7] for r in ready) / max(len(ready), 1):.1%} of those it got ready in; "
            f"first ready by move (from): {dict(sorted(buckets.items()))}"
        )


if __name__ == "__main__":
    main()
