"""Live tables: several people (and bots) play one match from their own browsers.

The server is the authority (:mod:`~mahjong_nts.online.table`): one asyncio task and lock
per table, every action checked by the core's authority form, stored before it is
broadcast, each seat shown only its own view (:mod:`~mahjong_nts.online.view`), claim
windows fair and simultaneous, tables resumed from their events after a restart
(:mod:`~mahjong_nts.online.server`), each table held by one server process of several
that share a database (:mod:`~mahjong_nts.online.nodes`).  The protocol is in
docs/online.md.  This package knows games and seats, not HTTP or templates.
"""

from mahjong_nts.online.config import OnlineConfig
from mahjong_nts.online.nodes import Moved, Node
from mahjong_nts.online.server import OnlineServer
from mahjong_nts.online.table import Connection, OnlineError, Table

__all__ = ["Connection", "Moved", "Node", "OnlineConfig", "OnlineError", "OnlineServer", "Table"]
