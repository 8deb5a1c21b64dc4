"""``mahjong-nts settle``: who pays whom, from the scores or the hands."""

from __future__ import annotations

import re
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

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
)
from mahjong_nts.cli.render import labels, print_score, print_settlement, seat_index_label
from mahjong_nts.core.errors import quote
from mahjong_nts.core.hand import Hand
from mahjong_nts.core.rules import MAX_SCORE
from mahjong_nts.formats import wire

__all__ = ["HELP", "settle_cmd"]

HELP = N_("Settle one hand: who pays whom, from the scores or the hands of every seat.")


_NONE_WORDS = ("none", "null", "remise", "-")
_SEAT_DIGITS = re.compile(r"[0-9]{1,6}")  # ASCII only: str.isdigit() also takes '²'
_SCORE_DIGITS = re.compile(r"[0-9]+")


def _seat(text: str | None, option: str, seats: int, *, allow_none: bool = False) -> int | None:
    """A seat index from the command line (its range is checked by wire.check_seats)."""
    if text is None:
        return None
    value = text.strip().lower()
    if allow_none and value in _NONE_WORDS:
        return None
    if _SEAT_DIGITS.fullmatch(value):
        return int(value)
    if allow_none:
        want = _("a seat index 0-{last} or none").format(last=seats - 1)
    else:
        want = _("a seat index 0-{last}").format(last=seats - 1)
    raise UsageProblem(
        _("{option}: expected {want}, got {value}").format(
            option=option, want=want, value=quote(text)
        )
    )


def _scores(text: str) -> list[int]:
    """The scores of ``--scores``: whole numbers, comma-separated (read only; their
    range and seats are checked by :func:`wire.scores_job`, as for JSON)."""
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    if len(parts) > wire.MAX_SEATS:
        raise UsageProblem(
            _("--scores: expected one score per seat (at most {most}), got {count}").format(
                most=wire.MAX_SEATS, count=len(parts)
            )
        )
    out = []
    for i, part in enumerate(parts):
        digits = len(part.lstrip("0"))
        if not _SCORE_DIGITS.fullmatch(part) or digits > len(str(MAX_SCORE)):
            raise UsageProblem(
                _("--scores: score {i} is not a whole number 0-{most}: {value}").format(
                    i=i, most=MAX_SCORE, value=quote(part)
                )
            )
        out.append(int(part.lstrip("0") or "0"))  # its range: wire.scores_job
    return out


def _round_to(text: str | None) -> int | None:
    if text is None:
        return None
    value = text.strip()
    if not _SCORE_DIGITS.fullmatch(value) or len(value.lstrip("0")) > 6:
        raise UsageProblem(
            _("--round-to: expected a whole number 0-{most}, got {value}").format(
                most=wire.MAX_ROUND_TO, value=quote(text)
            )
        )
    return wire.check_round_to(int(value.lstrip("0") or "0"), "--round-to")


def _option_name(key: str) -> str:
    """The command-line option of a settle request field (for wire's messages)."""
    return {"scores": "--scores", "hands": "--hand", "round_wind": "--round"}.get(key, f"--{key}")


def _seats(
    winner: int | None, discarder: int | None, east: int, dominant: int | None, dreamer: int | None
) -> wire.Seats:
    """The seats of a settlement, as wire's checks and jobs take them."""
    return wire.Seats(
        winner=winner, discarder=discarder, east=east, dominant=dominant, dreamer=dreamer
    )


