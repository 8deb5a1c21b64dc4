"""A Gymnasium environment for one seat: the other seats are played by chosen bots.

Each episode is one hand of :class:`~mahjong_nts.env.aec.MahjongEnv`; :meth:`step`
plays the learner's action, then lets the bots decide until the learner is asked again
or the hand is over.  The bots see what they always see, their core observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium

from mahjong_nts.bots import Player, make_bot
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import derive_seed
from mahjong_nts.env.aec import MahjongEnv, ObsDict, Reward

__all__ = ["SingleSeatEnv"]


# (the ignore: gymnasium is Any to mypy where it is not installed, as in the wheel's
# isolated build, which type-checks env/ for the compiled build)
class SingleSeatEnv(gymnasium.Env[ObsDict, int]):  # type: ignore[misc, unused-ignore]
    """One seat (``seat``, 0 = East) of a hand against bots.

    ``opponents``: one bot name for every other seat (``"random"``, ``"heuristic"``),
    or a name per other seat in seat order.  The observation and action space are the
    AEC environment's; ``info["action_mask"]`` repeats the mask.  The reward is the
    seat's reward of the hand (see :class:`MahjongEnv`), given on the last step.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        ruleset: str | RuleSet = "nts-2016",
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        reward: Reward = "score",
        render_mode: str | None = None,
    ) -> None:
        self.aec = MahjongEnv(ruleset=ruleset, reward=reward, render_mode=render_mode)
        n = len(self.aec.possible_agents)
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat={seat!r}: a seat of this table, 0..{n - 1}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"opponents: one bot name, or {n - 1} (one per other seat)")
        for name in names:
            make_bot(name)  # an unknown name raises ValueError naming the bots
        self.seat = seat
        self.agent = f"seat_{seat}"
        self._names = names
        self._bots: dict[int, Player] = {}
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        hand_seed = self.aec.seed
        assert hand_seed is not None
        others = [s for s in range(len(self.aec.possible_agents)) if s != self.seat]
        self._bots = {
            s: make_bot(name, derive_seed(hand_seed, "bot", s), self.aec.rules)
            for s, name in zip(others, self._names, strict=True)
        }
        self.action_space.seed(derive_seed(hand_seed, "learner") % 2**32)
        self._play_others()
        obs = self.aec.observe(self.agent)
        return obs, {"action_mask": obs["action_mask"]}

    def _play_others(self) -> None:
        aec = self.aec
        while not aec.terminations[self.agent] and aec.agent_selection != self.agent:
            seat = int(aec.agent_selection.removeprefix("seat_"))
            act = self._bots[seat].act(aec.core_observation(aec.agent_selection))
            aec.step(act.id)

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.terminations.get(self.agent, True):
            raise RuntimeError("the hand is over: call reset()")
        aec.step(action)
        self._play_others()
        obs = aec.observe(self.agent)
        done = aec.terminations[self.agent]
        reward = float(aec.rewards[self.agent]) if done else 0.0
        return obs, reward, done, False, {"action_mask": obs["action_mask"]}

    def render(self) -> str | None:
        return self.aec.render()
