"""``mahjong-nts tournament``: a seating plan without a database, and (in
:mod:`mahjong_nts.cli.tournament_db`) a tournament kept in the database.

``tournament seat --players N --rounds R`` prints a seating plan: for each round its
tables, each table's player numbers in seat order East, South, West, North (a fifth:
the dreamer of the first hand), with its repeat meetings and its wind balance; with
``--json`` one object ``{"rounds": [[[1, 7, 12, 30], ...], ...], "repeats": R,
"east": [...]}`` (``east[i]``: how often player ``i + 1`` sits East).  The seating
itself is :mod:`mahjong_nts.tournament.seating`; this module reads the options and the
files and prints.  Bad input: one ``error:`` line, exit code 2.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated

import typer

from mahjong_nts.cli.i18n import N_, _, ngettext, pgettext
from mahjong_nts.cli.options import fail, read_small_text, said
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.seeding import MAX_SEED
from mahjong_nts.tournament.players import MAX_PLAYERS, MAX_ROUNDS
from mahjong_nts.tournament.seating import (
    MAX_CLUBS_BYTES,
    MAX_SCHEDULE_BYTES,
    Round,
    SeatingOptions,
    club_meetings,
    plan_rounds,
    read_clubs,
    read_schedule,
    repeat_lower_bound,
    repeats,
    wind_counts,
)

__all__ = ["app", "seat"]

MIN_PLAYERS = 4
"""``--players``: at least one table of four."""

SEED_BITS = 64
"""Bits of a seed chosen at random (shown, so the plan can be made again)."""

app = typer.Typer(
    name="tournament",
    help=N_(
        "Tournaments: a seating plan without a database (seat --players), or a tournament "
        "in the database (new, add, player, seat --db, result, penalty, standings, export)."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

PlayersOpt = Annotated[
    int | None,
    typer.Option(
        "--players",
        "-n",
        help=N_("Players, numbered 1 to N: 4 to 400."),
        show_default=False,
    ),
]
RoundsOpt = Annotated[
    int | None,
    typer.Option("--rounds", "-r", help=N_("Rounds: 1 to 20."), show_default=False),
]
DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help=N_(
            "Seat the next round of a tournament in this database (with --tournament) "
            "instead of printing a plan."
        ),
        show_default=False,
    ),
]
TournamentOpt = Annotated[
    int | None,
    typer.Option(
        "--tournament",
        "-t",
        help=N_("The tournament (its number) whose next round to seat, in the database."),
        show_default=False,
    ),
]
ClubsOpt = Annotated[
    Path | None,
    typer.Option(
        "--clubs",
        help=N_(
            "Keep club mates apart: a CSV file of lines 'player,club' (at most 64 KiB; "
            "see docs/tournament.md)."
        ),
        show_default=False,
    ),
]
ScheduleOpt = Annotated[
    Path | None,
    typer.Option(
        "--schedule",
        help=N_(
            "Take the first rounds from a fixed schedule (a loopschema): a CSV file of "
            "lines 'round,table,east,south,west,north'; the other rounds are seated after "
            "them."
        ),
        show_default=False,
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help=N_(
            "Seed, 0 to 2**256-1: the same seed gives the same plan.  Default: a random "
            "one, shown with the plan."
        ),
        show_default=False,
    ),
]
FivesOpt = Annotated[
    bool,
    typer.Option(
        "--fives/--no-fives",
        help=N_(
            "With a player count one more than a multiple of four: one table of five (with "
            "a dreamer), or else three tables of three."
        ),
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help=N_('Print one JSON object: {"rounds": [...], "repeats": R, "east": [...]}.'),
    ),
]


def _range(option: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        fail(
            _("{option}: {low} to {high}, not {value}").format(
                option=option, low=low, high=high, value=value
            )
        )


def _schedule(path: Path, players: int, rounds: int) -> tuple[Round, ...]:
    try:
        fixed = read_schedule(read_small_text(path, "--schedule", MAX_SCHEDULE_BYTES), "--schedule")
    except MahjongError as exc:
        fail(said(exc))
    if len(fixed) > rounds:
        fail(
            _("--schedule: {n} rounds, more than --rounds {rounds}").format(
                n=len(fixed), rounds=rounds
            )
        )
    everyone = list(range(1, players + 1))
    for r in fixed:
        if list(r.players) != everyone:
            missing = sorted(set(everyone) - set(r.players))
            extra = sorted(set(r.players) - set(everyone))
            if extra:
                fail(
                    _(
                        "--schedule: round {round} seats player {player}, not one of 1 to {n}"
                    ).format(round=r.number, player=extra[0], n=players)
                )
            fail(
                _("--schedule: round {round} does not seat player {player}").format(
                    round=r.number, player=missing[0]
                )
            )
    return fixed


def _clubs(path: Path, players: int) -> dict[int, str]:
    try:
        clubs = read_clubs(read_small_text(path, "--clubs", MAX_CLUBS_BYTES), "--clubs")
    except MahjongError as exc:
        fail(said(exc))
    for p in clubs:
        if p > players:
            fail(_("--clubs: player {player} is not one of 1 to {n}").format(player=p, n=players))
    return clubs


@app.command(
    "seat",
    help=N_(
        "Print a seating plan for players 1 to N over R rounds: nobody meets anyone twice "
        "while that is possible, club mates apart, winds balanced; with its repeat "
        "meetings and how often each player sits East."
    ),
)
def seat(
    players: PlayersOpt = None,
    rounds: RoundsOpt = None,
    clubs: ClubsOpt = None,
    schedule: ScheduleOpt = None,
    seed: SeedOpt = None,
    fives: FivesOpt = True,
    as_json: JsonOpt = False,
    db: DbOpt = None,
    tournament: TournamentOpt = None,
) -> None:
    """A seating plan without a database (see the module's docstring); with
    ``--tournament`` the next round of a tournament in the database."""
    import random

    if tournament is not None or db is not None:
        if tournament is None:
            fail(_("--db: give --tournament, the tournament whose next round to seat"))
        if players is not None or rounds is not None or clubs or seed is not None:
            fail(
                _(
                    "--tournament: the tournament's players, rounds and seed are in the "
                    "database; leave out --players, --rounds, --clubs, --seed"
                )
            )
        from mahjong_nts.cli.tournament_db import seat_in_db

        fixed = None
        if schedule is not None:
            try:
                fixed = read_schedule(
                    read_small_text(schedule, "--schedule", MAX_SCHEDULE_BYTES), "--schedule"
                )
            except MahjongError as exc:
                fail(said(exc))
        seat_in_db(db, tournament, as_json, fixed)
        return
    if players is None or rounds is None:
        # as click says it for a required option (the database's seat needs neither)
        missing = "'--players'" if players is None else "'--rounds'"
        fail(_("missing option {name}").format(name=missing))

    _range("--players", players, MIN_PLAYERS, MAX_PLAYERS)
    _range("--rounds", rounds, 1, MAX_ROUNDS)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    elif not 0 <= seed <= MAX_SEED:
        fail(_("--seed: a whole number from 0 to 2**256 - 1"))
    club_of = _clubs(clubs, players) if clubs is not None else {}
    fixed = _schedule(schedule, players, rounds) if schedule is not None else ()
    everyone = list(range(1, players + 1))
    try:
        options = SeatingOptions(fives=fives, clubs=club_of)
        planned = plan_rounds(
            [everyone] * (rounds - len(fixed)), fixed, options, random.Random(seed)
        )
    except MahjongError as exc:
        fail(said(exc))
    plan = (*fixed, *planned)
    winds = wind_counts(plan)
    east = [winds.get(p, (0,))[0] for p in everyone]
    found = repeats(plan)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "rounds": [[list(t) for t in r.tables] for r in plan],
                    "repeats": found,
                    "east": east,
                }
            )
        )
        return
    seat_names = [
        pgettext("seat", "E"),
        pgettext("seat", "S"),
        pgettext("seat", "W"),
        pgettext("seat", "N"),
        pgettext("seat", "dreamer"),
    ]
    for r in plan:
        typer.echo(_("Round {round}").format(round=r.number))
        for k, table in enumerate(r.tables, 1):
            seats = "  ".join(f"{seat_names[i]} {p:>3}" for i, p in enumerate(table))
            typer.echo("  " + _("Table {table:>2}:").format(table=k) + " " + seats)
    typer.echo("")
    try:
        bound = repeat_lower_bound(players, rounds, fives)
    except MahjongError:  # pragma: no cover - the plan above was made for these sizes
        bound = 0
    typer.echo(
        ngettext(
            "{n} repeat meeting (the fewest possible by counting: {bound}).",
            "{n} repeat meetings (the fewest possible by counting: {bound}).",
            found,
        ).format(n=found, bound=bound)
    )
    typer.echo(_("East: every player {low} to {high} times.").format(low=min(east), high=max(east)))
    if club_of:
        typer.echo(_("Club mates at one table: {n} times.").format(n=club_meetings(plan, club_of)))
    typer.echo(_("Seed {seed} (give --seed {seed} for the same plan).").format(seed=seed))


def _register_database_commands() -> None:
    from mahjong_nts.cli.tournament_db import register

    register(app)


_register_database_commands()
