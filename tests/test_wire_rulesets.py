"""The ``ruleset`` of a JSON request: a shipped name with overlays, or house rules inline;
never a file (network input never names a file).  File paths stay with the local
``--ruleset`` flag."""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_nts.cli import app
from wire_helpers import WINNER, error, score, settle

runner = CliRunner()


def answer_within(seconds: float, request: dict[str, Any]) -> dict[str, Any]:
    """Answer in a thread, so a loader that blocks fails the test instead of hanging it."""
    out: list[dict[str, Any]] = []
    worker = threading.Thread(target=lambda: out.append(score(request)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "the request blocked"
    return out[0]


# --------------------------------------------------------------------------- no files


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_is_refused_without_reading_it() -> None:
    msg = error(answer_within(5, {**WINNER, "ruleset": "/dev/zero"}))
    assert msg.startswith("ruleset: ") and "never name a file" in msg


def test_a_fifo_is_refused_without_opening_it(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    msg = error(answer_within(5, {**WINNER, "ruleset": str(fifo)}))
    assert "never name a file" in msg


def test_a_readable_file_is_neither_read_nor_echoed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "s3cr3t-password-line"
    (tmp_path / "club.toml").write_text(
        f'base = "nts-2016"\nname = "{secret}"\n[scoring]\nlimit = 500\n', encoding="utf-8"
    )
    (tmp_path / "passwd").write_text(f"root:{secret}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for spec in (str(tmp_path / "club.toml"), "club.toml", "passwd", "./passwd"):
        msg = error(score({**WINNER, "ruleset": spec}))
        assert msg.startswith("ruleset: ") and secret not in msg, msg


@pytest.mark.parametrize(
    "spec", ["club.toml", "../rules/club.toml", "C:\\rules\\club", "nts-2016/../x"]
)
def test_path_looking_names_say_why(spec: str) -> None:
    msg = error(score({**WINNER, "ruleset": spec}))
    assert "looks like a file" in msg and "inline as an object" in msg


def test_unknown_name_suggests_without_offering_files() -> None:
    msg = error(score({**WINNER, "ruleset": "nts2016"}))
    assert "did you mean 'nts-2016'" in msg and ".toml" not in msg


# --------------------------------------------------------------------------- inline


def test_inline_house_rules_score() -> None:
    # the same hand with a cap of 500: 576 is capped to 500
    resp = score({**WINNER, "ruleset": {"base": "nts-2016", "scoring": {"limit": 500}}})
    assert resp["score"] == 500 and resp["base"] == 576 and resp["ruleset"] == "house-rules"
    named = score({**WINNER, "ruleset": {"base": "nts-2016", "name": "club"}})
    assert named["score"] == 576 and named["ruleset"] == "club"


def test_inline_base_may_not_be_a_file(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('base = "nts-2016"\n', encoding="utf-8")
    msg = error(score({**WINNER, "ruleset": {"base": str(path)}}))
    assert msg.startswith("ruleset: inline rules: base = ") and "never name a file" in msg


def test_inline_errors_name_the_key() -> None:
    msg = error(
        score({**WINNER, "ruleset": {"base": "nts-2016", "doublings": {"four_kongs": 10**8}}})
    )
    assert msg == (
        "ruleset: inline rules (base nts-2016) [doublings].four_kongs: "
        "must be from 0 to 8, got 100000000"
    )


def test_inline_deep_or_large_objects_are_refused() -> None:
    deep: Any = "x"
    for _ in range(12):
        deep = [deep]
    msg = error(score({**WINNER, "ruleset": {"base": "nts-2016", "notes": deep}}))
    assert "nested more than 8" in msg
    many = {"base": "nts-2016", "notes": ["n"] * 2500}
    assert "more than 2000 values" in error(score({**WINNER, "ruleset": many}))


def test_settle_with_inline_rules_and_hand_rulesets() -> None:
    # nmb-2009 worked example (NMB 2009, 'Voorbeeld punten berekening'): scores 128, 272,
    # 0, 40, South won on West's discard: -56, +1088, -712, -320.  Inline with round_to 10
    # as a club paying in chips would: 128 -> 130, 272 -> 270, 40 -> 40, then
    # South receives 270 from East and North and 540 from West: +1080;
    # East: -270 + 130 (from West) + 130 - 40 (North) = -50; West: -540 - 130 - 40 = -710;
    # North: -270 + 40 + 40 - 130 = -320.
    request = {
        "ruleset": {"base": "nmb-2009", "settlement": {"round_to": 10}},
        "winner": 1,
        "discarder": 2,
        "scores": [128, 272, 0, 40],
    }
    resp = settle(request)
    assert resp["balances"] == [-50, 1080, -710, -320]
    assert sum(resp["balances"]) == 0


def test_settle_hand_ruleset_must_match() -> None:
    hands = [
        {"concealed": "b1 b2 b3 k4 k5 k6 t7 t8 t9 E E E C C", "winning_tile": "C", "win": {}},
        {"concealed": "b1 b1 b1 k5 k5 t2 t3 S S N N W W"},
        {"concealed": "k1 k1 k1 k2 k3 t5 t6 t7 b8 b8 b9 b9 W"},
        {"concealed": "t1 t2 t3 t4 t5 t6 b4 b5 b6 k7 k7 k8 k9"},
    ]
    base = {"winner": 0, "hands": hands}
    ok = settle(
        {**base, "ruleset": "nts-2016", "hands": [{**hands[0], "ruleset": "nts-2016"}, *hands[1:]]}
    )
    assert "balances" in ok, ok
    msg = error(
        settle(
            {
                **base,
                "ruleset": "nts-2016",
                "hands": [{**hands[0], "ruleset": "nmb-2009"}, *hands[1:]],
            }
        )
    )
    assert msg.startswith("hands[0].ruleset: differs from the settle request's rule set (nts-2016)")


# --------------------------------------------------------------------------- command line


def test_cli_json_lines_take_inline_rules_and_refuse_paths(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('base = "nts-2016"\n', encoding="utf-8")
    lines = [
        json.dumps({**WINNER, "ruleset": {"base": "nts-2016", "scoring": {"limit": 500}}}),
        json.dumps({**WINNER, "ruleset": str(path)}),
    ]
    result = runner.invoke(app, ["score", "--json"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out[0]["score"] == 500
    assert "never name a file" in out[1]["error"]


def test_cli_flag_still_reads_a_house_file_and_sees_edits(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    hand = "b123 k456 t789 EEE C +C"
    path.write_text('base = "nts-2016"\n[scoring]\nlimit = 500\n', encoding="utf-8")
    first = runner.invoke(app, ["score", hand, "--ruleset", str(path)])
    assert first.exit_code == 0, first.output
    assert re.search(r"Score\s+500\b", first.stdout), first.stdout
    path.write_text('base = "nts-2016"\n[scoring]\nlimit = 400\n', encoding="utf-8")
    again = runner.invoke(app, ["score", hand, "--ruleset", str(path)])
    assert again.exit_code == 0 and re.search(r"Score\s+400\b", again.stdout)


@pytest.mark.parametrize("value", [7, None, True, ["nts-2016"], 1.5])
def test_a_ruleset_of_another_type_is_one_clear_error(value: object) -> None:
    msg = error(score({**WINNER, "ruleset": value}))
    assert msg.startswith("ruleset: expected a shipped rule set name") and "object" in msg
    assert "dict[" not in msg and msg.count("ruleset") == 1
