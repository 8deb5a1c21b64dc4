"""``mahjong-nts tournament new/add/player/seat/result/penalty/standings/export``: a
tournament kept in the database (``--db``, as ``serve`` has it).

The commands parse, call :mod:`mahjong_nts.store.tournaments` and print; the checks
are the store's and the tournament logic's.  A tournament is named by its number
(``--tournament``/``-t``, printed by ``tournament new``).  Bad input: one ``error:``
line, exit code 2, nothing stored.  ``tournament seat`` without ``--db`` or
``--tournament`` stays the plan without a database (:mod:`mahjong_nts.cli.tournament`).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from mahjong_nts.cli.i18n import N_, _, pgettext
from mahjong_nts.cli.options import fail, os_problem, read_small_text, said
from mahjong_nts.core.errors import MahjongError, quote
from mahjong_nts.online.tournament_sources import enter_result_from, online_source, sheet_source
from mahjong_nts.store import Store, StoreError, open_store
from mahjong_nts.store.db import MAX_URL_CHARS, default_url
from mahjong_nts.store.tournaments import (
    EnteredAlready,
    ResultView,
    TournamentView,
    add_penalty,
    add_player,
    create_tournament,
    edit_player,
    enter_result,
    get_tournament,
    import_players,
    seat_next_round,
    set_rounds,
    swap_players,
)
from mahjong_nts.tournament import Round, ema_rows, format_points
from mahjong_nts.tournament.registration import MAX_PLAYERS_BYTES, record_rows

__all__ = ["register", "seat_in_db"]

T = TypeVar("T")

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help=N_(
            "A SQLAlchemy database URL (default: MAHJONG_NTS_DB_URL, else SQLite in the "
            "user's data directory), as serve has it."
        ),
        show_default=False,
    ),
]
TournamentOpt = Annotated[
    int,
    typer.Option(
        "--tournament",
        "-t",
        help=N_("The tournament's number (printed by tournament new)."),
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print JSON."))]

MAX_LIST_ITEMS = 5
"""Values in a comma-separated list option (scores, players: a table seats 3 to 5)."""


@contextmanager
def _store(db: str | None) -> Iterator[Store]:
    if db is not None and not 0 < len(db) <= MAX_URL_CHARS:
        fail(_("--db: a database URL has 1 to {most} characters").format(most=MAX_URL_CHARS))
    url = db or os.environ.get("MAHJONG_NTS_DB_URL")
    try:
        store = (
            open_store(url)
            if url is not None
            else open_store(default_url(os.environ.get("MAHJONG_NTS_DATA_DIR") or None))
        )
    except StoreError as exc:
        fail(f"--db: {exc}" if db is not None else str(exc))
    try:
        yield store
    finally:
        store.close()


def _run(db: str | None, work: Callable[[Store], T]) -> T:
    """``work(store)``; every refusal one ``error:`` line and exit code 2."""
    with _store(db) as store:
        try:
            return work(store)
        except MahjongError as exc:
            fail(said(exc))
        except EnteredAlready as exc:
            fail(
                _(
                    "round {round}, table {table} was entered already (by {who}, version "
                    "{version}): to change it, give --correct {version} with the right result"
                ).format(round=exc.round, table=exc.table, who=quote(exc.who), version=exc.version)
            )
        except StoreError as exc:
            fail(exc.args[0] if exc.args else str(exc))


def _ints(option: str, text: str) -> list[int]:
    cells = [c.strip() for c in text.split(",")] if len(text) <= 200 else []
    out = []
    for cell in cells:
        sign = cell[1:] if cell[:1] in "+-" else cell
        if not sign.isdigit() or len(sign) > 16:
            fail(
                _("{option}: {value} is not a list of whole numbers like 30,-10,-10,-10").format(
                    option=option, value=quote(text)
                )
            )
        out.append(int(cell))
    if not 1 <= len(out) <= MAX_LIST_ITEMS:
        fail(
            _("{option}: give 1 to {most} whole numbers separated by commas").format(
                option=option, most=MAX_LIST_ITEMS
            )
        )
    return out


def _seat_names() -> list[str]:
    return [
        pgettext("seat", "E"),
        pgettext("seat", "S"),
        pgettext("seat", "W"),
        pgettext("seat", "N"),
        pgettext("seat", "dreamer"),
    ]


def _print_round(view: TournamentView, seating: Round) -> None:
    names = {p.number: p.name for p in view.roster}
    seats = _seat_names()
    typer.echo(_("Round {round}").format(round=seating.number))
    for k, table in enumerate(seating.tables, 1):
        typer.echo("  " + _("Table {table:>2}:").format(table=k))
        for i, p in enumerate(table):
            typer.echo(f"    {seats[i]:<3} {p:>3}  {names.get(p, '')}")


# --------------------------------------------------------------------------- commands


def new(
    name: Annotated[str, typer.Option("--name", help=N_("The tournament's name."))],
    day: Annotated[
        str, typer.Option("--date", help=N_("The day, as YYYY-MM-DD."), show_default=False)
    ],
    rounds: Annotated[int, typer.Option("--rounds", "-r", help=N_("Rounds: 1 to 20."))],
    ruleset: Annotated[
        str, typer.Option("--ruleset", help=N_("A shipped rule set, with +overlays."))
    ] = "nts-2016",
    points: Annotated[
        str, typer.Option("--points", help=N_("Table points at a table of four, like 4/2/1/0."))
    ] = "4/2/1/0",
    ties: Annotated[
        str,
        typer.Option(
            "--ties",
            help=N_(
                "Tied players split the points of their places (split) or each get the "
                "best (share)."
            ),
        ),
    ] = "split",
    ranking: Annotated[
        str,
        typer.Option(
            "--ranking",
            help=N_("table_points (then score) or score (score alone), then the tie-breaks."),
        ),
    ] = "table_points",
    fives: Annotated[
        bool,
        typer.Option(
            "--fives/--no-fives",
            help=N_("One more than a multiple of four: a table of five, or else threes."),
        ),
    ] = True,
    clubs_apart: Annotated[
        bool, typer.Option("--clubs-apart", help=N_("Keep club mates apart when seating."))
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help=N_("The seating seed (default: a random one)."), show_default=False
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Make a tournament and print its number and links."""
    info = _run(
        db,
        lambda store: create_tournament(
            store,
            name=name,
            day=day,
            rounds=rounds,
            ruleset=ruleset,
            fives=fives,
            clubs_apart=clubs_apart,
            ranking={"method": ranking, "points": points, "ties": ties},
            seed=seed,
        ),
    )
    typer.echo(
        _("Tournament {number}: {name}, {day}, {rounds} rounds.").format(
            number=info.id, name=info.name, day=info.day.isoformat(), rounds=info.rounds
        )
    )
    typer.echo(
        _("Organiser link: /tournaments/{token} (keep it to yourself)").format(token=info.token)
    )
    typer.echo(_("Players' link: /t/{public}").format(public=info.public_id))
    typer.echo(_("Seed {seed}.").format(seed=info.seed))


