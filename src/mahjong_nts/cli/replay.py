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

from mahjong_nts.cli.i18n import N_, _, current, ngettext, pgettext
from mahjong_nts.cli.options import fail, guard, os_reason, rules_option, said
from mahjong_nts.cli.tableview import (
    event_text,
    seat_label,
    stop_reason_text,
    wind_text,
)
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.items import LIMIT_HANDS
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
from mahjong_nts.formats.gamelog_schema import EventLine, ResultLine, SealLine, Signature
from mahjong_nts.formats.logkeys import InvalidKeyFile, LogKey, load_key
from mahjong_nts.formats.safejson import printable

__all__ = ["HELP", "print_log", "replay_cmd"]

HELP = N_("Show a hand log move by move, or verify it by re-playing the hand.")

_SOURCES = {
    "wall": N_("the wall"),
    "discard": N_("a discard"),
    "loose_tile": N_("a loose tile after a kong"),
    "robbed_kong": N_("a robbed kong"),
}
"""Where the winning tile came from, as a log says it."""

_FLAGS = {
    "last_tile": N_("last tile of the wall"),
    "last_discard": N_("last discard"),
    "kong_on_kong": N_("kong on kong"),
    "first_discard": N_("East's first discard"),
    "heaven": N_("heavenly hand (East's dealt tiles)"),
    "lucky_thirteen": N_("lucky thirteen"),
}
"""The special ways of winning a log names."""


def _tiles(text: str) -> list[int]:
    return [parse_tile(t) for t in text.split()]


def _say(console: Console, text: str) -> None:
    console.print(printable(text), markup=False, highlight=False, emoji=False, soft_wrap=True)


def _known(table: dict[str, str], key: str) -> str:
    """``key``'s text of ``table`` in the language of the run, or ``key`` itself."""
    text = table.get(key)
    return _(text) if text is not None else key


def _limit_hand(key: str | None) -> str:
    """A limit hand of a log by its name in the language of the run (its id if unknown)."""
    if not key:
        return ""
    limit = LIMIT_HANDS.get(key)
    if limit is None:
        return key
    return limit.nl if current() == "nl" else limit.en


def _round_wind(token: str) -> str:
    """A log's round wind (``E``, ``F``) by name."""
    try:
        tile = parse_tile(token)
    except MahjongError:
        return token
    return wind_text(tile) + (" (F)" if token == "F" else "")


def _print_result(console: Console, result: ResultLine, names: list[str]) -> None:
    _say(console, _("Seed (revealed): {seed}").format(seed=result.seed))
    if not result.over:
        _say(
            console,
            _("Stopped before the end: {reason}").format(reason=stop_reason_text(result.reason)),
        )
        for seat, hand in enumerate(result.hands):
            _say(console, f"  {seat_label(seat, names)}: {hand}")
        return
    if result.winner is None:
        _say(console, _("Remise: {reason}; nothing is paid.").format(reason=result.reason))
        return
    win = result.win
    who = seat_label(result.winner, names)
    if result.discarder is None:
        how = _("self-drawn")
    else:
        how = _("on the discard of {who}").format(who=seat_label(result.discarder, names))
    if result.winning_tile:
        line = _("Mahjong: {who} wins {tile} {how}").format(
            who=who, tile=result.winning_tile, how=how
        )
    else:
        line = _("Mahjong: {who} wins {how}").format(who=who, how=how)
    if win is not None:
        said = (win.source == "discard") == (result.discarder is not None)
        if not said or win.source not in ("wall", "discard"):  # a loose tile, a robbed kong
            line += " (" + _("from {source}").format(source=_known(_SOURCES, win.source)) + ")"
        if win.flags:
            line += " [" + ", ".join(_known(_FLAGS, f) for f in win.flags) + "]"
    _say(console, line)
    table = Table(title_justify="left")
    columns = (
        (_("Seat"), "left"),
        (pgettext("tiles", "Hand"), "left"),
        (_("Points"), "right"),
        (_("Doublings"), "right"),
        (_("Limit hand"), "left"),
        (_("Score"), "right"),
        (_("Balance"), "right"),
    )
    for col, justify in columns:
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    settlement = result.settlement
    balances = settlement.balances if settlement is not None else []
    for sc in result.scores:
        who = seat_label(sc.seat, names) + (" *" if sc.seat == result.winner else "")
        if sc.dead:
            who += " " + _("(dead)")
        balance = balances[sc.seat] if sc.seat < len(balances) else 0
        hand = result.hands[sc.seat] if sc.seat < len(result.hands) else ""
        table.add_row(
            Text(printable(who)),
            Text(printable(hand)),
            str(sc.points),
            str(sc.doublings),
            Text(printable(_limit_hand(sc.limit_hand))),
            str(sc.score),
            f"{balance:+d}",
        )
    console.print(table)
    if settlement is not None:
        for p in settlement.payments:
            text = _("{payer} pays {payee} {amount}").format(
                payer=seat_label(p.payer, names), payee=seat_label(p.payee, names), amount=p.amount
            )
            _say(console, f"  {text}")


