"""What the app holds in memory (mahjong_nts/web/held.py): bounded, idle items
forgotten, full either refusing or making room; the games' registry and the replays
are both one."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from mahjong_nts.core.seeding import derive_seed
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.web import Settings, create_app
from mahjong_nts.web.bottable import Registry
from mahjong_nts.web.held import KEY_CHARS, Held
from mahjong_nts.web.replay import IDLE_SECONDS, MAX_REPLAYS, Replays


def test_keys_are_random_and_items_are_found_by_them() -> None:
    held: Held[str] = Held(10, 60, evict=False)
    made = [held.add(lambda key: f"item {key}") for _ in range(5)]
    keys = [m[0] for m in made if m is not None]
    assert len(set(keys)) == 5
    for key in keys:
        assert re.fullmatch(rf"[A-Za-z0-9_-]{{{KEY_CHARS}}}", key)
        assert held.get(key) == f"item {key}"
    assert held.get("x" * KEY_CHARS) is None
    assert held.get(keys[0] + "x") is None and held.get("") is None


def test_a_full_holder_that_does_not_evict_refuses_and_makes_nothing() -> None:
    now = [0.0]
    held: Held[int] = Held(2, 60, evict=False, clock=lambda: now[0])
    first = held.add(lambda key: 1)
    assert first is not None and held.add(lambda key: 2) is not None
    made: list[str] = []
    assert held.add(lambda key: made.append(key) or 3) is None
    assert made == [] and len(held) == 2
    now[0] = 30.0
    assert held.get(first[0]) == 1  # used: its idle time starts again
    now[0] = 61.0  # the second one, unused since 0, is forgotten; the first is not
    assert held.add(lambda key: 4) is not None
    assert len(held) == 2 and held.get(first[0]) == 1


def test_a_full_holder_that_evicts_forgets_the_least_recently_used() -> None:
    held: Held[str] = Held(3, 60, evict=True, clock=lambda: 0.0)
    keys = []
    for name in "abc":
        made = held.add(lambda key, name=name: name)  # type: ignore[misc]
        assert made is not None
        keys.append(made[0])
    assert held.get(keys[0]) == "a"  # now b is the least recently used
    assert held.add(lambda key: "d") is not None
    assert len(held) == 3
    assert [held.get(k) for k in keys] == ["a", None, "c"]


def test_idle_items_are_forgotten() -> None:
    now = [0.0]
    held: Held[str] = Held(5, 100, evict=True, clock=lambda: now[0])
    made = held.add(lambda key: "x")
    assert made is not None
    now[0] = 100.0
    assert held.get(made[0]) == "x"  # exactly the idle time: kept
    now[0] = 200.5
    assert held.get(made[0]) is None and len(held) == 0


def test_the_replays_evict_and_the_games_refuse() -> None:
    replays = Replays()
    assert (replays.limit, replays.idle, replays.evict) == (MAX_REPLAYS, IDLE_SECONDS, True)
    games = Registry(max_games=1)
    games.create(load_ruleset("nts-2016"), "nts-2016", 1)
    with pytest.raises(Exception, match="games are in play"):
        games.create(load_ruleset("nts-2016"), "nts-2016", 1)


def test_a_registry_with_a_seed_deals_the_same_games_again() -> None:
    rules = load_ruleset("nts-2016")
    one, two = Registry(seed=7), Registry(seed=7)
    a = [one.create(rules, "nts-2016", 1) for _ in range(2)]
    b = [two.create(rules, "nts-2016", 1) for _ in range(2)]
    assert [t.seed for t in a] == [t.seed for t in b]
    assert [t.seed for t in a] == [derive_seed(7, "web-play", n) for n in (1, 2)]
    assert a[0].game.concealed(0) == b[0].game.concealed(0)
    assert a[0].id != b[0].id  # the ids stay random
    free = Registry()
    assert free.create(rules, "nts-2016", 1).seed != free.create(rules, "nts-2016", 1).seed


def test_the_app_holds_one_registry_with_the_settings_seed(tmp_path: object) -> None:
    app = create_app(Settings(data_dir=tmp_path, play_seed=11))  # type: ignore[arg-type]
    with TestClient(app) as client:
        state = client.post("/api/play", json={"ruleset": "nts-2016", "hands": 1}).json()
        table = app.state.play_tables.get(state["game"])
        assert table.seed == derive_seed(11, "web-play", 1)
        assert app.state.replays is not app.state.play_tables