def settle_cmd(
    scores: Annotated[
        str | None,
        typer.Option(
            "--scores",
            help=N_(
                "The hand scores by seat index, one per seat, e.g. 128,272,0,40 (three "
                "at a three-player table; five with --dreamer at a table of five, the "
                "dreamer's 0)."
            ),
            show_default=False,
        ),
    ] = None,
    hands: Annotated[
        list[str] | None,
        typer.Option(
            "--hand",
            help=N_(
                "A hand in notation, given once per seat in seat-index order ('-' for "
                "the dreamer's); the seat winds follow from --east. The winner's hand marks "
                "its winning tile with +."
            ),
            show_default=False,
        ),
    ] = None,
    east: Annotated[
        str, typer.Option("--east", help=N_("Seat index of East (0-3; 0-2 or 0-4 at 3 or 5)."))
    ] = "0",
    winner: Annotated[
        str | None,
        typer.Option(
            "--winner",
            help=N_(
                "Seat index of the winner, or 'none' for a remise. With --hand, the hand "
                "with a +winning tile."
            ),
            show_default=False,
        ),
    ] = None,
    discarder: Annotated[
        str | None,
        typer.Option(
            "--discarder",
            help=N_(
                "Seat index of the player who gave the winning tile; "
                "leave out for a self-drawn win."
            ),
            show_default=False,
        ),
    ] = None,
    dominant: Annotated[
        str | None,
        typer.Option(
            "--dominant",
            help=N_("Seat index of the dominant player (green-dragon hand, 3 and 5 players)."),
            show_default=False,
        ),
    ] = None,
    dreamer: Annotated[
        str | None,
        typer.Option(
            "--dreamer",
            help=N_("Seat index of the dreamer, who sits the hand out (table of five only)."),
            show_default=False,
        ),
    ] = None,
    round_: Annotated[
        str | None,
        typer.Option(
            "--round",
            help=N_(
                "Round wind for --hand: E S W N, or F (green-dragon hand); default E. "
                "Refused with --scores, which are final."
            ),
            show_default=False,
        ),
    ] = None,
    source: FromOpt = None,
    last_tile: LastTileOpt = False,
    last_discard: LastDiscardOpt = False,
    kong_on_kong: KongOnKongOpt = False,
    first_discard: FirstDiscardOpt = False,
    heaven: HeavenOpt = False,
    lucky_thirteen: LuckyOpt = False,
    dead: Annotated[
        list[str] | None,
        typer.Option(
            "--dead", help=N_("Seat index of a dead hand (repeatable)."), show_default=False
        ),
    ] = None,
    ruleset: RulesetOpt = wire.DEFAULT_RULESET_NAME,
    round_to: Annotated[
        str | None,
        typer.Option(
            "--round-to",
            help=N_(
                "Round each score to a multiple of this (0-1000) before "
                "settling (default: the rule set's)."
            ),
            show_default=False,
        ),
    ] = None,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Settle one hand (:data:`HELP`)."""
    with guard():
        if as_json:
            if scores is not None or hands:
                raise UsageProblem(
                    _("--json reads the requests from stdin: give no --scores or --hand")
                )
            json_lines(wire.answer_settle_line)
            return
        lang = check_lang(lang or current())
        if (scores is None) == (not hands):
            raise UsageProblem(
                _("give either --scores 128,272,0,40 or a --hand NOTATION for every seat")
            )
        rules = rules_option(ruleset)
        seats = wire.table_seats(rules)
        east_index = _seat(east, "--east", seats)
        assert east_index is not None
        win_index = _seat(winner, "--winner", seats, allow_none=True)
        discard_index = _seat(discarder, "--discarder", seats)
        dominant_index = _seat(dominant, "--dominant", seats)
        dreamer_index = _seat(dreamer, "--dreamer", seats)
        dead_seats = [_seat(d, "--dead", seats) for d in dead or []]
        settle_round_to = _round_to(round_to)
        flags = WinFlags(
            source, last_tile, last_discard, kong_on_kong, first_discard, heaven, lucky_thirteen
        )
        parsed: list[Hand | None] = []
        if scores is not None:
            values = _scores(scores)
            if winner is None:
                raise UsageProblem(
                    _(
                        "--winner: give the winner's seat index 0-{last} (or 'none' for a remise)"
                    ).format(last=seats - 1)
                )
            if flags.given or dead:
                extra = flags.given + (["--dead"] if dead else [])
                raise UsageProblem(
                    _("{options}: only with --hand (the scores are already final)").format(
                        options=", ".join(extra)
                    )
                )
            if round_ is not None:
                raise UsageProblem(
                    _(
                        "--round: only with --hand (the round wind counts when hands are "
                        "scored; --scores are final)"
                    )
                )
            job = wire.scores_job(
                rules,
                values,
                **_seats(win_index, discard_index, east_index, dominant_index, dreamer_index),
                label=lambda i: _("--scores: score {i}").format(i=i),
                name=_option_name,
            )
        else:
            assert hands is not None
            if len(hands) > wire.MAX_SEATS:
                raise UsageProblem(
                    _("--hand: give one hand per seat (at most {most}), got {count}").format(
                        most=wire.MAX_SEATS, count=len(hands)
                    )
                )
            parsed = [
                None if text.strip() == "-" else parse_hand_option(text, f"--hand {i}")
                for i, text in enumerate(hands)
            ]
            if winner is None:
                marked = [i for i, h in enumerate(parsed) if h and h.winning_tile is not None]
                if len(marked) > 1:
                    raise UsageProblem(
                        _(
                            "--hand: only the winner marks a winning tile with +, hands {seats} do"
                        ).format(seats=", ".join(map(str, marked)))
                    )
                win_index = marked[0] if marked else None
            seat_args = _seats(win_index, discard_index, east_index, dominant_index, dreamer_index)
            # the seats first, so that what is said of the dreamer below is right
            wire.check_seats(rules, len(parsed), "hands", **seat_args, name=_option_name)
            for i, hand in enumerate(parsed):
                if i == dreamer_index and hand is not None:
                    raise UsageProblem(
                        _(
                            "--hand {i}: seat {i} is the dreamer, who plays no hand: give '-'"
                        ).format(i=i)
                    )
                if i != dreamer_index and hand is None:
                    if dreamer_index is not None:
                        message = _(
                            "--hand {i}: '-' stands for the dreamer's hand, "
                            "and the dreamer is seat {dreamer}"
                        )
                    else:
                        message = _(
                            "--hand {i}: '-' stands for the dreamer's hand, and this table has none"
                        )
                    raise UsageProblem(message.format(i=i, dreamer=dreamer_index))
            for d in dead_seats:
                assert d is not None
                wire.check_seat(d, seats, "--dead")
                if d == dreamer_index:
                    raise UsageProblem(
                        _("--dead: seat {d} is the dreamer, who plays no hand").format(d=d)
                    )
            if win_index is None and flags.given:
                raise UsageProblem(
                    _("{options}: only when someone won").format(options=", ".join(flags.given))
                )
            job = wire.hands_job(
                rules,
                parsed,
                **seat_args,
                round_wind=round_ or "E",
                win=flags.win,
                dead={d for d in dead_seats if d is not None},
                label=lambda i: f"--hand {i}",
                name=_option_name,
            )
        resp = wire.settle_response(job, wire.run_settle(job, settle_round_to))
        console = Console(highlight=False)
        if job.hands is not None:
            for i, (hand, hresp) in enumerate(zip(parsed, job.hands, strict=True)):
                label = seat_index_label(i, east_index, lang, seats=seats, dreamer=dreamer_index)
                console.rule(Text(label), style="dim")
                if hand is None or hresp is None:
                    console.print(labels(lang)["sits_out"], markup=False)
                else:
                    print_score(console, hresp, hand, lang)
            console.print()
        print_settlement(console, resp, east_index, win_index, lang, dreamer=dreamer_index)
