"""Alembic migrations of the store, shipped in the package (see docs/store.md)."""
