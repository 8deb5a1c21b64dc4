"""A PettingZoo AEC environment over the core game: one hand of Dutch mahjong.

No rule lives here: the core :class:`~mahjong_nts.core.game.Game` decides who acts, what
is legal and what a hand is worth.  Every decision the game asks for (a turn; each seat
asked in a claim or rob window, one after another) is one agent step.  An episode is one
hand, dealt from the seed given to :meth:`MahjongEnv.reset` (the wall is
``SeedRng(seed)``'s shuffle, as in a logged game).
"""

from __future__ import annotations

import secrets
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from mahjong_nts.core.actions import NUM_ACTIONS, Action
from mahjong_nts.core.game import Game
from mahjong_nts.core.observation import Observation, observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS, SeedRng, check_seed, derive_seed
from mahjong_nts.env.encoding import LAYOUT_VERSION, OBS_HIGH, OBS_LOW, Encoder, action_mask
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.tournament.results import TablePoints

__all__ = ["REWARDS", "MahjongEnv", "env", "raw_env"]

Reward = Literal["score", "table_points"]
REWARDS: Final = ("score", "table_points")

ObsDict = dict[str, npt.NDArray[Any]]


def _rules_of(ruleset: str | RuleSet) -> RuleSet:
    if isinstance(ruleset, RuleSet):
        return ruleset
    if not isinstance(ruleset, str):
        raise ValueError(f"ruleset: a rule set's name or a RuleSet, not {type(ruleset).__name__}")
    return load_ruleset(ruleset)


class MahjongEnv(AECEnv):  # type: ignore[misc]  # (pettingzoo has no types: Any)
    """One hand of mahjong under a rule set, as a PettingZoo AEC environment.

    Agents ``seat_0`` (East) .. ``seat_{n-1}``.  The observation of an agent is a dict:
    ``observation``, the layout-1 array of :mod:`mahjong_nts.env.encoding`, and
    ``action_mask``, 1 at each legal action id (all 0 for an agent not asked now).
    Rewards come when the hand ends: ``"score"`` gives each seat its balance of the
    hand's settlement (zero-sum; 0 each in a remise); ``"table_points"`` the table points
    of the hand's balances by place (4/2/1/0 at four, the tournament's default, equal
    balances splitting the places they hold).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads a class attribute)
        "name": "mahjong_nts_v1",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: str | RuleSet = "nts-2016",
        players: int | None = None,
        reward: Reward = "score",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        rules = _rules_of(ruleset)
        n = rules.table.players
        if players is not None and (type(players) is not int or players != n):
            raise ValueError(
                f"players={players!r}: rule set {rules.name!r} is played by {n} a hand "
                f"(choose a rule set for the table, e.g. 'three-players')"
            )
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r}: one of {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: None or 'ansi'")
        self.rules = rules
        self.reward_kind: Reward = reward
        self.render_mode = render_mode
        self.layout_version = LAYOUT_VERSION
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(OBS_LOW, OBS_HIGH, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._encoders = [Encoder() for _ in range(n)]
        """Per seat, its array kept from step to step (only what changed is rewritten)."""
        self._next_seed: int | None = None
        self.seed: int | None = None
        """The seed of the hand in play (its wall): ``Game(rules, SeedRng(seed))``."""
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand.  ``seed`` (0 .. 2**256 - 1) fixes the wall and the action
        spaces' sampling; without one the next hand follows from the last seed given
        (or a fresh secret seed if none was)."""
        if seed is not None:
            seed = check_seed(seed)
        elif self._next_seed is not None:
            seed = self._next_seed
        else:
            seed = secrets.randbits(DEFAULT_SEED_BITS)
        self._next_seed = derive_seed(seed, "next hand")
        self.seed = seed
        for i, a in enumerate(self.possible_agents):
            self.action_spaces[a].seed(derive_seed(seed, "actions", i) % 2**32)
        self.game = Game(self.rules, SeedRng(seed))
        for encoder in self._encoders:
            encoder.reset()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_seat]

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def core_observation(self, agent: str) -> Observation:
        """The core's observation of ``agent`` (what a bot of :mod:`mahjong_nts.bots` sees)."""
        return observe(self._game(), self._seat[agent])

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        obs = observe(self._game(), seat)
        return {"observation": self._encoders[seat].encode(obs), "action_mask": action_mask(obs)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if isinstance(action, np.integer):
            action = int(action)
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"{agent}: an action is an id 0..{NUM_ACTIONS - 1}, not {action!r}")
        act = Action.from_id(action)
        if act not in game.legal_actions():
            legal = ", ".join(str(a) for a in game.legal_actions())
            raise ValueError(f"{agent}: {act} (id {action}) is not legal now; legal: {legal}")
        self._cumulative_rewards[agent] = 0.0
        game.apply(act)
        if game.is_over:
            for a, r in zip(self.agents, self._hand_rewards(game), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[game.current_seat]
        self._accumulate_rewards()

    def _hand_rewards(self, game: Game) -> list[float]:
        assert game.result is not None
        balances = game.result.settlement.balances
        if self.reward_kind == "score":
            return [float(b) for b in balances]
        return [float(p) for p in TablePoints().award(balances)]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self._game()
        lines = [f"{self.rules.name}, seed {self.seed}, live wall {game.wall.live_left}"]
        for s in range(game.n):
            melds = " ".join(str(m) for m in game.melds[s])
            discards = " ".join(t.token for t in game.discards[s])
            lines.append(f"seat_{s}: melds [{melds}] discards [{discards}]")
        if game.result is not None:
            lines.append(f"over: {game.result.reason}, {game.result.settlement.balances}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> MahjongEnv:
    """The environment without PettingZoo's wrappers."""
    return MahjongEnv(**kwargs)


class _OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]  # (no types: Any)
    """PettingZoo's order-enforcing wrapper with a direct :meth:`last`: the inherited one
    reads five attributes of the environment through the wrappers' ``__getattr__`` on
    every step (about a tenth of a step), and :meth:`step` one; these make the same
    checks first."""

    def step(self, action: int | None) -> None:
        inner = self.env
        if self._has_reset and inner.agents:
            self._has_updated = True
            inner.step(action)
        else:
            super().step(action)  # (its errors and warnings)

    def last(
        self, observe: bool = True
    ) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        out: tuple[ObsDict | None, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return out


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """``mahjong_nts.env.env(ruleset="nts-2016", players=4, reward="score")``: the
    environment with PettingZoo's order checks (an illegal action raises)."""
    out: AECEnv[str, ObsDict, int] = _OrderEnforcing(raw_env(**kwargs))
    return out
