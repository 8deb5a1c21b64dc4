"""Tournaments: players, seating, results, standings, exports (pure: no I/O)."""
