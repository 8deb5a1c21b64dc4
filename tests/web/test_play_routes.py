"""Play against the bots over HTTP: the authority checks (stale, doubled, foreign
submits), what the client may see, the logs, the registry's bounds."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import error_of

from mahjong_nts.core.tiles import Tile, parse_tile
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.web.bottable import MAX_HANDS, BotTable, PlayError, Registry

ROOT = Path(__file__).resolve().parents[2]


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/play", json={"ruleset": "nts-2016", "hands": 1, **body})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


def act(client: TestClient, state: dict[str, Any], action: str, **over: Any) -> Any:
    body = {"hand": state["hand"], "seq": state["seq"], "action": action, **over}
    return client.post(f"/api/play/{state['game']}/act", json=body)


def play_out(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    """Play the hand to its end with the first legal action every time."""
    while state["phase"] != "over":
        response = act(client, state, state["legal"][0])
        assert response.status_code == 200, response.text
        state = response.json()
    return state


def test_a_new_game_is_dealt_and_waits_for_east(client: TestClient) -> None:
    state = new_game(client)
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", state["game"])  # 128 random bits
    assert state["seat"] == 0 and state["to_act"] and state["phase"] == "turn"
    assert len(state["concealed"]) == 14  # East holds 14 after the deal (no flowers here)
    assert all(a.startswith(("discard ", "kong ", "mahjong")) for a in state["legal"])
    assert re.fullmatch(r"[0-9a-f]{64}", state["seed_commitment"])
    assert state["seed"] is None and state["result"] is None


def test_a_stale_or_doubled_submit_is_409_and_changes_nothing(client: TestClient) -> None:
    state = new_game(client)
    first = act(client, state, state["legal"][0])
    assert first.status_code == 200
    after = first.json()
    again = act(client, state, state["legal"][0])  # the same form sent twice
    assert again.status_code == 409
    assert "sent twice" in error_of(again)
    now = client.get(f"/api/play/{state['game']}").json()
    assert now["seq"] == after["seq"] and now["events"] == after["events"]
    wrong_hand = act(client, after, after["legal"][0] if after["legal"] else "pass", hand=5)
    assert wrong_hand.status_code == 409
    assert "hand 6" in error_of(wrong_hand)


def test_an_illegal_or_malformed_action_is_422(client: TestClient) -> None:
    state = new_game(client)
    assert state["phase"] == "turn" and state["to_act"]  # East, on the deal
    held = {parse_tile(t) for t in state["concealed"]}
    # a hand holds 14 of the 34 kinds of tile: one it does not hold, whatever the deal
    missing = next(t.token for t in Tile if t < 34 and t not in held)
    for bad, word in [(f"discard {missing}", missing), ("fly away", "fly"), ("pung", "pung")]:
        response = act(client, state, bad)
        assert response.status_code == 422, bad
        assert word in error_of(response)
    assert client.get(f"/api/play/{state['game']}").json()["seq"] == state["seq"]
    for body in ({"hand": 0, "seq": "1", "action": "pass"}, {"hand": 0}, [1]):
        response = client.post(f"/api/play/{state['game']}/act", json=body)
        assert response.status_code == 422


def test_an_unknown_game_is_404(client: TestClient) -> None:
    for game in ("A" * 22, "../../etc", "x" * 200):
        response = client.post(
            f"/api/play/{game}/act", json={"hand": 0, "seq": 0, "action": "pass"}
        )
        assert response.status_code == 404, game
        assert error_of(response) in ("Not Found",) or "no such game" in error_of(response)
    page = client.get("/play/" + "A" * 22, headers={"accept": "text/html"})
    assert page.status_code == 404 and "no such game" in page.text


def test_one_game_cannot_be_driven_with_another_games_decision(client: TestClient) -> None:
    one, two = new_game(client), new_game(client)
    response = client.post(
        f"/api/play/{two['game']}/act",
        json={"hand": 0, "seq": one["seq"] + 1, "action": one["legal"][0]},
    )
    assert response.status_code in (409, 422)
    assert client.get(f"/api/play/{two['game']}").json()["seq"] == two["seq"]


def _tiles_in(value: Any) -> list[str]:
    return [t for t in json.dumps(value).split('"') if t]


def test_cheating_the_client_never_sees_other_hands_or_the_seed(client: TestClient) -> None:
    """A client that reads the whole JSON (html included) learns nothing it may not:
    no other seat's concealed tile, no seed before the end."""
    state = new_game(client)
    table: BotTable = client.app.state.play_tables.get(state["game"])  # type: ignore[attr-defined]
    checked = 0
    while state["phase"] != "over":
        game = table.game
        answer = client.get(f"/api/play/{state['game']}?html=1&hint=1")
        text = answer.text
        seed = str(table.setup.seed)
        assert seed not in text and '"seed": null' in text.replace('"seed":null', '"seed": null')
        assert "seed" not in answer.json()["html"].lower().replace("seed commitment", "")
        # another seat's concealed tiles: the state says how many, never which
        for v in answer.json()["seats"]:
            assert set(v) == {
                "seat",
                "wind",
                "name",
                "melds",
                "bonus",
                "discards",
                "concealed_count",
                "dead",
                "announced",
            }
        for e in answer.json()["events"]:
            if e["seat"] != state["seat"]:
                assert e["kind"] != "deal"
                if e["kind"] in ("draw", "loose"):
                    assert e["tiles"] == []
                assert e["kind"] != "pass"  # another seat's answer in a window never shows
        assert answer.json()["concealed"] == sorted(
            answer.json()["concealed"][:-1]
            if answer.json()["drawn"]
            else answer.json()["concealed"],
            key=lambda t: parse_tile(t),
        ) + ([answer.json()["drawn"]] if answer.json()["drawn"] else [])
        # the wall's order is nowhere: only its size
        assert "wall" not in answer.json() and answer.json()["live_left"] == game.wall.live_left
        checked += 1
        state = act(client, state, state["legal"][-1]).json()
    assert checked > 0
    assert state["seed"] == str(table.setup.seed)  # revealed at the end
    assert len(state["result"]["hands"]) == 4


