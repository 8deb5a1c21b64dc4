"""The tables of the store (SQLAlchemy 2 typed models).

The score sheet (see ``docs/store.md``):

- ``sheet_sessions``: one evening; ``token`` is the unguessable share link;
  ``ruleset`` the validated rule set as data (so a sheet keeps its rules even when
  a shipped file changes), ``chip_milli`` the chip value in thousandths of a cent
  per point (``NULL``: no money).
- ``sheet_hands``: the current entry of each hand, by ``position`` (0-based);
  ``version`` counts its corrections (the optimistic check of two writers).
- ``sheet_changes``: the append-only history of corrections: the old and the
  new entry of a hand and when.  The store never updates nor deletes a change.

The online tables (see ``docs/online.md``):

- ``online_tables``: one live table; ``id`` is the players' unguessable link,
  ``watch_id`` the spectators'; ``settings`` the validated settings as data;
  ``events`` the number of events stored (the next event's ``seq``), so that two
  writers of one table cannot both append the same event; ``owner`` the server
  process (node) that holds the table live, at ``owner_url``, while ``lease_until``
  has not passed (revision 0003, ``store/cluster.py``).
- ``online_seats``: a table's seats: human or bot (and its level), the nickname and
  the SHA-256 of the seat token (never the token) once a player took it.
- ``online_events``: the append-only history of a table, numbered by ``seq`` from 0
  without gaps; the table's state is rebuilt from it.  The store never updates nor
  deletes an event.

The tournaments (see ``docs/tournament.md``, the organiser's part):

- ``tournaments``: one tournament day: name, date, rule set as data, rounds, the
  table-size policy (``fives``), whether club mates are kept apart, the ranking
  settings (JSON), the seed of its seatings; ``token`` the organiser's unguessable
  link, ``public_id`` the players' and the big screen's; ``version`` grows by one with
  every write to the tournament (the polling of the big screen).
- ``tournament_players``: the registered players, numbered 1, 2, ... per tournament,
  with the rounds they play (``first_round``: late, ``last_round``: dropped,
  ``absent``), ``substitute_for`` (the player a substitute replaces).
- ``tournament_rounds``: each round's seating, ``tables`` a list of tables, each the
  player numbers in seat order East, South, West, North (a fifth: the dreamer).
- ``tournament_results``: one table's result in one round: the players in seat order
  and their final scores (mahjongs and deal-ins for the tie-breaks); ``version`` counts
  its corrections (the optimistic check of two officials).
- ``tournament_result_changes``: the append-only history of corrections: who, when,
  the result before and after.
- ``tournament_penalties``: penalty points with their reason, apart from the table
  scores.

Table models never leave :mod:`mahjong_nts.store`: its functions answer with
frozen public values (:mod:`mahjong_nts.store.sheets`, :mod:`mahjong_nts.store.online`).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "Base",
    "OnlineEvent",
    "OnlineSeat",
    "OnlineTable",
    "SheetChange",
    "SheetHand",
    "SheetSession",
    "Tournament",
    "TournamentPenalty",
    "TournamentPlayer",
    "TournamentResult",
    "TournamentResultChange",
    "TournamentRound",
]

TOKEN_CHARS = 32
"""Characters of a share token: ``secrets.token_urlsafe(24)`` gives 32."""


class Base(DeclarativeBase):
    pass


class SheetSession(Base):
    __tablename__ = "sheet_sessions"
    __table_args__ = (UniqueConstraint("token", name="uq_sheet_sessions_token"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(TOKEN_CHARS))
    names: Mapped[list[str]] = mapped_column(JSON)
    ruleset_name: Mapped[str] = mapped_column(String(200))
    ruleset: Mapped[dict[str, Any]] = mapped_column(JSON)
    chip_milli: Mapped[int | None] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    hands: Mapped[list[SheetHand]] = relationship(
        back_populates="session", order_by="SheetHand.position", cascade="all, delete-orphan"
    )


class SheetHand(Base):
    __tablename__ = "sheet_hands"
    __table_args__ = (UniqueConstraint("session_id", "position", name="uq_sheet_hands_position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("sheet_sessions.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(Integer)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    session: Mapped[SheetSession] = relationship(back_populates="hands")


class SheetChange(Base):
    __tablename__ = "sheet_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(
        ForeignKey("sheet_hands.id", ondelete="CASCADE"), index=True
    )
    version: Mapped[int] = mapped_column(Integer)
    """The hand's version this change made (2 for the first correction)."""
    old_entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    new_entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    changed: Mapped[datetime] = mapped_column(DateTime(timezone=True))


TABLE_ID_CHARS = 22
"""Characters of a table's id and watch id: ``secrets.token_urlsafe(16)`` gives 22."""
TOKEN_HASH_CHARS = 64
"""A seat token's SHA-256, in hexadecimal."""
NODE_URL_CHARS = 200
"""Characters of a server process's advertised address (``MAHJONG_NTS_NODE_URL``)."""


