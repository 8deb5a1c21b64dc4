"""``mahjong-nts simulate``: play many hands between bots and summarise the results.

Registered by the main CLI with ``app.command("simulate")(cli_simulate.simulate_cmd)``.
The runner and the summary live in :mod:`mahjong_nts.sim.simulate`; this module parses the
options, shows a progress bar (on stderr) and prints the summary as tables, or as one
JSON object with ``--json``.  Bad options: ``error: ...`` on stderr, exit code 2.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from mahjong_nts.core.errors import InvalidRuleSet
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.formats.logkeys import InvalidKeyFile, LogKey, load_key
from mahjong_nts.formats.rulefiles import DEFAULT_RULESET, load_ruleset
from mahjong_nts.sim.simulate import (
    BotError,
    SimulationSpec,
    run_simulation,
    summarize,
    validate_bots,
)

__all__ = ["print_summary", "simulate_cmd"]

_stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2) -> NoReturn:
    _stderr.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


def _load(spec: str) -> RuleSet:
    try:
        return load_ruleset(spec)
    except InvalidRuleSet as exc:
        _fail(f"--ruleset: {exc}")


def _bots(text: str | None, rules: RuleSet) -> tuple[str, ...]:
    seats = rules.table.players
    if text is None:
        return ("heuristic",) + ("random",) * (seats - 1)
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        _fail(f"--bots: an empty bot name in {text!r} (give names separated by commas)")
    try:
        return validate_bots(names, rules)
    except ValueError as exc:
        _fail(f"--bots: {exc}")


def _log_dir(path: Path) -> str:
    """Create the log folder and check that it takes files; its path as text."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-test-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        _fail(f"--log: cannot write hand logs to {str(path)!r}: {exc.strerror or exc}")
    return str(path)


def _signing_key(path: Path | None, log_dir: str | None) -> LogKey | None:
    """The key of ``--sign`` (it signs the logs, so it needs ``--log``)."""
    if path is None:
        return None
    if log_dir is None:
        _fail("--sign signs the hand logs: give --log DIR too")
    try:
        key = load_key(path)
    except InvalidKeyFile as exc:
        _fail(f"--sign: {exc}")
    if not key.can_sign:
        _fail(f"--sign: {path} is a public key; signing needs the private key")
    return key


