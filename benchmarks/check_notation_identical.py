"""Parse many generated notation texts; print one line per text: a hash of what
``parse_hand`` and ``parse_tiles`` give (the hand's repr, its count vector and the type of
every tile, or the error's class and message).

For checking that a change to the notation parser (or to ``Hand``) changes no result and
no error message: run it with each tree first on ``PYTHONPATH`` and compare the outputs.

    PYTHONPATH=/path/to/other/src python benchmarks/check_notation_identical.py 1 200000 > other.txt
    PYTHONPATH=src python benchmarks/check_notation_identical.py 1 200000 > this.txt
    cmp other.txt this.txt

The texts: canonical hands (``format_hand`` of generated hands: melds open and concealed,
flowers and seasons, a winning tile or none), the same with words run together, spaces
doubled, groups split or reordered; and mutations of them (a character dropped, doubled,
swapped or replaced from an alphabet of suit, bonus and honour letters, digits 0-9,
brackets, ``+``, glyphs, lower case letters, alias words), so that about half are wrong in
one way or another.  Give a text's number as a third argument to print it and its result.
"""

import hashlib
import random
import sys

from mahjong_nts.core.hand import Hand, Meld, MeldKind
from mahjong_nts.core.notation import format_hand, parse_hand, parse_tiles
from mahjong_nts.core.tiles import Tile, tile_glyph

_ALPHABET = [
    *"bktfsESWNOZFCP0123456789[]()+ \t",
    "oost",
    "bamboe3",
    "Fa",
    "rood",
    "lente",
    "dots5",
    "x",
    "e",
    "B",
    tile_glyph(Tile.B1),
    tile_glyph(Tile.EAST),
    "\ufe0f",
    "++",
]


def random_hand(rng: random.Random) -> Hand | None:
    counts = [0] * 34
    melds: list[Meld] = []
    concealed: list[int] = []
    for _ in range(rng.randrange(0, 5)):
        kind = rng.choice([0, 0, 1, 1, 2])
        t = rng.randrange(27) // 9 * 9 + rng.randrange(7) if kind == 0 else rng.randrange(34)
        tiles = [t, t + 1, t + 2] if kind == 0 else [t] * (3 + (kind == 2))
        if any(counts[x] + tiles.count(x) > 4 for x in tiles):
            continue
        for x in tiles:
            counts[x] += 1
        if rng.random() < 0.3:
            melds.append(Meld(MeldKind(kind), Tile(t), rng.random() < 0.7))
        else:
            concealed += tiles
    for _ in range(rng.randrange(0, 6)):
        t = rng.randrange(34)
        if counts[t] < 4:
            counts[t] += 1
            concealed.append(t)
    bonus = rng.sample(range(34, 42), rng.choice([0, 0, 0, 1, 2, 8]))
    win = rng.choice(concealed) if concealed and rng.random() < 0.7 else None
    try:
        return Hand(
            tuple(Tile(t) for t in concealed),
            tuple(melds),
            tuple(Tile(b) for b in bonus),
            None if win is None else Tile(win),
        )
    except Exception:
        return None


def respell(rng: random.Random, text: str) -> str:
    words = text.split()
    r = rng.random()
    if r < 0.2:
        return "".join(words)
    if r < 0.35:
        rng.shuffle(words)
    if r < 0.5:
        return "  ".join(words)
    if r < 0.6:  # split a suit group: b1234 -> b12 b34
        out = []
        for w in words:
            if len(w) > 3 and w[0] in "bkt" and w[1:].isdigit():
                k = rng.randrange(2, len(w))
                out += [w[:k], w[0] + w[k:]]
            else:
                out.append(w)
        return " ".join(out)
    return text


def mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randrange(1, 3)):
        if not chars:
            chars = [rng.choice(_ALPHABET)]
            continue
        i = rng.randrange(len(chars))
        r = rng.random()
        if r < 0.25:
            del chars[i]
        elif r < 0.45:
            chars.insert(i, chars[i])
        elif r < 0.6 and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        else:
            chars[i] = rng.choice(_ALPHABET)
    return "".join(chars)


def make_text(rng: random.Random) -> str:
    hand = None
    while hand is None:
        hand = random_hand(rng)
    text = respell(rng, format_hand(hand))
    return mutate(rng, text) if rng.random() < 0.5 else text


def outcome(fn: object, text: str) -> str:
    try:
        got = fn(text)  # type: ignore[operator]
    except Exception as exc:
        return f"ERR {type(exc).__name__}: {exc}"
    if isinstance(got, Hand):
        kinds = {type(t).__name__ for t in (*got.concealed, *got.bonus)}
        if got.winning_tile is not None:
            kinds.add(type(got.winning_tile).__name__)
        return f"{got!r} {got.counts} {sorted(kinds)} {type(got.melds).__name__}"
    return f"{got!r} {sorted({type(t).__name__ for t in got})}"


def run(seed: int, n: int) -> None:
    rng = random.Random(seed)
    show = int(sys.argv[3]) if len(sys.argv) > 3 else None
    for i in range(n):
        text = make_text(rng)
        res = outcome(parse_hand, text) + " | " + outcome(parse_tiles, text)
        if show is not None:
            if i == show:
                print(repr(text))
                print(res)
                return
            continue
        sys.stdout.write(f"{i} {hashlib.sha1(res.encode()).hexdigest()[:16]} {res[:30]!r}\n")


if __name__ == "__main__":
    run(int(sys.argv[1]), int(sys.argv[2]))