class OnlineTable(Base):
    __tablename__ = "online_tables"
    __table_args__ = (UniqueConstraint("watch_id", name="uq_online_tables_watch_id"),)

    id: Mapped[str] = mapped_column(String(TABLE_ID_CHARS), primary_key=True)
    watch_id: Mapped[str] = mapped_column(String(TABLE_ID_CHARS))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    ruleset_name: Mapped[str] = mapped_column(String(200))
    players: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``waiting`` (for players), ``playing``, ``finished`` or ``closed``."""
    creator: Mapped[str] = mapped_column(String(64), index=True)
    """A keyed hash of the creating client's address (counts its open tables)."""
    events: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_activity: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    owner: Mapped[str | None] = mapped_column(String(TABLE_ID_CHARS), index=True)
    """The id of the server process that holds the table live (``None``: none)."""
    owner_url: Mapped[str | None] = mapped_column(String(NODE_URL_CHARS))
    """Where the owner is reached (its advertised address)."""
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """The owner's hold ends then unless its heartbeat renews it."""


class OnlineSeat(Base):
    __tablename__ = "online_seats"
    __table_args__ = (
        UniqueConstraint("table_id", "seat", name="uq_online_seats_seat"),
        UniqueConstraint("token_hash", name="uq_online_seats_token_hash"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("online_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    """``human`` or ``bot``."""
    bot: Mapped[str | None] = mapped_column(String(32))
    nickname: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(TOKEN_HASH_CHARS))
    joined: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class OnlineEvent(Base):
    __tablename__ = "online_events"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_online_events_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("online_tables.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    hand: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


NAME_CHARS = 60
"""Characters of a tournament's or a player's name field (as the tournament's check)."""


class Tournament(Base):
    __tablename__ = "tournaments"
    __table_args__ = (
        UniqueConstraint("token", name="uq_tournaments_token"),
        UniqueConstraint("public_id", name="uq_tournaments_public_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(TOKEN_CHARS))
    """The organiser's link: whoever has it changes the tournament."""
    public_id: Mapped[str] = mapped_column(String(TABLE_ID_CHARS))
    """The players' and the big screen's link: reads only."""
    name: Mapped[str] = mapped_column(String(NAME_CHARS))
    day: Mapped[date] = mapped_column(Date)
    ruleset_name: Mapped[str] = mapped_column(String(200))
    ruleset: Mapped[dict[str, Any]] = mapped_column(JSON)
    rounds: Mapped[int] = mapped_column(Integer)
    fives: Mapped[bool] = mapped_column(Boolean)
    """A player count one more than a multiple of four: a table of five, else threes."""
    clubs_apart: Mapped[bool] = mapped_column(Boolean)
    ranking: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(40))
    """The seed of the seatings (decimal digits): the same seed seats the same way."""
    version: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentPlayer(Base):
    __tablename__ = "tournament_players"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_tournament_players_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    first_name: Mapped[str] = mapped_column(String(NAME_CHARS))
    last_name: Mapped[str] = mapped_column(String(NAME_CHARS))
    club: Mapped[str] = mapped_column(String(NAME_CHARS))
    ema: Mapped[str] = mapped_column(String(NAME_CHARS))
    nmb: Mapped[str] = mapped_column(String(NAME_CHARS))
    first_round: Mapped[int] = mapped_column(Integer)
    last_round: Mapped[int | None] = mapped_column(Integer)
    absent: Mapped[list[int]] = mapped_column(JSON)
    substitute_for: Mapped[int | None] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentRound(Base):
    __tablename__ = "tournament_rounds"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_tournament_rounds_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    tables: Mapped[list[list[int]]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentResult(Base):
    __tablename__ = "tournament_results"
    __table_args__ = (
        UniqueConstraint(
            "tournament_id", "round", "table_number", name="uq_tournament_results_table"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    table_number: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[int]] = mapped_column(JSON)
    finals: Mapped[list[int]] = mapped_column(JSON)
    """Final scores in seat order (each within 2^48: a JSON number keeps it exactly)."""
    mahjongs: Mapped[list[int]] = mapped_column(JSON)
    deal_ins: Mapped[list[int]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    entered_by: Mapped[str] = mapped_column(String(NAME_CHARS))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentResultChange(Base):
    __tablename__ = "tournament_result_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    result_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_results.id", ondelete="CASCADE"), index=True
    )
    version: Mapped[int] = mapped_column(Integer)
    """The result's version this change made (2 for the first correction)."""
    changed_by: Mapped[str] = mapped_column(String(NAME_CHARS))
    old: Mapped[dict[str, Any]] = mapped_column(JSON)
    new: Mapped[dict[str, Any]] = mapped_column(JSON)
    changed: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentPenalty(Base):
    __tablename__ = "tournament_penalties"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    player: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(BigInteger)
    """1 to 2^48: more than a 32-bit column holds."""
    reason: Mapped[str] = mapped_column(String(200))
    given_by: Mapped[str] = mapped_column(String(NAME_CHARS))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
