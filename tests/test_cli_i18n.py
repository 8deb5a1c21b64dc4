"""The terminal speaks the language chosen once per run: ``--lang``, else
``MAHJONG_NTS_LANG``, else a Dutch locale, else English (issue 9)."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

import mahjong_nts
from cli_helpers import invoke_main
from mahjong_nts.cli.i18n import LangProblem, choose, current, set_language
from mahjong_nts.cli.play import QUIT, Choice, parse_choice
from mahjong_nts.core.actions import parse_action
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.logkeys import load_key
from mahjong_nts.i18n import translator
from server_helpers import serve_env

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


# --------------------------------------------------------------------------- every command
#
# Under --lang nl no text of the CLI's own is left in English: no piece of an English
# source text of src/mahjong_nts/cli (one the Dutch catalogue says differently) shows,
# nor any of click's own English words; the Dutch ones do.  Without --lang the same runs
# stay English: no piece of a Dutch translation shows.  (Texts that come from the rules
# core or the formats, such as a score item's detail or a remise's reason, are not the
# CLI's and are not looked for.)

CLI_SOURCES = Path(mahjong_nts.__file__).resolve().parent / "cli"

CLICK_ENGLISH = (
    "Usage:",
    "Options:",
    "Arguments:",
    "Commands:",
    "[OPTIONS]",
    "COMMAND [ARGS]",
    "Show this message and exit",
    "[default:",
    "[required]",
    "<str>",
    "<int>",
    "<path>",
    "Error:",
    "Try '",
    "No such",
    "no such",
    "Missing",
    "missing",
    "Invalid value",
    "invalid value",
    "unexpected extra",
    "requires an argument",
    "does not take a value",
    "Input should be",
    " see mahjong-nts",
)
"""click's (and pydantic's) English words in help and usage errors."""


def _pieces(text: str) -> list[str]:
    """The fixed pieces of a text between its placeholders that are long enough to
    name it (two words or more, ten characters or more)."""
    out = []
    for piece in re.split(r"\{[^{}]*\}", text):
        piece = " ".join(piece.split())
        if " " in piece and len(piece) >= 10:
            out.append(piece)
    return out


@functools.cache
def cli_texts() -> tuple[tuple[str, str], ...]:
    """Every text of src/mahjong_nts/cli that the Dutch catalogue says differently, as
    (English, Dutch); each plural form on its own."""
    nl = translator("nl")
    pairs: list[tuple[str, str]] = []
    found = extract_from_dir(str(CLI_SOURCES), method_map=[("**.py", "python")])
    for _file, _line, message, _comments, context in found:
        if isinstance(message, tuple):
            singular, plural = message[0], message[1]
            pairs.append((singular, nl.ngettext(singular, plural, 1)))
            pairs.append((plural, nl.ngettext(singular, plural, 2)))
        elif context:
            pairs.append((message, nl.pgettext(context, message)))
        else:
            pairs.append((message, nl.gettext(message)))
    return tuple((en, dutch) for en, dutch in pairs if en != dutch)


def flat(text: str) -> str:
    """``text`` with every run of white space one space (rich wraps long lines)."""
    return " ".join(text.split())


def assert_dutch(text: str, *dutch: str) -> None:
    """No English text of the CLI (nor click's) in ``text``; each of ``dutch`` in it."""
    shown = flat(text)
    english = {p for en, _nl in cli_texts() for p in _pieces(en)} - {
        p for _en, nl in cli_texts() for p in _pieces(nl)
    }
    left = sorted(p for p in english if p in shown)
    left += [w for w in CLICK_ENGLISH if w in shown]
    assert left == [], (left, text[:3000])
    for words in dutch:
        assert flat(words) in shown, (words, text[:3000])


def assert_english(text: str, *english: str) -> None:
    """No Dutch text of the CLI in ``text``; each of ``english`` in it."""
    shown = flat(text)
    dutch = {p for _en, nl in cli_texts() for p in _pieces(nl)} - {
        p for en, _nl in cli_texts() for p in _pieces(en)
    }
    left = sorted(p for p in dutch if p in shown)
    assert left == [], (left, text[:3000])
    for words in english:
        assert flat(words) in shown, (words, text[:3000])


def test_the_check_finds_english() -> None:
    """The checks above can fail: an English prompt in a Dutch text, a Dutch one in an
    English text, click's own word."""
    with pytest.raises(AssertionError):
        assert_dutch("Druk op Enter. Press Enter for the next hand (q quits)")
    with pytest.raises(AssertionError):
        assert_dutch("Gebruik: mahjong-nts play [OPTIONS]")
    with pytest.raises(AssertionError):
        assert_english("OK: 3 events; Druk op Enter voor het volgende spel (q stopt)")
    assert len(cli_texts()) > 150


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


HELP_OF = [
    [],
    ["score"],
    ["settle"],
    ["rules"],
    ["rules", "list"],
    ["rules", "show"],
    ["rules", "diff"],
    ["replay"],
    ["play"],
    ["simulate"],
    ["keygen"],
    ["serve"],
]


@pytest.mark.parametrize("command", HELP_OF, ids=lambda c: " ".join(c) or "top")
def test_help_of_every_command_in_dutch(command: list[str]) -> None:
    result = invoke_main(["--lang", "nl", *command, "--help"])
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith(" ".join(["Gebruik: mahjong-nts", *command, "[OPTIES]"]))
    assert_dutch(result.stdout, "Opties:", "Toon deze hulp en stop.")
    english = invoke_main([*command, "--help"])
    assert english.stdout.startswith(" ".join(["Usage: mahjong-nts", *command, "[OPTIONS]"]))
    assert_english(english.stdout, "Options:", "Show this message and exit.")


@pytest.mark.parametrize(
    ("command", "dutch", "english"),
    [
        (["play"], "Speel in de terminal tegen bots: jij en drie bots", "you and three bots"),
        (["play"], "'q' stopt (het spelverslag wordt bewaard)", "'q' quits (the log is saved)"),
        (["replay"], "mahjong-nts replay [OPTIES] {bestand}", "replay [OPTIONS] {file}"),
        (["replay"], "bestand <pad> Een spelverslag (.jsonl)", "file <path> A hand log"),
        (["keygen"], "keygen [OPTIES] {privé} [publiek]", "keygen [OPTIONS] {private} [public]"),
        (["simulate"], "-j, --jobs <getal> Processen", "-j, --jobs <int> Processes"),
        (["serve"], "Start de webapp: de rekenhulp", "Start the web app: the calculator"),
        (["serve"], "[standaard: 8000; 0<=x<=65535]", "[default: 8000; 0<=x<=65535]"),
        (["settle"], "--hand <tekst>...", "--hand <list[str]>"),
        (["rules", "show"], "rules show [OPTIES] {naam}", "rules show [OPTIONS] {name}"),
        ([], "[OPTIES] OPDRACHT [ARGUMENTEN]...", "[OPTIONS] COMMAND [ARGS]..."),
    ],
)
def test_help_words(command: list[str], dutch: str, english: str) -> None:
    assert flat(dutch) in flat(invoke_main(["--lang", "nl", *command, "--help"]).stdout)
    assert flat(english) in flat(invoke_main([*command, "--help"]).stdout)


def test_no_arguments_show_the_help_in_dutch() -> None:
    result = invoke_main(["rules", "--lang", "nl"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Gebruik: mahjong-nts rules [OPTIES] OPDRACHT [ARGUMENTEN]...")
    assert_dutch(result.stderr, "Opdrachten:")


@pytest.mark.parametrize(
    ("args", "dutch", "english"),
    [
        (
            ["bogus"],
            "onbekende opdracht 'bogus' (zie mahjong-nts --help)",
            "no such command 'bogus' (see mahjong-nts --help)",
        ),
        (
            ["score", "--seat"],
            "optie '--seat' vraagt een waarde (zie mahjong-nts score --help)",
            "option '--seat' requires an argument (see mahjong-nts score --help)",
        ),
        (
            ["settle", "--scores", "1,2,3,4", "--bogus"],
            "onbekende optie '--bogus' (zie mahjong-nts settle --help)",
            "no such option '--bogus' (see mahjong-nts settle --help)",
        ),
        (
            ["rules", "show"],
            "argument 'naam' ontbreekt (zie mahjong-nts rules show --help)",
            "missing argument 'name' (see mahjong-nts rules show --help)",
        ),
        (
            ["rules", "diff", "nts-2016"],
            "argument 'b' ontbreekt (zie mahjong-nts rules diff --help)",
            "missing argument 'b' (see mahjong-nts rules diff --help)",
        ),
        (
            ["replay", "a.jsonl", "b"],
            "te veel argumenten (b) (zie mahjong-nts replay --help)",
            "got unexpected extra argument(s) (b) (see mahjong-nts replay --help)",
        ),
        (
            ["play", "--match=yes"],
            "bij optie '--match' hoort geen waarde (zie mahjong-nts play --help)",
            "option '--match' does not take a value (see mahjong-nts play --help)",
        ),
        (
            ["play", "--seed", "abc"],
            "ongeldige waarde voor '--seed': 'abc' is geen geheel getal "
            "(zie mahjong-nts play --help)",
            "invalid value for '--seed': 'abc' is not a whole number (see mahjong-nts play --help)",
        ),
        (
            ["simulate", "--jobs", "x"],
            "ongeldige waarde voor '--jobs' / '-j': 'x' is geen geheel getal "
            "(zie mahjong-nts simulate --help)",
            "invalid value for '--jobs' / '-j': 'x' is not a whole number "
            "(see mahjong-nts simulate --help)",
        ),
        (
            ["simulate", "--seed", "9" * 5000],
            "ongeldige waarde voor '--seed': het getal heeft te veel cijfers "
            "(zie mahjong-nts simulate --help)",
            "invalid value for '--seed': the number has too many digits "
            "(see mahjong-nts simulate --help)",
        ),
        (
            ["keygen"],
            "argument 'privé' ontbreekt (zie mahjong-nts keygen --help)",
            "missing argument 'private' (see mahjong-nts keygen --help)",
        ),
        (
            ["serve", "--port", "99999"],
            "ongeldige waarde voor '--port': mag hoogstens 65535 zijn, niet 99999 "
            "(zie mahjong-nts serve --help)",
            "invalid value for '--port': must be at most 65535, not 99999 "
            "(see mahjong-nts serve --help)",
        ),
        (
            ["serve", "--port", "-1"],
            "ongeldige waarde voor '--port': moet minstens 0 zijn, niet -1 "
            "(zie mahjong-nts serve --help)",
            "invalid value for '--port': must be at least 0, not -1 (see mahjong-nts serve --help)",
        ),
    ],
)
def test_usage_errors_of_every_command(args: list[str], dutch: str, english: str) -> None:
    """click's usage errors, said again from their fields: exit code 2, one line."""
    result = invoke_main(["--lang", "nl", *args])
    assert (result.exit_code, result.stdout, result.exception) == (2, "", None)
    assert result.stderr == f"error: {dutch}\n"
    assert_dutch(result.stderr)
    result = invoke_main(args)
    assert (result.exit_code, result.stdout, result.exception) == (2, "", None)
    assert result.stderr == f"error: {english}\n"


@pytest.mark.parametrize(
    ("args", "dutch"),
    [
        (["play", "--hands", "0"], "--hands moet minstens 1 zijn, niet 0"),
        (["play", "--hands", "2", "--match"], "geef --hands N of --match, niet allebei"),
        (
            ["play", "--bots", "nobody"],
            "--bots: onbekende bot 'nobody': kies uit easy, heuristic, normal, random, strong",
        ),
        (
            ["play", "--bots", "random,random"],
            "--bots: geef één botnaam of 3 (één per andere speler), niet 2",
        ),
        (
            ["play", "--ruleset", "nts-2016+three-players", "--seat", "N"],
            "--seat: een tafel van 3 spelers heeft geen N",
        ),
        (["simulate", "--hands", "1000001"], "--hands mag hoogstens 1000000 zijn, niet 1000001"),
        (
            ["simulate", "--hands", "5", "--matches", "2"],
            "geef --hands N of --matches N, niet allebei",
        ),
        (
            ["simulate", "--bots", "random,random,random"],
            "--bots: nts-2016 speelt met 4 plaatsen per spel: geef 4 bots, niet 3",
        ),
        (["simulate", "--bots", "random,,random,random"], "--bots: een lege botnaam"),
        (
            ["simulate", "--sign", "k.pem"],
            "--sign ondertekent de spelverslagen: geef ook --log MAP",
        ),
        (["replay", "x.jsonl", "--key", "k.pem"], "--key en --ruleset horen bij --verify"),
        (["replay", "/no/such/log.jsonl"], "/no/such/log.jsonl: bestand of map bestaat niet"),
        (["keygen", "a.pem"], "geef twee bestanden, PRIVÉ en PUBLIEK (of --hmac en één bestand)"),
        (
            ["keygen", "--hmac", "a", "b"],
            "--hmac maakt één gedeelde sleutel: geef één bestand, geen twee",
        ),
    ],
)
def test_command_errors_in_dutch(args: list[str], dutch: str) -> None:
    result = invoke_main(["--lang", "nl", *args])
    assert result.exit_code == 2 and result.exception is None
    assert result.stderr.startswith(f"error: {dutch}"), result.stderr
    assert_dutch(result.stderr)


def test_an_os_error_keeps_the_systems_english_words() -> None:
    result = invoke_main(["replay", "/no/such/log.jsonl"])
    assert result.stderr == "error: /no/such/log.jsonl: No such file or directory\n"


@pytest.mark.parametrize(
    ("args", "dutch", "english"),
    [
        (
            ["score", "b123 b456 k789 EEE k5 +k5"],
            ["Totaal punten", "Verdubbelingen"],
            ["Total points", "Doublings"],
        ),
        (
            ["settle", "--scores", "128,272,0,40", "--winner", "1", "--discarder", "2",
             "--ruleset", "nmb-2009"],
            ["Betalingen:", "0 Oost betaalt 1 Zuid"],
            ["Payments:", "0 East pays 1 South"],
        ),
        (["rules", "list"], ["nts-2016 (standaard)"], ["nts-2016 (default)"]),
        (
            ["simulate", "--hands", "12", "--seed", "1", "--bots",
             "heuristic,random,heuristic,random"],
            [
                "12 spellen van nts-2016 (4 plaatsen), seed 1, bots heuristic, random, "
                "heuristic, random; betrouwbaarheidsintervallen van 95%.",
                "Per deelnemer (de plaatsen wisselen elk spel)",
                "Gem. saldo per spel [95%-BI]",
                "(gepaarde verschillen per spel, normale benadering)",
                "stenen van de muur per spel",
                "12 spellen in",
                "1 proces)",
            ],
            ["12 hands of nts-2016 (4 seats), seed 1", "Per entry (seats rotate every hand)",
             "1 job)"],
        ),
        (
            ["simulate", "--matches", "1", "--seed", "5", "-r", "nts-2016+three-players",
             "--bots", "heuristic,random,random"],
            ["1 partij (12 spellen) van nts-2016+three-players (3 plaatsen)",
             "Hele partijen: saldi en verschillen per partij",
             "Gem. saldo per partij [95%-BI]"],
            ["1 match (12 hands) of nts-2016+three-players (3 seats)",
             "Mean balance a match [95% CI]"],
        ),
    ],
    ids=["score", "settle", "rules", "simulate", "simulate-matches"],
)  # fmt: skip
def test_a_run_of_every_command(args: list[str], dutch: list[str], english: list[str]) -> None:
    result = invoke_main(["--lang", "nl", *args])
    assert result.exit_code == 0, result.output
    assert_dutch(result.stdout, *dutch)
    result = invoke_main(args)
    assert result.exit_code == 0, result.output
    assert_english(result.stdout, *english)


def test_keygen_in_dutch(tmp_path: Path) -> None:
    private, public = tmp_path / "k.pem", tmp_path / "k.pub"
    result = invoke_main(["--lang", "nl", "keygen", str(private), str(public)])
    assert result.exit_code == 0, result.output
    key = load_key(private)
    assert_dutch(
        result.stdout,
        f"{private} (privé; houd hem geheim) en {public} (publiek; geef hem gerust weg) "
        f"geschreven: ed25519-sleutel {key.key_id}.",
    )
    again = invoke_main(["--lang", "nl", "keygen", str(private), str(tmp_path / "other")])
    assert again.exit_code == 2
    assert again.stderr == (
        f"error: {private}: het bestand bestaat al; keygen overschrijft nooit een sleutel\n"
    )
    secret = tmp_path / "hmac.key"
    result = invoke_main(["--lang", "nl", "keygen", "--hmac", str(secret)])
    assert_dutch(result.stdout, f"{secret} geschreven (hmac-sha256-sleutel")
    english = invoke_main(["keygen", "--hmac", str(tmp_path / "h2.key")])
    assert_english(english.stdout, "Wrote", "hmac-sha256 key", "keep it secret.")


PLAY_TYPED = "?\nzz\n999\npung\n" + "1\n" * 600
"""Help, a word that is no move, a number past the list, a claim that is no choice, then
the first choice every time (seed 1, heuristic bots: West wins the hand on South's k5)."""


def test_play_in_dutch(tmp_path: Path) -> None:
    args = ["play", "--seed", "1", "--bots", "heuristic", "--log", str(tmp_path)]
    result = invoke_main(["--lang", "nl", *args], input=PLAY_TYPED)
    assert result.exit_code == 0, result.output[-3000:]
    out = result.stdout
    assert_dutch(
        out,
        "mahjong-nts play: spelregels nts-2016, vastlegging van de seed van de partij",
        "Typ het nummer van een zet, of de zet zelf",
        "Spel 1 · rondewind Oost · jij bent Oost",
        "Plaatsen: O jij, Z heuristic-1, W heuristic-2, N heuristic-3",
        "Vastlegging van de seed: ",
        "Plaats",
        "Combinaties en bloemen",
        "Weggegooid",
        "In hand",
        "Oostronde · stenen over: muur",
        "Jouw hand (O): ",
        "1) weggooien ",
        "O jij gooit ",
        "Z heuristic-1 pakt een steen",
        "'zz' is geen zet of steen (? voor hulp)",
        "er is geen zet 999: kies 1 tot en met",
        "pung kan nu niet",
        "W heuristic-2 wint met",
        "Spel afgelopen",
        "Betalingen:",
        "Spelverslag bewaard: ",
        "Seed van het spel: ",
        "Seed van de partij: 1 (--seed 1 deelt dezelfde spellen opnieuw)",
    )
    (log,) = tmp_path.iterdir()
    assert gamelog.read_hand_log(log).header.players[0] == "you"  # the log stays English
    english = invoke_main(args, input=PLAY_TYPED)
    assert_english(
        english.stdout,
        "Hand 1 · round wind East · you are East",
        "Seats: E you, S heuristic-1, W heuristic-2, N heuristic-3",
        "1) discard ",
        "you cannot pung now",
        "W heuristic-2 wins with",
        "Hand over",
    )


def test_play_stopped_and_two_hands_in_dutch(tmp_path: Path) -> None:
    args = ["--lang", "nl", "play", "--seed", "8", "--bots", "random", "--log", str(tmp_path)]
    stopped = invoke_main(args, input="1\nq\n")
    assert stopped.exit_code == 0, stopped.output[-3000:]
    assert_dutch(
        stopped.stdout,
        "Gestopt (op verzoek van de speler). Verslag van het onafgemaakte spel: ",
    )
    (log,) = tmp_path.iterdir()
    result = gamelog.read_hand_log(log).result
    assert result is not None and result.reason == "quit by the player"  # as logged
    shown = invoke_main(["--lang", "nl", "replay", str(log)])
    assert_dutch(shown.stdout, "Gestopt voor het einde: op verzoek van de speler")
    checked = invoke_main(["--lang", "nl", "replay", "--verify", str(log)])
    assert_dutch(checked.stdout, "gebeurtenissen, de uitslag klopt (een spel dat voor het einde")
    two = invoke_main(
        ["--lang", "nl", "play", "--seed", "2", "--bots", "random", "--hands", "2",
         "--log", str(tmp_path / "two")],
        input="1\n" * 1000,
    )  # fmt: skip
    assert two.exit_code == 0, two.output[-3000:]
    assert_dutch(two.stdout, "Druk op Enter voor het volgende spel (q stopt)", "Spel 2 · ", "Stand")


def test_replay_in_dutch(tmp_path: Path) -> None:
    invoke_main(["play", "--seed", "1", "--bots", "heuristic", "--log", str(tmp_path)],
                input="1\n" * 600)  # fmt: skip
    (log,) = tmp_path.iterdir()
    shown = invoke_main(["--lang", "nl", "replay", str(log)])
    assert shown.exit_code == 0, shown.output
    assert_dutch(
        shown.stdout,
        "Spelverslag: spelregels nts-2016, rondewind Oost",
        "Spel 1 van een partij, ronde 1",
        "Plaatsen: O jij, Z heuristic-1, W heuristic-2, N heuristic-3",
        "Seed (onthuld): ",
        "Mahjong: W heuristic-2 wint met k5, op de afgooi van Z heuristic-1",
        "Verdubbelingen",
        "Saldo",
        "Z heuristic-1 betaalt W heuristic-2 80",
        "Niet ondertekend.",
    )
    checked = invoke_main(["--lang", "nl", "replay", "--verify", str(log)])
    assert checked.exit_code == 0
    assert checked.stdout.startswith("OK: ")
    assert_dutch(
        checked.stdout,
        "gebeurtenissen, de uitslag klopt; hashketen intact, de seed past bij zijn vastlegging",
        "handtekening: geen (het verslag is niet ondertekend",
    )
    english = invoke_main(["replay", str(log)])
    assert_english(english.stdout, "Mahjong: W heuristic-2 wins k5 on the discard of S heuristic-1")


def test_the_action_names_of_the_dutch_menu_are_understood() -> None:
    legal = tuple(parse_action(t) for t in ("discard b3", "announce b3", "pass"))
    assert parse_choice("weggooien b3", legal) == parse_action("discard b3")
    assert parse_choice("gooi b3", legal) == parse_action("discard b3")
    assert parse_choice("aankondigen b3", legal) == parse_action("announce b3")
    assert parse_choice("Passen", legal) == parse_action("pass")
    assert parse_choice("stop", legal) == QUIT


def test_hints_follow_the_language() -> None:
    legal = tuple(parse_action(t) for t in ("discard b3", "discard k5"))
    before = current()
    try:
        set_language("nl")
        with pytest.raises(Choice, match="pung kan nu niet"):
            parse_choice("p", legal)
        with pytest.raises(Choice, match=r"welke steen\? bijv\. 'discard b3'"):
            parse_choice("weggooien", legal)
        with pytest.raises(Choice) as err:
            parse_choice("hulp", legal)
        assert str(err.value).startswith("Typ het nummer van een zet")
        set_language("en")
        with pytest.raises(Choice, match="you cannot pung now"):
            parse_choice("p", legal)
    finally:
        set_language(before)


@pytest.mark.server
def test_serve_speaks_dutch(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "mahjong_nts.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=serve_env(tmp_path, MAHJONG_NTS_LANG="nl"),
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert re.fullmatch(
        r"Open http://127\.0\.0\.1:\d+/ in een browser\. Ctrl\+C stopt de server\.\n", line
    ), line