def _pm(ci: list[float], fmt: str) -> str:
    return f"[{format(ci[0], fmt)}, {format(ci[1], fmt)}]"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _pct_ci(ci: list[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def print_summary(console: Console, s: dict[str, Any]) -> None:
    """The summary as rich tables (the same numbers ``--json`` prints)."""
    console.print(
        f"[bold]{s['hands']} hands[/] of {s['ruleset_name']} ({s['seats']} seats), "
        f"seed {s['seed']}, bots {', '.join(s['bots'])}; intervals are 95%."
    )
    table = Table(title="Per bot", title_justify="left")
    for col in ("Bot", "Seats", "Wins", "Win rate [95% CI]", "Mean balance [95% CI]"):
        table.add_column(col, justify="left" if col == "Bot" else "right")
    for name, b in s["by_bot"].items():
        table.add_row(
            name,
            str(b["seats"]),
            str(b["wins"]),
            f"{_pct(b['win_rate'])} {_pct_ci(b['win_rate_ci'])}",
            f"{b['mean_balance']:+.1f} {_pm(b['mean_balance_ci'], '+.1f')}",
        )
    console.print(table)
    if len(s["by_bot"]) < len(s["entries"]):
        table = Table(title="Per entry (seats rotate every hand)", title_justify="left")
        for col in ("Entry", "Bot", "Wins", "Win rate [95% CI]", "Mean balance [95% CI]"):
            table.add_column(col, justify="left" if col == "Bot" else "right")
        for e in s["entries"]:
            table.add_row(
                str(e["entry"]),
                e["bot"],
                str(e["wins"]),
                f"{_pct(e['win_rate'])} {_pct_ci(e['win_rate_ci'])}",
                f"{e['mean_balance']:+.1f} {_pm(e['mean_balance_ci'], '+.1f')}",
            )
        console.print(table)
    for m in s["margins"]:
        console.print(
            f"Margin [bold]{m['bot']} - {m['versus']}[/]: "
            f"{m['mean_balance_diff']:+.1f} points a hand "
            f"{_pm(m['mean_balance_diff_ci'], '+.1f')}, "
            f"win rate {100 * m['win_rate_diff']:+.1f} points {_pct_ci(m['win_rate_diff_ci'])} "
            "(per-hand paired differences, normal approximation)"
        )
    r = s["remise"]
    reasons = "; ".join(f"{k}: {v}" for k, v in r["reasons"].items())
    console.print(
        f"Remise: {r['count']} hands, {_pct(r['rate'])} {_pct_ci(r['rate_ci'])}"
        + (f" ({reasons})" if reasons else ""),
        markup=False,
    )
    w, h = s["wins"], s["hand_length"]
    console.print(
        f"Won: {w['count']} hands ({w['self_drawn']} self-drawn, {w['claimed']} on a claimed "
        f"tile); hand length: {h['decisions']:.1f} decisions, {h['draws']:.1f} wall draws a hand",
        markup=False,
    )
    names = {k: v.en for k, v in LIMIT_HANDS.items()} | {k: v.en for k, v in ITEMS.items()}
    for title, rows in (
        ("Scoring items in winning hands", s["items"]),
        ("Limit hands won", s["limit_hands"]),
    ):
        if not rows:
            continue
        table = Table(title=title, title_justify="left")
        table.add_column("Item")
        table.add_column("Hands", justify="right")
        table.add_column("Of wins", justify="right")
        for key, row in rows.items():
            table.add_row(f"{names.get(key, key)} ({key})", str(row["count"]), _pct(row["rate"]))
        console.print(table)


HandsOpt = Annotated[int, typer.Option("--hands", "-n", help="Hands to play (at least 1).")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Run seed: hand i is fixed by (seed, i).")]
BotsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots",
        help="One bot per seat, comma-separated (random, heuristic); they rotate seats "
        "every hand.  Default: heuristic and random for the other seats.",
        show_default=False,
    ),
]
RulesetOpt = Annotated[
    str,
    typer.Option("--ruleset", "-r", help="Shipped rule set (with +overlays) or a TOML file."),
]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Processes (at least 1).")]
LogOpt = Annotated[
    Path | None,
    typer.Option(
        "--log", help="Write each hand's JSON Lines log into this folder.", show_default=False
    ),
]
SignOpt = Annotated[
    Path | None,
    typer.Option(
        "--sign",
        help="Sign the hand logs of --log with this private key (Ed25519 PEM or an HMAC key).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")]


def simulate_cmd(
    hands: HandsOpt = 2000,
    seed: SeedOpt = 0,
    bots: BotsOpt = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    jobs: JobsOpt = 1,
    log: LogOpt = None,
    as_json: JsonOpt = False,
    sign: SignOpt = None,
) -> None:
    """Play HANDS independent hands between bots; summarise win rates, balances, margins."""
    if hands < 1:
        _fail(f"--hands must be at least 1, not {hands}")
    if jobs < 1:
        _fail(f"--jobs must be at least 1, not {jobs}")
    rules = _load(ruleset)
    names = _bots(bots, rules)
    log_dir = _log_dir(log) if log is not None else None
    key = _signing_key(sign, log_dir)
    spec = SimulationSpec(ruleset=ruleset, bots=names, seed=seed, log_dir=log_dir, log_key=key)
    start = time.perf_counter()
    try:
        if as_json:
            outcomes = run_simulation(spec, hands, jobs)
        else:
            with Progress(
                TextColumn("simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=_stderr,
                transient=True,
                auto_refresh=False,  # no refresh thread while worker processes are forked
            ) as bar:
                task = bar.add_task("hands", total=hands)

                def advance(k: int) -> None:
                    bar.advance(task, k)
                    bar.refresh()

                outcomes = run_simulation(spec, hands, jobs, progress=advance)
    except BotError as exc:
        _fail(str(exc), code=1)
    except OSError as exc:
        _fail(f"--log: {exc.filename or log_dir}: {exc.strerror or exc}")
    elapsed = time.perf_counter() - start
    summary = summarize(spec, rules, outcomes)
    if as_json:
        typer.echo(json.dumps(summary))
        return
    console = Console(highlight=False)
    print_summary(console, summary)
    console.print(
        f"[dim]{hands} hands in {elapsed:.1f} s ({hands / elapsed:.0f} hands/s, "
        f"{jobs} job{'s' if jobs > 1 else ''})[/]"
    )
