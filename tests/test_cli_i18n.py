"""The terminal speaks the language chosen once per run: ``--lang``, else
``MAHJONG_NTS_LANG``, else a Dutch locale, else English (issue 9)."""

from __future__ import annotations

import pytest

from cli_helpers import invoke_main
from mahjong_nts.cli.i18n import LangProblem, choose

NO_ENV: dict[str, str] = {}


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sets the language it means; the machine's locale plays no part."""
    for name in ("MAHJONG_NTS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (["score", "x"], NO_ENV, "en"),
        (["--lang", "nl", "score", "x"], NO_ENV, "nl"),
        (["score", "x", "--lang", "nl"], NO_ENV, "nl"),
        (["score", "--lang=nl", "x"], NO_ENV, "nl"),
        (["--lang", "nl", "score", "--lang", "en"], NO_ENV, "en"),  # the last one counts
        (["score"], {"MAHJONG_NTS_LANG": "nl"}, "nl"),
        (["score", "--lang", "en"], {"MAHJONG_NTS_LANG": "nl"}, "en"),
        (["score"], {"LANG": "nl_NL.UTF-8"}, "nl"),
        (["score"], {"LANG": "nl_BE"}, "nl"),
        (["score"], {"LANG": "de_DE.UTF-8"}, "en"),
        (["score"], {"LC_ALL": "en_GB.UTF-8", "LANG": "nl_NL.UTF-8"}, "en"),  # LC_ALL first
        (["score"], {"LC_MESSAGES": "nl_NL", "LANG": "C"}, "nl"),
        (["score"], {"MAHJONG_NTS_LANG": "en", "LANG": "nl_NL"}, "en"),
    ],
)
def test_choose(args: list[str], env: dict[str, str], expected: str) -> None:
    lang, rest, given = choose(args, env)
    assert lang == expected
    assert given == any(a.startswith("--lang") for a in args)
    assert "--lang" not in " ".join(rest)
    assert rest == [a for a in args if a not in ("--lang", "nl", "en", "--lang=nl")]


def test_choose_stops_at_double_dash() -> None:
    args = ["score", "--", "--lang", "nl"]
    assert choose(args, NO_ENV) == ("en", args, False)


@pytest.mark.parametrize("args", [["--lang"], ["--lang", "de"], ["--lang=NL_x"], ["--lang="]])
def test_choose_rejects(args: list[str]) -> None:
    with pytest.raises(LangProblem, match="--lang"):
        choose(args, NO_ENV)


def test_score_help_in_dutch() -> None:
    result = invoke_main(["--lang", "nl", "score", "--help"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Gebruik: mahjong-nts score" in out
    assert "Opties:" in out
    assert "Rondewind" in out
    assert "Toon deze hulp en stop." in out
    assert "[standaard: E]" in out
    assert "Round wind" not in out


def test_score_help_from_a_dutch_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    out = invoke_main(["score", "--help"]).stdout
    assert "Rondewind" in out
    assert "Eigen wind" in out


def test_lang_en_wins_over_a_dutch_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    out = invoke_main(["--lang", "en", "score", "--help"]).stdout
    assert "Usage: mahjong-nts score" in out
    assert "Round wind: E S W N" in out
    assert "Rondewind" not in out


def test_english_and_dutch_help_in_one_process() -> None:
    """Help is translated when the app is built, not when the module is imported."""
    assert "Rondewind" in invoke_main(["--lang", "nl", "score", "--help"]).stdout
    assert "Round wind" in invoke_main(["score", "--help"]).stdout
    assert "Rondewind" in invoke_main(["score", "--help", "--lang", "nl"]).stdout


def test_top_level_help_in_dutch() -> None:
    out = invoke_main(["--lang", "nl", "--help"]).stdout
    assert "Nederlands toernooi-mahjong" in out
    assert "Opdrachten:" in out
    assert "Hand berekenen en elk onderdeel uitleggen." in out
    assert "--lang" in out


def test_score_error_in_dutch() -> None:
    result = invoke_main(["--lang", "nl", "score", "b123 b456 k789 EEE k55", "--last-tile"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --last-tile: alleen voor een mahjonghand; geef de winnende steen aan "
        "met + in de notatie, bijv. +k5\n"
    )


def test_usage_error_in_dutch() -> None:
    result = invoke_main(["score", "--bogus", "--lang", "nl"])
    assert result.exit_code == 2
    assert result.stderr == "error: onbekende optie '--bogus' (zie mahjong-nts score --help)\n"


def test_bad_lang_is_one_line() -> None:
    result = invoke_main(["--lang", "de", "score", "x"])
    assert result.exit_code == 2
    assert result.stderr == "error: --lang: 'de' is not en or nl\n"
    assert result.exception is None


def test_lang_before_the_command_gives_dutch_labels() -> None:
    """``--lang`` before ``score`` is the same option as after it: the labels follow it."""
    hand = "b123 b456 k789 EEE k5 +k5"
    before = invoke_main(["--lang", "nl", "score", hand])
    after = invoke_main(["score", hand, "--lang", "nl"])
    assert before.exit_code == after.exit_code == 0
    assert before.stdout == after.stdout
    assert before.stdout != invoke_main(["score", hand]).stdout


def test_settle_takes_lang_too() -> None:
    result = invoke_main(
        ["settle", "--scores", "10,20,30,40", "--east", "0", "--winner", "none", "--lang", "nl"]
    )
    assert result.exception is None
    assert "no such option" not in result.stderr


def test_settle_help_in_dutch() -> None:
    out = invoke_main(["settle", "--help", "--lang", "nl"]).stdout
    assert "Een hand afrekenen: wie betaalt wie" in out
    assert "Plaats van Oost" in out
    assert "Seat index" not in out


def test_settle_error_in_dutch() -> None:
    result = invoke_main(["--lang", "nl", "settle", "--scores", "10,0,0,0", "--winner", "x"])
    assert result.exit_code == 2
    assert result.stderr == "error: --winner: verwacht een plaats 0-3 of none, gekregen: 'x'\n"
    english = invoke_main(["settle", "--scores", "10,0,0,0", "--winner", "x"])
    assert english.stderr == "error: --winner: expected a seat index 0-3 or none, got 'x'\n"


def test_rules_in_dutch() -> None:
    out = invoke_main(["rules", "--help", "--lang", "nl"]).stdout
    assert "Spelregels: de meegeleverde opsommen" in out
    assert "Toon de waarden waarin twee stellen spelregels verschillen." in out
    listed = invoke_main(["--lang", "nl", "rules", "list"]).stdout
    assert "Spelregels" in listed and "nts-2016 (standaard)" in listed
    assert "nts-2016 (default)" in invoke_main(["rules", "list"]).stdout
    same = invoke_main(["--lang", "nl", "rules", "diff", "nts-2016", "nts-2016"]).stdout
    assert same.strip() == "nts-2016 en nts-2016 hebben dezelfde regelwaarden."
