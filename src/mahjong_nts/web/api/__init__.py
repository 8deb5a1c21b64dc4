"""The HTTP JSON API: ``POST /api/score`` and ``POST /api/settle`` (see docs/web.md)."""
