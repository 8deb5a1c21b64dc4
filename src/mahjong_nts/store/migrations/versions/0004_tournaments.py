"""The tournaments: tournaments, players, rounds with their seating, table results
with the history of their corrections, penalties.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _tournament_fk() -> sa.Column[int]:
    return sa.Column(
        "tournament_id",
        sa.Integer(),
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
    )


def _times(*names: str) -> list[sa.Column[object]]:
    return [sa.Column(n, sa.DateTime(timezone=True), nullable=False) for n in names]


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("public_id", sa.String(22), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("ruleset_name", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("fives", sa.Boolean(), nullable=False),
        sa.Column("clubs_apart", sa.Boolean(), nullable=False),
        sa.Column("ranking", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        *_times("created", "updated"),
        sa.UniqueConstraint("token", name="uq_tournaments_token"),
        sa.UniqueConstraint("public_id", name="uq_tournaments_public_id"),
    )
    op.create_table(
        "tournament_players",
        sa.Column("id", sa.Integer(), primary_key=True),
        _tournament_fk(),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("first_name", sa.String(60), nullable=False),
        sa.Column("last_name", sa.String(60), nullable=False),
        sa.Column("club", sa.String(60), nullable=False),
        sa.Column("ema", sa.String(60), nullable=False),
        sa.Column("nmb", sa.String(60), nullable=False),
        sa.Column("first_round", sa.Integer(), nullable=False),
        sa.Column("last_round", sa.Integer(), nullable=True),
        sa.Column("absent", sa.JSON(), nullable=False),
        sa.Column("substitute_for", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        *_times("created", "updated"),
        sa.UniqueConstraint("tournament_id", "number", name="uq_tournament_players_number"),
    )
    op.create_index("ix_tournament_players_tournament_id", "tournament_players", ["tournament_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), primary_key=True),
        _tournament_fk(),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("tables", sa.JSON(), nullable=False),
        *_times("created"),
        sa.UniqueConstraint("tournament_id", "number", name="uq_tournament_rounds_number"),
    )
    op.create_index("ix_tournament_rounds_tournament_id", "tournament_rounds", ["tournament_id"])
    op.create_table(
        "tournament_results",
        sa.Column("id", sa.Integer(), primary_key=True),
        _tournament_fk(),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("finals", sa.JSON(), nullable=False),
        sa.Column("mahjongs", sa.JSON(), nullable=False),
        sa.Column("deal_ins", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("entered_by", sa.String(60), nullable=False),
        *_times("created", "updated"),
        sa.UniqueConstraint(
            "tournament_id", "round", "table_number", name="uq_tournament_results_table"
        ),
    )
    op.create_index("ix_tournament_results_tournament_id", "tournament_results", ["tournament_id"])
    op.create_table(
        "tournament_result_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "result_id",
            sa.Integer(),
            sa.ForeignKey("tournament_results.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("changed_by", sa.String(60), nullable=False),
        sa.Column("old", sa.JSON(), nullable=False),
        sa.Column("new", sa.JSON(), nullable=False),
        *_times("changed"),
    )
    op.create_index(
        "ix_tournament_result_changes_result_id", "tournament_result_changes", ["result_id"]
    )
    op.create_table(
        "tournament_penalties",
        sa.Column("id", sa.Integer(), primary_key=True),
        _tournament_fk(),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("given_by", sa.String(60), nullable=False),
        *_times("created"),
    )
    op.create_index(
        "ix_tournament_penalties_tournament_id", "tournament_penalties", ["tournament_id"]
    )


def downgrade() -> None:
    for table in (
        "tournament_penalties",
        "tournament_result_changes",
        "tournament_results",
        "tournament_rounds",
        "tournament_players",
    ):
        key = "result_id" if table == "tournament_result_changes" else "tournament_id"
        op.drop_index(f"ix_{table}_{key}", table_name=table)
        op.drop_table(table)
    op.drop_table("tournaments")
