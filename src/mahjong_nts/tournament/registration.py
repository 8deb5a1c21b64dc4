"""Registration: players read from a CSV text, duplicates refused, each player's
status in a round, and the table-by-table record of a tournament.

Pure like the rest of the package (no files, no ``csv`` module: the text is given;
the store and the front ends read and write the files).

A players file has a header line naming its columns, then one player per line::

    first name,last name,club,ema,nmb
    Anna,de Vries,De Groene Draak,04120001,
    "Jan, jr.",Bakker,Hilversum,,12345

The columns, in any order (English or Dutch, any case): ``first name`` (``voornaam``,
required), ``last name`` (``achternaam``), ``club`` (``vereniging``), ``ema`` (``ema
number``, ``ema-nummer``), ``nmb`` (``nmb number``, ``nmb-nummer``).  Fields are
separated by ``,`` or ``;`` (the header's separator holds for the whole file); a field
in double quotes may hold the separator (a quote inside doubled).  Empty lines are
skipped.  Every error names its line and column; one error refuses the whole file.

>>> rows = read_players("first name;last name;club\\nAnna;de Vries;Draak\\n")
>>> rows
(PlayerRow(line=2, first_name='Anna', last_name='de Vries', club='Draak', ema='', nmb=''),)
>>> status(Player(3, "Bo", first_round=2), 1), status(Player(3, "Bo", first_round=2), 2)
('late', 'present')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from mahjong_nts.core.errors import quote
from mahjong_nts.core.text import N_, Text
from mahjong_nts.tournament.errors import InvalidPlayer
from mahjong_nts.tournament.players import MAX_PLAYERS, Player, check_text
from mahjong_nts.tournament.results import Ranking, TableResult, format_points

__all__ = [
    "COLUMNS",
    "MAX_PLAYERS_BYTES",
    "RECORD_HEADER",
    "STATUSES",
    "PlayerRow",
    "Status",
    "check_new_players",
    "name_key",
    "read_players",
    "record_rows",
    "status",
]

MAX_PLAYERS_BYTES: Final = 128 * 1024
"""Bytes of a players file: 400 players of five full fields fit in well under this."""

MAX_LINE_CHARS: Final = 1000
"""Characters of one line of a players file."""

COLUMNS: Final = {
    "first name": "first_name",
    "first_name": "first_name",
    "voornaam": "first_name",
    "last name": "last_name",
    "last_name": "last_name",
    "achternaam": "last_name",
    "club": "club",
    "vereniging": "club",
    "ema": "ema",
    "ema number": "ema",
    "ema-nummer": "ema",
    "ema_number": "ema",
    "nmb": "nmb",
    "nmb number": "nmb",
    "nmb-nummer": "nmb",
    "nmb_number": "nmb",
}
"""A header's words and the field each names."""

_FIELD_WORDS: Final = {
    "first_name": Text(N_("first name")),
    "last_name": Text(N_("last name")),
    "club": Text(N_("club")),
    "ema": Text(N_("EMA number")),
    "nmb": Text(N_("NMB number")),
}

