"""The player interface, and the registry of bots by name."""

from __future__ import annotations

import random
from typing import Protocol

from mahjong_nts.bots._mypyc import mypyc_attr
from mahjong_nts.bots.heuristic import HeuristicBot
from mahjong_nts.bots.strong import EasyBot, NormalBot, StrongBot
from mahjong_nts.core.actions import Action
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.rules import RuleSet

__all__ = ["BOTS", "BotFactory", "Player", "RandomBot", "make_bot"]


class Player(Protocol):
    """Anything that picks one of ``obs.legal`` when ``obs.to_act``.

    A player sees only its :class:`Observation` (never the game); the rule set, which is
    public, may be given to it when it is made (see :func:`make_bot`).
    """

    name: str

    def act(self, obs: Observation) -> Action: ...


class BotFactory(Protocol):
    def __call__(self, seed: int = 0, rules: RuleSet | None = None) -> Player: ...


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0, rules: RuleSet | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        return self._rng.choice(obs.legal)


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "easy": EasyBot,
    "normal": NormalBot,
    "strong": StrongBot,
}
"""Bot factories by name; each takes a seed for its own RNG and, optionally, the rules."""


def make_bot(name: str, seed: int = 0, rules: RuleSet | None = None) -> Player:
    """A bot by name (playing under ``rules`` when given); raises ValueError naming the
    known bots."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: one of {', '.join(sorted(BOTS))}") from None
    return factory(seed, rules)
