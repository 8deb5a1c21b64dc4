"""``mahjong-nts score``: score one hand and explain the score."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from mahjong_nts.cli.i18n import N_, _, current
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
    check_lang,
    guard,
    json_lines,
    parse_hand_option,
    rules_option,
    said,
    wind_option,
)
from mahjong_nts.cli.render import print_score
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.hand import Hand, Win
from mahjong_nts.formats import wire

__all__ = ["HELP", "score_cmd"]

HELP = N_("Score one hand and explain the score.  A hand with a +winning tile is a winner.")


def score_cmd(
    notation: Annotated[
        str | None,
        typer.Argument(
            help=N_(
                "The hand in notation, e.g. 'b123 k55 EEE [b789] (CCCC) f1 +k5': [..] an open "
                "meld, (..) a concealed kong, +tile the winning tile (part of the hand). "
                "See docs/notation.md."
            ),
            metavar=N_("notation"),
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        str,
        typer.Option(
            "--seat", "-s", help=N_("Seat wind: E S W N (Dutch O Z, or oost, zuid, ...).")
        ),
    ] = "E",
    round_: Annotated[
        str,
        typer.Option("--round", help=N_("Round wind: E S W N, or F for the green-dragon hand.")),
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
        typer.Option(
            "--dead", help=N_("A dead hand (false mahjong claim or wrong number of tiles).")
        ),
    ] = False,
    partial: Annotated[
        bool,
        typer.Option(
            "--partial",
            help=N_(
                "A non-winner given by only the sets that score (no filler tiles): at most "
                "13 tiles, no whole-hand doublings."
            ),
        ),
    ] = False,
    ruleset: RulesetOpt = wire.DEFAULT_RULESET_NAME,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Score one hand and explain the score.  A hand with a +winning tile is a winner."""
    with guard():
        if as_json:
            if notation is not None:
                raise UsageProblem(_("--json reads the hands from stdin: give no NOTATION"))
            json_lines(wire.answer_score_line)
            return
        if notation is None:
            raise UsageProblem(
                _(
                    "give the hand in notation, e.g. "
                    "mahjong-nts score 'b123 b456 k789 EEE +k55' "
                    "(or use --json)"
                )
            )
        lang = check_lang(lang or current())
        flags = WinFlags(
            source, last_tile, last_discard, kong_on_kong, first_discard, heaven, lucky_thirteen
        )
        rules = rules_option(ruleset)
        seat_wind = wind_option(seat, "--seat")
        round_wind = wind_option(round_, "--round", allow_green=True)
        hand = parse_hand_option(notation, "notation")
        if partial:
            if hand.winning_tile is not None:
                raise UsageProblem(
                    _(
                        "--partial is for a non-winner: give no +winning tile "
                        "(a winning hand is scored from all its tiles)"
                    )
                )
            hand = _partial(hand)
        win: Win | None = None
        if hand.winning_tile is not None:
            win = flags.win()
        elif flags.given:
            raise UsageProblem(
                _(
                    "{options}: only for a winning hand; mark its "
                    "winning tile with + in the notation, e.g. +k5"
                ).format(options=", ".join(flags.given))
            )
        job = wire.ScoreJob(hand, seat_wind, round_wind, win, dead, rules)
        resp = wire.score_response(wire.run_score(job), rules)
        print_score(Console(highlight=False), resp, hand, lang)


def _partial(hand: Hand) -> Hand:
    """``hand`` as a partial hand; a usage problem when it has too many tiles."""
    try:
        return Hand(hand.concealed, hand.melds, hand.bonus, partial=True)
    except MahjongError as exc:
        raise UsageProblem(f"notation: {said(exc)}") from None
