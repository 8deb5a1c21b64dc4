"""An online table played with house rules given inline (the JSON API's object, or TOML
text on the new-table form): refused with a message that says what and where when they
cannot be played, kept over a restart, and the table's hand logs verify with the real
``mahjong-nts replay --verify --ruleset FILE``, FILE being the rule set the table offers
for download (a log never makes replay read a file it names)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mahjong_nts.formats.gamelog import rules_digest
from mahjong_nts.formats.rulefiles import load_ruleset, load_untrusted
from mahjong_nts.web import Settings, create_app
from mahjong_nts.web.online_pages import MAX_HOUSE_RULES_CHARS

# docs/house-rules.md, "House rules in a JSON request": the club's limit of 1000, in chips
GROENE_DRAAK = {
    "base": "nts-2016+flowers",
    "name": "groene-draak",
    "scoring": {"limit": 1000, "limit_claimed": 1000, "limit_non_winner": 1000},
    "settlement": {"round_to": 10},
}
HTML = {"accept": "text/html"}


def _app(data: Path) -> Any:
    return create_app(Settings(data_dir=data, window_seconds=0.0, bot_delay_seconds=0.0))


def _replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "replay", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_table_of_house_rules_logs_hands_that_verify_with_its_rules_file(
    tmp_path: Path,
) -> None:
    with TestClient(_app(tmp_path / "data"), raise_server_exceptions=True) as client:
        made = client.post(
            "/api/online/tables",
            json={"ruleset": GROENE_DRAAK, "seats": [{"kind": "bot"}] * 4, "hands": 1},
        )
        assert made.status_code == 201, made.text
        settings = made.json()["state"]["settings"]
        watch = made.json()["watch"]
        assert settings["ruleset"] == "groene-draak.toml"
        assert settings["ruleset_name"] == "groene-draak"
        assert settings["rules_file"] == f"/api/online/tables/{made.json()['table']}/rules.toml"
        for _ in range(600):
            state = client.get(f"/api/online/watch/{watch}").json()
            if state["status"] == "finished":
                break
            time.sleep(0.05)
        assert state["status"] == "finished"
        # a spectator's link to the rules is the watch link's
        assert state["settings"]["rules_file"] == f"/api/online/watch/{watch}/rules.toml"
        log = client.get(state["hand"]["log"]).text
        rules = client.get(state["settings"]["rules_file"])
    assert rules.status_code == 200
    assert rules.headers["content-disposition"] == 'attachment; filename="groene-draak.toml"'
    header = json.loads(log.split("\n", 1)[0])
    assert header["ruleset"] == "groene-draak.toml" and header["ruleset_name"] == "groene-draak"
    house = load_untrusted(GROENE_DRAAK)
    assert header["rules_digest"] == rules_digest(house)
    assert header["rules_digest"] != rules_digest(load_ruleset("nts-2016+flowers"))

    log_file, rules_file = tmp_path / "hand.jsonl", tmp_path / "groene-draak.toml"
    log_file.write_text(log, encoding="utf-8")
    rules_file.write_bytes(rules.content)
    # the file holds the club's values: its limit of 1000, its rounding to tens
    assert load_ruleset(str(rules_file)).scoring.limit == 1000
    assert load_ruleset(str(rules_file)).settlement.round_to == 10
    ok = _replay(str(log_file), "--verify", "--ruleset", str(rules_file))
    assert ok.returncode == 0 and ok.stdout.startswith("OK:"), ok.stdout + ok.stderr
    # without the file replay reads no file the log names; with the book's rules the
    # values do not match
    alone = _replay(str(log_file), "--verify")
    assert alone.returncode == 2 and "no shipped rule set" in alone.stderr, alone.stderr
    book = _replay(str(log_file), "--verify", "--ruleset", "nts-2016+flowers")
    assert book.returncode == 1, book.stdout + book.stderr


def test_house_rules_on_the_form_make_the_table_and_survive_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with TestClient(_app(data)) as client:
        made = client.post(
            "/online",
            data={
                "ruleset": "nmb-2009",
                "players": "3",
                "house": 'name = "de-kat"\n[scoring]\nlimit = 1000\n',
                "turn": "off",
                "claim": "off",
                "hands": "1",
            },
            headers=HTML,
            follow_redirects=False,
        )
        assert made.status_code == 303, made.text
        table = made.headers["location"].split("/")[2].split("?")[0]
        join = client.get(f"/online/{table}", headers=HTML)
        assert "de-kat.toml (house rules)" in join.text
        before = client.get(f"/api/online/tables/{table}").json()["settings"]
    # the form's rule set and players are the base: nmb-2009 for three
    assert before["players"] == 3 and before["ruleset"] == "de-kat.toml"
    with TestClient(_app(data)) as client:  # the server again, on the same database
        after = client.get(f"/api/online/tables/{table}")
        assert after.status_code == 200 and after.json()["settings"] == before
        rules = client.get(f"/api/online/tables/{table}/rules.toml")
    path = tmp_path / "de-kat.toml"
    path.write_bytes(rules.content)
    loaded = load_ruleset(str(path))
    assert loaded.name == "de-kat" and loaded.scoring.limit == 1000
    assert loaded.table.players == 3 and not loaded.table.flowers  # nmb-2009 for three


@pytest.mark.parametrize(
    ("house", "players", "says"),
    [
        ("[scoring]\nlimit = 0", "4", "house rules (base nts-2016) [scoring].limit: must be"),
        ("[scoring\nlimit = 1", "4", "house rules: TOML syntax error"),
        ("base = '/etc/passwd'", "4", "looks like a file"),
        ("base = 'club.toml'", "4", "looks like a file"),
        ("[points]\nwhatever = 2", "4", "whatever"),
        ("base = 'nts-2016+three-players'", "4", "played by 3 players: choose 3 players"),
        ("x = " + "[" * 20 + "]" * 20, "4", "nested more than 8 deep"),
        ("#" * (MAX_HOUSE_RULES_CHARS + 1), "4", f"at most {MAX_HOUSE_RULES_CHARS} characters"),
    ],
)
def test_house_rules_that_cannot_be_played_are_refused_beside_the_form(
    tmp_path: Path, house: str, players: str, says: str
) -> None:
    with TestClient(_app(tmp_path / "data")) as client:
        answer = client.post(
            "/online",
            data={"ruleset": "nts-2016", "players": players, "house": house},
            headers=HTML,
        )
        assert answer.status_code == 422
        error = re.search(r'id="new-error"[^>]*>([^<]*)<', answer.text)
        assert error is not None and says in error.group(1).replace("&#39;", "'"), answer.text
        assert '<details class="house-rules" open>' in answer.text  # shown again
        assert client.get("/api/online/lobby").json() == {"tables": []}


@pytest.mark.parametrize(
    ("ruleset", "says"),
    [
        ({"base": "nts-2016", "scoring": {"limit": "x"}}, "ruleset (base nts-2016) [scoring]"),
        ({"base": "../club.toml"}, "looks like a file"),
        ({"base": "nts-2016", "name": "NTS-2016", "scoring": {"limit": 999}}, "taken by a shipped"),
        ([1, 2], "ruleset"),
    ],
)
def test_inline_house_rules_that_cannot_be_played_are_422(
    tmp_path: Path, ruleset: Any, says: str
) -> None:
    with TestClient(_app(tmp_path / "data")) as client:
        answer = client.post("/api/online/tables", json={"ruleset": ruleset})
        assert answer.status_code == 422 and says in answer.json()["error"], answer.text
