"""Score many generated hands; print one line per hand: a hash of the whole result (every
field of the ``ScoreResult``, explanations and notes included, and what ``check_situation``
says) or of the error message.

For checking that a change to the scorer changes no result: run it with each tree first on
``PYTHONPATH`` and compare the outputs (``cmp``); give a hand's number as a third argument
to print that hand and its full result instead.

    PYTHONPATH=/path/to/other/src python benchmarks/check_identical.py 1 20000 > other.txt
    PYTHONPATH=src python benchmarks/check_identical.py 1 20000 > this.txt
    cmp other.txt this.txt

The hands: every shipped rule set and 40 randomised variants of them (values, caps,
options), sets and pairs with melds open and concealed, seven pairs, orphans, one-suit
hands, random tiles; winners and not; flowers, every way of winning and its flags, seat
and round winds, dead hands; some that the table or the rules refuse.
"""

import dataclasses
import hashlib
import random
import sys
from typing import Any

from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.scoring import Situation, check_situation, score_hand
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.rulefiles import load_ruleset

SHIPPED = [
    "nts-2016",
    "nts-2002",
    "nmb-2009",
    "rode-draak",
    "nts-2016+flowers",
    "nts-2016+three-players",
    "nts-2016+five-players",
    "nmb-2009+flowers",
    "nts-2002+three-players",
]


def variant(rules: RuleSet, rng: random.Random) -> RuleSet | None:
    sr = rules.scoring
    points = {
        k: (v if rng.random() < 0.8 else rng.choice([0, 2, 4, 8, 10, 30]))
        for k, v in sr.points.items()
        if rng.random() < 0.93
    }
    doubl = {
        k: (v if rng.random() < 0.8 else rng.choice([0, 1, 2, 3]))
        for k, v in sr.doublings.items()
        if rng.random() < 0.93
    }
    lim = {k: v for k, v in sr.limit_hands.items() if rng.random() < 0.9}
    new = dataclasses.replace(
        sr,
        points=points,
        doublings=doubl,
        limit_hands=lim,
        min_doublings=rng.choice([0, 1, 2, 3]),
        clean_hand_may_win=rng.random() < 0.5,
        seven_pairs_duplicate=rng.random() < 0.5,
        four_chows_simples_concealed=rng.random() < 0.5,
        limit_hand_concealed_doublings=rng.choice([0, 0, 1, 2]),
        limit=rng.choice([sr.limit, None, 500, 1000]),
        limit_claimed=rng.choice([sr.limit_claimed, None, 300]),
        limit_non_winner=rng.choice([sr.limit_non_winner, None, 100]),
    )
    try:
        return dataclasses.replace(
            rules, name=rules.name + "~" + str(rng.randrange(10**6)), scoring=new
        )
    except Exception:
        return None