def test_the_page_of_a_hand_that_is_over(client: TestClient) -> None:
    """The page at the end: the result, the settlement from the player's side, the
    seed and the log's link (the table's template, shared with the online tables)."""
    state = play_out(client, new_game(client))
    page = client.get(f"/play/{state['game']}", headers={"accept": "text/html"})
    assert page.status_code == 200
    assert f'href="/play/{state["game"]}/log/1"' in page.text and state["seed"] in page.text
    assert "--ruleset" not in page.text  # the shipped rule set: replay needs no file
    for payment in state["result"]["settlement"]["payments"]:  # the player is seat 0
        if payment["payer"] == 0:
            assert f"You pay {state['names'][payment['payee']]} {payment['amount']}" in page.text
        if payment["payee"] == 0:
            assert f"{state['names'][payment['payer']]} pays you {payment['amount']}" in page.text
    assert "you pays" not in page.text and "you goes" not in page.text


def test_the_log_downloads_and_verifies(client: TestClient, tmp_path: Path) -> None:
    state = play_out(client, new_game(client))
    assert client.get(f"/play/{state['game']}/log/2").status_code == 404
    response = client.get(f"/play/{state['game']}/log/1")
    assert response.status_code == 200
    assert re.fullmatch(
        r'attachment; filename="play-[0-9a-f]{12}-hand01\.jsonl"',
        response.headers["content-disposition"],
    )
    verified = gamelog.verify_hand_log(gamelog.parse_hand_log(response.content))
    assert verified.over and str(verified.seed) == state["seed"]
    path = tmp_path / "hand.jsonl"
    path.write_bytes(response.content)
    cli = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "replay", "--verify", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.startswith("OK: ")


def test_a_whole_match_of_two_hands_and_its_end(client: TestClient) -> None:
    state = play_out(client, new_game(client, hands=2))
    early = client.post(f"/api/play/{state['game']}/next", json={"hand": 1})
    assert early.status_code == 409
    state = client.post(f"/api/play/{state['game']}/next", json={"hand": 0}).json()
    assert state["hand"] == 1
    state = play_out(client, state)
    assert state["match"]["finished"] and state["match"]["hands_played"] == 2
    assert sum(state["match"]["balances"]) == 0
    done = client.post(f"/api/play/{state['game']}/next", json={"hand": 1})
    assert done.status_code == 409 and "no more hands" in error_of(done)


def test_new_game_requests_are_checked(client: TestClient) -> None:
    for body, word in [
        ({"ruleset": "/etc/passwd"}, "ruleset"),
        ({"ruleset": "nts-2016", "hands": MAX_HANDS + 1}, "hands"),
        ({"ruleset": "nts-2016", "hands": 0}, "hands"),
        ({"ruleset": "nts-2016", "seed": 1}, "seed"),
        # the bots are the page's own; a request never names one, least of all a module
        ({"ruleset": "nts-2016", "bots": "mahjong_nts.bots.base:RandomBot"}, "bots"),
        ({"ruleset": "nts-2016", "bot": "mahjong_nts.bots.base:RandomBot"}, "bot"),
    ]:
        response = client.post("/api/play", json=body)
        assert response.status_code == 422, body
        assert word in error_of(response)


