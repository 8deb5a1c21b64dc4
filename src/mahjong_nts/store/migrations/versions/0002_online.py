"""The online tables: tables, their seats, and the append-only events.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "online_tables",
        sa.Column("id", sa.String(22), primary_key=True),
        sa.Column("watch_id", sa.String(22), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("ruleset_name", sa.String(200), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("events", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_activity", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("watch_id", name="uq_online_tables_watch_id"),
    )
    op.create_index("ix_online_tables_status", "online_tables", ["status"])
    op.create_index("ix_online_tables_creator", "online_tables", ["creator"])
    op.create_table(
        "online_seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.String(22),
            sa.ForeignKey("online_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("nickname", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("table_id", "seat", name="uq_online_seats_seat"),
        sa.UniqueConstraint("token_hash", name="uq_online_seats_token_hash"),
    )
    op.create_index("ix_online_seats_table_id", "online_seats", ["table_id"])
    op.create_table(
        "online_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.String(22),
            sa.ForeignKey("online_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "seq", name="uq_online_events_seq"),
    )
    op.create_index("ix_online_events_table_id", "online_events", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_online_events_table_id", table_name="online_events")
    op.drop_table("online_events")
    op.drop_index("ix_online_seats_table_id", table_name="online_seats")
    op.drop_table("online_seats")
    op.drop_index("ix_online_tables_creator", table_name="online_tables")
    op.drop_index("ix_online_tables_status", table_name="online_tables")
    op.drop_table("online_tables")
