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

Table models never leave :mod:`mahjong_nts.store`: its functions answer with
frozen public values (:mod:`mahjong_nts.store.sheets`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = ["Base", "SheetChange", "SheetHand", "SheetSession"]

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
