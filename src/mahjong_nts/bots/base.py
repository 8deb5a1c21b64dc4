"""The player interface, and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from mahjong_nts.core.actions import Action
from mahjong_nts.core.observation import Observation

__all__ = ["BOTS", "Player", "make_bot"]


class Player(Protocol):
    """Anything that picks one of ``obs.legal`` when ``obs.to_act``."""

    name: str

    def act(self, obs: Observation) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        return self._rng.choice(obs.legal)


BOTS: dict[str, Callable[[int], Player]] = {"random": RandomBot}
"""Bot factories by name; each takes a seed for its own RNG."""


def make_bot(name: str, seed: int = 0) -> Player:
    """A bot by name; raises ValueError naming the known bots."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: one of {', '.join(sorted(BOTS))}") from None
    return factory(seed)
