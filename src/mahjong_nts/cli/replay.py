"""``mahjong-nts replay FILE [--verify]``: show a hand log move by move, or verify it.

``--verify`` re-plays the hand from the header and checks every line and the
result: ``OK: N events, result matches`` (exit 0), or ``line K: expected ...,
log says ...`` at the first bad line (exit 1).  A file that is no readable hand
log is ``error: FILE: line K: ...`` on stderr (exit 2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mahjong_nts.cli.tableview import event_text, seat_label
from mahjong_nts.core.tiles import parse_tile
from mahjong_nts.formats.gamelog import (
    HandLog,
    LogFormatError,
    LogMismatch,
    read_hand_log,
    verify_hand_log,
)
from mahjong_nts.formats.gamelog_schema import EventLine, ResultLine

__all__ = ["print_log", "replay_cmd"]


def _tiles(text: str) -> list[int]:
    return [parse_tile(t) for t in text.split()]


def _print_result(console: Console, result: ResultLine, names: list[str]) -> None:
    if not result.over:
        console.print(f"Stopped before the end: {result.reason}", markup=False)
        for seat, hand in enumerate(result.hands):
            console.print(f"  {seat_label(seat, names)}: {hand}", markup=False)
        return
    if result.winner is None:
        console.print(f"Remise: {result.reason}; nothing is paid.", markup=False)
        return
    win = result.win
    how = (
        "self-drawn"
        if result.discarder is None
        else (f"on the discard of {seat_label(result.discarder, names)}")
    )
    flags = f" [{', '.join(win.flags)}]" if win is not None and win.flags else ""
    source = f" (from {win.source})" if win is not None else ""
    tile = f" {result.winning_tile}" if result.winning_tile else ""
    console.print(
        f"Mahjong: {seat_label(result.winner, names)} wins{tile} {how}{source}{flags}",
        markup=False,
        highlight=False,
    )
    table = Table(title_justify="left")
    for col in ("Seat", "Hand", "Points", "Doublings", "Limit hand", "Score", "Balance"):
        table.add_column(
            col, justify="right" if col not in ("Seat", "Hand", "Limit hand") else "left"
        )
    settlement = result.settlement
    for sc in result.scores:
        who = seat_label(sc.seat, names) + (" *" if sc.seat == result.winner else "")
        if sc.dead:
            who += " (dead)"
        balance = settlement.balances[sc.seat] if settlement is not None else 0
        hand = result.hands[sc.seat] if sc.seat < len(result.hands) else ""
        table.add_row(
            Text(who),
            Text(hand),
            str(sc.points),
            str(sc.doublings),
            Text(sc.limit_hand or ""),
            str(sc.score),
            f"{balance:+d}",
        )
    console.print(table)
    if settlement is not None:
        for p in settlement.payments:
            console.print(
                f"  {seat_label(p.payer, names)} pays {seat_label(p.payee, names)} {p.amount}",
                markup=False,
                highlight=False,
            )


def print_log(console: Console, log: HandLog) -> None:
    """The hand move by move, then the result."""
    head = log.header
    names = list(head.players)
    wind = "green dragon (F)" if head.round_wind == "F" else head.round_wind
    dominant = f", dominant {seat_label(head.dominant, names)}" if head.dominant is not None else ""
    console.print(
        f"Hand log: rule set {head.ruleset}, seed {head.seed}, round wind {wind}{dominant}",
        markup=False,
        highlight=False,
    )
    if head.hand is not None:
        console.print(f"Hand {head.hand.number + 1} of a match, round {head.hand.round + 1}")
    console.print(
        "Seats: " + ", ".join(seat_label(s, names) for s in range(head.seats)),
        markup=False,
        highlight=False,
    )
    width = len(str(len(log.body)))
    for _, line in log.body:
        if isinstance(line, EventLine):
            text = event_text(line.kind, line.seat, _tiles(line.tiles), line.note, names)
            console.print(f"{line.n:>{width}}  {text}", markup=False, highlight=False)
        elif isinstance(line, ResultLine):
            _print_result(console, line, names)


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A hand log (.jsonl) written by play or simulate.")],
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Re-play the hand and check every line and the result "
            "(exit 0: OK, 1: does not verify, 2: not a readable hand log).",
        ),
    ] = False,
) -> None:
    """Show a hand log move by move, or verify it by re-playing the hand."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        log = read_hand_log(file)
        if not verify:
            print_log(Console(highlight=False), log)
            return
        checked = verify_hand_log(log)
    except LogFormatError as exc:
        err.print(f"error: {file}: {exc}", markup=False)
        raise typer.Exit(2) from None
    except OSError as exc:
        err.print(f"error: {file}: {exc.strerror or exc}", markup=False)
        raise typer.Exit(2) from None
    except LogMismatch as exc:
        typer.echo(str(exc))
        raise typer.Exit(1) from None
    stopped = "" if checked.over else " (a hand stopped before its end)"
    typer.echo(f"OK: {checked.events} events, result matches{stopped}")
