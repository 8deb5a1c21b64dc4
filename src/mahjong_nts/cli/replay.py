"""``mahjong-nts replay FILE [--verify [--key KEY] [--ruleset SPEC]]``: show or verify a log.

``--verify`` checks the hash chain, the signature (with ``--key``), the revealed
seed against its commitment and the header, then re-plays the hand and checks
every line and the result: ``OK: N events, result matches ...`` and a line on
the signature (exit 0), or ``line K: expected ..., log says ...`` at the first
line that does not hold (exit 1).  A file that is no readable hand log, a bad key
file or rule set is ``error: ...`` on stderr (exit 2).

Everything a log says is printed as plain text: control characters (terminal
escapes) are shown escaped, never sent to the terminal, and nothing is read as
rich markup.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mahjong_nts.cli.options import fail, guard, rules_option
from mahjong_nts.cli.tableview import event_text, seat_label
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import parse_tile
from mahjong_nts.formats.gamelog import (
    HandLog,
    LogFormatError,
    LogMismatch,
    Signed,
    Verified,
    read_hand_log,
    verify_hand_log,
)
from mahjong_nts.formats.gamelog_schema import EventLine, ResultLine, SealLine
from mahjong_nts.formats.logkeys import InvalidKeyFile, LogKey, load_key
from mahjong_nts.formats.safejson import printable

__all__ = ["print_log", "replay_cmd"]


def _tiles(text: str) -> list[int]:
    return [parse_tile(t) for t in text.split()]


def _say(console: Console, text: str) -> None:
    console.print(printable(text), markup=False, highlight=False, emoji=False, soft_wrap=True)


def _print_result(console: Console, result: ResultLine, names: list[str]) -> None:
    _say(console, f"Seed (revealed): {result.seed}")
    if not result.over:
        _say(console, f"Stopped before the end: {result.reason}")
        for seat, hand in enumerate(result.hands):
            _say(console, f"  {seat_label(seat, names)}: {hand}")
        return
    if result.winner is None:
        _say(console, f"Remise: {result.reason}; nothing is paid.")
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
    _say(console, f"Mahjong: {seat_label(result.winner, names)} wins{tile} {how}{source}{flags}")
    table = Table(title_justify="left")
    for col in ("Seat", "Hand", "Points", "Doublings", "Limit hand", "Score", "Balance"):
        table.add_column(
            col, justify="right" if col not in ("Seat", "Hand", "Limit hand") else "left"
        )
    settlement = result.settlement
    balances = settlement.balances if settlement is not None else []
    for sc in result.scores:
        who = seat_label(sc.seat, names) + (" *" if sc.seat == result.winner else "")
        if sc.dead:
            who += " (dead)"
        balance = balances[sc.seat] if sc.seat < len(balances) else 0
        hand = result.hands[sc.seat] if sc.seat < len(result.hands) else ""
        table.add_row(
            Text(printable(who)),
            Text(printable(hand)),
            str(sc.points),
            str(sc.doublings),
            Text(printable(sc.limit_hand or "")),
            str(sc.score),
            f"{balance:+d}",
        )
    console.print(table)
    if settlement is not None:
        for p in settlement.payments:
            _say(
                console,
                f"  {seat_label(p.payer, names)} pays {seat_label(p.payee, names)} {p.amount}",
            )


def print_log(console: Console, log: HandLog) -> None:
    """The hand move by move, then the result (the log as it says, not verified)."""
    head = log.header
    names = [printable(n) for n in head.players]
    wind = "green dragon (F)" if head.round_wind == "F" else head.round_wind
    dominant = f", dominant {seat_label(head.dominant, names)}" if head.dominant is not None else ""
    _say(console, f"Hand log: rule set {head.ruleset}, round wind {wind}{dominant}")
    _say(console, f"Seed commitment: {head.seed_commitment}")
    if head.hand is not None:
        _say(console, f"Hand {head.hand.number + 1} of a match, round {head.hand.round + 1}")
    _say(console, "Seats: " + ", ".join(seat_label(s, names) for s in range(head.seats)))
    width = len(str(len(log.body)))
    for _, line in log.body:
        if isinstance(line, EventLine):
            text = event_text(line.kind, line.seat, _tiles(line.tiles), line.note, names)
            _say(console, f"{line.n:>{width}}  {text}")
        elif isinstance(line, ResultLine):
            _print_result(console, line, names)
        elif isinstance(line, SealLine):
            sig = line.signature
            if sig is None:
                _say(console, "Not signed.")
            else:
                _say(console, f"Signed by {sig.alg} key {sig.key_id} (not checked: use --verify).")


def _signature_line(checked: Verified) -> str:
    if checked.signed is Signed.VALID:
        return f"signature: valid, {checked.signed_by}"
    if checked.signed is Signed.UNCHECKED:
        return f"signature: by {checked.signed_by}, not checked (give --key PUBLIC.pem)"
    return "signature: none (the log is not signed: whoever recomputes the chain can rewrite it)"


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A hand log (.jsonl) written by play or simulate.")],
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Check the hash chain, the seed against its commitment, the signature "
            "(with --key) and every line by re-playing the hand "
            "(exit 0: OK, 1: does not verify, 2: not a readable hand log).",
        ),
    ] = False,
    key_file: Annotated[
        Path | None,
        typer.Option(
            "--key",
            help="With --verify: check the signature with this key (an Ed25519 public or "
            "private key, or an HMAC key, PEM); an unsigned log or one signed by another "
            "key then does not verify.",
            show_default=False,
        ),
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            "-r",
            help="With --verify: the rule set to replay with (needed for a log of a "
            "house-rule file, whose path the log names but replay never reads).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Show a hand log move by move, or verify it by re-playing the hand."""
    key: LogKey | None = None
    rules: RuleSet | None = None
    if not verify and (key_file is not None or ruleset is not None):
        fail("--key and --ruleset go with --verify")
    try:
        if key_file is not None:
            key = load_key(key_file)  # an unreadable file is an InvalidKeyFile too
    except InvalidKeyFile as exc:
        fail(f"--key: {exc}")
    if ruleset is not None:
        with guard():
            rules = rules_option(ruleset)
    try:
        log = read_hand_log(file)
        if not verify:
            print_log(Console(highlight=False, emoji=False), log)
            return
        checked = verify_hand_log(log, rules=rules, key=key)
    except LogFormatError as exc:
        fail(f"{file}: {exc}")
    except OSError as exc:
        fail(f"{file}: {exc.strerror or exc}")
    except LogMismatch as exc:
        typer.echo(printable(str(exc)))
        raise typer.Exit(1) from None
    stopped = " (a hand stopped before its end)" if not checked.over else ""
    typer.echo(
        f"OK: {checked.events} events, result matches{stopped}; "
        "hash chain intact, seed matches its commitment"
    )
    typer.echo(_signature_line(checked))
