"""What the web app holds in memory for a while, under unguessable keys: the games
against the bots (``web/bottable.py``) and the hand logs being replayed
(``web/replay.py``).

:class:`Held` keeps at most ``limit`` items, each under a key of 128 random bits
(``secrets.token_urlsafe(16)``: 22 characters), and forgets an item nobody asked for
in ``idle`` seconds.  When it is full, a new item either is refused (``evict=False``:
the games, whose players would lose them) or takes the place of the least recently
used one (``evict=True``: a replay is made again by uploading the log).

:func:`app_held` gives a route the app's instance, which ``create_app`` makes.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from fastapi import Request

__all__ = ["KEY_CHARS", "Held", "app_held"]

KEY_CHARS = 22
"""Characters of a key: 16 random bytes in URL-safe base64."""

_T = TypeVar("_T")


class Held(Generic[_T]):
    """At most ``limit`` items under random keys; one unused for ``idle`` seconds is
    forgotten (``clock`` gives the time, :func:`time.monotonic` by default)."""

    def __init__(
        self,
        limit: int,
        idle: float,
        *,
        evict: bool,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.idle = idle
        self.evict = evict
        self.clock = clock
        self._items: OrderedDict[str, tuple[_T, float]] = OrderedDict()
        """Least recently used first, each with the time it was last used."""
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def _purge(self, now: float) -> None:
        while self._items:
            key, (_item, used) = next(iter(self._items.items()))
            if now - used <= self.idle:
                break
            del self._items[key]

    def add(self, make: Callable[[str], _T]) -> tuple[str, _T] | None:
        """A new item, ``make(key)``, under a new random key: the key and the item;
        ``None`` (and nothing made) when ``limit`` items are held and this holder
        does not evict."""
        now = self.clock()
        with self._lock:
            self._purge(now)
            if len(self._items) >= self.limit:
                if not self.evict:
                    return None
                while len(self._items) >= self.limit:
                    self._items.popitem(last=False)
            key = secrets.token_urlsafe(16)
            item = make(key)
            self._items[key] = (item, now)
            return key, item

    def get(self, key: str) -> _T | None:
        """The item under ``key`` (``None`` when unknown or forgotten); marks it used."""
        now = self.clock()
        with self._lock:
            self._purge(now)
            found = self._items.get(key) if len(key) == KEY_CHARS else None
            if found is None:
                return None
            self._items[key] = (found[0], now)
            self._items.move_to_end(key)
            return found[0]


def app_held(request: Request, name: str, kind: type[_T]) -> _T:
    """The app's ``kind`` held as ``app.state.<name>`` (made by ``create_app``)."""
    value = getattr(request.app.state, name)
    assert isinstance(value, kind), (name, type(value))
    return value


def one_process_only(request: Request, what: str) -> str | None:
    """Why ``what`` (held in this process's memory) is refused, when the server runs
    several worker processes (a browser's next request may reach another one, which
    does not hold it); None with one process."""
    workers: int = request.app.state.settings.workers
    if workers > 1:
        return (
            f"{what} need a server of one process; this one runs {workers} "
            "(start it with mahjong-nts serve --workers 1)"
        )
    return None
