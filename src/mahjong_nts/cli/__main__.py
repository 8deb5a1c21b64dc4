"""``python -m mahjong_nts.cli``."""

from mahjong_nts.cli import run

run()
