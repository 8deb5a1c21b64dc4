"""The bounds of the online tables (docs/online.md, docs/security.md).

Every number a client can push against has one here; the web layer and the tables read
them from this module only.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "BOT_DELAY_SECONDS",
    "CHAT_KEPT",
    "CLAIM_SECONDS",
    "IDLE_SECONDS",
    "LEASE_SECONDS",
    "MAX_CHAT_CHARS",
    "MAX_CHAT_LINES",
    "MAX_CONNECTIONS_PER_TABLE",
    "MAX_HANDS",
    "MAX_KEPT_LOGS",
    "MAX_LOBBY_TABLES",
    "MAX_MESSAGE_BYTES",
    "MAX_NICKNAME_CHARS",
    "MAX_OPEN_TABLES",
    "MAX_TABLES_PER_CLIENT",
    "NEXT_HAND_SECONDS",
    "OUTBOX_MESSAGES",
    "RATE_BURST",
    "RATE_PER_SECOND",
    "TURN_SECONDS",
    "WINDOW_SECONDS",
]

MAX_MESSAGE_BYTES: Final = 4096
"""A WebSocket message from a client; a longer one is answered ``too_big`` and dropped."""
RATE_PER_SECOND: Final = 10.0
"""Messages a connection may send per second on average (a token bucket) ..."""
RATE_BURST: Final = 20
"""... and at once; past it each message is answered ``rate_limited`` and dropped."""
OUTBOX_MESSAGES: Final = 64
"""Messages queued for one connection; a client that reads slower is disconnected (it
comes back with a snapshot)."""
MAX_CONNECTIONS_PER_TABLE: Final = 40
"""Open sockets to one table, players and spectators together."""
MAX_TABLES_PER_CLIENT: Final = 5
"""Live tables (waiting or playing) one client address may have created."""
MAX_OPEN_TABLES: Final = 500
"""Live tables on one server; a new one past it is refused (503)."""
MAX_NICKNAME_CHARS: Final = 24
MAX_CHAT_CHARS: Final = 200
"""Characters of one chat line."""
MAX_CHAT_LINES: Final = 2000
"""Chat lines one table keeps in its history; past it chat is refused."""
CHAT_KEPT: Final = 30
"""Chat lines a new connection gets in its first state."""
MAX_HANDS: Final = 16
"""Hands a table may be set to (1 .. 16), or the whole match."""
MAX_KEPT_LOGS: Final = 8
"""Hand logs kept per table for download: those of the last 8 hands."""
IDLE_SECONDS: Final = 60 * 60
"""A table nobody is connected to for this long is closed."""
TURN_SECONDS: Final = (5, 600)
"""The turn timer's range in seconds (or off)."""
CLAIM_SECONDS: Final = (2, 120)
"""The claim timer's range in seconds (or off)."""
WINDOW_SECONDS: Final = 2.0
"""The claim window's fixed minimum length after every discard (the server's setting)."""
BOT_DELAY_SECONDS: Final = 1.0
"""How long a bot waits before it moves, so that people can follow (the server's setting)."""
NEXT_HAND_SECONDS: Final = 60
"""With a turn timer, the next hand is dealt this long after a hand ends even if not
every player said so."""
LEASE_SECONDS: Final = (2.0, 300.0, 15.0)
"""A node's hold on its tables (the server's setting): the least, the most, the default.
Its heartbeat renews the hold every third of it; a node that crashed loses its tables
to another that asks for them once it has passed."""
MAX_LOBBY_TABLES: Final = 200
"""Public tables the lobby lists (the oldest first)."""