def sets_hand(
    rng: random.Random, suits: str, honours: set[int], n_sets: int = 4
) -> tuple[list[tuple[int, int]], int]:
    counts = [0] * 34
    blocks: list[tuple[int, int]] = []
    tiles_ok = [
        t for t in range(34) if (t < 27 and "bkt"[t // 9] in suits) or (t >= 27 and t in honours)
    ]
    if rng.random() < 0.03:
        tiles_ok = list(range(34))  # may hold tiles the table does not have
    tries = 0
    while len(blocks) < n_sets and tries < 200:
        tries += 1
        r = rng.random()
        if r < 0.45:
            s = rng.choice([t for t in tiles_ok if t < 27 and t % 9 < 7] or [0])
            ts = [s, s + 1, s + 2]
            kind = 0
        elif r < 0.85:
            t = rng.choice(tiles_ok)
            ts = [t] * 3
            kind = 1
        else:
            t = rng.choice(tiles_ok)
            ts = [t] * 4
            kind = 2
        if all(counts[x] + ts.count(x) <= 4 for x in set(ts)):
            for x in ts:
                counts[x] += 1
            blocks.append((kind, ts[0]))
    while True:
        t = rng.choice(tiles_ok)
        if counts[t] <= 2:
            counts[t] += 2
            break
    return blocks, t


def make_case(rng: random.Random, rules_list: list[RuleSet]) -> tuple[Any, ...]:
    rules = rng.choice(rules_list)
    table = rules.table
    suits = table.suits
    winds = [27 + "ESWN".index(w) for w in table.winds]
    honours = set(winds) | {31, 32, 33}
    shape = rng.random()
    winner = rng.random() < 0.8
    melds = []
    concealed = []
    if shape < 0.75:
        blocks, pair = sets_hand(rng, suits, honours)
        for kind, t in blocks:
            if kind == 2:
                if rng.random() < 0.9:
                    melds.append(Meld(MeldKind.KONG, Tile(t), rng.random() < 0.5))
                    continue
                kind = 1
            if rng.random() < 0.25:
                op = rng.random() < 0.8 and (kind != 0 or table.open_chows or rng.random() < 0.05)
                melds.append(Meld(MeldKind(kind), Tile(t), op))
            else:
                concealed += [t, t + 1, t + 2] if kind == 0 else [t] * 3
        concealed += [pair, pair]
    elif shape < 0.82:  # seven pairs
        pool = [t for t in range(34) if (t < 27 and "bkt"[t // 9] in suits) or t in honours]
        if rng.random() < 0.5:
            s = rng.choice(suits)
            pool = [t for t in pool if t >= 27 or "bkt"[t // 9] == s]
        for t in (
            rng.sample(pool, 7)
            if rng.random() < 0.8
            else [rng.choice(pool)] * 2 + rng.sample(pool, 5)
        ):
            concealed += [t, t]
    elif shape < 0.86:  # orphans-like
        orph = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        concealed = [*orph, rng.choice(orph)]
    elif shape < 0.90:  # one suit, for snakes, clean hands
        b = "bkt".index(rng.choice(suits)) * 9
        concealed = [b, b, b, b + 8, b + 8, b + 8] + [b + rng.randrange(9) for _ in range(8)]
    else:  # random tiles
        wall = [t for t in range(34) for _ in range(4)]
        concealed = rng.sample(wall, 14)
    # counts > 4 raise in Hand(); that is a fine case too
    if not winner and concealed and rng.random() < 0.95:
        concealed.pop(rng.randrange(len(concealed)))
    bonus = []
    if rng.random() < 0.2 and (table.flowers or rng.random() < 0.05):
        bonus = rng.sample(range(34, 42), rng.randrange(1, 9))
    w = None
    if winner and concealed:
        w = rng.choice(concealed)
        if rng.random() < 0.01:
            w = rng.randrange(34)
    if not winner and rng.random() < 0.01:
        w = rng.choice(concealed) if concealed else None
    seat = rng.choice(winds if rng.random() < 0.97 else [27, 28, 29, 30])
    rounds = [27] if table.round_wind == "east" else list(winds)
    if table.green_dragon != "none":
        rounds.append(31)
    rnd = rng.choice([27, 28, 29, 30, 31] if rng.random() < 0.04 else rounds)
    dead = rng.random() < 0.02
    win_args = None
    if winner or rng.random() < 0.02:
        kongs = sum(1 for m in melds if m.kind == MeldKind.KONG)
        srcs = [WinSource.WALL, WinSource.WALL, WinSource.DISCARD, WinSource.DISCARD]
        if kongs or rng.random() < 0.05:
            srcs.append(WinSource.LOOSE_TILE)
        alone = w is not None and concealed.count(w) == 1
        if w is not None and (
            (alone and not any(w in m.tiles for m in melds)) or rng.random() < 0.05
        ):
            srcs.append(WinSource.ROBBED_KONG)
        src = rng.choice(srcs)
        flags = {}
        if rng.random() < 0.3:
            fl = ["last_tile", "last_discard"]
            if kongs >= 2 or rng.random() < 0.05:
                fl.append("kong_on_kong")
            if not melds or rng.random() < 0.05:
                fl += ["first_discard", "heaven", "lucky_thirteen"]
            f = rng.choice(fl)
            flags[f] = True
            if rng.random() < 0.85:
                src = {
                    "last_tile": WinSource.WALL,
                    "last_discard": WinSource.DISCARD,
                    "kong_on_kong": WinSource.LOOSE_TILE,
                    "first_discard": WinSource.DISCARD,
                    "heaven": WinSource.WALL,
                    "lucky_thirteen": src,
                }[f]
                if f == "heaven":
                    seat = 27
                if f == "first_discard" and seat == 27:
                    seat = winds[1]
        win_args = (src, flags)
    return rules, concealed, melds, bonus, w, seat, rnd, dead, win_args


def run(seed: int, n: int) -> None:
    rng = random.Random(seed)
    base = [load_ruleset(s) for s in SHIPPED]
    rules_list = list(base)
    vrng = random.Random(seed * 7 + 1)
    while len(rules_list) < len(base) + 40:
        v = variant(vrng.choice(base), vrng)
        if v is not None:
            rules_list.append(v)
    out = sys.stdout
    verbose = len(sys.argv) > 3
    for i in range(n):
        rules, concealed, melds, bonus, w, seat, rnd, dead, win_args = make_case(rng, rules_list)
        try:
            win = None if win_args is None else Win(win_args[0], **win_args[1])
            hand = Hand(
                tuple(Tile(t) for t in concealed),
                tuple(melds),
                tuple(Tile(b) for b in bonus),
                None if w is None else Tile(w),
            )
            sit = Situation(Tile(seat), Tile(rnd), win, dead)
            try:
                check_situation(hand, sit, rules)
                chk = "ok"
            except Exception as exc:
                chk = f"{type(exc).__name__}: {exc}"
            res = repr(score_hand(hand, sit, rules)) + " | " + chk
        except Exception as exc:
            res = f"ERR {type(exc).__name__}: {exc}"
        if verbose:
            if i == int(sys.argv[3]):
                print(rules.name, concealed, melds, bonus, w, seat, rnd, dead, win_args)
                print(res)
                return
            continue
        out.write(f"{i} {hashlib.sha1(res.encode()).hexdigest()[:16]} {res[:40]}\n")


if __name__ == "__main__":
    run(int(sys.argv[1]), int(sys.argv[2]))
