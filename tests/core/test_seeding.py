"""Seeds: the wall as a function of the seed, by the published algorithm (core/seeding.py).

The reference below is written from the algorithm in the module's docstring (and
docs/security.md), independently of the class: SHAKE-256 read as one long stream,
whole bytes per draw, rejection, Fisher-Yates from the end.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_nts.core.game import Game
from mahjong_nts.core.seeding import (
    MAX_SEED,
    SeedRng,
    check_seed,
    derive_seed,
    seed_commitment,
)
from mahjong_nts.core.wall import Wall, tile_set
from mahjong_nts.formats.rulefiles import load_ruleset


def reference_shuffle(seed: int, items: list[int], purpose: str = "wall") -> list[int]:
    key = b"mahjong-nts/rng/v1/" + purpose.encode() + b"/" + seed.to_bytes(32, "big")
    stream = hashlib.shake_256(key).digest(20_000)
    pos = 0
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        nbytes = (k + 7) // 8
        while True:
            r = int.from_bytes(stream[pos : pos + nbytes], "big") >> (8 * nbytes - k)
            pos += nbytes
            if r < n:
                break
        out[i], out[r] = out[r], out[i]
    return out


@given(st.integers(0, MAX_SEED), st.integers(0, 400))
def test_shuffle_is_the_published_algorithm(seed: int, size: int) -> None:
    items = list(range(size))
    got = list(items)
    SeedRng(seed).shuffle(got)
    assert got == reference_shuffle(seed, items)


def test_long_reads_continue_the_same_stream() -> None:
    rng = SeedRng(7)
    first = [rng.getrandbits(64) for _ in range(400)]  # 3200 bytes: past the first read
    stream = hashlib.shake_256(b"mahjong-nts/rng/v1/wall/" + (7).to_bytes(32, "big")).digest(3200)
    assert first == [int.from_bytes(stream[8 * i : 8 * i + 8], "big") for i in range(400)]


def test_randint_and_randbelow_stay_in_range() -> None:
    rng = SeedRng(3)
    assert {rng.randint(1, 6) for _ in range(500)} == {1, 2, 3, 4, 5, 6}
    assert all(0 <= rng.randbelow(1000) < 1000 for _ in range(500))
    with pytest.raises(ValueError):
        rng.randbelow(0)
    with pytest.raises(ValueError):
        rng.randint(3, 2)


def test_purposes_are_separate_streams() -> None:
    assert SeedRng(5, "wall").getrandbits(128) != SeedRng(5, "match").getrandbits(128)


def test_same_seed_same_shuffle_golden() -> None:
    """A seed shuffles the same way on every machine and in every version: the first
    tiles of seed 1's nts-2016 shuffle, frozen from the reference above (not from the
    class), so a change to either the algorithm or the reference is caught."""
    rules = load_ruleset("nts-2016")
    tiles = list(tile_set(rules.table))
    SeedRng(1).shuffle(tiles)
    assert " ".join(t.token for t in tiles[:14]) == "b8 t7 F k7 C b6 t6 b9 P t1 k8 t8 b8 k6"


def test_the_wall_is_the_shuffle_opened_by_dice_from_the_same_stream() -> None:
    rules = load_ruleset("nts-2016")
    rng = SeedRng(1)
    tiles = list(tile_set(rules.table))
    rng.shuffle(tiles)
    throws = [rng.randint(1, 6) for _ in range(4)]
    wall = Wall(rules.table, SeedRng(1))
    assert wall.dice is not None
    assert (wall.dice.first, wall.dice.second) == (throws[0] + throws[1], throws[2] + throws[3])
    live, dead = wall.remaining()
    assert sorted(live + dead) == sorted(tiles)


def test_game_from_the_same_seed_deals_the_same() -> None:
    rules = load_ruleset("nts-2016")
    a, b = Game(rules, SeedRng(99)), Game(rules, SeedRng(99))
    assert a.events == b.events
    assert Game(rules, SeedRng(100)).events != a.events


def test_commitment_is_sha256_of_the_seed() -> None:
    want = hashlib.sha256(b"mahjong-nts/seed/v1/" + (12345).to_bytes(32, "big")).hexdigest()
    assert seed_commitment(12345) == want
    assert seed_commitment(12345) != seed_commitment(12346)


def test_derived_seeds_differ_and_stay_in_range() -> None:
    seeds = {derive_seed(s, "match", i) for s in range(5) for i in range(40)}
    assert len(seeds) == 200
    assert all(0 <= s <= MAX_SEED for s in seeds)


def test_derived_seed_is_the_published_function() -> None:
    """derive_seed as docs/logs.md and the module doc define it, computed here with
    hashlib: each part's UTF-8 text preceded by its length as 8 bytes big-endian."""
    message = (
        b"mahjong-nts/derive/v2/"
        + (12345).to_bytes(32, "big")
        + (8).to_bytes(8, "big")
        + b"simulate"
        + (2).to_bytes(8, "big")
        + b"17"
        + (3).to_bytes(8, "big")
        + b"bot"
        + (1).to_bytes(8, "big")
        + b"2"
    )
    want = int.from_bytes(hashlib.sha256(message).digest(), "big")
    assert derive_seed(12345, "simulate", 17, "bot", 2) == want
    empty = hashlib.sha256(b"mahjong-nts/derive/v2/" + (0).to_bytes(32, "big")).digest()
    assert derive_seed(0) == int.from_bytes(empty, "big")
    lone = (
        b"mahjong-nts/derive/v2/" + (1).to_bytes(32, "big") + (2).to_bytes(8, "big") + "é".encode()
    )
    assert derive_seed(1, "é") == int.from_bytes(hashlib.sha256(lone).digest(), "big")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("ab", "c"), ("a", "bc")),
        (("a/b",), ("a", "b")),
        (("a",), ("a", "")),
        ((), ("",)),
        (("simulate", 1, "bot", 2), ("simulate", "1/bot", 2)),
    ],
)
def test_derived_seeds_of_different_part_lists_differ(
    a: tuple[str | int, ...], b: tuple[str | int, ...]
) -> None:
    """Regression: the parts were joined with "/" without lengths, so ("ab", "c") and
    ("a", "bc") (or ("a/b",) and ("a", "b")) gave the same seed."""
    assert derive_seed(7, *a) != derive_seed(7, *b)


@pytest.mark.parametrize("bad", [-1, MAX_SEED + 1, True, 1.5, "7", None])
def test_bad_seeds_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        check_seed(bad)
    if isinstance(bad, int):
        with pytest.raises(ValueError, match="seed"):
            SeedRng(bad)
