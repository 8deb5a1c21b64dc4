"""The rules core's texts in the terminal (issue 9): under ``--lang nl`` the score's
details, the reasons an item did not count, why mahjong is refused and every error of
the core and the formats are Dutch; ``score --json`` and ``settle --json`` stay English
(a machine contract); without ``--lang`` nothing changes."""

from __future__ import annotations

import json

import pytest

from cli_helpers import invoke_main

BRIEF = ["b123 WWW CCC b23 b55 +b4", "--seat", "S", "--from", "discard"]
"""b123 b234 WWW CCC b55, b4 claimed by South (nts-2016): 36 points, 2 doublings, 144;
b1 would also have completed the hand, W is neither South nor East."""


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MAHJONG_NTS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _flat(text: str) -> str:
    """The output without the table's line breaks and box drawing (rich wraps cells)."""
    return " ".join(text.replace("│", " ").split())


def test_score_in_dutch() -> None:
    result = invoke_main(["--lang", "nl", "score", *BRIEF])
    assert result.exit_code == 0, result.output
    out = _flat(result.stdout)
    assert "Score 144" in out
    for dutch in (
        "b4 was niet de enige steen die de hand afmaakte: b1 ook",
        "Verborgen schat: b4 was van de tafel geclaimd:",
        "Enig mogelijke steen:",
    ):
        assert dutch in out
    for english in (
        "claimed from a discard",
        "was not the only tile",
        "concealed",
        "Only possible tile",
        "Concealed pung of terminals/honours",
        "(Enig mogelijke steen)",
    ):
        assert english not in out
    # a detail wraps in its cell: each set's words stay together
    assert "pung van W (dicht)," in out and "pung van C (dicht)" in out


def test_score_in_english_is_unchanged() -> None:
    result = invoke_main(["score", *BRIEF])
    assert result.exit_code == 0, result.output
    out = _flat(result.stdout)
    assert (
        "Only possible tile (Enig mogelijke steen): b4 was not the only tile that completed "
        "the hand: b1 also did"
    ) in out
    assert "Item (Dutch)" in out


def test_a_refusal_in_dutch() -> None:
    result = invoke_main(
        ["--lang", "nl", "score", "b123 b456 k789 t111 t5 +t5", "--seat", "W", "--from", "discard"]
    )
    assert result.exit_code == 0, result.output
    assert "geweigerd: 0 verdubbelingen: voor mahjong zijn er minstens 2 nodig" in _flat(
        result.stdout
    )


@pytest.mark.parametrize(
    ("args", "dutch", "english"),
    [
        (
            ["score", "b123 WWW X"],
            "error: notation: onbekende steen 'X' in kolom 10 van 'b123 WWW X'",
            "unknown tile",
        ),
        (
            ["score", "b123 WWW CCC b23 b55 b4"],
            "een hand zonder mahjong heeft 13 stenen",
            "a non-winning hand",
        ),
        (
            ["score", "b123 b456 b789 k234 k5 +k5", "--ruleset", "nts-2017"],
            "error: --ruleset: onbekende spelregels 'nts-2017' (bedoel je 'nts-2016'?)",
            "unknown rule set",
        ),
        (
            ["score", "b123 b456 b789 k234 k5 +k5", "--heaven", "--seat", "S"],
            "alleen Oost kan het spel van de hemel maken (heaven)",
            "only East",
        ),
        (
            ["rules", "show", "flowers"],
            "'flowers' is een aanvulling, geen volledige spelregels",
            "is an overlay",
        ),
        (
            [
                "settle",
                "--hand", "b123 b456 b789 EEE k1",
                "--hand", "b123 b456 b789 k234 +k11",
                "--hand", "t11",
                "--hand", "t22",
                "--winner", "1",
            ],
            "de winnende steen is één steen, 'k11' is er 2",
            "the winning tile is one tile",
        ),
    ],
)  # fmt: skip
def test_errors_in_dutch(args: list[str], dutch: str, english: str) -> None:
    result = invoke_main(["--lang", "nl", *args])
    assert result.exit_code == 2, result.output
    assert dutch in result.stderr
    assert english not in result.stderr
    assert result.stderr.count("\n") == 1  # one line, as every error
    plain = invoke_main(args)
    assert english in plain.stderr


def test_json_stays_english() -> None:
    line = json.dumps(
        {
            "seat_wind": "S",
            "round_wind": "E",
            "concealed": "b123 WWW CCC b234 b55",
            "winning_tile": "b4",
            "win": {"from": "discard"},
        }
    )
    result = invoke_main(["--lang", "nl", "score", "--json"], input=line + "\n")
    answer = json.loads(result.stdout)
    assert answer["items"][0]["detail"].endswith("(concealed)")
    bad = invoke_main(["--lang", "nl", "score", "--json"], input='{"concealed": "X"}\n')
    assert "required field is missing" in json.loads(bad.stdout)["error"]
