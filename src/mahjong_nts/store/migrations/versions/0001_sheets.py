"""The evening score sheet: sessions, hands, the history of corrections.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sheet_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("ruleset_name", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.JSON(), nullable=False),
        sa.Column("chip_milli", sa.Integer(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("token", name="uq_sheet_sessions_token"),
    )
    op.create_table(
        "sheet_hands",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "session_id",
            sa.Integer(),
            sa.ForeignKey("sheet_sessions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("session_id", "position", name="uq_sheet_hands_position"),
    )
    op.create_index("ix_sheet_hands_session_id", "sheet_hands", ["session_id"])
    op.create_table(
        "sheet_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "hand_id",
            sa.Integer(),
            sa.ForeignKey("sheet_hands.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("old_entry", sa.JSON(), nullable=False),
        sa.Column("new_entry", sa.JSON(), nullable=False),
        sa.Column("changed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sheet_changes_hand_id", "sheet_changes", ["hand_id"])


def downgrade() -> None:
    op.drop_index("ix_sheet_changes_hand_id", table_name="sheet_changes")
    op.drop_table("sheet_changes")
    op.drop_index("ix_sheet_hands_session_id", table_name="sheet_hands")
    op.drop_table("sheet_hands")
    op.drop_table("sheet_sessions")