def add(
    tournament: TournamentOpt,
    first_name: Annotated[
        str | None, typer.Option("--first-name", help=N_("The player's first name."))
    ] = None,
    last_name: Annotated[str, typer.Option("--last-name", help=N_("The last name."))] = "",
    club: Annotated[str, typer.Option("--club", help=N_("The club."))] = "",
    ema: Annotated[str, typer.Option("--ema", help=N_("The EMA number."))] = "",
    nmb: Annotated[str, typer.Option("--nmb", help=N_("The NMB number."))] = "",
    first_round: Annotated[
        int, typer.Option("--first-round", help=N_("A late arrival: the first round played."))
    ] = 1,
    substitute_for: Annotated[
        int | None,
        typer.Option(
            "--substitute-for",
            help=N_("The number of the player this one replaces."),
            show_default=False,
        ),
    ] = None,
    csv_file: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            help=N_(
                "Register every player of a CSV file (a header line: first name, last "
                "name, club, ema, nmb): all of them, or none."
            ),
            show_default=False,
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Register a player, or every player of a CSV file."""
    if (csv_file is None) == (first_name is None):
        fail(_("give either --first-name (one player) or --csv (a file of players)"))
    if csv_file is not None:
        text = read_small_text(csv_file, "--csv", MAX_PLAYERS_BYTES)
        players = _run(db, lambda store: import_players(store, tournament, text))
    else:
        players = (
            _run(
                db,
                lambda store: add_player(
                    store,
                    tournament,
                    first_name=first_name,
                    last_name=last_name,
                    club=club,
                    ema=ema,
                    nmb=nmb,
                    first_round=first_round,
                    substitute_for=substitute_for,
                ),
            ),
        )
    for p in players:
        typer.echo(_("Player {number}: {name}").format(number=p.number, name=p.name))


def player(
    tournament: TournamentOpt,
    number: Annotated[int, typer.Argument(help=N_("The player's number."))],
    first_round: Annotated[
        int | None,
        typer.Option(
            "--first-round", help=N_("Comes late: the first round played."), show_default=False
        ),
    ] = None,
    last_round: Annotated[
        int | None,
        typer.Option(
            "--last-round", help=N_("Drops out: the last round played."), show_default=False
        ),
    ] = None,
    absent: Annotated[
        str | None,
        typer.Option(
            "--absent", help=N_("Rounds missed, like 3,4 (empty: none)."), show_default=False
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Mark a player late, dropped out or absent in some rounds."""
    changes: dict[str, Any] = {}
    if first_round is not None:
        changes["first_round"] = first_round
    if last_round is not None:
        changes["last_round"] = last_round
    if absent is not None:
        changes["absent"] = _ints("--absent", absent) if absent.strip() else []
    if not changes:
        fail(_("give --first-round, --last-round or --absent"))
    p = _run(db, lambda store: edit_player(store, tournament, number, **changes))
    last = p.last_round if p.last_round is not None else "-"
    typer.echo(
        _("Player {number}: {name}, rounds {first} to {last}, absent {absent}.").format(
            number=p.number,
            name=p.name,
            first=p.first_round,
            last=last,
            absent=",".join(map(str, sorted(p.absent))) or "-",
        )
    )


def seat_in_db(
    db: str | None, tournament: int, as_json: bool, schedule: tuple[Round, ...] | None = None
) -> None:
    """Seat the tournament's next round and print it (``tournament seat --db``); with
    a fixed ``schedule`` (``--schedule``), store its rounds instead, all or none."""

    def work(store: Store) -> tuple[tuple[Round, ...], TournamentView]:
        if schedule is not None:
            done = set_rounds(store, tournament, schedule)
        else:
            done = (seat_next_round(store, tournament),)
        return done, get_tournament(store, tournament)

    seated, view = _run(db, work)
    if as_json:
        for seating in seated:
            typer.echo(
                json.dumps({"round": seating.number, "tables": [list(t) for t in seating.tables]})
            )
        return
    for seating in seated:
        _print_round(view, seating)


def swap_cmd(
    tournament: TournamentOpt,
    round_number: Annotated[int, typer.Option("--round", help=N_("The round."))],
    first: Annotated[int, typer.Argument(help=N_("A player's number."))],
    second: Annotated[int, typer.Argument(help=N_("The other player's number."))],
    db: DbOpt = None,
) -> None:
    """Swap two players of a seated round without results, and say which repeat
    meetings that brings."""

    def work(store: Store) -> tuple[Any, TournamentView]:
        done = swap_players(store, tournament, round_number, first, second)
        return done, get_tournament(store, tournament)

    done, view = _run(db, work)
    _print_round(view, done.round)
    if not done.new_repeats:
        typer.echo(_("No repeat meetings at the two tables."))
    for a, b, times in done.new_repeats:
        typer.echo(_("Players {a} and {b} meet {times} times now.").format(a=a, b=b, times=times))


def result(
    tournament: TournamentOpt,
    round_number: Annotated[int, typer.Option("--round", help=N_("The round."))],
    table: Annotated[int, typer.Option("--table", help=N_("The table."))],
    scores: Annotated[
        str | None,
        typer.Option(
            "--scores",
            help=N_(
                "The final scores in seat order, like 30,-10,-10,-10: they sum to the "
                "table's total."
            ),
            show_default=False,
        ),
    ] = None,
    from_online: Annotated[
        str | None,
        typer.Option(
            "--from-online",
            help=N_(
                "Instead of --scores: the online table (its link or id) where the table "
                "played; each seat's settlements summed, in seat order."
            ),
            show_default=False,
        ),
    ] = None,
    from_sheet: Annotated[
        str | None,
        typer.Option(
            "--from-sheet",
            help=N_(
                "Instead of --scores: the evening score sheet (its link or token) of the "
                "table; its running totals, in the order of its players."
            ),
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help=N_("The players in the order of the scores (default: the seating's)."),
            show_default=False,
        ),
    ] = None,
    mahjongs: Annotated[
        str | None,
        typer.Option("--mahjongs", help=N_("Each player's mahjongs."), show_default=False),
    ] = None,
    deal_ins: Annotated[
        str | None,
        typer.Option("--deal-ins", help=N_("Each player's deal-ins."), show_default=False),
    ] = None,
    by: Annotated[str, typer.Option("--by", help=N_("Who enters it."))] = "",
    correct: Annotated[
        int | None,
        typer.Option(
            "--correct",
            help=N_("Correct the result at this version (shown when it was entered)."),
            show_default=False,
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Enter (or correct) a table's result."""
    given = [o for o, v in (("--scores", scores), ("--from-online", from_online),
                            ("--from-sheet", from_sheet)) if v is not None]  # fmt: skip
    if len(given) != 1:
        fail(_("give one of --scores, --from-online and --from-sheet"))
    if scores is None and (players, mahjongs, deal_ins) != (None, None, None):
        fail(
            _("{option}: the players, mahjongs and deal-ins go with --scores").format(
                option=given[0]
            )
        )
    finals = _ints("--scores", scores) if scores is not None else []
    who = _ints("--players", players) if players is not None else None
    mj = _ints("--mahjongs", mahjongs) if mahjongs is not None else ()
    di = _ints("--deal-ins", deal_ins) if deal_ins is not None else ()

    def work(store: Store) -> ResultView:
        if scores is None:
            source = (
                online_source(store, from_online)
                if from_online is not None
                else sheet_source(store, from_sheet or "")
            )
            return enter_result_from(
                store, tournament, round_number, table, source, by=by, version=correct
            )
        return enter_result(
            store,
            tournament,
            round_number,
            table,
            finals,
            players=who,
            mahjongs=mj,
            deal_ins=di,
            by=by,
            version=correct,
        )

    done = _run(db, work)
    res = done.result
    typer.echo(
        _("Round {round}, table {table}: version {version}.").format(
            round=res.round, table=res.table, version=done.version
        )
    )
    for p, f in zip(res.players, res.finals, strict=True):
        typer.echo(f"  {p:>3}  {f:>8}")


def penalty(
    tournament: TournamentOpt,
    number: Annotated[int, typer.Option("--player", help=N_("The player's number."))],
    round_number: Annotated[int, typer.Option("--round", help=N_("The round."))],
    points: Annotated[int, typer.Option("--points", help=N_("Penalty points, from 1."))],
    reason: Annotated[str, typer.Option("--reason", help=N_("Why: a false mahjong, lateness."))],
    by: Annotated[str, typer.Option("--by", help=N_("Who gives it."))] = "",
    db: DbOpt = None,
) -> None:
    """Give a player penalty points (off the total score, never the table points)."""
    given = _run(
        db,
        lambda store: add_penalty(
            store,
            tournament,
            player=number,
            round_number=round_number,
            points=points,
            reason=reason,
            by=by,
        ),
    )
    typer.echo(
        _("Player {number}: {points} penalty points in round {round} ({reason}).").format(
            number=given.player, points=given.points, round=given.round, reason=given.reason
        )
    )


def standings_cmd(tournament: TournamentOpt, as_json: JsonOpt = False, db: DbOpt = None) -> None:
    """Print the standings."""

    def work(store: Store) -> tuple[TournamentView, Any]:
        view = get_tournament(store, tournament)
        return view, view.standings()

    view, table = _run(db, work)
    names = {p.number: p.name for p in view.roster}
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "place": s.place,
                        "shared": s.shared,
                        "player": s.player,
                        "name": names.get(s.player, ""),
                        "table_points": format_points(s.table_points),
                        "score": s.score,
                        "penalty": s.penalty,
                        "total": s.total,
                        "mahjongs": s.mahjongs,
                        "deal_ins": s.deal_ins,
                        "rounds": s.rounds,
                    }
                    for s in table
                ]
            )
        )
        return
    place, number, name = _("Place"), _("No."), _("Name")
    points, score, penalty_word = _("Points"), _("Score"), _("Penalty")
    mahjongs, deal_ins = _("Mahjongs"), _("Deal-ins")
    typer.echo(
        f"{place:>5}  {number:>3}  {name:<30} {points:>6} {score:>8} {penalty_word:>7} "
        f"{mahjongs:>8} {deal_ins:>8}"
    )
    for s in table:
        place = f"{s.place}{'=' if s.shared else ''}"
        typer.echo(
            f"{place:>5}  {s.player:>3}  {names.get(s.player, ''):<30} "
            f"{format_points(s.table_points):>6} {s.total:>8} {s.penalty or '':>7} "
            f"{s.mahjongs:>8} {s.deal_ins:>8}"
        )


