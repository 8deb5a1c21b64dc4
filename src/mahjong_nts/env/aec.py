"""A PettingZoo AEC environment over the core game: one hand of Dutch mahjong, or a
whole match.

No rule lives here: the core :class:`~mahjong_nts.core.game.Game` decides who acts, what
is legal and what a hand is worth, and :class:`~mahjong_nts.core.match.Match` how the
winds and the deal move on.  Every decision the game asks for (a turn; each seat asked
in a claim or rob window, one after another) is one agent step.  An episode is one hand
(``episode="hand"``), dealt from the seed given to :meth:`MahjongEnv.reset` (the wall is
``SeedRng(seed)``'s shuffle, as in a logged game), or a whole match
(``episode="match"``: ``Match(rules, SeedRng(seed, "match"), SeedRng)``, as ``simulate``
and the online tables play one).
"""

from __future__ import annotations

import secrets
from typing import Any, Final, Literal, NoReturn

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from mahjong_nts.core.actions import NUM_ACTIONS, Action, ActionKind, action
from mahjong_nts.core.errors import IllegalAction, InvalidAction
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.match import HandSetup, Match
from mahjong_nts.core.observation import Observation, observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS, SeedRng, check_seed, derive_seed
from mahjong_nts.env.encoding import (
    LAYOUT_VERSION,
    MATCH_LAYOUT_VERSION,
    MATCH_OBS_HIGH,
    MATCH_OBS_LOW,
    MATCH_OBS_SIZE,
    MAX_MATCH_HANDS,
    OBS_HIGH,
    OBS_LOW,
    OBS_SIZE,
    encode_seat,
    legal_mask,
    match_section,
)
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.tournament.results import TablePoints

__all__ = ["EPISODES", "REWARDS", "MahjongEnv", "env", "raw_env"]

Reward = Literal["score", "table_points"]
REWARDS: Final = ("score", "table_points")
_MAHJONG: Final = action(ActionKind.MAHJONG)
_OVER: Final = Phase.OVER


def _by_id() -> tuple[Action | None, ...]:
    """Each action id's action, as ``Action.from_id`` gives it (``None``: a chow slot no
    chow starts in, which ``from_id`` refuses)."""
    out: list[Action | None] = []
    for i in range(NUM_ACTIONS):
        try:
            out.append(Action.from_id(i))
        except InvalidAction:
            out.append(None)
    return tuple(out)


_BY_ID: Final = _by_id()
Episode = Literal["hand", "match"]
EPISODES: Final = ("hand", "match")

ObsDict = dict[str, npt.NDArray[Any]]


def _rules_of(ruleset: str | RuleSet) -> RuleSet:
    if isinstance(ruleset, RuleSet):
        return ruleset
    if not isinstance(ruleset, str):
        raise ValueError(f"ruleset: a rule set's name or a RuleSet, not {type(ruleset).__name__}")
    return load_ruleset(ruleset)


# (the ignore: where gymnasium is not installed, as in the wheel's isolated build, which
# type-checks env/ for the compiled build, its classes are Any to mypy)
class _ActionSpace(spaces.Discrete):  # type: ignore[misc, unused-ignore]
    """``Discrete(NUM_ACTIONS)`` seeded as :meth:`MahjongEnv.reset` says (agent ``i``'s
    space from ``derive_seed(seed, "actions", i)``), on its first draw after the reset:
    deriving the seed (SHA-256) and making numpy's generator for every agent took about
    a third of a reset, for spaces most loops never sample.  The same draws as seeding
    at the reset: nothing draws from the space in between."""

    def __init__(self) -> None:
        super().__init__(NUM_ACTIONS)
        self._later: tuple[int, int] | None = None

    def seed_later(self, seed: int, index: int) -> None:
        """Seed the space from ``derive_seed(seed, "actions", index)`` before its next draw."""
        self._later = (seed, index)

    def seed(self, seed: int | None = None) -> Any:
        self._later = None
        return super().seed(seed)

    @property
    def np_random(self) -> np.random.Generator:
        later = self._later
        if later is not None:
            self.seed(derive_seed(later[0], "actions", later[1]) % 2**32)
        out: np.random.Generator = super().np_random
        return out


