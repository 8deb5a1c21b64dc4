"""Players that choose actions from their observation only (never the game itself)."""

from mahjong_nts.bots.base import BOTS, Player, make_bot

__all__ = ["BOTS", "Player", "make_bot"]
