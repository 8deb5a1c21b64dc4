"""What the hands of a simulation show, for ``simulate --report DIR`` (no CLI code, no
plotting here: :mod:`mahjong_nts.sim.report_page` draws the plots and the page).

:class:`RunStats` is fed the outcomes of a run one at a time, like
:class:`~mahjong_nts.sim.simulate.Summary`, and keeps only counts: exact integer sums,
counters keyed by a bounded set (scoring items, remise reasons, discards a hand) and
histograms with fixed bins (:class:`Histogram`), never a list of hands.  So its memory
does not grow with the number of hands, and the same seed gives the same statistics,
and byte for byte the same CSV files, whatever ``--jobs`` is.

Its tables (:meth:`RunStats.tables`, one CSV file each, columns in ``docs/simulate.md``):
the run, each bot (win rate, self-drawn and claimed wins, deal-ins, balances), each seat,
the remise reasons, the balance and winning-score histograms per bot, the hand length
(discards a hand), and how often each scoring item and limit hand occurred in the
winning hands.  Every table has the run's ``ruleset`` first, so two runs (``--compare``)
share one file per table.

The report folder: :func:`check_report_dir` says whether a folder may take a report (it is
missing, empty, or a previous report), :func:`write_csv_files` writes the tables.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Final

from mahjong_nts.core.errors import quote
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS, Item, LimitHand
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import WINDS
from mahjong_nts.sim.simulate import HandOutcome, MatchOutcome, Outcome, SimulationSpec

__all__ = [
    "BALANCE_BINS",
    "CSV_FILES",
    "DIR_PROBLEMS",
    "MAX_DISCARDS",
    "PLOT_FILES",
    "REPORT_FILES",
    "REPORT_FORMAT",
    "SCORE_BINS",
    "Histogram",
    "ReportDirError",
    "RunStats",
    "Table",
    "check_report_dir",
    "clear_report_dir",
    "csv_text",
    "item_names",
    "merged_tables",
    "write_csv_files",
]

REPORT_FORMAT: Final = "mahjong-nts-report"
"""``format`` of a report's ``report.json``: what marks a folder as a previous report."""

BALANCE_BINS: Final = (-8000, 16000, 100)
"""Low edge, high edge and width of the balance histogram (points a seat wins or loses in
a hand); values below or above fall in two open bins (``low`` or ``high`` left empty)."""
SCORE_BINS: Final = (0, 4000, 100)
"""The same for the winning hands' scores."""
MAX_DISCARDS: Final = 200
"""Discards a hand counted one by one; a hand with more (none of the shipped rule sets
deals that many tiles) is counted in the ``200`` row as "200 or more"."""

CSV_FILES: Final = (
    "summary.csv",
    "bots.csv",
    "seats.csv",
    "remises.csv",
    "balances.csv",
    "scores.csv",
    "hand_length.csv",
    "items.csv",
    "limit_hands.csv",
)
PLOT_FILES: Final = (
    "outcomes.png",
    "win_rates.png",
    "balances.png",
    "scores.png",
    "hand_length.png",
    "items.png",
)
REPORT_FILES: Final = frozenset(("index.html", "report.json", *CSV_FILES, *PLOT_FILES))
"""Every file a report writes: a folder holding only these (and a ``report.json`` of
:data:`REPORT_FORMAT`) is a previous report, which a new one replaces."""


class ReportDirError(ValueError):
    """The report folder cannot take a report; ``why`` says which of :data:`DIR_PROBLEMS`
    (a front end words it in its language), ``name`` the file or folder concerned."""

    def __init__(self, why: str, path: Path, name: str = "") -> None:
        self.why = why
        self.path = path
        self.name = name
        shown = quote(name) if why == "not-a-report" else name
        super().__init__(DIR_PROBLEMS[why].format(path=path, name=shown))


