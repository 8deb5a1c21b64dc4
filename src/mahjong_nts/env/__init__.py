"""Reinforcement-learning environments over the core game (needs the ``[env]`` extra:
``pip install 'mahjong-nts[env]'``): a PettingZoo AEC environment and a Gymnasium
single-seat wrapper.  docs/env.md documents the observation layout and the action table."""

from mahjong_nts.env.aec import MahjongEnv, env, raw_env
from mahjong_nts.env.single import SingleSeatEnv

__all__ = ["MahjongEnv", "SingleSeatEnv", "env", "raw_env"]