class MahjongEnv(AECEnv):  # type: ignore[misc]  # (pettingzoo has no types: Any)
    """One hand of mahjong under a rule set (``episode="hand"``), or a whole match
    (``episode="match"``), as a PettingZoo AEC environment.

    A hand's agents are its seats, ``seat_0`` (East) .. ``seat_{n-1}``; a match's are its
    players, ``player_0`` .. ``player_{P-1}`` (player 0 is East in the first hand; seats
    move on as the rule set says; at a table of five one player sits each hand out).
    The observation of an agent is a dict: ``observation``, the array of
    :mod:`mahjong_nts.env.encoding` (layout 1 for a hand; layout 2, layout 1 and the
    match's balances and progress, for a match), and ``action_mask``, 1 at each legal
    action id (all 0 for an agent not asked now).

    Rewards: ``"score"`` gives each agent its balance of a hand's settlement when the
    hand ends (zero-sum; 0 each in a remise; a match gives one per hand, 0 to the one
    sitting out).  ``"table_points"``: the table points by place (4/2/1/0 at four, the
    tournament's default, equal balances splitting the places they hold) of the hand's
    balances when it ends, or of the match's balances when the match ends (nothing per
    hand).  A match not over after ``max_hands`` hands is cut: every agent truncated.
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
        episode: Episode = "hand",
        max_hands: int = MAX_MATCH_HANDS,
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
        if episode not in EPISODES:
            raise ValueError(f"episode={episode!r}: one of {', '.join(EPISODES)}")
        if type(max_hands) is not int or not 1 <= max_hands <= MAX_MATCH_HANDS:
            raise ValueError(f"max_hands={max_hands!r}: a whole number 1..{MAX_MATCH_HANDS}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: None or 'ansi'")
        self.rules = rules
        self.reward_kind: Reward = reward
        self.episode: Episode = episode
        self.max_hands = max_hands
        self.render_mode = render_mode
        match = episode == "match"
        self.layout_version = MATCH_LAYOUT_VERSION if match else LAYOUT_VERSION
        if match:
            count = n + (1 if rules.table.dreamer else 0)
            self.possible_agents = [f"player_{p}" for p in range(count)]
            low, high = MATCH_OBS_LOW, MATCH_OBS_HIGH
        else:
            self.possible_agents = [f"seat_{s}" for s in range(n)]
            low, high = OBS_LOW, OBS_HIGH
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: _ActionSpace() for a in self.possible_agents}
        self._seat: dict[str, int | None] = {a: s for s, a in enumerate(self.possible_agents)}
        """Each agent's seat in the hand in play (``None``: sits it out)."""
        self._agent_at: list[str] = list(self.possible_agents[:n])
        """The agent at each seat of the hand in play (0 = East)."""
        self._tails: dict[str, npt.NDArray[np.float32]] = {}
        """In a match: each agent's match section for the hand in play (it holds still
        during a hand)."""
        self._next_seed: int | None = None
        self.seed: int | None = None
        """The seed of the episode: the hand's wall ``Game(rules, SeedRng(seed))``, or the
        match's ``Match(rules, SeedRng(seed, "match"), SeedRng)``."""
        self.game: Game | None = None
        """The hand in play (in a match, the current hand)."""
        self.match: Match | None = None
        """The match in play (``episode="match"``)."""
        self.setup: HandSetup | None = None
        """In a match: who sits where in the hand in play, and its wind."""

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
            self.action_spaces[a].seed_later(seed, i)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.episode == "match":
            self.match = Match(self.rules, SeedRng(seed, "match"), SeedRng)
            self._deal()
        else:
            self.game = Game(self.rules, SeedRng(seed))
        self.agent_selection = self._agent_at[self._game().current_seat]

    def _deal(self) -> None:
        """Deal the match's next hand and seat the players."""
        match = self.match
        assert match is not None
        setup, self.game = match.next_hand()
        self.setup = setup
        self._agent_at = [self.possible_agents[p] for p in setup.players]
        self._seat = dict.fromkeys(self.possible_agents)
        for s, a in enumerate(self._agent_at):
            self._seat[a] = s
        rot = match.rotation
        progress = (setup.number, setup.round, rot.rotations, match.round_count)
        self._tails = {
            a: match_section(match.balances, setup.players, setup.dreamer, s, progress)
            for a, s in self._seat.items()
        }
        for a in self.possible_agents:
            self.infos[a] = {"hand": setup.number, "seat": self._seat[a]}

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def core_observation(self, agent: str) -> Observation:
        """The core's observation of ``agent`` (what a bot of :mod:`mahjong_nts.bots`
        sees); ``ValueError`` for the player who sits the hand in play out."""
        seat = self._seat[agent]
        if seat is None:
            raise ValueError(f"{agent} sits this hand out (the dreamer): it sees no hand")
        return observe(self._game(), seat)

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        if seat is None:  # the dreamer: the match section only
            x = np.zeros(MATCH_OBS_SIZE, dtype=np.float32)
            x[OBS_SIZE:] = self._tails[agent]
            return {"observation": x, "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)}
        game = self.game
        if game is None:
            game = self._game()  # (its error)
        x = encode_seat(game, seat)  # (read from the game: no Observation built)
        if self.episode == "match":
            x = np.concatenate((x, self._tails[agent]))
        # the seat's legal actions as observe() gives them: only to the seat asked now
        if game.current_seat == seat and game.phase is not _OVER:
            return {"observation": x, "action_mask": legal_mask(game.legal_actions())}
        return {"observation": x, "action_mask": legal_mask(())}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if game is None:
            game = self._game()  # (its error)
        if type(action) is not int:
            if isinstance(action, np.integer):
                action = int(action)
            if type(action) is not int:
                raise ValueError(
                    f"{agent}: an action is an id 0..{NUM_ACTIONS - 1}, not {action!r}"
                )
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"{agent}: an action is an id 0..{NUM_ACTIONS - 1}, not {action!r}")
        act = _BY_ID[action]
        if act is None:  # a chow slot no chow starts in: the core's message
            act = Action.from_id(action)
        # the core refuses an illegal action and leaves the game as it was, but takes a
        # mahjong that is none as a false mahjong (a dead hand): the mask never offers one
        if act is _MAHJONG and act not in game.legal_actions():
            self._illegal(agent, act, action)
        try:
            game.apply(act)
        except IllegalAction:
            self._illegal(agent, act, action)
        self._after_apply(agent, game)

    def _after_apply(self, agent: str, game: Game) -> None:
        """The rest of :meth:`step` once ``agent``'s action is applied: rewards, the end
        of the hand (or the match's next hand), the next agent (a method of its own:
        ``benchmarks/profile_env.py`` times it)."""
        self._cumulative_rewards[agent] = 0.0
        if self.episode == "match":
            self._match_step(game)
        elif game.result is not None:
            rewards = self._rewards_of(game.result.settlement.balances)
            for a, r in zip(self.agents, rewards, strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
        else:  # (a hand's rewards are all 0 until it ends: nothing to add)
            self.agent_selection = self._agent_at[game.current_seat]
            return
        self._accumulate_rewards()

    def _illegal(self, agent: str, act: Action, action: int) -> NoReturn:
        legal = ", ".join(str(a) for a in self._game().legal_actions())
        raise ValueError(f"{agent}: {act} (id {action}) is not legal now; legal: {legal}")

    def _match_step(self, game: Game) -> None:
        """After an action in a match: the rewards of a hand that ended, the next hand
        (or the match's end, or its cut), and the agent asked next."""
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0
        if not game.is_over:
            self.agent_selection = self._agent_at[game.current_seat]
            return
        match = self.match
        assert match is not None
        record = match.record(game)
        if self.reward_kind == "score":
            for a, b in zip(self.possible_agents, record.balances, strict=True):
                rewards[a] = float(b)
        if match.is_over:
            if self.reward_kind == "table_points":
                points = self._rewards_of(match.balances)
                for a, r in zip(self.possible_agents, points, strict=True):
                    rewards[a] = r
            for a in self.agents:
                self.terminations[a] = True
        elif len(match.history) >= self.max_hands:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self._deal()
            self.agent_selection = self._agent_at[self._game().current_seat]

    def _rewards_of(self, balances: tuple[int, ...] | list[int]) -> list[float]:
        """The rewards of final balances: the balances, or their table points by place."""
        if self.reward_kind == "score":
            return [float(b) for b in balances]
        return [float(p) for p in TablePoints().award(balances)]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self._game()
        lines = [f"{self.rules.name}, seed {self.seed}, live wall {game.wall.live_left}"]
        if self.setup is not None:
            lines[0] += f", hand {self.setup.number + 1} of the match"
        for s in range(game.n):
            melds = " ".join(str(m) for m in game.melds[s])
            discards = " ".join(t.token for t in game.discards[s])
            lines.append(f"{self._agent_at[s]}: melds [{melds}] discards [{discards}]")
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
