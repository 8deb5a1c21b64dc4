"""Players that choose actions from their observation only (never the game itself)."""

from mahjong_nts.bots.base import BOTS, Player, RandomBot, make_bot
from mahjong_nts.bots.heuristic import HeuristicBot

__all__ = ["BOTS", "HeuristicBot", "Player", "RandomBot", "make_bot"]
