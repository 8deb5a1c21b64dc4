"""Benchmark (a): scoring, like for like, against the riichi ``mahjong`` package (pure
Python) and riichienv (native, a Rust wheel) where it is installed.

Every side starts from what a user of it holds, and every row says which:

* **from text, unseen hands** (the headline): each side's own text format is read inside
  the timer, on hands this process has not seen before (a new set of generated hands every
  run).  Ours: ``parse_hand("b123 k456 ... +k5")`` then ``score_hand``.  ``mahjong``:
  ``TilesConverter.one_line_string_to_136_array("123p456m...")`` for the hand and the
  winning tile, then ``HandCalculator.estimate_hand_value``.  riichienv:
  ``HandEvaluator.calc_from_text("123p456m...5p")`` (the last tile is the winning one).
* **from text, unseen, explanation read**: the same on another set of new hands, and ours
  also reads each result's explanation (``items``, ``arrangement``, ``not_counted``),
  which our scorer makes only when first read; the other sides give everything at once,
  so theirs is their from-text call again.
* **from objects, unseen hands**: each side's own input built before the timer (our
  ``Hand``; their 136-tile lists; riichienv's 136-tile lists), the same new hands.
* **warm, same hands again**: the from-text row a second time over the hands just scored,
  every cache as the first pass left it (ours: per-group tables and the explanation
  caches; ``mahjong``: its hand-split ``lru_cache`` of 128 hands).  Labelled warm: it is
  not what a user scoring new hands meets.
* **notation parsing alone**: ``parse_hand`` vs ``one_line_string_to_136_array`` (hand and
  winning tile), the same texts.
* **cold process** (``--cold-runs``, 0 to skip): one fresh Python process per side and run
  (imports and the rule set loaded before the timer), scoring the run's new hands from
  text: every table of ours starts empty.

Hands: concealed, self-drawn winning hands (four random chows or pungs, 55% chows, and a
pair, at most four copies of a tile, a random winning tile among the 14), nts-2016 for
ours (seat South, round East), ``is_tsumo`` for theirs (so every closed hand has a yaku and
is valued in full, fu included; riichienv the same, player wind South).  Before the first
run, one untimed pass over a separate set of hands (``--warm-hands``), their explanations
read, fills our per-group tables and explanation caches to the state a process that has
scored hands before has: the unseen rows are then new whole hands, not new per-suit
contents.  No side caches whole-hand results beyond
what is said above.  Each run times every side back to back on the same hands; rates are
medians over the runs, a ratio the median of the per-run ratios.  ``--clock cpu`` (the
default) times the CPU time of the process, which other work on a shared machine disturbs
far less than the wall clock (``--clock wall``).

Run: ``python benchmarks/bench_scoring.py [--hands 2000] [--runs 7] [--seed 1]
[--warm-hands 20000] [--cold-runs 5] [--clock cpu|wall]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.core.notation import format_hand, parse_hand
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.rulefiles import load_ruleset

# Our tile index -> the riichi 34-index (man, pin, sou, winds, haku hatsu chun).
_THEIRS = (
    [18 + i for i in range(9)]  # bamboo -> sou
    + [9 + i for i in range(9)]  # circles -> pin
    + [i for i in range(9)]  # characters -> man
    + [27, 28, 29, 30]  # winds
    + [32, 33, 31]  # green -> hatsu, red -> chun, white -> haku
)
_MPSZ = "mpsz"

Case = tuple[list[int], int]


def random_winning_hand(rng: random.Random) -> Case:
    """Four random sets and a pair, respecting four copies; a random winning tile."""
    while True:
        counts = [0] * 34
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.55:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                need = [start, start + 1, start + 2]
            else:
                t = rng.randrange(34)
                need = [t, t, t]
            for t in need:
                counts[t] += 1
            tiles.extend(need)
        pair = rng.randrange(34)
        counts[pair] += 2
        tiles.extend([pair, pair])
        if all(c <= 4 for c in counts):
            return sorted(tiles), rng.choice(tiles)


def hands_for(seed: int, n: int) -> list[Case]:
    rng = random.Random(seed)
    return [random_winning_hand(rng) for _ in range(n)]


def our_text(case: Case) -> str:
    tiles, w = case
    return format_hand(Hand(tuple(Tile(t) for t in tiles), winning_tile=Tile(w)))


def mpsz(tiles: Sequence[int]) -> str:
    """Riichi one-line notation (``123m456p11z``) of our tile indices."""
    groups: dict[str, list[str]] = {s: [] for s in _MPSZ}
    for t in sorted(_THEIRS[t] for t in tiles):
        groups[_MPSZ[t // 9]].append(str(t % 9 + 1))
    return "".join("".join(d) + s for s, d in groups.items() if d)


def their_text(case: Case) -> tuple[str, str]:
    """``mahjong``'s input as text: the 14 tiles and the winning tile."""
    tiles, w = case
    return mpsz(tiles), mpsz([w])


