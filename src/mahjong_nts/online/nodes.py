"""This server process as one node of several on one database (docs/online.md,
"Several processes").

A node has an id (random on every start) and the address it is reached at (its
advertised URL, ``MAHJONG_NTS_NODE_URL`` or ``serve --node-url``).  A request for a table
that another live node holds gets :class:`Moved`: the web layer sends the client to that
node (307 for a page, 421 for the API, close code 4421 for a socket).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from mahjong_nts.online.table import OnlineError
from mahjong_nts.online.tokens import new_id

__all__ = ["MAX_NODE_URL_CHARS", "Moved", "Node", "check_node_url", "default_node_url"]

MAX_NODE_URL_CHARS: Final = 200
"""Characters of a node's advertised URL (``store.models.NODE_URL_CHARS``)."""


def check_node_url(text: str) -> str:
    """A node's advertised URL: ``http`` or ``https``, a host (and port), no path, no
    user, query or fragment; given back without a final ``/``.  :class:`ValueError`
    with the reason otherwise."""
    if len(text) > MAX_NODE_URL_CHARS:
        raise ValueError(f"a node URL has at most {MAX_NODE_URL_CHARS} characters")
    try:
        parts = urlsplit(text.strip())
        port = parts.port  # a port that is not a number raises here
    except ValueError:
        raise ValueError(f"{text!r} is not a URL such as http://10.0.0.2:8001") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{text!r}: give http:// or https:// and a host, as http://10.0.0.2:8001")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"{text!r}: a node URL holds no user or password")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{text!r}: a node URL is a scheme, a host and a port, no path")
    if not text.isascii() or any(c.isspace() for c in text.strip()):
        raise ValueError(f"{text!r}: a node URL is ASCII, without spaces")
    del port
    return f"{parts.scheme}://{parts.netloc}"


def default_node_url(host: str, port: int) -> str:
    """The address ``serve`` listens on, as a node's URL (an IPv6 host in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


@dataclass(frozen=True, slots=True)
class Node:
    """This process: its id (random per start) and its advertised URL."""

    id: str
    url: str

    @classmethod
    def new(cls, url: str) -> Node:
        return cls(new_id(), check_node_url(url))


class Moved(OnlineError):
    """The table is held by another live node, at ``url`` (its advertised address)."""

    def __init__(self, url: str) -> None:
        super().__init__(421, f"this table is played on another server process: {url}")
        self.url = url
