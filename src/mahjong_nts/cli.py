"""The ``mahjong-nts`` command: score a hand, settle a hand, show rule sets.

Every bad input ends with one line ``error: ...`` on stderr and exit code 2,
never a traceback.  ``--json`` switches ``score`` and ``settle`` to the JSON
lines contract of :mod:`mahjong_nts.wire` (see ``docs/json.md``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from typing import Annotated, Any, NoReturn

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mahjong_nts import cli_play, cli_replay, cli_rules, cli_simulate, wire
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import WINDS, Tile, tile_name

__all__ = ["app", "main"]

app = typer.Typer(
    name="mahjong-nts",
    help="Dutch tournament Mahjong (NTS rules): score hands, settle payments, show rule sets.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


app.add_typer(cli_rules.app, name="rules")
app.command("replay")(cli_replay.replay_cmd)
app.command("play")(cli_play.play_cmd)
app.command("simulate")(cli_simulate.simulate_cmd)


class UsageProblem(ValueError):
    """A bad combination of command-line options."""


_stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str) -> NoReturn:
    _stderr.print(f"error: {message}", markup=False)
    raise typer.Exit(2)


@contextlib.contextmanager
def _guard() -> Iterator[None]:
    """Turn every bad-input error into ``error: ...`` on stderr and exit code 2."""
    try:
        yield
    except (MahjongError, ValidationError, UsageProblem) as exc:
        _fail(wire.error_message(exc).replace("dead=true", "--dead"))
    except OSError as exc:
        _fail(f"{exc.filename or 'input'}: {exc.strerror or exc}")


# --------------------------------------------------------------------------- options

_SOURCES = {
    "wall": WinSource.WALL,
    "discard": WinSource.DISCARD,
    "loose-tile": WinSource.LOOSE_TILE,
    "robbed-kong": WinSource.ROBBED_KONG,
    # Dutch
    "muur": WinSource.WALL,
    "tafel": WinSource.DISCARD,
    "losse-steen": WinSource.LOOSE_TILE,
    "kongroof": WinSource.ROBBED_KONG,
}


def _source(text: str) -> WinSource:
    key = text.strip().lower().replace("_", "-")
    if key not in _SOURCES:
        raise UsageProblem(f"--from: {text!r} is not one of wall, discard, loose-tile, robbed-kong")
    return _SOURCES[key]


def _wind(text: str, option: str, *, allow_green: bool = False) -> Tile:
    try:
        return wire.parse_wind(text, option, allow_green=allow_green)
    except wire.FieldError as exc:
        raise UsageProblem(str(exc)) from exc


def _parse_hand(text: str, where: str) -> Hand:
    from mahjong_nts.core.notation import parse_hand

    try:
        return parse_hand(text)
    except MahjongError as exc:
        raise wire.FieldError(where, str(exc)) from exc


def _rules(spec: str) -> RuleSet:
    try:
        return wire.load_rules(spec)
    except MahjongError as exc:
        raise wire.FieldError("--ruleset", str(exc)) from exc


_FLAG_WORDS = re.compile(
    r"\b(last_tile|last_discard|kong_on_kong|first_discard|heaven|lucky_thirteen)\b"
)


def _as_options(message: str) -> str:
    """Say a core message about win flags in command-line terms."""
    message = _FLAG_WORDS.sub(lambda m: "--" + m.group(1).replace("_", "-"), message)
    message = message.replace("from=", "--from ")
    return message.replace("loose_tile", "loose-tile").replace("robbed_kong", "robbed-kong")


class _WinFlags:
    def __init__(
        self,
        source: str | None,
        last_tile: bool,
        last_discard: bool,
        kong_on_kong: bool,
        first_discard: bool,
        heaven: bool,
        lucky_thirteen: bool,
    ) -> None:
        self.source = source
        self.flags = {
            "last_tile": last_tile,
            "last_discard": last_discard,
            "kong_on_kong": kong_on_kong,
            "first_discard": first_discard,
            "heaven": heaven,
            "lucky_thirteen": lucky_thirteen,
        }

    @property
    def given(self) -> list[str]:
        names = [f"--{k.replace('_', '-')}" for k, v in self.flags.items() if v]
        return (["--from"] if self.source is not None else []) + names

    def win(self, default: WinSource = WinSource.WALL) -> Win:
        source = _source(self.source) if self.source is not None else default
        try:
            return Win(source, **self.flags)
        except MahjongError as exc:
            raise UsageProblem(_as_options(str(exc))) from exc


FromOpt = Annotated[
    str | None,
    typer.Option(
        "--from",
        help="Where the winning tile came from: wall, discard, loose-tile, robbed-kong "
        "(default: wall; for settle: discard when --discarder is given).",
        show_default=False,
    ),
]
LastTileOpt = Annotated[
    bool, typer.Option("--last-tile", help="Won with the last tile of the wall (self-drawn).")
]
LastDiscardOpt = Annotated[
    bool, typer.Option("--last-discard", help="Won on the last discard before a remise.")
]
KongOnKongOpt = Annotated[
    bool,
    typer.Option("--kong-on-kong", help="Won on the loose tile after a second kong in one turn."),
]
FirstDiscardOpt = Annotated[
    bool, typer.Option("--first-discard", help="Won on East's very first discard (earth).")
]
HeavenOpt = Annotated[
    bool, typer.Option("--heaven", help="East won on the 14 dealt tiles (heaven).")
]
LuckyOpt = Annotated[
    bool, typer.Option("--lucky-thirteen", help="Announced waiting after the deal (rode-draak).")
]
RulesetOpt = Annotated[
    str,
    typer.Option(
        "--ruleset",
        "-r",
        help="A shipped rule set (see 'mahjong-nts rules list') or the path of "
        "a house-rule TOML file.",
    ),
]
LangOpt = Annotated[str, typer.Option("--lang", help="Language of the labels: nl or en.")]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Read JSON requests from stdin, one per line; write one JSON response "
        "per line (see docs/json.md).",
    ),
]


# --------------------------------------------------------------------------- output

_LABELS = {
    "en": {
        "item": "Item",
        "other": "Dutch",
        "points": "Points",
        "doublings": "Doublings",
        "count": "Count",
        "detail": "Detail",
        "total_points": "Total points",
        "limit_hand": "Limit hand",
        "base": "Base",
        "cap": "Limit",
        "score": "Score",
        "mahjong": "Mahjong",
        "allowed": "allowed",
        "refused": "refused",
        "dead": "Dead hand",
        "arrangement": "Arrangement",
        "hand": "Hand",
        "ruleset": "Rule set",
        "seat": "Seat",
        "wind": "Wind",
        "balance": "Balance",
        "pays": "pays",
        "payments": "Payments",
        "none": "none",
        "no_items": "(nothing scores)",
        "remise": "Remise: nothing is paid.",
    },
    "nl": {
        "item": "Onderdeel",
        "other": "Engels",
        "points": "Punten",
        "doublings": "Verdubbelingen",
        "count": "Aantal",
        "detail": "Toelichting",
        "total_points": "Totaal punten",
        "limit_hand": "Limietspel",
        "base": "Basis",
        "cap": "Limiet",
        "score": "Score",
        "mahjong": "Mahjong",
        "allowed": "toegestaan",
        "refused": "geweigerd",
        "dead": "Dood spel",
        "arrangement": "Indeling",
        "hand": "Hand",
        "ruleset": "Spelregels",
        "seat": "Plaats",
        "wind": "Wind",
        "balance": "Saldo",
        "pays": "betaalt",
        "payments": "Betalingen",
        "none": "geen",
        "no_items": "(niets telt)",
        "remise": "Remise: er wordt niets betaald.",
    },
}


def _labels(lang: str) -> dict[str, str]:
    if lang not in _LABELS:
        raise UsageProblem(f"--lang: {lang!r} is not nl or en")
    return _LABELS[lang]


def _glyphs(text: str) -> str:
    """Unicode glyphs for a notation group such as ``[b123]`` or ``(CCCC)``."""
    from mahjong_nts.core.notation import parse_tiles

    try:
        tiles = parse_tiles(re.sub(r"[\[\]()+*]", " ", text))
    except (MahjongError, ValueError):
        return ""
    return "".join(t.glyph for t in tiles)


def _hand_text(hand: Hand) -> str:
    from mahjong_nts.core.notation import format_hand, glyphs

    return f"{format_hand(hand)}   {glyphs(hand)}"


def _print_score(console: Console, resp: dict[str, Any], hand: Hand, lang: str) -> None:
    lab = _labels(lang)
    other = "en" if lang == "nl" else "nl"
    # Text, not markup: "[k777]" in a hand is a meld, not a style tag
    table = Table(title=Text(f"{lab['hand']}: {_hand_text(hand)}"), title_justify="left")
    table.add_column(lab["item"])
    table.add_column(lab["other"], style="dim")
    show_count = any(it["count"] != 1 for it in resp["items"])
    if show_count:
        table.add_column(lab["count"], justify="right")
    table.add_column(lab["points"], justify="right")
    table.add_column(lab["doublings"], justify="right")
    table.add_column(lab["detail"])
    for it in resp["items"]:
        row = [it[lang], it[other]]
        if show_count:
            row.append(str(it["count"]))
        row += [str(it["points"] or ""), str(it["doublings"] or ""), it["detail"]]
        table.add_row(*row)
    if not resp["items"]:
        table.add_row(lab["no_items"], "", *([""] * (4 if show_count else 3)))
    console.print(table)
    rows: list[tuple[str, str]] = [(lab["ruleset"], resp["ruleset"])]
    if resp["dead"]:
        rows.append((lab["dead"], "yes" if lang == "en" else "ja"))
    rows.append((lab["total_points"], str(resp["points"])))
    rows.append((lab["doublings"], str(resp["doublings"])))
    limit = resp["limit_hand_name"]
    rows.append((lab["limit_hand"], limit[lang] if limit else lab["none"]))
    rows.append((lab["base"], str(resp["base"])))
    if resp["cap"] is not None:
        rows.append((lab["cap"], str(resp["cap"])))
    rows.append((lab["score"], str(resp["score"])))
    if resp["mahjong_allowed"] is not None:
        verdict = lab["allowed"] if resp["mahjong_allowed"] else lab["refused"]
        if not resp["mahjong_allowed"] and resp["refusal"]:
            verdict += f": {resp['refusal']}"
        rows.append((lab["mahjong"], verdict))
    if resp["arrangement"]:
        groups = " ".join(resp["arrangement"])
        glyphs = " ".join(g for g in (_glyphs(a) for a in resp["arrangement"]) if g)
        rows.append((lab["arrangement"], f"{groups}   {glyphs}".rstrip()))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        style = "bold" if key == lab["score"] else ""
        console.print(f"{key:<{width}}  {value}", style=style, markup=False, highlight=False)


def _seat_label(i: int, east: int, lang: str) -> str:
    return f"{i} {tile_name(WINDS[(i - east) % 4], lang)}"


def _print_settlement(
    console: Console, resp: dict[str, Any], east: int, winner: int | None, lang: str
) -> None:
    lab = _labels(lang)
    table = Table(title=f"{lab['ruleset']}: {resp['ruleset']}", title_justify="left")
    table.add_column(lab["seat"])
    table.add_column(lab["score"], justify="right")
    table.add_column(lab["balance"], justify="right")
    for i in range(len(resp["scores"])):
        seat = _seat_label(i, east, lang) + (" *" if i == winner else "")
        table.add_row(seat, str(resp["scores"][i]), f"{resp['balances'][i]:+d}")
    console.print(table)
    if winner is None:
        console.print(lab["remise"], markup=False)
        return
    console.print(f"{lab['payments']}:", markup=False)
    for payer, payee, amount in resp["payments"]:
        console.print(
            f"  {_seat_label(payer, east, lang)} {lab['pays']} "
            f"{_seat_label(payee, east, lang)} {amount}",
            markup=False,
        )


# --------------------------------------------------------------------------- json lines


def _json_lines(handler: Callable[[bytes], dict[str, Any]]) -> None:
    stream = getattr(sys.stdin, "buffer", None)
    try:
        if stream is not None:
            lines: Iterator[bytes] = iter(stream)
        else:
            lines = (line.encode("utf-8", "surrogateescape") for line in sys.stdin)
        for raw in lines:
            if not raw.strip():
                continue
            typer.echo(json.dumps(handler(raw.rstrip(b"\r\n"))))
    except BrokenPipeError:
        # the reader went away (``| head -1``): stop quietly, like rich does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise typer.Exit(1) from None
    except OSError as exc:
        _fail(f"cannot read stdin: {exc.strerror or exc}")


# --------------------------------------------------------------------------- commands


@app.command("score")
def score_cmd(
    notation: Annotated[
        str | None,
        typer.Argument(
            help="The hand in notation, e.g. 'b123 k55 EEE [b789] (CCCC) f1 +k5': [..] an open "
            "meld, (..) a concealed kong, +tile the winning tile (part of the hand). "
            "See docs/notation.md.",
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        str,
        typer.Option("--seat", "-s", help="Seat wind: E S W N (Dutch O Z, or oost, zuid, ...)."),
    ] = "E",
    round_: Annotated[
        str, typer.Option("--round", help="Round wind: E S W N, or F for the green-dragon hand.")
    ] = "E",
    source: FromOpt = None,
    last_tile: LastTileOpt = False,
    last_discard: LastDiscardOpt = False,
    kong_on_kong: KongOnKongOpt = False,
    first_discard: FirstDiscardOpt = False,
    heaven: HeavenOpt = False,
    lucky_thirteen: LuckyOpt = False,
    dead: Annotated[
        bool,
        typer.Option("--dead", help="A dead hand (false mahjong claim or wrong number of tiles)."),
    ] = False,
    ruleset: RulesetOpt = wire.DEFAULT_RULESET_NAME,
    lang: LangOpt = "en",
    as_json: JsonOpt = False,
) -> None:
    """Score one hand and explain the score.  A hand with a +winning tile is a winner."""
    with _guard():
        if as_json:
            if notation is not None:
                raise UsageProblem("--json reads the hands from stdin: give no NOTATION")
            _json_lines(wire.handle_score_line)
            return
        if notation is None:
            raise UsageProblem(
                "give the hand in notation, e.g. "
                "mahjong-nts score 'b123 b456 k789 EEE +k55' "
                "(or use --json)"
            )
        _labels(lang)
        flags = _WinFlags(
            source, last_tile, last_discard, kong_on_kong, first_discard, heaven, lucky_thirteen
        )
        rules = _rules(ruleset)
        seat_wind = _wind(seat, "--seat")
        round_wind = _wind(round_, "--round", allow_green=True)
        hand = _parse_hand(notation, "notation")
        win: Win | None = None
        if hand.winning_tile is not None:
            win = flags.win()
        elif flags.given:
            raise UsageProblem(
                f"{', '.join(flags.given)}: only for a winning hand; mark its "
                "winning tile with + in the notation, e.g. +k5"
            )
        job = wire.ScoreJob(hand, seat_wind, round_wind, win, dead, rules)
        resp = wire.score_response(wire.run_score(job), rules)
        _print_score(Console(highlight=False), resp, hand, lang)


def _index(text: str | None, option: str, *, allow_none: bool = False) -> int | None:
    if text is None:
        return None
    value = text.strip().lower()
    if allow_none and value in ("none", "null", "remise", "-"):
        return None
    if value in ("0", "1", "2", "3"):
        return int(value)
    want = "a seat index 0-3" + (" or none" if allow_none else "")
    raise UsageProblem(f"{option}: expected {want}, got {text!r}")


def _scores(text: str) -> list[int]:
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    if len(parts) != 4:
        raise UsageProblem(f"--scores: expected four scores like 128,272,0,40, got {text!r}")
    out = []
    for i, p in enumerate(parts):
        if not p.isdigit():
            raise UsageProblem(f"--scores: score {i} is not a whole number >= 0: {p!r}")
        out.append(int(p))
    return out


@app.command("settle")
def settle_cmd(
    scores: Annotated[
        str | None,
        typer.Option(
            "--scores",
            help="The four hand scores by seat index, e.g. 128,272,0,40.",
            show_default=False,
        ),
    ] = None,
    hands: Annotated[
        list[str] | None,
        typer.Option(
            "--hand",
            help="A hand in notation, given four times in seat-index order; the seats "
            "follow from --east. The winner's hand marks its winning tile with +.",
            show_default=False,
        ),
    ] = None,
    east: Annotated[
        int, typer.Option("--east", help="Seat index (0-3) of East.", min=0, max=3)
    ] = 0,
    winner: Annotated[
        str | None,
        typer.Option(
            "--winner",
            help="Seat index (0-3) of the winner, or 'none' for a remise. With "
            "--hand, the hand with a +winning tile.",
            show_default=False,
        ),
    ] = None,
    discarder: Annotated[
        str | None,
        typer.Option(
            "--discarder",
            help="Seat index (0-3) of the player who gave the winning tile; "
            "leave out for a self-drawn win.",
            show_default=False,
        ),
    ] = None,
    dominant: Annotated[
        str | None,
        typer.Option(
            "--dominant",
            help="Seat index of the dominant player (green-dragon hand).",
            show_default=False,
        ),
    ] = None,
    round_: Annotated[
        str,
        typer.Option("--round", help="Round wind for --hand: E S W N, or F (green-dragon hand)."),
    ] = "E",
    source: FromOpt = None,
    last_tile: LastTileOpt = False,
    last_discard: LastDiscardOpt = False,
    kong_on_kong: KongOnKongOpt = False,
    first_discard: FirstDiscardOpt = False,
    heaven: HeavenOpt = False,
    lucky_thirteen: LuckyOpt = False,
    dead: Annotated[
        list[int] | None,
        typer.Option("--dead", help="Seat index of a dead hand (repeatable).", show_default=False),
    ] = None,
    ruleset: RulesetOpt = wire.DEFAULT_RULESET_NAME,
    round_to: Annotated[
        int | None,
        typer.Option(
            "--round-to",
            help="Round each score to a multiple of this before settling "
            "(default: the rule set's).",
            min=0,
            show_default=False,
        ),
    ] = None,
    lang: LangOpt = "en",
    as_json: JsonOpt = False,
) -> None:
    """Settle one hand: who pays whom, from the four scores or the four hands."""
    with _guard():
        if as_json:
            if scores is not None or hands:
                raise UsageProblem(
                    "--json reads the requests from stdin: give no --scores or --hand"
                )
            _json_lines(wire.handle_settle_line)
            return
        _labels(lang)
        parsed: list[Hand] = []
        if (scores is None) == (not hands):
            raise UsageProblem("give either --scores 128,272,0,40 or four --hand NOTATION")
        rules = _rules(ruleset)
        win_index = _index(winner, "--winner", allow_none=True)
        discard_index = _index(discarder, "--discarder")
        dominant_index = _index(dominant, "--dominant")
        flags = _WinFlags(
            source, last_tile, last_discard, kong_on_kong, first_discard, heaven, lucky_thirteen
        )
        for d in dead or []:
            if not 0 <= d <= 3:
                raise UsageProblem(f"--dead: expected a seat index 0-3, got {d}")
        if scores is not None:
            values = _scores(scores)
            if winner is None:
                raise UsageProblem(
                    "--winner: give the winner's seat index 0-3 (or 'none' for a remise)"
                )
            if flags.given or dead:
                extra = flags.given + (["--dead"] if dead else [])
                raise UsageProblem(
                    f"{', '.join(extra)}: only with --hand (the scores are already final)"
                )
            if win_index is None and discard_index is not None:
                raise UsageProblem("--discarder: a remise has no discarder")
            if win_index is not None and discard_index == win_index:
                raise UsageProblem("--discarder: the winner cannot be the discarder")
            job = wire.SettleJob(
                tuple(values), win_index, discard_index, east, dominant_index, rules, None
            )
        else:
            assert hands is not None
            if len(hands) != 4:
                raise UsageProblem(f"--hand: give four hands (one per seat), got {len(hands)}")
            parsed = [_parse_hand(text, f"--hand {i}") for i, text in enumerate(hands)]
            if winner is None:
                marked = [i for i, h in enumerate(parsed) if h.winning_tile is not None]
                if len(marked) > 1:
                    raise UsageProblem(
                        f"--hand: only the winner marks a winning tile with +, "
                        f"hands {', '.join(map(str, marked))} do"
                    )
                win_index = marked[0] if marked else None
            round_wind = _wind(round_, "--round", allow_green=True)
            default = WinSource.DISCARD if discard_index is not None else WinSource.WALL
            if win_index is None and flags.given:
                raise UsageProblem(f"{', '.join(flags.given)}: only when someone won")
            jobs = []
            for i, hand in enumerate(parsed):
                win = None
                if hand.winning_tile is not None:
                    win = flags.win(default) if i == win_index else Win()
                jobs.append(
                    wire.ScoreJob(
                        hand, wire.seat_wind(i, east), round_wind, win, i in (dead or []), rules
                    )
                )
            job = wire.settle_jobs(
                jobs,
                winner=win_index,
                discarder=discard_index,
                east=east,
                dominant=dominant_index,
                rules=rules,
                label=lambda i: f"--hand {i}",
            )
        resp = wire.settle_response(job, wire.run_settle(job, round_to))
        console = Console(highlight=False)
        if job.hands is not None:
            for i, (hand, hresp) in enumerate(zip(parsed, job.hands, strict=True)):
                console.rule(_seat_label(i, east, lang), style="dim")
                _print_score(console, hresp, hand, lang)
            console.print()
        _print_settlement(console, resp, east, win_index, lang)


# --------------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> int:
    """The console script: run the app; bad input exits 2 with one ``error:`` line.

    Usage errors are reported by typer itself (exit code 2); the commands turn
    rules errors into ``error: ...`` lines; this is the last safety net."""
    try:
        app(args=argv, prog_name="mahjong-nts")
    except SystemExit as exc:
        code = exc.code
        if code is None or isinstance(code, int):
            return code or 0
        _stderr.print(str(code), markup=False)
        return 1
    except (MahjongError, ValidationError, UsageProblem) as exc:
        _stderr.print(f"error: {wire.error_message(exc)}", markup=False)
        return 2
    except OSError as exc:
        _stderr.print(f"error: {exc.filename or 'input'}: {exc.strerror or exc}", markup=False)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def run() -> None:
    """``python -m mahjong_nts.cli``."""
    sys.exit(main())


if __name__ == "__main__":
    run()
