"""Seat tokens, their signed cookies, the server's secret, and client keys.

A seat token is 256 random bits (``secrets.token_urlsafe(32)``, 43 characters); the
store keeps only its SHA-256 (:func:`token_hash`).  The cookie carries the token with an
HMAC-SHA-256 of it under the server's secret, bound to the table
(:func:`sign` / :func:`unsign`), so a cookie made up or moved to another table is refused
before the store is asked.  The secret comes from the settings, else from the file
``online-secret`` in the data folder, made once (32 random bytes, mode 0600).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path
from typing import Final

__all__ = [
    "SECRET_FILE",
    "TOKEN_PATTERN",
    "client_key",
    "cookie_name",
    "load_secret",
    "new_id",
    "new_token",
    "sign",
    "token_hash",
    "unsign",
]

TOKEN_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{43}")
ID_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{22}")
SECRET_FILE: Final = "online-secret"
_SIGNATURE_CHARS: Final = 43
_MIN_SECRET_CHARS: Final = 32


def new_id() -> str:
    """A table id or watch id: 128 random bits, 22 URL-safe characters."""
    return secrets.token_urlsafe(16)


def new_token() -> str:
    """A seat token: 256 random bits, 43 URL-safe characters."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256 in hexadecimal."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def cookie_name(table_id: str) -> str:
    """The seat cookie of a table: one per table, so one browser can sit at several."""
    return f"mjseat_{table_id}"


def _mac(secret: bytes, table_id: str, token: str) -> str:
    digest = hmac.new(secret, f"online-seat/v1/{table_id}/{token}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode().rstrip("=")


def sign(secret: bytes, table_id: str, token: str) -> str:
    """The cookie's value: the token and its signature for this table."""
    return f"{token}.{_mac(secret, table_id, token)}"


def unsign(secret: bytes, table_id: str, value: str | None) -> str | None:
    """The token of a cookie value signed for this table, else ``None``."""
    if value is None or len(value) != 43 + 1 + _SIGNATURE_CHARS:
        return None
    token, _, mac = value.partition(".")
    if not TOKEN_PATTERN.fullmatch(token):
        return None
    return token if hmac.compare_digest(mac, _mac(secret, table_id, token)) else None


def client_key(secret: bytes, address: str) -> str:
    """A keyed hash of a client's address: counts its tables without storing it."""
    digest = hmac.new(secret, f"online-client/v1/{address}".encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def load_secret(data_dir: Path, configured: str | None = None) -> bytes:
    """The server's secret: ``configured`` (at least 32 characters), else the file
    :data:`SECRET_FILE` in ``data_dir``, made with 32 random bytes on first use."""
    if configured is not None:
        if len(configured) < _MIN_SECRET_CHARS:
            raise ValueError(f"the online secret has at least {_MIN_SECRET_CHARS} characters")
        return configured.encode("utf-8")
    path = Path(data_dir) / SECRET_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = secrets.token_bytes(32)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            return path.read_bytes()
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        return data
    if len(data) < 16:
        raise ValueError(f"{path}: the online secret file is too short")
    return data