Status = Literal["present", "late", "dropped", "absent", "substitute"]
STATUSES: Final = ("present", "late", "dropped", "absent", "substitute")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One player read from a file (numbers are given when they are registered)."""

    line: int
    first_name: str
    last_name: str = ""
    club: str = ""
    ema: str = ""
    nmb: str = ""


def _split(line: str, sep: str, where: Text) -> list[str]:
    """The fields of one line: ``sep`` separates, double quotes enclose."""
    cells: list[str] = []
    cell: list[str] = []
    i, n = 0, len(line)
    quoted = False
    while i < n:
        ch = line[i]
        if quoted:
            if ch == '"':
                if i + 1 < n and line[i + 1] == '"':
                    cell.append('"')
                    i += 1
                else:
                    quoted = False
            else:
                cell.append(ch)
        elif ch == '"' and not "".join(cell).strip():
            cell = []
            quoted = True
        elif ch == sep:
            cells.append("".join(cell))
            cell = []
        else:
            cell.append(ch)
        i += 1
    if quoted:
        raise InvalidPlayer(N_("{where}: a quote that is not closed"), where=where)
    cells.append("".join(cell))
    return cells


def read_players(text: str) -> tuple[PlayerRow, ...]:
    """The players of a players file (see the module's docstring); an
    :class:`InvalidPlayer` naming the line and the column for the first thing wrong."""
    if not isinstance(text, str):
        raise InvalidPlayer(N_("players file: text expected"))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_PLAYERS_BYTES:
        raise InvalidPlayer(N_("players file: larger than {most} bytes"), most=MAX_PLAYERS_BYTES)
    lines = text.lstrip("\ufeff").splitlines()
    columns: list[str] = []
    sep = ","
    out: list[PlayerRow] = []
    for number, raw in enumerate(lines, 1):
        where = Text(N_("players file, line {line}"), line=number)
        if len(raw) > MAX_LINE_CHARS:
            raise InvalidPlayer(
                N_("{where}: longer than {most} characters"), where=where, most=MAX_LINE_CHARS
            )
        if not raw.strip():
            continue
        if not columns:
            sep = ";" if raw.count(";") > raw.count(",") else ","
            for k, word in enumerate(_split(raw, sep, where), 1):
                key = " ".join(word.strip().lower().split())
                field = COLUMNS.get(key)
                if field is None:
                    raise InvalidPlayer(
                        N_(
                            "{where}, column {column}: {value} is not a column; give first "
                            "name, last name, club, ema, nmb"
                        ),
                        where=where,
                        column=k,
                        value=quote(word.strip()),
                    )
                if field in columns:
                    raise InvalidPlayer(
                        N_("{where}, column {column}: {field} twice"),
                        where=where,
                        column=k,
                        field=_FIELD_WORDS[field],
                    )
                columns.append(field)
            if "first_name" not in columns:
                raise InvalidPlayer(
                    N_("{where}: the header names no first name column"), where=where
                )
            continue
        cells = _split(raw, sep, where)
        if len(cells) != len(columns):
            raise InvalidPlayer(
                N_("{where}: {n} fields, but the header names {columns}"),
                where=where,
                n=len(cells),
                columns=len(columns),
            )
        if len(out) >= MAX_PLAYERS:
            raise InvalidPlayer(
                N_("{where}: more than {most} players"), where=where, most=MAX_PLAYERS
            )
        values: dict[str, str] = {}
        for k, (field, cell) in enumerate(zip(columns, cells, strict=True), 1):
            what = Text(
                N_("{where}, column {column} ({field})"),
                where=where,
                column=k,
                field=_FIELD_WORDS[field],
            )
            values[field] = check_text(cell, what, required=field == "first_name")
        out.append(PlayerRow(line=number, **values))
    if not columns:
        raise InvalidPlayer(N_("players file: empty; the first line names the columns"))
    return tuple(out)


def name_key(first_name: str, last_name: str) -> str:
    """A player's name as two registrations of one person compare it: case and
    spaces ignored."""
    return " ".join(f"{first_name} {last_name}".casefold().split())


def check_new_players(existing: Iterable[Player], new: Sequence[PlayerRow]) -> None:
    """Refuse a new player who is registered already (the same name, or the same EMA
    or NMB number) or who is in ``new`` twice, naming both."""
    names: dict[str, str] = {}
    emas: dict[str, str] = {}
    nmbs: dict[str, str] = {}
    for p in existing:
        shown = Text(N_("player {number}"), number=p.number)
        names[name_key(p.first_name, p.last_name)] = shown
        if p.ema:
            emas[p.ema.casefold()] = shown
        if p.nmb:
            nmbs[p.nmb.casefold()] = shown
    for row in new:
        here = Text(N_("line {line}"), line=row.line) if row.line else Text(N_("the new player"))
        name = f"{row.first_name} {row.last_name}".strip()
        key = name_key(row.first_name, row.last_name)
        if key in names:
            raise InvalidPlayer(
                N_("{here}: {name} is registered already ({other})"),
                here=here,
                name=quote(name),
                other=names[key],
            )
        for value, seen, word in ((row.ema, emas, "ema"), (row.nmb, nmbs, "nmb")):
            if value and value.casefold() in seen:
                raise InvalidPlayer(
                    N_("{here}: {field} {value} is registered already ({other})"),
                    here=here,
                    field=_FIELD_WORDS[word],
                    value=quote(value),
                    other=seen[value.casefold()],
                )
        names[key] = here
        if row.ema:
            emas[row.ema.casefold()] = here
        if row.nmb:
            nmbs[row.nmb.casefold()] = here


def status(player: Player, round_number: int, substitute: bool = False) -> Status:
    """A player's status in a round: ``late`` (not yet come), ``dropped`` (gone),
    ``absent`` (missing this round only), ``substitute`` (playing in another's place),
    else ``present``."""
    if round_number < player.first_round:
        return "late"
    if player.last_round is not None and round_number > player.last_round:
        return "dropped"
    if round_number in player.absent:
        return "absent"
    return "substitute" if substitute else "present"


RECORD_HEADER: Final = (
    "Round",
    "Table",
    "Seat",
    "Player",
    "First name",
    "Last name",
    "Final score",
    "Score",
    "Table points",
    "Mahjongs",
    "Deal-ins",
)
"""The columns of the table-by-table record (:func:`record_rows`)."""

_SEATS: Final = ("E", "S", "W", "N", "D")


def record_rows(
    results: Sequence[TableResult], players: Iterable[Player], ranking: Ranking
) -> list[tuple[str, ...]]:
    """The full record: the header (:data:`RECORD_HEADER`), then one row per player per
    table, by round, table and seat; ``Score`` is the final score minus the start,
    ``Table points`` as :func:`~mahjong_nts.tournament.results.standings` counts them."""
    by_number = {p.number: p for p in players}
    rows: list[tuple[str, ...]] = [RECORD_HEADER]
    for res in sorted(results, key=lambda r: (r.round, r.table)):
        award = ranking.points.award(res.finals)
        for seat, p in enumerate(res.players):
            who = by_number.get(p)
            rows.append(
                (
                    str(res.round),
                    str(res.table),
                    _SEATS[seat],
                    str(p),
                    who.first_name if who else "",
                    who.last_name if who else "",
                    str(res.finals[seat]),
                    str(res.finals[seat] - ranking.start),
                    format_points(award[seat]),
                    str(res.mahjongs[seat]),
                    str(res.deal_ins[seat]),
                )
            )
    return rows
