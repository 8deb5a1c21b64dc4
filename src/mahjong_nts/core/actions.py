"""Actions of the game: what a player may do, as small values with a text notation.

======================  ===========================================================
text                    meaning
======================  ===========================================================
``discard b3``          lay a tile out (own turn)
``kong b3``             own turn: declare a concealed kong of four held tiles, or
                        promote an open pung with the fourth; after a discard: claim
                        it for an open kong with a concealed pung
``pung b3``             claim the discard for a pung
``chow b2``             claim the discard for the chow starting at ``b2`` (next player)
``mahjong``             declare mahjong: on the own turn (self-drawn), or claim the
                        discard (or a promoted kong's tile: robbing the kong)
``pass``                let the discard go
``announce b3``         own first turn, waiting since the deal: announce "de
                        gelukkige dertien" (the lucky thirteen, ``rode-draak``) and
                        discard ``b3``; the hand stays as it is from then on
======================  ===========================================================

Every action also has an integer id in ``range(NUM_ACTIONS)`` for learning code.
New kinds are appended at the end, so the ids of the older ones never change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from mahjong_nts.core.errors import InvalidAction, InvalidTile, quote
from mahjong_nts.core.text import N_
from mahjong_nts.core.tiles import NUM_KINDS, Tile, is_honour, parse_tile

__all__ = [
    "MAX_ACTION_TEXT",
    "NUM_ACTIONS",
    "Action",
    "ActionKind",
    "action",
    "among",
    "interned",
    "parse_action",
]


class ActionKind(IntEnum):
    PASS = 0
    MAHJONG = 1
    DISCARD = 2
    KONG = 3
    CHOW = 4
    PUNG = 5
    ANNOUNCE = 6
    """Announce the lucky thirteen, discarding the tile named (see :mod:`game`)."""

    def __repr__(self) -> str:
        return f"ActionKind.{self.name}"

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def has_tile(self) -> bool:
        return self >= ActionKind.DISCARD


@dataclass(frozen=True, slots=True)
class Action:
    """One action; ``tile`` is ``None`` exactly for ``pass`` and ``mahjong``.

    Use :func:`action` (interned values) or :func:`parse_action` to make one.
    """

    kind: ActionKind
    tile: Tile | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            try:
                object.__setattr__(self, "kind", ActionKind(self.kind))
            except ValueError:
                raise InvalidAction(
                    N_("unknown action kind {kind}"), kind=quote(self.kind)
                ) from None
        kind = self.kind
        if not kind.has_tile:
            if self.tile is not None:
                raise InvalidAction(N_("'{word}' takes no tile"), word=kind.word)
            return
        if self.tile is None:
            raise InvalidAction(N_("'{word}' needs a tile, e.g. '{word} b3'"), word=kind.word)
        try:
            tile = Tile(self.tile)
        except (ValueError, TypeError):
            raise InvalidAction(N_("{value} is not a tile"), value=quote(self.tile)) from None
        if tile >= NUM_KINDS:
            raise InvalidAction(
                N_("'{word} {tile}': flowers and seasons are never played"),
                word=kind.word,
                tile=tile.token,
            )
        if kind is ActionKind.CHOW and (is_honour(tile) or tile % 9 > 6):
            raise InvalidAction(
                N_("'chow {tile}': a chow is named by its lowest tile, b1..b7, k1..k7, t1..t7"),
                tile=tile.token,
            )
        object.__setattr__(self, "tile", tile)

    def __str__(self) -> str:
        return self.kind.word if self.tile is None else f"{self.kind.word} {self.tile.token}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"

    @property
    def id(self) -> int:
        """Integer id: ``pass`` 0, ``mahjong`` 1, then 34 ids each for discard, kong, chow,
        pung and announce (in that order, by tile)."""
        if self.tile is None:
            return int(self.kind)
        return 2 + (self.kind - ActionKind.DISCARD) * NUM_KINDS + int(self.tile)

    @staticmethod
    def from_id(action_id: int) -> Action:
        if isinstance(action_id, int) and 0 <= action_id < NUM_ACTIONS:
            found = _BY_ID[action_id]
            if found is not None:
                return found
        raise InvalidAction(
            N_("{value} is not an action id (0..{last})"),
            value=quote(action_id),
            last=NUM_ACTIONS - 1,
        )


_TILE_KINDS: Final = tuple(k for k in ActionKind if k.has_tile)
NUM_ACTIONS: Final = 2 + len(_TILE_KINDS) * NUM_KINDS
MAX_ACTION_TEXT: Final = 100
"""The longest action text :func:`parse_action` reads (the longest action is ~20)."""


def _all_actions() -> tuple[Action | None, ...]:
    """Every action by id; ``None`` in the chow slots of tiles that start no chow."""
    out: list[Action | None] = [Action(ActionKind.PASS), Action(ActionKind.MAHJONG)]
    for kind in _TILE_KINDS:
        for t in range(NUM_KINDS):
            bad_chow = kind is ActionKind.CHOW and (t >= 27 or t % 9 > 6)
            out.append(None if bad_chow else Action(kind, Tile(t)))
    return tuple(out)


_BY_ID: Final = _all_actions()
_INTERNED: Final = {(a.kind, a.tile): a for a in _BY_ID if a is not None}


def action(kind: ActionKind, tile: int | None = None) -> Action:
    """The action ``kind`` (with ``tile``), interned; raises InvalidAction for a bad pair."""
    found = _INTERNED.get((kind, tile))  # type: ignore[arg-type]
    return found if found is not None else Action(kind, tile)  # type: ignore[arg-type]


_INTERNED_IDS: Final = frozenset(id(a) for a in _BY_ID if a is not None)
"""The identities of the interned actions (they live as long as the module)."""


def interned(act: Action) -> Action:
    """The interned action equal to ``act`` (``act`` itself when it is one: found by its
    identity, without hashing an :class:`ActionKind`, whose hash is Python code)."""
    if id(act) in _INTERNED_IDS:
        return act
    return action(act.kind, act.tile)


def among(act: Action, legal: Sequence[Action]) -> bool:
    """Whether the interned action ``act`` (:func:`action`) is one of ``legal`` (interned
    actions too, as the game lists them): by identity, without comparing fields (a
    dataclass's ``__eq__`` is Python code, and ``act in legal`` calls it for every action
    listed before ``act``)."""
    for a in legal:  # noqa: SIM110 (a loop: any() of a generator is twice as slow)
        if a is act:
            return True
    return False


def parse_action(text: object) -> Action:
    """Parse ``'discard b3'``, ``'pung E'``, ``'mahjong'``, ... (tile aliases accepted)."""
    if not isinstance(text, str):
        raise InvalidAction(
            N_("an action is text like 'discard b3', not {type}"), type=type(text).__name__
        )
    if len(text) > MAX_ACTION_TEXT:
        raise InvalidAction(
            N_(
                "an action is a word and at most one tile (at most {most} "
                "characters), not {count} characters"
            ),
            most=MAX_ACTION_TEXT,
            count=len(text),
        )
    words = text.split()
    if not words:
        raise InvalidAction(N_("empty action: say e.g. 'discard b3', 'pung', 'pass'"))
    word = words[0].lower()
    try:
        kind = ActionKind[word.upper()]
    except KeyError:
        names = ", ".join(k.word for k in ActionKind)
        raise InvalidAction(
            N_("unknown action {word}: one of {names}"), word=quote(words[0]), names=names
        ) from None
    if len(words) > 2:
        raise InvalidAction(
            N_("{text}: too many words (an action is a word and at most one tile)"),
            text=quote(text),
        )
    if len(words) == 1:
        return action(kind)
    try:
        tile = parse_tile(words[1])
    except InvalidTile:
        raise InvalidAction(
            N_(
                "{text}: unknown tile {word} (tiles are b1..b9, k1..k9, "
                "t1..t9, E S W N (or O Z), F C P)"
            ),
            text=quote(text),
            word=quote(words[1]),
        ) from None
    return action(kind, tile)
