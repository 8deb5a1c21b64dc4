"""The owner of an online table: the server process that holds it live, its address,
and the lease its heartbeat renews (several processes on one database).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("online_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(22), nullable=True))
        batch.add_column(sa.Column("owner_url", sa.String(200), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_online_tables_owner", ["owner"])


def downgrade() -> None:
    with op.batch_alter_table("online_tables") as batch:
        batch.drop_index("ix_online_tables_owner")
        batch.drop_column("lease_until")
        batch.drop_column("owner_url")
        batch.drop_column("owner")
