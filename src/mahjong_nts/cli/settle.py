"""``mahjong-nts settle``: who pays whom, from the scores or the hands."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from mahjong_nts.cli.options import (
    FirstDiscardOpt,
    FromOpt,
    HeavenOpt,
    JsonOpt,
    KongOnKongOpt,
    LangOpt,
    LastDiscardOpt,
    LastTileOpt,
    LuckyOpt,
    RulesetOpt,
    UsageProblem,
    WinFlags,
    guard,
    json_lines,
    parse_hand_option,
    rules_option,
    wind_option,
)
from mahjong_nts.cli.render import labels, print_score, print_settlement, seat_index_label
from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.formats import wire

__all__ = ["settle_cmd"]


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
    with guard():
        if as_json:
            if scores is not None or hands:
                raise UsageProblem(
                    "--json reads the requests from stdin: give no --scores or --hand"
                )
            json_lines(wire.answer_settle_line)
            return
        labels(lang)
        parsed: list[Hand] = []
        if (scores is None) == (not hands):
            raise UsageProblem("give either --scores 128,272,0,40 or four --hand NOTATION")
        rules = rules_option(ruleset)
        win_index = _index(winner, "--winner", allow_none=True)
        discard_index = _index(discarder, "--discarder")
        dominant_index = _index(dominant, "--dominant")
        flags = WinFlags(
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
            parsed = [parse_hand_option(text, f"--hand {i}") for i, text in enumerate(hands)]
            if winner is None:
                marked = [i for i, h in enumerate(parsed) if h.winning_tile is not None]
                if len(marked) > 1:
                    raise UsageProblem(
                        f"--hand: only the winner marks a winning tile with +, "
                        f"hands {', '.join(map(str, marked))} do"
                    )
                win_index = marked[0] if marked else None
            round_wind = wind_option(round_, "--round", allow_green=True)
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
                console.rule(seat_index_label(i, east, lang), style="dim")
                print_score(console, hresp, hand, lang)
            console.print()
        print_settlement(console, resp, east, win_index, lang)
