"""``mahjong-nts duel A B``: duplicate evaluation of two bots (the method is in
:mod:`mahjong_nts.sim.duel`; this module parses, shows a progress bar on stderr and prints
the result, or one JSON object with ``--json``).  Bad options: ``error: ...`` on stderr,
exit code 2.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Annotated, Any

import typer
from rich.console import Console
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
from mahjong_nts.cli.i18n import N_, _, ngettext
from mahjong_nts.cli.options import (
    UsageProblem,
    check_bot_option,
    fail,
    guard,
    rules_option,
)
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS, check_seed
from mahjong_nts.formats.rulefiles import DEFAULT_RULESET
from mahjong_nts.sim.duel import (
    MAX_HANDS,
    DuelSpec,
    DuelSummary,
    arrangements,
    run_duel,
    walls_for,
)
from mahjong_nts.sim.runner import WorkerFailure
from mahjong_nts.sim.simulate import BotError

__all__ = ["HELP", "duel_cmd", "print_duel"]

HELP = N_(
    "Duplicate evaluation: bots A and B play the same walls from every seat (two of each, "
    "seated AABB and rotated; at three seats each alone against two of the other); the "
    "mean difference a hand, A minus B, with its 95% interval over the walls."
)

DEFAULT_HANDS = 2000

BotA = Annotated[
    str,
    typer.Argument(
        help=N_("Bot A: random, heuristic, ..., module:Class, or an entry point's name."),
        metavar="A",
        show_default=False,
    ),
]
BotB = Annotated[
    str, typer.Argument(help=N_("Bot B (the same forms)."), metavar="B", show_default=False)
]
HandsOpt = Annotated[
    int,
    typer.Option(
        "--hands",
        "-n",
        help=N_(
            "Hands to play, 1 to 1000000, rounded up to whole walls (4 hands a wall, 6 at "
            "three seats; at least 2 walls)."
        ),
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help=N_(
            "Run seed, 0 to 2**256-1: wall w is the wall of simulate's hand w with this seed.  "
            "Default: a random one, shown in the result."
        ),
        show_default=False,
    ),
]
RulesetOpt = Annotated[
    str,
    typer.Option("--ruleset", "-r", help=N_("Shipped rule set (with +overlays) or a TOML file.")),
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print the result as one JSON object."))]


def print_duel(console: Console, s: dict[str, Any], timing: dict[str, Any]) -> None:
    """The result as text (the numbers ``--json`` prints), in the language of the run."""
    a, b = s["bots"]
    console.print(
        Text.assemble(
            _("Duel of {a} (A) and {b} (B): ").format(a=a["bot"], b=b["bot"]),
            (
                ngettext("{n} hand", "{n} hands", s["hands"]).format(n=s["hands"])
                + " "
                + ngettext("on {n} wall", "on {n} walls", s["walls"]).format(n=s["walls"]),
                "bold",
            ),
            _(" of {ruleset} ({seats} seats), seed {seed}.").format(
                ruleset=s["ruleset_name"], seats=s["seats"], seed=s["seed"]
            ),
        )
    )
    if s["seats"] == 4:
        seating = _("two of each bot, seated {rows}: each bot on every seat twice a wall")
    else:
        seating = _("each bot alone against two of the other, seated {rows}: six hands a wall")
    console.print(
        _("Seating: {seating}.").format(seating=seating.format(rows=", ".join(s["arrangements"]))),
        markup=False,
    )
    lo, hi = s["mean_diff_ci"]
    console.print(
        Text.assemble(
            _("A - B: "),
            (_("{diff} points a hand").format(diff=f"{s['mean_diff']:+.1f}"), "bold"),
            f" [{lo:+.1f}, {hi:+.1f}] ",
            _(
                "(95%, normal approximation over the walls: a wall is the unit; standard "
                "deviation of a wall {sd})"
            ).format(sd=f"{s['wall_sd']:.1f}"),
        )
    )
    for role, x in (("A", a), ("B", b)):
        lo, hi = x["win_rate_ci"]
        console.print(
            _(
                "{role} {bot}: won {wins} of {hands} seat-hands, {rate} [{lo}, {hi}]; "
                "{balance} points a seat-hand"
            ).format(
                role=role,
                bot=x["bot"],
                wins=x["wins"],
                hands=x["seat_hands"],
                rate=f"{100 * x['win_rate']:.1f}%",
                lo=f"{100 * lo:.1f}",
                hi=f"{100 * hi:.1f}",
                balance=f"{x['mean_balance']:+.1f}",
            ),
            markup=False,
        )
    r = s["remise"]
    console.print(
        ngettext("Remise: {n} hand, {rate}", "Remise: {n} hands, {rate}", r["count"]).format(
            n=r["count"], rate=f"{100 * r['rate']:.1f}%"
        ),
        markup=False,
    )
    console.print(
        _("{hands} hands in {seconds} s ({rate} hands/s, {jobs})").format(
            hands=s["hands"],
            seconds=f"{timing['seconds']:.1f}",
            rate=f"{timing['hands_per_second']:.0f}",
            jobs=ngettext("{n} job", "{n} jobs", timing["jobs"]).format(n=timing["jobs"]),
        )
        + ("" if timing["backend"] == "local" else " (Ray)"),
        style="dim",
        markup=False,
    )


def duel_cmd(
    a: BotA,
    b: BotB,
    hands: HandsOpt = DEFAULT_HANDS,
    seed: SeedOpt = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    jobs: JobsOpt = None,
    as_json: JsonOpt = False,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
) -> None:
    """Duplicate evaluation of two bots (:data:`HELP`)."""
    if not 1 <= hands <= MAX_HANDS:
        fail(
            _("{option} must be from 1 to {most}, not {n}").format(
                option="--hands", most=MAX_HANDS, n=hands
            )
        )
    check_backend(backend, address, jobs)
    if seed is None:
        seed = secrets.randbits(DEFAULT_SEED_BITS)
    try:
        check_seed(seed, "--seed")
    except ValueError as exc:  # InvalidSeed: its text, said in the run's language
        fail(getattr(exc, "text", str(exc)))
    with guard():
        rules = rules_option(ruleset)
    seats = rules.table.players
    try:
        arrangements(seats)
    except ValueError:
        fail(
            _("{ruleset}: a duel is played at 3 or 4 seats, not {n}").format(
                ruleset=rules.name, n=seats
            )
        )
    for option, name in (("A", a), ("B", b)):
        try:
            check_bot_option(name, rules, option)
        except UsageProblem as exc:
            fail(str(exc))
    spec = DuelSpec(ruleset=ruleset, a=a, b=b, seed=seed)
    summary = DuelSummary(spec, rules)
    try:
        with open_backend(backend, address, jobs) as (where, jobs):
            start = time.perf_counter()
            with progress_bar(_("playing walls"), walls_for(hands, seats), as_json) as advance:
                for wall in run_duel(spec, hands, jobs, advance, rules=rules, backend=where):
                    summary.add(wall)
            elapsed = max(time.perf_counter() - start, 1e-9)
    except WorkerFailure as exc:
        fail(worker_failure(exc), code=1)
    except (BotError, BotLoadError) as exc:  # BotLoadError: a Ray node without the bot
        fail(str(exc), code=1)
    except KeyboardInterrupt:
        Console(stderr=True).print(_("interrupted: no summary"), markup=False)
        raise typer.Exit(130) from None
    result = summary.result()
    timing = {
        "seconds": elapsed,
        "hands_per_second": result["hands"] / elapsed,
        "jobs": jobs,
        "backend": backend,
    }
    if as_json:
        typer.echo(json.dumps(result | {"timing": timing}))
        return
    print_duel(Console(highlight=False), result, timing)
