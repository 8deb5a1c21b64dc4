"""``mahjong-nts simulate``: play many hands or matches between bots and summarise the results.

Registered by the main CLI with ``app.command("simulate")(simulate.simulate_cmd)``.
The runner and the summary live in :mod:`mahjong_nts.sim.simulate`; this module parses the
options, shows a progress bar (on stderr) and prints the summary as tables, or as one
JSON object with ``--json``.  Bad options: ``error: ...`` on stderr, exit code 2.  Text
from files (a rule set's name) is printed as plain text, never read as rich markup.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mahjong_nts.cli.options import (
    UsageProblem,
    bots_option,
    check_log_folder,
    fail,
    guard,
    rules_option,
    signing_key,
)
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS, check_seed
from mahjong_nts.formats.logkeys import LogKey
from mahjong_nts.formats.rulefiles import DEFAULT_RULESET
from mahjong_nts.sim.simulate import (
    MAX_HANDS,
    MAX_MATCHES,
    BotError,
    SimulationSpec,
    Summary,
    WorkerFailure,
    available_cpus,
    run_simulation,
    table_size,
    validate_bots,
)

__all__ = ["print_summary", "simulate_cmd"]

_stderr = Console(stderr=True, highlight=False, soft_wrap=True)

DEFAULT_HANDS = 2000


def _bots(text: str | None, rules: RuleSet, matches: bool) -> tuple[str, ...]:
    count = table_size(rules, matches)
    if text is None:
        return ("heuristic",) + ("random",) * (count - 1)
    with guard():
        names = bots_option(text, count)
    try:
        return validate_bots(names, rules, matches=matches)
    except ValueError as exc:
        fail(f"--bots: {exc}")


def _signing_key(path: Path | None, log_dir: str | None) -> LogKey | None:
    """The key of ``--sign`` (it signs the logs, so it needs ``--log``)."""
    if path is not None and log_dir is None:
        fail("--sign signs the hand logs: give --log DIR too")
    try:
        return signing_key(path)
    except UsageProblem as exc:
        fail(str(exc))


def _pm(ci: list[float], fmt: str) -> str:
    return f"[{format(ci[0], fmt)}, {format(ci[1], fmt)}]"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _pct_ci(ci: list[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _line(*parts: str | tuple[str, str]) -> Text:
    """A line of plain text pieces, some styled: data is never read as markup."""
    return Text.assemble(*parts)


def print_summary(console: Console, s: dict[str, Any]) -> None:
    """The summary as rich tables (the same numbers ``--json`` prints)."""
    per = s["unit"]
    if s["matches"] is None:
        played = (f"{s['hands']} hands", "bold")
    else:
        played = (f"{s['matches']} matches ({s['hands']} hands)", "bold")
    console.print(
        _line(
            played,
            f" of {s['ruleset_name']} ({s['seats']} seats), seed {s['seed']}, "
            f"bots {', '.join(s['bots'])}; intervals are 95%.",
        )
    )
    if s["matches"] is not None:
        cut = f"; {s['cut_matches']} cut at the hand limit" if s["cut_matches"] else ""
        console.print(
            f"Whole matches: balances and margins are per match, win rates per hand played; "
            f"{s['green_dragon_hands']} green-dragon hands{cut}.",
            markup=False,
        )
    balance_col = f"Mean balance a {per} [95% CI]"
    table = Table(title="Per bot", title_justify="left")
    for col in ("Bot", "Seats", "Wins", "Win rate [95% CI]", balance_col):
        table.add_column(col, justify="left" if col == "Bot" else "right")
    for name, b in s["by_bot"].items():
        table.add_row(
            Text(name),
            Text(str(b["seats"])),
            Text(str(b["wins"])),
            Text(f"{_pct(b['win_rate'])} {_pct_ci(b['win_rate_ci'])}"),
            Text(f"{b['mean_balance']:+.1f} {_pm(b['mean_balance_ci'], '+.1f')}"),
        )
    console.print(table)
    if len(s["by_bot"]) < len(s["entries"]):
        rotate = "match" if s["matches"] is not None else "hand"
        table = Table(title=f"Per entry (seats rotate every {rotate})", title_justify="left")
        for col in ("Entry", "Bot", "Wins", "Win rate [95% CI]", balance_col):
            table.add_column(col, justify="left" if col == "Bot" else "right")
        for e in s["entries"]:
            table.add_row(
                Text(str(e["entry"])),
                Text(e["bot"]),
                Text(str(e["wins"])),
                Text(f"{_pct(e['win_rate'])} {_pct_ci(e['win_rate_ci'])}"),
                Text(f"{e['mean_balance']:+.1f} {_pm(e['mean_balance_ci'], '+.1f')}"),
            )
        console.print(table)
    for m in s["margins"]:
        console.print(
            _line(
                "Margin ",
                (f"{m['bot']} - {m['versus']}", "bold"),
                f": {m['mean_balance_diff']:+.1f} points a {per} "
                f"{_pm(m['mean_balance_diff_ci'], '+.1f')}, "
                f"win rate {100 * m['win_rate_diff']:+.1f} points "
                f"{_pct_ci(m['win_rate_diff_ci'])} "
                f"(per-{per} paired differences, normal approximation)",
            )
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
            table.add_row(
                Text(f"{names.get(key, key)} ({key})"),
                Text(str(row["count"])),
                Text(_pct(row["rate"])),
            )
        console.print(table)


HandsOpt = Annotated[
    int | None,
    typer.Option(
        "--hands",
        "-n",
        help=f"Single hands to play, 1 to {MAX_HANDS} (default {DEFAULT_HANDS}).",
        show_default=False,
    ),
]
MatchesOpt = Annotated[
    int | None,
    typer.Option(
        "--matches",
        "-m",
        help=f"Play whole matches instead, 1 to {MAX_MATCHES} (green-dragon hands and the "
        "dreamer included; one bot per player).",
        show_default=False,
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help="Run seed, 0 to 2**256-1: hand (or match) i is fixed by (seed, i).  "
        "Default: a random one, shown in the summary.",
        show_default=False,
    ),
]
BotsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots",
        help="One bot per seat (per player with --matches), comma-separated (random, "
        "heuristic); they rotate seats every hand (every match).  Default: heuristic and "
        "random for the others.",
        show_default=False,
    ),
]
RulesetOpt = Annotated[
    str,
    typer.Option("--ruleset", "-r", help="Shipped rule set (with +overlays) or a TOML file."),
]
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", help="Processes (at least 1; at most the processors this process may use)."
    ),
]
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
    hands: HandsOpt = None,
    matches: MatchesOpt = None,
    seed: SeedOpt = None,
    bots: BotsOpt = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    jobs: JobsOpt = 1,
    log: LogOpt = None,
    as_json: JsonOpt = False,
    sign: SignOpt = None,
) -> None:
    """Play HANDS independent hands (or MATCHES whole matches) between bots; summarise win
    rates, balances, margins."""
    if hands is not None and matches is not None:
        fail("give --hands N or --matches N, not both")
    if matches is not None:
        count, what, limit = matches, "matches", MAX_MATCHES
    else:
        count, what, limit = (DEFAULT_HANDS if hands is None else hands), "hands", MAX_HANDS
    if count < 1:
        fail(f"--{what} must be at least 1, not {count}")
    if count > limit:
        fail(f"--{what} must be at most {limit}, not {count}")
    if jobs < 1:
        fail(f"--jobs must be at least 1, not {jobs}")
    cpus = available_cpus()
    if jobs > cpus:
        _stderr.print(
            f"note: --jobs {jobs} capped to {cpus}: the processors this process may use",
            markup=False,
        )
        jobs = cpus
    if seed is None:
        seed = secrets.randbits(DEFAULT_SEED_BITS)
    try:
        check_seed(seed, "--seed")
    except ValueError as exc:
        fail(str(exc))
    with guard():
        rules = rules_option(ruleset)
    names = _bots(bots, rules, matches is not None)
    log_dir = None if log is None else str(log)
    key = _signing_key(sign, log_dir)  # every argument is checked before anything is made
    if log is not None:
        try:
            check_log_folder(log)
        except UsageProblem as exc:
            fail(str(exc))
    spec = SimulationSpec(
        ruleset=ruleset,
        bots=names,
        seed=seed,
        log_dir=log_dir,
        log_key=key,
        matches=matches is not None,
    )
    summary = Summary(spec, rules)
    start = time.perf_counter()
    try:
        if as_json:
            for outcome in run_simulation(spec, count, jobs, rules=rules):
                summary.add(outcome)
        else:
            from rich.progress import (  # the bar only (--json runs without it)
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            with Progress(
                TextColumn(f"simulating {what}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=_stderr,
                transient=True,
                auto_refresh=False,  # no refresh thread while worker processes are forked
            ) as bar:
                task = bar.add_task(what, total=count)

                def advance(k: int) -> None:
                    bar.advance(task, k)
                    bar.refresh()

                for outcome in run_simulation(spec, count, jobs, advance, rules=rules):
                    summary.add(outcome)
    except (BotError, WorkerFailure) as exc:
        fail(str(exc), code=1)
    except OSError as exc:
        fail(f"--log: {exc.filename or log_dir}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        _stderr.print("interrupted: no summary", markup=False)
        raise typer.Exit(130) from None
    elapsed = max(time.perf_counter() - start, 1e-9)
    result = summary.result()
    if as_json:
        typer.echo(json.dumps(result))
        return
    console = Console(highlight=False)
    print_summary(console, result)
    played = result["hands"] if matches is None else f"{count} matches, {result['hands']}"
    console.print(
        f"{played} hands in {elapsed:.1f} s ({result['hands'] / elapsed:.0f} hands/s, "
        f"{jobs} job{'s' if jobs > 1 else ''})",
        style="dim",
        markup=False,
    )