DIR_PROBLEMS: Final = {
    "file": "{path} is a file, not a folder",
    "no-parent": "{path} cannot be made: {name} is not a folder",
    "unreadable": "{path} cannot be read: {name}",
    "unwritable": "{path} cannot be written: {name} does not take new files",
    "not-a-report": (
        "{path} is not empty and not a previous report (it holds {name}): give a new or "
        "empty folder, or one a report was written into"
    ),
}
"""What can be wrong with a report folder (the English words)."""


def check_report_dir(path: Path) -> None:
    """Raise :class:`ReportDirError` unless ``path`` may take a report: it does not exist
    (it will be made, with its parents), it is an empty folder, or it holds a previous
    report and nothing else (only :data:`REPORT_FILES`, with a ``report.json`` of
    :data:`REPORT_FORMAT`).  Nothing is changed on disk."""
    if not path.exists():
        parent = path.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if path.is_symlink() or not parent.is_dir():
            raise ReportDirError("no-parent", path, str(parent))
        if not os.access(parent, os.W_OK | os.X_OK):
            raise ReportDirError("unwritable", path, str(parent))
        return
    if not path.is_dir():
        raise ReportDirError("file", path)
    if not os.access(path, os.W_OK | os.X_OK):
        raise ReportDirError("unwritable", path, str(path))
    try:
        names = sorted(p.name for p in path.iterdir())
    except OSError as exc:
        raise ReportDirError("unreadable", path, str(exc.strerror or exc)) from None
    if not names:
        return
    strangers = [n for n in names if n not in REPORT_FILES or not (path / n).is_file()]
    marker = path / "report.json"
    previous = False
    if marker.is_file() and not strangers:
        try:
            previous = json.loads(marker.read_bytes()[:65536]).get("format") == REPORT_FORMAT
        except (OSError, ValueError, AttributeError):
            previous = False
    if not previous:
        raise ReportDirError("not-a-report", path, strangers[0] if strangers else names[0])


def clear_report_dir(path: Path) -> None:
    """Make ``path`` (and its parents), or remove a previous report's files from it (a
    report of two rule sets leaves nothing stale behind for one of one)."""
    path.mkdir(parents=True, exist_ok=True)
    for name in sorted(REPORT_FILES):
        (path / name).unlink(missing_ok=True)


