"""Seat tokens and cookies (online/tokens.py) and a table's settings (online/settings.py)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from mahjong_nts.online.settings import SettingsError, check_settings
from mahjong_nts.online.tokens import (
    SECRET_FILE,
    client_key,
    load_secret,
    new_id,
    new_token,
    sign,
    token_hash,
    unsign,
)

SECRET = b"k" * 32


def test_a_cookie_holds_its_token_for_its_table_only() -> None:
    token = new_token()
    assert len(token) == 43 and len(new_id()) == 22 and new_token() != token
    value = sign(SECRET, "table-a", token)
    assert unsign(SECRET, "table-a", value) == token
    assert unsign(SECRET, "table-b", value) is None  # another table
    assert unsign(b"j" * 32, "table-a", value) is None  # another server
    head, mac = value.split(".")
    for bad in (None, "", value + "x", f"{head}.{mac[::-1]}", f"{new_token()}.{mac}", head):
        assert unsign(SECRET, "table-a", bad) is None
    assert token_hash(token) != token and len(token_hash(token)) == 64


def test_the_secret_is_made_once_and_kept(tmp_path: Path) -> None:
    first = load_secret(tmp_path)
    path = tmp_path / SECRET_FILE
    assert len(first) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_secret(tmp_path) == first  # a restart signs the same
    assert load_secret(tmp_path, "s" * 40) == b"s" * 40
    with pytest.raises(ValueError, match="32 characters"):
        load_secret(tmp_path, "short")


def test_client_keys_hide_the_address() -> None:
    a = client_key(SECRET, "192.0.2.1")
    assert a == client_key(SECRET, "192.0.2.1") and "192" not in a
    assert a != client_key(SECRET, "192.0.2.2") and a != client_key(b"x" * 32, "192.0.2.1")


def test_default_settings_seat_the_rule_sets_players() -> None:
    settings, rules = check_settings({})
    assert rules.name == "nts-2016" and settings.seats is not None
    assert [s.kind for s in settings.seats] == ["human"] * 4
    assert (settings.turn_seconds, settings.claim_seconds, settings.hands) == (30, 10, None)
    three, _ = check_settings(
        {"ruleset": "nmb-2009+three-players", "seats": [{"kind": "human"}] * 3}
    )
    assert len(three.seats or ()) == 3
    five, rules5 = check_settings(
        {"ruleset": "nmb-2009+five-players", "seats": [{"kind": "bot"}] * 5, "hands": 2}
    )
    assert [s.bot for s in five.seats or ()] == ["heuristic"] * 5 and rules5.table.dreamer
    off, _ = check_settings({"turn_seconds": None, "claim_seconds": None, "public": True})
    assert off.turn_seconds is None and off.public


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"ruleset": "/etc/passwd"}, "ruleset"),
        ({"ruleset": "club.toml"}, "ruleset"),
        ({"ruleset": {"base": "club.toml"}}, "ruleset: base = 'club.toml'"),
        ({"ruleset": {"base": "nts-2016", "scoring": {"limit": 0}}}, "ruleset (base nts-2016)"),
        (
            {"ruleset": {"base": "nts-2016+three-players"}, "seats": [{"kind": "human"}] * 4},
            "seats: house-rules is played by 3",
        ),
        ({"ruleset": ["nts-2016"]}, "ruleset"),
        ({"ruleset": "nts-2016+bogus"}, "ruleset"),
        ({"ruleset": "x" * 200}, "ruleset"),
        ({"seats": [{"kind": "human"}] * 3}, "seats"),
        ({"seats": [{"kind": "human", "bot": "random"}] * 4}, "seats[0].bot"),
        ({"seats": [{"kind": "alien"}] * 4}, "seats"),
        ({"bot": "grandmaster"}, "bot"),
        ({"turn_seconds": 4}, "turn_seconds"),
        ({"turn_seconds": 601}, "turn_seconds"),
        ({"claim_seconds": 1}, "claim_seconds"),
        ({"hands": 0}, "hands"),
        ({"hands": 17}, "hands"),
        ({"hands": "2"}, "hands"),
        ({"public": "yes"}, "public"),
        ({"owner": "me"}, "owner"),
    ],
)
def test_settings_that_cannot_be_played(data: dict[str, Any], where: str) -> None:
    with pytest.raises(SettingsError) as refused:
        check_settings(data)
    assert where in str(refused.value)
    assert len(str(refused.value)) <= 500
