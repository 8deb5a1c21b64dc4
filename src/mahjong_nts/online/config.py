"""The server's settings of its online tables (the web app's settings give them)."""

from __future__ import annotations

from dataclasses import dataclass

from mahjong_nts.online.limits import (
    BOT_DELAY_SECONDS,
    IDLE_SECONDS,
    LEASE_SECONDS,
    MAX_OPEN_TABLES,
    MAX_TABLES_PER_CLIENT,
    NEXT_HAND_SECONDS,
    WINDOW_SECONDS,
)

__all__ = ["OnlineConfig"]


@dataclass(frozen=True, slots=True)
class OnlineConfig:
    """The server's settings of every table (the web app's settings give them)."""

    window_seconds: float = WINDOW_SECONDS
    """The claim window's fixed minimum length after every discard."""
    bot_delay: float = BOT_DELAY_SECONDS
    """How long a bot waits before it moves on a turn."""
    next_hand_seconds: float = NEXT_HAND_SECONDS
    idle_seconds: float = IDLE_SECONDS
    max_open_tables: int = MAX_OPEN_TABLES
    tables_per_client: int = MAX_TABLES_PER_CLIENT
    lease_seconds: float = LEASE_SECONDS[2]
    """How long a node holds its tables without renewing (several processes)."""
    seed: int | None = None
    """For tests and screenshots only (``MAHJONG_NTS_PLAY_SEED``): the n-th table this
    server makes is dealt from ``derive_seed(seed, "online", n)``, so the same hands come
    on every run.  ``None`` (always on a server people play on): from ``secrets``."""