def export(
    tournament: TournamentOpt,
    full: Annotated[
        bool,
        typer.Option("--full", help=N_("The table-by-table record instead of the EMA results.")),
    ] = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help=N_("Write to this file (default: print)."), show_default=False
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Export the results as CSV: the EMA results format (Place, First name, Last name,
    EMA number, Table points, Score, Country/club), or with --full every table."""

    def work(store: Store) -> list[tuple[str, ...]]:
        view = get_tournament(store, tournament)
        if full:
            return record_rows(view.table_results, view.roster, view.info.ranking)
        return ema_rows(view.standings(), view.roster)

    rows = _run(db, work)
    text = csv_text(rows)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"--output: {os_problem(exc)}")


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_text(rows: list[tuple[str, ...]]) -> str:
    """CSV of ``rows``; a text cell that a spreadsheet would take for a formula gets a
    leading ``'`` (numbers stay numbers)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
        writer.writerow(["'" + c if c.startswith(_FORMULA) and not _number(c) else c for c in row])
    return buffer.getvalue()


def _number(cell: str) -> bool:
    body = cell[1:] if cell[:1] in "+-" else cell
    return body.replace(".", "", 1).isdigit()


def register(app: typer.Typer) -> None:
    """Add the database commands to ``tournament``."""
    app.command("new", help=N_("Make a tournament in the database."))(new)
    app.command("add", help=N_("Register players: one, or a CSV file of them."))(add)
    app.command("player", help=N_("Mark a player late, dropped out or absent."))(player)
    app.command(
        "result", help=N_("Enter or correct a table's result; the scores sum to the total.")
    )(result)
    app.command("penalty", help=N_("Give penalty points with their reason."))(penalty)
    app.command(
        "swap", help=N_("Swap two players of a seated round; shows the repeat meetings it brings.")
    )(swap_cmd)
    app.command("standings", help=N_("Print the standings."))(standings_cmd)
    app.command("export", help=N_("Export CSV: the EMA results, or with --full every table."))(
        export
    )
