"""Play the environment with random legal actions; print one line per episode: a hash of
everything it handed out along it (every agent's observation array and action mask at
every step, the rewards, terminations and truncations), then one line for all of them.

For checking that two trees (the compiled build and the pure one, or a change to the
environment or the core) give the same environment: run it with each tree first on
``PYTHONPATH`` and compare the outputs (``benchmarks/check_builds.py`` does)::

    PYTHONPATH=src python benchmarks/check_env_identical.py 1 40

The episodes: hands of every shipped rule set and overlay that changes the table (four,
three and five players, flowers) and matches (``episode="match"``, cut after a few
hands, both rewards), each from its own seed; the actions are drawn with
``random.Random(seed)`` from each mask, so both trees take the same actions exactly when
they hand out the same masks.
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

import numpy as np

import mahjong_nts.env as mj_env

SETUPS: list[dict[str, Any]] = [
    {"ruleset": "nts-2016"},
    {"ruleset": "nts-2002"},
    {"ruleset": "nmb-2009+flowers"},
    {"ruleset": "rode-draak"},
    {"ruleset": "nts-2016+three-players"},
    {"ruleset": "nts-2016", "reward": "table_points"},
    {"ruleset": "nts-2016", "episode": "match", "max_hands": 3},
    {"ruleset": "nts-2016+five-players", "episode": "match", "max_hands": 3},
    {"ruleset": "nmb-2009+three-players", "episode": "match", "max_hands": 2},
]
"""Keyword arguments of ``env()`` for each episode, in turn."""

MAX_EPISODES = 10_000


def episode_digest(kwargs: dict[str, Any], seed: int) -> str:
    """The hash of one episode of ``env(**kwargs)`` from ``seed``."""
    env: Any = mj_env.env(**kwargs)
    env.reset(seed=seed)
    rng = random.Random(seed)
    h = hashlib.sha256()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        h.update(agent.encode())
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        h.update(np.float64(reward).tobytes())
        h.update(bytes((terminated, truncated)))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return h.hexdigest()[:16]


def main() -> int:
    if len(sys.argv) != 3:
        sys.stderr.write("usage: check_env_identical.py SEED EPISODES\n")
        return 2
    try:
        seed, episodes = int(sys.argv[1]), int(sys.argv[2])
    except ValueError:
        sys.stderr.write("SEED and EPISODES are whole numbers\n")
        return 2
    if not 0 <= seed < 2**63 or not 1 <= episodes <= MAX_EPISODES:
        sys.stderr.write(f"SEED 0..2**63-1, EPISODES 1..{MAX_EPISODES}\n")
        return 2
    whole = hashlib.sha256()
    for i in range(episodes):
        kwargs = SETUPS[i % len(SETUPS)]
        line = f"{i} {kwargs} {episode_digest(kwargs, seed * MAX_EPISODES + i)}"
        whole.update(line.encode())
        print(line)
    print(f"all {whole.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