def riichienv_text(case: Case) -> str:
    """riichienv's ``calc_from_text`` input: the 13 other tiles, then the winning one."""
    tiles, w = case
    rest = list(tiles)
    rest.remove(w)
    return mpsz(rest) + mpsz([w])


def to136(tiles: Sequence[int]) -> list[int]:
    seen: dict[int, int] = {}
    out = []
    for t in sorted(_THEIRS[t] for t in tiles):
        out.append(t * 4 + seen.get(t, 0))
        seen[t] = seen.get(t, 0) + 1
    return out


# ---------------------------------------------------------------------------
# the sides: each returns a function scoring its prepared inputs


def ours_side() -> dict[str, Callable[[list[Case]], Callable[[], None]]]:
    rules = load_ruleset("nts-2016")
    situation = Situation(Tile.SOUTH, Tile.EAST, Win(WinSource.WALL))

    def from_text(cases: list[Case]) -> Callable[[], None]:
        texts = [our_text(c) for c in cases]

        def run() -> None:
            for text in texts:
                score_hand(parse_hand(text), situation, rules)

        return run

    def explained(cases: list[Case]) -> Callable[[], None]:
        texts = [our_text(c) for c in cases]

        def run() -> None:
            for text in texts:
                result = score_hand(parse_hand(text), situation, rules)
                result.items, result.arrangement, result.not_counted  # noqa: B018

        return run

    def from_objects(cases: list[Case]) -> Callable[[], None]:
        hands = [Hand(tuple(Tile(t) for t in ts), winning_tile=Tile(w)) for ts, w in cases]

        def run() -> None:
            for hand in hands:
                score_hand(hand, situation, rules)

        return run

    def parse(cases: list[Case]) -> Callable[[], None]:
        texts = [our_text(c) for c in cases]

        def run() -> None:
            for text in texts:
                parse_hand(text)

        return run

    return {"text": from_text, "explained": explained, "objects": from_objects, "parse": parse}


def mahjong_side() -> dict[str, Callable[[list[Case]], Callable[[], None]]] | None:
    try:
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
        from mahjong.tile import TilesConverter
    except ImportError:
        return None
    config = HandConfig(is_tsumo=True)
    estimate = HandCalculator.estimate_hand_value
    convert = TilesConverter.one_line_string_to_136_array

    def from_text(cases: list[Case]) -> Callable[[], None]:
        texts = [their_text(c) for c in cases]

        def run() -> None:
            for hand, win in texts:
                estimate(convert(hand), convert(win)[0], config=config)

        return run

    def from_objects(cases: list[Case]) -> Callable[[], None]:
        inputs = [(to136(ts), _THEIRS[w] * 4) for ts, w in cases]

        def run() -> None:
            for t136, w136 in inputs:
                estimate(t136, w136, config=config)

        return run

    def parse(cases: list[Case]) -> Callable[[], None]:
        texts = [their_text(c) for c in cases]

        def run() -> None:
            for hand, win in texts:
                convert(hand)
                convert(win)

        return run

    return {"text": from_text, "objects": from_objects, "parse": parse}


def riichienv_side() -> dict[str, Callable[[list[Case]], Callable[[], None]]] | None:
    try:
        import riichienv
    except ImportError:
        return None
    conditions = riichienv.Conditions(tsumo=True, player_wind=1, round_wind=0)
    evaluator = riichienv.HandEvaluator

    def from_text(cases: list[Case]) -> Callable[[], None]:
        texts = [riichienv_text(c) for c in cases]

        def run() -> None:
            for text in texts:
                evaluator.calc_from_text(text, conditions=conditions)

        return run

    def from_objects(cases: list[Case]) -> Callable[[], None]:
        inputs = [(to136(ts), _THEIRS[w] * 4) for ts, w in cases]

        def run() -> None:
            for t136, w136 in inputs:
                evaluator(t136).calc(w136, conditions=conditions)

        return run

    return {"text": from_text, "objects": from_objects}


# ---------------------------------------------------------------------------
# measuring


_CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
_clock = _CLOCKS["cpu"]


def _rate(fn: Callable[[], None], n: int) -> float:
    start = _clock()
    fn()
    return n / (_clock() - start)


ROWS = (
    ("text", "from text, unseen hands"),
    ("explained", "from text, unseen, explanation read"),
    ("objects", "from objects, unseen hands"),
    ("warm", "warm: from text, same hands again"),
    ("parse", "notation parsing alone (unseen)"),
)