def test_the_pages_work_without_javascript(client: TestClient) -> None:
    form = client.get("/play")
    assert form.status_code == 200 and 'name="ruleset"' in form.text
    bad = client.post("/play", data={"ruleset": "nts-2016", "hands": "lots"})
    assert bad.status_code == 422 and "hands" in bad.text
    started = client.post(
        "/play", data={"ruleset": "nts-2016", "hands": "1"}, follow_redirects=False
    )
    assert started.status_code == 303
    page = started.headers["location"]
    html = client.get(page).text
    seq = re.search(r'name="seq" value="(\d+)"', html)
    tile = re.search(r'name="action" value="(discard [^"]+)"', html)
    assert seq and tile
    moved = client.post(
        page,
        data={"hand": "0", "seq": seq.group(1), "action": tile.group(1)},
        follow_redirects=False,
    )
    assert moved.status_code == 303
    twice = client.post(page, data={"hand": "0", "seq": seq.group(1), "action": tile.group(1)})
    assert twice.status_code == 409 and "sent twice" in twice.text
    hint = client.get(page + "?hint=1").text
    assert (
        "from ready" in hint
        or "ready (one tile short)" in hint
        or "complete" in hint
        or ('name="next"' in hint)
    )


def test_the_registry_is_bounded_and_forgets_idle_games() -> None:
    now = [0.0]
    reg = Registry(max_games=2, idle=60, clock=lambda: now[0])
    rules = load_ruleset("nts-2016")
    a = reg.create(rules, "nts-2016", 1)
    reg.create(rules, "nts-2016", 1)
    with pytest.raises(PlayError) as full:
        reg.create(rules, "nts-2016", 1)
    assert full.value.status == 503
    now[0] = 30.0
    assert reg.get(a.id) is a  # used: its idle time starts again
    now[0] = 61.0
    reg.create(rules, "nts-2016", 1)  # the other one expired
    assert len(reg) == 2
    now[0] = 200.0
    with pytest.raises(PlayError) as gone:
        reg.get(a.id)
    assert gone.value.status == 404


def test_replay_steps_through_a_verified_log(client: TestClient) -> None:
    state = play_out(client, new_game(client))
    log = client.get(f"/play/{state['game']}/log/1").content
    up = client.post("/replay", files={"log": ("h.jsonl", log)}, follow_redirects=False)
    assert up.status_code == 303
    view = up.headers["location"]
    start = client.get(view)
    assert start.status_code == 200 and "Move 0 of" in start.text
    steps = int(re.search(r"Move 0 of (\d+)", start.text).group(1))  # type: ignore[union-attr]
    assert steps == sum(1 for line in log.splitlines() if b'"decided": true' in line)
    one = client.get(view + "?step=1")
    assert 'rel="prev"' in one.text and 'rel="next"' in one.text
    end = client.get(view + f"?step={steps}")
    assert "Settlement" in end.text and state["seed"] in end.text
    assert client.get(view + f"?step={steps + 1}").status_code == 422


def test_replay_refuses_a_bad_log_with_its_reason(client: TestClient) -> None:
    state = play_out(client, new_game(client))
    log = client.get(f"/play/{state['game']}/log/1").content
    lines = log.splitlines(keepends=True)
    edited = lines[5].replace(b'"seat": 0', b'"seat": 1')
    changed = b"".join([*lines[:5], edited, *lines[6:]])
    cases = [
        (log[:-40], "not a readable hand log"),
        (changed if edited != lines[5] else log.replace(b'"E"', b'"S"', 1), "does not verify"),
        (b"", "empty"),
        (b"\xff\xfe", "not a readable hand log"),
    ]
    for data, words in cases:
        response = client.post("/replay", files={"log": ("h.jsonl", data)})
        assert response.status_code == 422, words
        assert words in response.text
    big = client.post("/replay", files={"log": ("h.jsonl", b"x" * (1024 * 1024 + 20_000))})
    assert big.status_code == 413
    assert (
        client.post("/replay", content=b"{}", headers={"content-type": "text/plain"}).status_code
        == 415
    )
