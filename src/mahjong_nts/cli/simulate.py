"""``mahjong-nts simulate``: play many hands or matches between bots and summarise the results.

Registered by the main CLI with ``app.command("simulate")(simulate.simulate_cmd)``.
The runner and the summary live in :mod:`mahjong_nts.sim.simulate`; this module parses the
options, shows a progress bar (on stderr) and prints the summary as tables, or as one
JSON object with ``--json``.  Bad options: ``error: ...`` on stderr, exit code 2.  Text
from files (a rule set's name) is printed as plain text, never read as rich markup.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mahjong_nts.bots.loader import BotLoadError
from mahjong_nts.cli.backend import (
    AddressOpt,
    BackendOpt,
    JobsOpt,
    check_backend,
    open_backend,
    progress_bar,
    worker_failure,
)
from mahjong_nts.cli.i18n import N_, _, current, ngettext
from mahjong_nts.cli.options import (
    UsageProblem,
    bots_option,
    check_bot_option,
    check_log_folder,
    fail,
    guard,
    os_reason,
    rules_option,
    signing_key,
)
from mahjong_nts.cli.simulate_report import check_report_options, write_report_dir
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS, check_seed
from mahjong_nts.formats.logkeys import LogKey
from mahjong_nts.formats.rulefiles import DEFAULT_RULESET
from mahjong_nts.sim.report import RunStats
from mahjong_nts.sim.simulate import (
    MAX_HANDS,
    MAX_MATCHES,
    BotError,
    SimulationSpec,
    Summary,
    WorkerFailure,
    run_simulation,
    table_size,
    validate_bots,
)

__all__ = ["HELP", "print_summary", "simulate_cmd"]

HELP = N_(
    "Play HANDS independent hands (or MATCHES whole matches) between bots; summarise win "
    "rates, balances, margins."
)

_stderr = Console(stderr=True, highlight=False, soft_wrap=True)

DEFAULT_HANDS = 2000


def _bots(text: str | None, rules: RuleSet, matches: bool) -> tuple[str, ...]:
    count = table_size(rules, matches)
    if text is None:
        return ("heuristic",) + ("random",) * (count - 1)
    with guard():
        names = bots_option(text, count)
        for name in dict.fromkeys(names):
            check_bot_option(name, rules)
        if len(names) != count:
            if matches:
                message = _(
                    "--bots: {ruleset} plays {count} players a match: give {count} bots, not {n}"
                )
            else:
                message = _(
                    "--bots: {ruleset} plays {count} seats a hand: give {count} bots, not {n}"
                )
            raise UsageProblem(message.format(ruleset=rules.name, count=count, n=len(names)))
    try:
        return validate_bots(names, rules, matches=matches)
    except ValueError as exc:
        fail(f"--bots: {exc}")


def _signing_key(path: Path | None, log_dir: str | None) -> LogKey | None:
    """The key of ``--sign`` (it signs the logs, so it needs ``--log``)."""
    if path is not None and log_dir is None:
        fail(_("--sign signs the hand logs: give --log DIR too"))
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


def _line(template: str, bold: str, **fields: object) -> Text:
    """``template`` filled in, with its ``{bold}`` part in bold: plain text pieces, data
    never read as markup."""
    before, _sep, after = template.partition("{bold}")
    return Text.assemble(before.format(**fields), (bold, "bold"), after.format(**fields))


def print_summary(console: Console, s: dict[str, Any]) -> None:
    """The summary as rich tables (the same numbers ``--json`` prints), in the language of
    the run."""
    by_match = s["matches"] is not None
    if by_match:
        played = ngettext(
            "{matches} match ({hands} hands)", "{matches} matches ({hands} hands)", s["matches"]
        ).format(matches=s["matches"], hands=s["hands"])
    else:
        played = ngettext("{n} hand", "{n} hands", s["hands"]).format(n=s["hands"])
    console.print(
        _line(
            _("{bold} of {ruleset} ({seats} seats), seed {seed}, bots {bots}; intervals are 95%."),
            played,
            ruleset=s["ruleset_name"],
            seats=s["seats"],
            seed=s["seed"],
            bots=", ".join(s["bots"]),
        )
    )
    if by_match:
        cut = (
            "; " + _("{n} cut at the hand limit").format(n=s["cut_matches"])
            if s["cut_matches"]
            else ""
        )
        console.print(
            _(
                "Whole matches: balances and margins are per match, win rates per hand "
                "played; {n} green-dragon hands{cut}."
            ).format(n=s["green_dragon_hands"], cut=cut),
            markup=False,
        )
    if by_match:
        balance_col = _("Mean balance a match [95% CI]")
    else:
        balance_col = _("Mean balance a hand [95% CI]")
    win_col = _("Win rate [95% CI]")
    table = Table(title=_("Per bot"), title_justify="left")
    table.add_column(_("Bot"), justify="left")
    for col in (_("Seats"), _("Wins"), win_col, balance_col):
        table.add_column(col, justify="right")
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
        if by_match:
            title = _("Per entry (seats rotate every match)")
        else:
            title = _("Per entry (seats rotate every hand)")
        table = Table(title=title, title_justify="left")
        table.add_column(_("Entry"), justify="right")
        table.add_column(_("Bot"), justify="left")
        for col in (_("Wins"), win_col, balance_col):
            table.add_column(col, justify="right")
        for e in s["entries"]:
            table.add_row(
                Text(str(e["entry"])),
                Text(e["bot"]),
                Text(str(e["wins"])),
                Text(f"{_pct(e['win_rate'])} {_pct_ci(e['win_rate_ci'])}"),
                Text(f"{e['mean_balance']:+.1f} {_pm(e['mean_balance_ci'], '+.1f')}"),
            )
        console.print(table)
    if by_match:
        margin = _(
            "Margin {bold}: {diff} points a match {ci}, win rate {rate} points {rate_ci} "
            "(per-match paired differences, normal approximation)"
        )
    else:
        margin = _(
            "Margin {bold}: {diff} points a hand {ci}, win rate {rate} points {rate_ci} "
            "(per-hand paired differences, normal approximation)"
        )
    for m in s["margins"]:
        console.print(
            _line(
                margin,
                f"{m['bot']} - {m['versus']}",
                diff=f"{m['mean_balance_diff']:+.1f}",
                ci=_pm(m["mean_balance_diff_ci"], "+.1f"),
                rate=f"{100 * m['win_rate_diff']:+.1f}",
                rate_ci=_pct_ci(m["win_rate_diff_ci"]),
            )
        )
    r = s["remise"]
    reasons = "; ".join(f"{k}: {v}" for k, v in r["reasons"].items())
    console.print(
        ngettext(
            "Remise: {n} hand, {rate} {ci}", "Remise: {n} hands, {rate} {ci}", r["count"]
        ).format(n=r["count"], rate=_pct(r["rate"]), ci=_pct_ci(r["rate_ci"]))
        + (f" ({reasons})" if reasons else ""),
        markup=False,
    )
    w, h = s["wins"], s["hand_length"]
    console.print(
        ngettext(
            "Won: {n} hand ({self_drawn} self-drawn, {claimed} on a claimed tile); hand "
            "length: {decisions} decisions, {draws} wall draws a hand",
            "Won: {n} hands ({self_drawn} self-drawn, {claimed} on a claimed tile); hand "
            "length: {decisions} decisions, {draws} wall draws a hand",
            w["count"],
        ).format(
            n=w["count"],
            self_drawn=w["self_drawn"],
            claimed=w["claimed"],
            decisions=f"{h['decisions']:.1f}",
            draws=f"{h['draws']:.1f}",
        ),
        markup=False,
    )
    dutch = current() == "nl"
    names = {k: v.nl if dutch else v.en for k, v in LIMIT_HANDS.items()} | {
        k: v.nl if dutch else v.en for k, v in ITEMS.items()
    }
    for title, rows in (
        (_("Scoring items in winning hands"), s["items"]),
        (_("Limit hands won"), s["limit_hands"]),
    ):
        if not rows:
            continue
        table = Table(title=title, title_justify="left")
        table.add_column(_("Item"))
        table.add_column(_("Hands"), justify="right")
        table.add_column(_("Of wins"), justify="right")
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
        help=N_("Single hands to play, 1 to 1000000 (default 2000)."),
        show_default=False,
    ),
]
MatchesOpt = Annotated[
    int | None,
    typer.Option(
        "--matches",
        "-m",
        help=N_(
            "Play whole matches instead, 1 to 100000 (green-dragon hands and the "
            "dreamer included; one bot per player)."
        ),
        show_default=False,
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help=N_(
            "Run seed, 0 to 2**256-1: hand (or match) i is fixed by (seed, i).  "
            "Default: a random one, shown in the summary."
        ),
        show_default=False,
    ),
]
BotsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots",
        help=N_(
            "One bot per seat (per player with --matches), comma-separated (random, "
            "heuristic); they rotate seats every hand (every match).  Default: heuristic and "
            "random for the others."
        ),
        show_default=False,
    ),
]
RulesetOpt = Annotated[
    str,
    typer.Option("--ruleset", "-r", help=N_("Shipped rule set (with +overlays) or a TOML file.")),
]
LogOpt = Annotated[
    Path | None,
    typer.Option(
        "--log", help=N_("Write each hand's JSON Lines log into this folder."), show_default=False
    ),
]
SignOpt = Annotated[
    Path | None,
    typer.Option(
        "--sign",
        help=N_("Sign the hand logs of --log with this private key (Ed25519 PEM or an HMAC key)."),
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print the summary as one JSON object."))]
ReportOpt = Annotated[
    Path | None,
    typer.Option(
        "--report",
        help=N_(
            "Write a report into this folder: CSV tables, plots and index.html (needs "
            "matplotlib: the [report] extra)."
        ),
        show_default=False,
    ),
]
CompareOpt = Annotated[
    str | None,
    typer.Option(
        "--compare",
        help=N_(
            "Play the same seeds under this rule set (shipped, with +overlays, or a TOML "
            "file) too and show both side by side in the report."
        ),
        show_default=False,
    ),
]


def _at_least_one(option: str, count: int) -> None:
    if count < 1:
        fail(_("{option} must be at least 1, not {n}").format(option=option, n=count))


def simulate_cmd(
    hands: HandsOpt = None,
    matches: MatchesOpt = None,
    seed: SeedOpt = None,
    bots: BotsOpt = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    jobs: JobsOpt = None,
    log: LogOpt = None,
    as_json: JsonOpt = False,
    sign: SignOpt = None,
    report: ReportOpt = None,
    compare: CompareOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
) -> None:
    """Play hands or matches between bots and summarise them (:data:`HELP`)."""
    if hands is not None and matches is not None:
        fail(_("give --hands N or --matches N, not both"))
    if matches is not None:
        count, option, limit = matches, "--matches", MAX_MATCHES
    else:
        count, option, limit = (DEFAULT_HANDS if hands is None else hands), "--hands", MAX_HANDS
    _at_least_one(option, count)
    if count > limit:
        fail(
            _("{option} must be at most {most}, not {n}").format(option=option, most=limit, n=count)
        )
    check_backend(backend, address, jobs)
    if backend == "ray" and log is not None:
        fail(_("--log writes on the machine that plays the hand: not with --backend ray"))
    if seed is None:
        seed = secrets.randbits(DEFAULT_SEED_BITS)
    try:
        check_seed(seed, "--seed")
    except ValueError as exc:  # InvalidSeed: its text, said in the run's language
        fail(getattr(exc, "text", str(exc)))
    with guard():
        rules = rules_option(ruleset)
    names = _bots(bots, rules, matches is not None)
    log_dir = None if log is None else str(log)
    key = _signing_key(sign, log_dir)  # every argument is checked before anything is made
    other = check_report_options(
        report, compare, log=log, ruleset=ruleset, rules=rules, matches=matches is not None
    )
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
    runs = [(spec, rules)]
    if compare is not None and other is not None:
        runs.append((dataclasses.replace(spec, ruleset=compare), other))
    summaries = [Summary(run_spec, run_rules) for run_spec, run_rules in runs]
    stats = [RunStats(run_spec.ruleset, run_spec, run_rules) for run_spec, run_rules in runs]
    try:
        with open_backend(backend, address, jobs) as (where, jobs):
            what = _("simulating matches") if matches is not None else _("simulating hands")
            start = time.perf_counter()
            with progress_bar(what, count * len(runs), quiet=as_json) as advance:
                for (run_spec, run_rules), summary, counts in zip(
                    runs, summaries, stats, strict=True
                ):
                    for outcome in run_simulation(
                        run_spec, count, jobs, advance, rules=run_rules, backend=where
                    ):
                        summary.add(outcome)
                        if report is not None:
                            counts.add(outcome)
            elapsed = max(time.perf_counter() - start, 1e-9)
    except WorkerFailure as exc:
        fail(worker_failure(exc), code=1)
    except (BotError, BotLoadError) as exc:  # BotLoadError: a Ray node without the bot
        fail(str(exc), code=1)
    except OSError as exc:
        fail(f"--log: {exc.filename or log_dir}: {os_reason(exc)}")
    except KeyboardInterrupt:
        _stderr.print(_("interrupted: no summary"), markup=False)
        raise typer.Exit(130) from None
    results = [summary.result() for summary in summaries]
    if report is not None:
        write_report_dir(report, stats)
    result = results[0]
    if as_json:
        if len(results) > 1:
            result = {**result, "compare": results[1]}
        typer.echo(json.dumps(result))
        return
    console = Console(highlight=False)
    for shown in results:
        print_summary(console, shown)
    fields = {
        "hands": sum(r["hands"] for r in results),
        "seconds": f"{elapsed:.1f}",
        "rate": f"{sum(r['hands'] for r in results) / elapsed:.0f}",
        "jobs": ngettext("{n} job", "{n} jobs", jobs).format(n=jobs),
    }
    if matches is None:
        timing = _("{hands} hands in {seconds} s ({rate} hands/s, {jobs})").format(**fields)
    else:
        timing = ngettext(
            "{matches} match, {hands} hands in {seconds} s ({rate} hands/s, {jobs})",
            "{matches} matches, {hands} hands in {seconds} s ({rate} hands/s, {jobs})",
            count,
        ).format(matches=count * len(runs), **fields)
    console.print(timing, style="dim", markup=False)
