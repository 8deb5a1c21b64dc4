"""Bots named on the command line: a shipped name, ``module:Class``, or an entry point.

:func:`load_bot` resolves a bot's name to its factory, in this order:

1. a name of :data:`~mahjong_nts.bots.base.BOTS` (``random``, ``heuristic``, ...);
2. ``module:Class`` (a ``:`` in the name): the module is imported (it must be importable:
   installed, or on ``PYTHONPATH``) and ``Class`` taken from it (``Class`` may be dotted,
   ``module:Outer.Inner``);
3. the name of an entry point in the group ``mahjong_nts.bots`` of an installed
   distribution (``[project.entry-points."mahjong_nts.bots"]`` in its ``pyproject.toml``,
   ``mine = "my_package.bots:MyBot"``), found with :mod:`importlib.metadata`.

The factory must make a :class:`~mahjong_nts.bots.base.Player` as ``Class(seed, rules)``:
:func:`check_bot` makes one and checks that it has a ``name`` (a string) and an ``act``
method.  Every failure is a :class:`BotLoadError` (a ``ValueError``) that says what was
wrong.

Only the local command line (``simulate --bots``, ``duel``) names bots this way: it may
import code, as it may read files.  The web app and the online tables take the names of
:data:`BOTS` only (:func:`~mahjong_nts.bots.base.make_bot`), never a module.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from typing import Any, Final, cast

from mahjong_nts.bots.base import BOTS, BotFactory, Player
from mahjong_nts.core.errors import quote
from mahjong_nts.core.rules import RuleSet

__all__ = [
    "ENTRY_POINT_GROUP",
    "MAX_BOT_NAME_CHARS",
    "BotLoadError",
    "check_bot",
    "load_bot",
    "make_named_bot",
]

ENTRY_POINT_GROUP: Final = "mahjong_nts.bots"
"""The entry-point group a distribution registers its bots in."""

MAX_BOT_NAME_CHARS: Final = 200
"""Characters of one bot's name (a shipped name, ``module:Class`` or an entry point)."""

_LOADED: dict[str, BotFactory] = {}
"""Factories found so far in this process (a worker resolves a name once, not per hand)."""


class BotLoadError(ValueError):
    """A bot's name that names no bot (or something that is not one).

    ``unknown``: the name is no shipped bot, no ``module:Class`` and no entry point (a
    front end may say so in its own words, listing :data:`BOTS`)."""

    def __init__(self, message: str, *, unknown: bool = False) -> None:
        super().__init__(message)
        self.unknown = unknown


def _known() -> str:
    return ", ".join(sorted(BOTS))


def _from_module(name: str) -> Any:
    module_name, _sep, attr = name.partition(":")
    if not module_name or not attr:
        raise BotLoadError(f"bot {quote(name)}: give module:Class, both parts")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (
            module_name == exc.name or module_name.startswith(exc.name + ".")
        ):
            raise BotLoadError(
                f"bot {quote(name)}: no module {quote(module_name)} "
                "(is it installed, or on PYTHONPATH?)"
            ) from None
        raise BotLoadError(
            f"bot {quote(name)}: importing {quote(module_name)} failed: "
            f"no module {quote(exc.name or '?')}"
        ) from None
    except Exception as exc:
        raise BotLoadError(
            f"bot {quote(name)}: importing {quote(module_name)} failed: {type(exc).__name__}: {exc}"
        ) from None
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise BotLoadError(
                f"bot {quote(name)}: module {quote(module_name)} has no {quote(attr)}"
            ) from None
    return obj


def _from_entry_point(name: str) -> Any:
    found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=name)
    if not found:
        raise BotLoadError(
            f"unknown bot {quote(name)}: one of {_known()}, module:Class, or an entry point "
            f"of the group {ENTRY_POINT_GROUP}",
            unknown=True,
        )
    ep = next(iter(found))
    try:
        return ep.load()
    except Exception as exc:
        raise BotLoadError(
            f"bot {quote(name)}: its entry point {quote(ep.value)} does not load: "
            f"{type(exc).__name__}: {exc}"
        ) from None


def load_bot(name: str) -> BotFactory:
    """The factory of the bot ``name`` (see the module's text); raises :class:`BotLoadError`."""
    factory = BOTS.get(name)
    if factory is not None:
        return factory
    factory = _LOADED.get(name)
    if factory is not None:
        return factory
    if not name or len(name) > MAX_BOT_NAME_CHARS:
        raise BotLoadError(
            f"a bot's name has 1 to {MAX_BOT_NAME_CHARS} characters, not {len(name)}"
        )
    obj = _from_module(name) if ":" in name else _from_entry_point(name)
    if not isinstance(obj, type):
        raise BotLoadError(f"bot {quote(name)}: that is a {type(obj).__name__}, not a class")
    factory = cast(BotFactory, obj)
    _LOADED[name] = factory
    return factory


def check_bot(name: str, rules: RuleSet) -> BotFactory:
    """The factory of ``name``, checked by making one bot: ``Class(seed, rules)`` must give
    a :class:`Player` (a ``name`` that is a string, an ``act`` method); raises
    :class:`BotLoadError`."""
    factory = load_bot(name)
    if name in BOTS:
        return factory
    try:
        bot = factory(0, rules)
    except Exception as exc:
        raise BotLoadError(
            f"bot {quote(name)} cannot be made as Class(seed, rules): {type(exc).__name__}: {exc}"
        ) from None
    if not callable(getattr(bot, "act", None)):
        raise BotLoadError(f"bot {quote(name)} is not a bot: it has no act(observation) method")
    if not isinstance(getattr(bot, "name", None), str):
        raise BotLoadError(f"bot {quote(name)} is not a bot: its name is not a string")
    return factory


def make_named_bot(name: str, seed: int, rules: RuleSet) -> Player:
    """A bot by any name :func:`load_bot` takes, seeded with ``seed``, under ``rules``."""
    return load_bot(name)(seed, rules)