def _key_text(sig: Signature) -> str:
    """``ed25519 key 1a2b3c4d5e6f7a8b``: the key that signed a log."""
    return _("{alg} key {key_id}").format(alg=sig.alg, key_id=sig.key_id)


def print_log(console: Console, log: HandLog) -> None:
    """The hand move by move, then the result (the log as it says, not verified)."""
    head = log.header
    names = [printable(n) for n in head.players]
    line = _("Hand log: rule set {ruleset}, round wind {wind}").format(
        ruleset=head.ruleset, wind=_round_wind(head.round_wind)
    )
    if head.dominant is not None:
        line += ", " + _("dominant {who}").format(who=seat_label(head.dominant, names))
    _say(console, line)
    _say(console, _("Seed commitment: {commitment}").format(commitment=head.seed_commitment))
    if head.hand is not None:
        _say(
            console,
            _("Hand {n} of a match, round {round}").format(
                n=head.hand.number + 1, round=head.hand.round + 1
            ),
        )
    seats = ", ".join(seat_label(s, names) for s in range(head.seats))
    _say(console, _("Seats: {seats}").format(seats=seats))
    width = len(str(len(log.body)))
    for _n, body_line in log.body:
        if isinstance(body_line, EventLine):
            text = event_text(
                body_line.kind, body_line.seat, _tiles(body_line.tiles), body_line.note, names
            )
            _say(console, f"{body_line.n:>{width}}  {text}")
        elif isinstance(body_line, ResultLine):
            _print_result(console, body_line, names)
        elif isinstance(body_line, SealLine):
            sig = body_line.signature
            if sig is None:
                _say(console, _("Not signed."))
            else:
                _say(
                    console,
                    _("Signed by {key} (not checked: use --verify).").format(key=_key_text(sig)),
                )


def _signature_line(checked: Verified, log: HandLog) -> str:
    seal = next((line for _n, line in log.body if isinstance(line, SealLine)), None)
    sig = seal.signature if seal is not None else None
    by = _key_text(sig) if sig is not None else str(checked.signed_by)
    if checked.signed is Signed.VALID:
        return _("signature: valid, {key}").format(key=by)
    if checked.signed is Signed.UNCHECKED:
        return _("signature: by {key}, not checked (give --key PUBLIC.pem)").format(key=by)
    return _("signature: none (the log is not signed: whoever recomputes the chain can rewrite it)")


def replay_cmd(
    file: Annotated[
        Path,
        typer.Argument(
            help=N_("A hand log (.jsonl) written by play or simulate."), metavar=N_("file")
        ),
    ],
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help=N_(
                "Check the hash chain, the seed against its commitment, the signature "
                "(with --key) and every line by re-playing the hand "
                "(exit 0: OK, 1: does not verify, 2: not a readable hand log)."
            ),
        ),
    ] = False,
    key_file: Annotated[
        Path | None,
        typer.Option(
            "--key",
            help=N_(
                "With --verify: check the signature with this key (an Ed25519 public or "
                "private key, or an HMAC key, PEM); an unsigned log or one signed by another "
                "key then does not verify."
            ),
            show_default=False,
        ),
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            "-r",
            help=N_(
                "With --verify: the rule set to replay with (needed for a log of a "
                "house-rule file, whose path the log names but replay never reads)."
            ),
            show_default=False,
        ),
    ] = None,
) -> None:
    """Show a hand log move by move, or verify it (:data:`HELP`)."""
    key: LogKey | None = None
    rules: RuleSet | None = None
    if not verify and (key_file is not None or ruleset is not None):
        fail(_("--key and --ruleset go with --verify"))
    try:
        if key_file is not None:
            key = load_key(key_file)  # an unreadable file is an InvalidKeyFile too
    except InvalidKeyFile as exc:
        fail(f"--key: {said(exc)}")
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
        fail(f"{file}: {said(exc)}")
    except OSError as exc:
        fail(f"{file}: {os_reason(exc)}")
    except LogMismatch as exc:
        typer.echo(printable(said(exc)))
        raise typer.Exit(1) from None
    stopped = " " + _("(a hand stopped before its end)") if not checked.over else ""
    typer.echo(
        ngettext(
            "OK: {n} event, result matches{stopped}; hash chain intact, seed matches its "
            "commitment",
            "OK: {n} events, result matches{stopped}; hash chain intact, seed matches its "
            "commitment",
            checked.events,
        ).format(n=checked.events, stopped=stopped)
    )
    typer.echo(_signature_line(checked, log))