class Histogram:
    """Counts in fixed bins ``[low + k * width, low + (k + 1) * width)``, and two open bins
    for what falls below ``low`` or from ``high`` on."""

    __slots__ = ("counts", "high", "low", "width")

    def __init__(self, low: int, high: int, width: int) -> None:
        if width <= 0 or (high - low) % width or high <= low:
            raise ValueError(f"bad bins: {low} to {high} by {width}")
        self.low, self.high, self.width = low, high, width
        self.counts = [0] * ((high - low) // width + 2)

    def add(self, value: int) -> None:
        if value < self.low:
            self.counts[0] += 1
        elif value >= self.high:
            self.counts[-1] += 1
        else:
            self.counts[1 + (value - self.low) // self.width] += 1

    @property
    def total(self) -> int:
        return sum(self.counts)

    def bins(self) -> list[tuple[int | None, int | None, int]]:
        """``(low, high, count)`` of each bin from the first to the last that is not empty
        (``None`` for an open edge); empty when nothing was counted."""
        used = [k for k, c in enumerate(self.counts) if c]
        if not used:
            return []
        out: list[tuple[int | None, int | None, int]] = []
        last = len(self.counts) - 1
        for k in range(used[0], used[-1] + 1):
            lo = None if k == 0 else self.low + (k - 1) * self.width
            hi = None if k == last else self.low + k * self.width
            out.append((lo, hi, self.counts[k]))
        return out


def item_names(key: str) -> tuple[str, str]:
    """The English and Dutch names of a scoring item or limit hand (its id when unknown)."""
    known: Item | LimitHand | None = ITEMS.get(key) or LIMIT_HANDS.get(key)
    return (known.en, known.nl) if known else (key, key)


def _dec(x: Fraction | int, places: int) -> str:
    """A number with a fixed number of decimals (exact input, so the text is stable)."""
    return f"{float(x):.{places}f}"


def _rate(part: int, whole: int) -> str:
    return _dec(Fraction(part, whole) if whole else 0, 6)


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a report: its file's columns and rows (plain text and numbers)."""

    name: str
    """The CSV file's name."""
    columns: tuple[str, ...]
    rows: tuple[tuple[str | int, ...], ...]


class _BotStats:
    __slots__ = (
        "balance",
        "balance_max",
        "balance_min",
        "balance_sq",
        "balances",
        "dealt_in",
        "hands",
        "scores",
        "seat_balance",
        "seat_hands",
        "seat_self_drawn",
        "seat_wins",
        "self_drawn",
        "wins",
    )

    def __init__(self, seats: int) -> None:
        self.hands = 0
        self.wins = 0
        self.self_drawn = 0
        self.dealt_in = 0
        self.balance = 0
        self.balance_sq = 0
        self.balance_min: int | None = None
        self.balance_max: int | None = None
        self.balances = Histogram(*BALANCE_BINS)
        self.scores = Histogram(*SCORE_BINS)
        self.seat_hands = [0] * seats
        self.seat_wins = [0] * seats
        self.seat_self_drawn = [0] * seats
        self.seat_balance = [0] * seats


def shown_spec(label: str) -> str:
    """What ``--ruleset`` (or ``--compare``) said, as a report shows it (its page, its
    tables and ``report.json``): a house-rule file by its file name, never its folder
    (``/home/an/club/house.toml+flowers`` shows as ``house.toml+flowers``): a report is
    made to be shared.  Only the head of a spec names a file (the overlays
    after ``+`` are shipped names), so all before the last ``/`` or ``\\`` goes."""
    return label[max(label.rfind("/"), label.rfind("\\")) + 1 :]


class RunStats:
    """The statistics of one run (one rule set), built one outcome at a time.

    Counts are per *seat-hand* (a bot's hands are the hands its copies sat in); balances
    are a seat's points in one hand (in a run of matches too: every hand of every match
    counts).  The balance histogram counts the hands that were won only (in a remise
    nobody pays: they would all be 0); the score histogram the winner's score.
    """

    def __init__(self, label: str, spec: SimulationSpec, rules: RuleSet) -> None:
        self.label = label
        self.spec = spec
        self.rules = rules
        self.names = list(dict.fromkeys(spec.bots))
        self.seats = rules.table.players
        self.bots = {name: _BotStats(self.seats) for name in self.names}
        self.units = 0
        self.hands = 0
        self.decisions = 0
        self.draws = 0
        self.discards = 0
        self.reasons: Counter[str] = Counter()
        self.items: Counter[str] = Counter()
        self.limits: Counter[str] = Counter()
        self.length_won: Counter[int] = Counter()
        self.length_remise: Counter[int] = Counter()

    # the run's totals are its bots' (every seat of every hand is some bot's)

    @property
    def won(self) -> int:
        return sum(b.wins for b in self.bots.values())

    @property
    def self_drawn(self) -> int:
        return sum(b.self_drawn for b in self.bots.values())

    def _per_seat(self, field: str) -> list[int]:
        rows = [getattr(b, field) for b in self.bots.values()]
        return [sum(row[seat] for row in rows) for seat in range(self.seats)]

    @property
    def seat_hands(self) -> list[int]:
        return self._per_seat("seat_hands")

    @property
    def seat_wins(self) -> list[int]:
        return self._per_seat("seat_wins")

    @property
    def seat_self_drawn(self) -> list[int]:
        return self._per_seat("seat_self_drawn")

    def add(self, outcome: Outcome) -> None:
        """Count one hand (a run of hands) or every hand of one match."""
        self.units += 1
        hands = outcome.hands if isinstance(outcome, MatchOutcome) else (outcome,)
        for hand in hands:
            self._add_hand(hand)

    def _add_hand(self, o: HandOutcome) -> None:
        self.hands += 1
        self.decisions += o.decisions
        self.draws += o.draws
        self.discards += o.discards
        length = min(o.discards, MAX_DISCARDS)
        names = self.spec.bots
        win_seat = None if o.winner is None else o.seats.index(o.winner)
        for seat, entry in enumerate(o.seats):
            b = self.bots[names[entry]]
            value = o.balances[entry]
            b.hands += 1
            b.seat_hands[seat] += 1
            b.balance += value
            b.balance_sq += value * value
            b.seat_balance[seat] += value
            b.balance_min = value if b.balance_min is None else min(b.balance_min, value)
            b.balance_max = value if b.balance_max is None else max(b.balance_max, value)
            if win_seat is not None:
                b.balances.add(value)
        if o.winner is None or win_seat is None:
            self.reasons[o.reason] += 1
            self.length_remise[length] += 1
            return
        self.length_won[length] += 1
        w = self.bots[names[o.winner]]
        w.wins += 1
        w.seat_wins[win_seat] += 1
        w.scores.add(o.score)
        if o.self_drawn:
            w.self_drawn += 1
            w.seat_self_drawn[win_seat] += 1
        elif o.discarder is not None:
            self.bots[names[o.discarder]].dealt_in += 1
        self.items.update(o.items)
        if o.limit_hand is not None:
            self.limits[o.limit_hand] += 1

    # ------------------------------------------------------------------ tables

    def seat_name(self, seat: int) -> str:
        """The seat's wind in the hand (seat 0 is East): ``"East"``."""
        return WINDS[seat].name.title()

    def tables(self) -> list[Table]:
        """The run's tables, in :data:`CSV_FILES` order."""
        if self.hands == 0:
            raise ValueError("nothing to report: no hand was played")
        r = shown_spec(self.label)
        h = self.hands
        summary = Table(
            "summary.csv",
            (
                "ruleset",
                "ruleset_name",
                "unit",
                "units",
                "hands",
                "seed",
                "bots",
                "won",
                "self_drawn",
                "claimed",
                "remise",
                "remise_rate",
                "mean_decisions",
                "mean_draws",
                "mean_discards",
            ),
            (
                (
                    r,
                    self.rules.name,
                    "match" if self.spec.matches else "hand",
                    self.units,
                    h,
                    str(self.spec.seed),
                    " ".join(self.spec.bots),
                    self.won,
                    self.self_drawn,
                    self.won - self.self_drawn,
                    h - self.won,
                    _rate(h - self.won, h),
                    _dec(Fraction(self.decisions, h), 4),
                    _dec(Fraction(self.draws, h), 4),
                    _dec(Fraction(self.discards, h), 4),
                ),
            ),
        )
        bot_rows = []
        for name in self.names:
            b = self.bots[name]
            var = Fraction(0)
            if b.hands > 1:
                var = (Fraction(b.balance_sq) - Fraction(b.balance) ** 2 / b.hands) / (b.hands - 1)
            bot_rows.append(
                (
                    r,
                    name,
                    self.spec.bots.count(name),
                    b.hands,
                    b.wins,
                    _rate(b.wins, b.hands),
                    b.self_drawn,
                    b.wins - b.self_drawn,
                    b.dealt_in,
                    _dec(Fraction(b.balance, b.hands) if b.hands else 0, 4),
                    f"{float(var) ** 0.5:.4f}",
                    "" if b.balance_min is None else b.balance_min,
                    "" if b.balance_max is None else b.balance_max,
                )
            )
        bots = Table(
            "bots.csv",
            (
                "ruleset",
                "bot",
                "copies",
                "hands",
                "wins",
                "win_rate",
                "self_drawn",
                "claimed",
                "dealt_in",
                "mean_balance",
                "sd_balance",
                "min_balance",
                "max_balance",
            ),
            tuple(bot_rows),
        )
        seat_rows: list[tuple[str | int, ...]] = []
        for s, (wins, played, own) in enumerate(
            zip(self.seat_wins, self.seat_hands, self.seat_self_drawn, strict=True)
        ):
            seat_rows.append(
                (
                    r,
                    s,
                    self.seat_name(s),
                    "",
                    played,
                    wins,
                    _rate(wins, played),
                    own,
                    wins - own,
                    "",
                )
            )
            for name in self.names:
                b = self.bots[name]
                wins, played, own = b.seat_wins[s], b.seat_hands[s], b.seat_self_drawn[s]
                seat_rows.append(
                    (
                        r,
                        s,
                        self.seat_name(s),
                        name,
                        played,
                        wins,
                        _rate(wins, played),
                        own,
                        wins - own,
                        _dec(Fraction(b.seat_balance[s], played) if played else 0, 4),
                    )
                )
        seats = Table(
            "seats.csv",
            (
                "ruleset",
                "seat",
                "wind",
                "bot",
                "hands",
                "wins",
                "win_rate",
                "self_drawn",
                "claimed",
                "mean_balance",
            ),
            tuple(seat_rows),
        )
        remises = Table(
            "remises.csv",
            ("ruleset", "reason", "hands", "rate"),
            tuple(
                (r, reason, n, _rate(n, h))
                for reason, n in sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0]))
            ),
        )

        def histogram_rows(attr: str) -> tuple[tuple[str | int, ...], ...]:
            rows: list[tuple[str | int, ...]] = []
            for name in self.names:
                hist: Histogram = getattr(self.bots[name], attr)
                total = hist.total
                for lo, hi, n in hist.bins():
                    rows.append(
                        (
                            r,
                            name,
                            "" if lo is None else lo,
                            "" if hi is None else hi,
                            n,
                            _rate(n, total),
                        )
                    )
            return tuple(rows)

        balances = Table(
            "balances.csv",
            ("ruleset", "bot", "low", "high", "hands", "share"),
            histogram_rows("balances"),
        )
        scores = Table(
            "scores.csv",
            ("ruleset", "bot", "low", "high", "wins", "share"),
            histogram_rows("scores"),
        )
        lengths = sorted(set(self.length_won) | set(self.length_remise))
        hand_length = Table(
            "hand_length.csv",
            ("ruleset", "discards", "hands", "won", "remise", "share"),
            tuple(
                (
                    r,
                    n,
                    self.length_won[n] + self.length_remise[n],
                    self.length_won[n],
                    self.length_remise[n],
                    _rate(self.length_won[n] + self.length_remise[n], h),
                )
                for n in lengths
            ),
        )

        def item_rows(
            counts: Counter[str], order: Sequence[str]
        ) -> tuple[tuple[str | int, ...], ...]:
            rank = {key: i for i, key in enumerate(order)}
            keys = sorted(counts, key=lambda k: (-counts[k], rank.get(k, len(rank)), k))
            return tuple(
                (r, k, *item_names(k), counts[k], _rate(counts[k], self.won)) for k in keys
            )

        columns = ("ruleset", "item", "name_en", "name_nl", "wins", "rate")
        items = Table("items.csv", columns, item_rows(self.items, list(ITEMS)))
        limits = Table("limit_hands.csv", columns, item_rows(self.limits, list(LIMIT_HANDS)))
        return [summary, bots, seats, remises, balances, scores, hand_length, items, limits]


def merged_tables(runs: Sequence[RunStats]) -> list[Table]:
    """The tables of one or more runs, one table per file (the runs' rows in turn)."""
    per_run = [run.tables() for run in runs]
    out = []
    for k, first in enumerate(per_run[0]):
        rows: list[tuple[str | int, ...]] = []
        for tables in per_run:
            rows.extend(tables[k].rows)
        out.append(Table(first.name, first.columns, tuple(rows)))
    return out


def csv_text(table: Table) -> str:
    """The table as CSV text (``\\n`` line ends, a header row)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows(table.rows)
    return buf.getvalue()


def write_csv_files(path: Path, tables: Iterable[Table]) -> list[str]:
    """Write each table as ``path/NAME`` (UTF-8); the names written."""
    names = []
    for table in tables:
        (path / table.name).write_text(csv_text(table), encoding="utf-8", newline="")
        names.append(table.name)
    return names