def in_process(args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    """Per row and side, the rate of every run."""
    sides = {"ours": ours_side()}
    for name, make in (("mahjong", mahjong_side), ("riichienv", riichienv_side)):
        side = make()
        if side is not None:
            sides[name] = side
    # fill our per-group tables and explanation caches as a process that has scored hands
    # (and shown their explanations) before has them
    sides["ours"]["explained"](hands_for(args.seed * 1000 + 999, args.warm_hands))()
    rates: dict[str, dict[str, list[float]]] = {row: {} for row, _ in ROWS}
    for run in range(args.runs):
        n = args.hands
        # three sets of new hands per run: one for each unseen row
        text_cases = hands_for(args.seed * 1000 + 3 * run, n)
        obj_cases = hands_for(args.seed * 1000 + 3 * run + 1, n)
        parse_cases = hands_for(args.seed * 1000 + 3 * run + 2, n)
        explained_cases = hands_for(args.seed * 1000 + 600 + run, n)
        for name, side in sides.items():
            fn = side["text"](text_cases)
            rates["text"].setdefault(name, []).append(_rate(fn, n))
            rates["warm"].setdefault(name, []).append(_rate(fn, n))
        for name, side in sides.items():  # theirs give everything at once: "text" again
            fn = side.get("explained", side["text"])(explained_cases)
            rates["explained"].setdefault(name, []).append(_rate(fn, n))
        for name, side in sides.items():
            rates["objects"].setdefault(name, []).append(_rate(side["objects"](obj_cases), n))
        for name, side in sides.items():
            if "parse" in side:
                rates["parse"].setdefault(name, []).append(_rate(side["parse"](parse_cases), n))
    return rates


_COLD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import bench_scoring as b
b._clock = b._CLOCKS[sys.argv[5]]
side = getattr(b, sys.argv[2] + "_side")()
fn = side["text"](b.hands_for(int(sys.argv[3]), int(sys.argv[4])))
print(json.dumps(b._rate(fn, int(sys.argv[4]))))
"""


def cold(args: argparse.Namespace, names: Sequence[str]) -> dict[str, list[float]]:
    """Each run: one fresh process per side, scoring the run's new hands from text."""
    here = os.path.dirname(os.path.abspath(__file__))
    out: dict[str, list[float]] = {}
    for run in range(args.cold_runs):
        order = list(names) if run % 2 == 0 else list(reversed(names))
        for name in order:
            seed = str(args.seed * 1000 + 500 + run)
            cmd = [sys.executable, "-c", _COLD, here, name, seed, str(args.hands), args.clock]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            out.setdefault(name, []).append(json.loads(done.stdout))
    return out


def _ratios(rates: dict[str, list[float]], other: str) -> float | None:
    if other not in rates:
        return None
    return statistics.median(a / b for a, b in zip(rates["ours"], rates[other], strict=True))


def report(
    rates: dict[str, dict[str, list[float]]], cold_rates: dict[str, list[float]], args: Any
) -> None:
    sides = list(rates["text"])
    print(
        f"scoring, like for like: {args.hands} new winning hands a run, median of "
        f"{args.runs} runs (ours: nts-2016; theirs: tsumo), {args.clock} time"
    )
    head = f"{'row':38}" + "".join(f"{s:>11}" for s in sides)
    head += "".join(f"{'vs ' + s:>14}" for s in sides[1:])
    print(head + "   (hands/s; ratio = ours / theirs, median of per-run ratios)")
    table = [(label, rates[row]) for row, label in ROWS]
    if cold_rates:
        table.append((f"cold process, from text ({args.cold_runs} runs)", cold_rates))
    for label, row in table:
        line = f"{label:38}"
        for s in sides:
            line += f"{statistics.median(row[s]):11.0f}" if s in row else f"{'-':>11}"
        for s in sides[1:]:
            ratio = _ratios(row, s)
            line += f"{ratio:13.2f}x" if ratio is not None else f"{'-':>14}"
        print(line)
    if "mahjong" not in sides:
        print("riichi `mahjong` package not installed: pip install mahjong==2.1.0")
    if "riichienv" not in sides:
        print("riichienv not installed (pip install riichienv): no native reference")
    print("targets: from text, unseen >= 3x mahjong; notation parsing >= 200,000 hands/s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warm-hands", type=int, default=20000)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--clock", choices=sorted(_CLOCKS), default="cpu")
    args = parser.parse_args(argv)
    global _clock
    _clock = _CLOCKS[args.clock]
    rates = in_process(args)
    cold_rates = cold(args, list(rates["text"])) if args.cold_runs else {}
    report(rates, cold_rates, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
