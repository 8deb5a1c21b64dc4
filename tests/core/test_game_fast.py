"""The game's shortcuts give what the long way gives.

* A self-drawn win is looked for only when the tile drawn is one the seat waited for
  before the draw (its waits, when the claim windows of the other seats' discards had
  already worked them out): the legal actions are the same as with the full
  completeness check on every turn.  That rests on ``t in waiting_tiles(h)`` being
  ``is_complete(h + t)`` for every tile ``t`` that can still be drawn, checked here
  directly on hands one tile short of complete (regular, seven pairs, thirteen orphans,
  with and without melds, duplicate pairs allowed or not) and on random hands.
* Legality is checked by identity (:func:`among`): the game's actions are interned.
"""

from __future__ import annotations

import random

import pytest
from core_helpers import load
from game_helpers import random_action

from mahjong_nts.core.actions import Action, ActionKind, action, among, interned
from mahjong_nts.core.analysis import is_complete, waiting_tiles
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.tiles import NUM_KINDS, Tile

SPECS = ["nts-2016", "nts-2002", "nmb-2009", "rode-draak", "nmb-2009+flowers+three-players"]
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _complete_hand(rng: random.Random, n_melds: int) -> list[int]:
    """Counts of a complete hand of ``4 - n_melds`` sets and a pair (or, without melds,
    now and then seven pairs or the thirteen orphans)."""
    counts = [0] * NUM_KINDS
    shape = rng.random()
    if n_melds == 0 and shape < 0.2:
        for t in rng.sample(range(NUM_KINDS), 7):
            counts[t] += 2
        return counts
    if n_melds == 0 and shape < 0.3:
        for t in ORPHANS:
            counts[t] += 1
        counts[rng.choice(ORPHANS)] += 1
        return counts
    while True:
        counts = [0] * NUM_KINDS
        for _ in range(4 - n_melds):
            if rng.random() < 0.5:
                start = rng.choice([t for t in range(27) if t % 9 <= 6])
                for t in (start, start + 1, start + 2):
                    counts[t] += 1
            else:
                counts[rng.randrange(NUM_KINDS)] += 3
        counts[rng.randrange(NUM_KINDS)] += 2
        if max(counts) <= 4:
            return counts


@pytest.mark.parametrize("duplicate_pairs", [True, False])
def test_waits_are_the_tiles_that_complete(duplicate_pairs: bool) -> None:
    rng = random.Random(13)
    checked = completing = 0
    for i in range(3000):
        n_melds = 0 if i % 2 else rng.randrange(5)
        counts = _complete_hand(rng, n_melds)
        if i % 5 == 0:  # a random hand too, mostly not waiting
            counts = [0] * NUM_KINDS
            for t in rng.sample(list(range(NUM_KINDS)) * 4, 14 - 3 * n_melds):
                counts[t] += 1
            if max(counts) > 4:
                continue
        # one tile short: take out any tile held
        counts[rng.choice([t for t in range(NUM_KINDS) if counts[t]])] -= 1
        waits = waiting_tiles(counts, n_melds=n_melds, duplicate_pairs=duplicate_pairs)
        for t in range(NUM_KINDS):
            if counts[t] == 4:
                continue  # no fifth tile to draw
            counts[t] += 1
            full = is_complete(counts, n_melds=n_melds, duplicate_pairs=duplicate_pairs)
            counts[t] -= 1
            assert (t in waits) == full, (counts, n_melds, t)
            checked += 1
            completing += full
    assert completing > 1000 and checked > 50000


@pytest.mark.parametrize("spec", SPECS)
def test_legal_actions_as_with_the_full_check(spec: str) -> None:
    """At every turn of random hands, the legal actions (and the win offered) are those
    of the same position with the waits before the draw forgotten (the full check)."""
    rules = load(spec)
    shortcut = wins = 0
    for seed in range(150):
        game = Game(rules, random.Random(seed))
        rng = random.Random(f"fast {seed}")
        while not game.is_over:
            if game.phase is Phase.TURN:
                slow = game.clone()
                slow._drawn_waits = None
                shortcut += game._drawn_waits is not None
                legal = game.legal_actions()
                assert legal == slow.legal_actions()
                assert game._drawn_win == slow._drawn_win
                wins += game._drawn_win is not None
            game.apply(random_action(game, rng, 0.0))
    assert shortcut > 1000  # the shortcut was taken (and checked) on most turns
    assert wins > 0  # and self-drawn wins were among them


def test_among_is_membership_by_identity() -> None:
    legal = tuple(action(ActionKind.DISCARD, t) for t in (0, 5, 9))
    assert among(action(ActionKind.DISCARD, 5), legal)
    assert not among(action(ActionKind.DISCARD, 6), legal)
    assert not among(action(ActionKind.PASS), ())
    # an equal action built outside the table of interned actions is not the same object
    built = Action(ActionKind.DISCARD, Tile(5))
    assert built == legal[1] and not among(built, legal)


def test_interned_finds_the_interned_value() -> None:
    d5 = action(ActionKind.DISCARD, 5)
    assert interned(d5) is d5
    built = Action(ActionKind.DISCARD, Tile(5))
    assert built is not d5 and interned(built) is d5
    assert interned(Action(ActionKind.PASS)) is action(ActionKind.PASS)
