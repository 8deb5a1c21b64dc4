"""The report folder of ``simulate --report DIR``: the CSV tables of
:mod:`mahjong_nts.sim.report`, plots (matplotlib PNGs, drawn with the Agg backend, never a
display) and one HTML page, ``index.html`` (Jinja2), that shows the tables and the plots.

The page is self-contained: its style is inline and the plots are in it as ``data:``
images (they are also beside it as PNG files), so it needs no network, no script and no
other file; it reads on a phone (tables scroll sideways inside their box, plots shrink to
the width).  Two runs (``--compare``) show each statistic in two columns and in one plot
(the second rule set dashed or hatched).

Everything written is a function of the statistics: the same seed gives byte-identical
files (the PNGs carry no date and no software version).

matplotlib is an optional extra (``pip install 'mahjong-nts[report]'``):
:func:`require_matplotlib` raises :class:`ReportUnavailable` when it is missing.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import jinja2

from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.text import N_
from mahjong_nts.i18n import translator
from mahjong_nts.sim.report import (
    REPORT_FORMAT,
    Histogram,
    RunStats,
    clear_report_dir,
    item_names,
    merged_tables,
    shown_spec,
    write_csv_files,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["ReportUnavailable", "require_matplotlib", "write_report"]


@dataclass(frozen=True, slots=True)
class Say:
    """The report's words in its language: ``t(text)`` is the English ``text`` (a msgid
    of the catalogue) translated; ``t.item(key)`` names a scoring item or limit hand."""

    lang: str = "en"

    def __call__(self, text: str) -> str:
        return translator(self.lang).gettext(text)

    def item(self, key: str) -> str:
        english, dutch = item_names(key)
        return dutch if self.lang == "nl" else english


Plot = Callable[[Sequence[RunStats], Say], bytes]

MAX_ITEM_BARS: Final = 20
"""Scoring items drawn in the items plot (the most frequent; the table has them all)."""
COLOURS: Final = ("#0b5d3b", "#b34700", "#2f5fa7", "#7a4a9e", "#8a6d00")
"""One colour per bot (the first is the web app's table green)."""
DPI: Final = 125
"""Plots are 6.4 inches wide: 800 pixels, and their text stays readable on a phone."""
FONT_SIZE: Final = 11
INSTALL_HINT: Final = "pip install 'mahjong-nts[report]'"


class ReportUnavailable(RuntimeError):
    """matplotlib, which draws the report's plots, is not installed."""


def require_matplotlib() -> None:
    """Raise :class:`ReportUnavailable` unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ReportUnavailable(
            f"--report draws its plots with matplotlib, an optional extra: {INSTALL_HINT}"
        ) from None


# --------------------------------------------------------------------------- plots


def _figure(width: float = 6.4, height: float = 3.6) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def _png(fig: Figure) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    # no Software text (its version) and no date: the same statistics, the same bytes
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _draw(plot: Plot, runs: Sequence[RunStats], t: Say) -> bytes:
    """``plot(runs, t)`` with the report's fonts (matplotlib's own DejaVu Sans: the same on
    every machine), whatever the user's matplotlibrc says."""
    import matplotlib

    with matplotlib.rc_context(
        {"font.family": "DejaVu Sans", "font.size": FONT_SIZE, "svg.hashsalt": "mahjong-nts"}
    ):
        return plot(runs, t)


def _style(ax: Axes) -> None:
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _run_styles(runs: Sequence[RunStats]) -> list[dict[str, Any]]:
    """Line and bar styles of each run: the first solid, the second dashed and hatched."""
    styles: list[dict[str, Any]] = [
        {"linestyle": "-", "hatch": None, "alpha": 1.0},
        {"linestyle": "--", "hatch": "//", "alpha": 0.75},
    ]
    return styles[: len(runs)]


def short_name(run: RunStats, runs: Sequence[RunStats]) -> str:
    """What the plots and the tables' columns call a run: its rule set's name (a house
    file's ``name``, not its path), or what ``--ruleset`` said (:func:`shown_spec`) when
    both runs have the same name (the page's heading shows both)."""
    names = [r.rules.name for r in runs]
    return run.rules.name if names.count(run.rules.name) == 1 else shown_spec(run.label)


def _share(part: int, whole: int) -> float:
    return float(Fraction(part, whole)) if whole else 0.0


def plot_outcomes(runs: Sequence[RunStats], t: Say) -> bytes:
    """How the hands ended: self-drawn, claimed, remise (share of hands), a bar per run."""
    fig = _figure(6.4, 1.3 + 0.7 * len(runs))
    ax = fig.add_subplot()
    parts = (
        (t(N_("self-drawn")), "#0b5d3b", "white"),
        (t(N_("claimed")), "#6fa287", "white"),
        (t(N_("remise")), "#c9c4b6", "#1a1a1a"),
    )
    labels = [short_name(run, runs) for run in runs]
    for y, run in enumerate(runs):
        values = (run.self_drawn, run.won - run.self_drawn, run.hands - run.won)
        left = 0.0
        for (name, colour, ink), v in zip(parts, values, strict=True):
            share = _share(v, run.hands)
            ax.barh(y, share, left=left, color=colour, label=name if y == 0 else None)
            if share >= 0.06:
                ax.text(
                    left + share / 2,
                    y,
                    f"{100 * share:.1f}%",
                    ha="center",
                    va="center",
                    color=ink,
                    fontsize=10,
                )
            left += share
    ax.set_yticks(range(len(runs)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(_percent())
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=3, frameon=False)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return _png(fig)


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(xmax=1.0, decimals=0)


def plot_win_rates(runs: Sequence[RunStats], t: Say) -> bytes:
    """Win rate per bot (left) and per seat, all bots together (right); a bar per run."""
    fig = _figure(6.4, 3.6)
    left, right = fig.subplots(1, 2, width_ratios=[len(runs[0].names) + 1, runs[0].seats + 1])
    styles = _run_styles(runs)
    width = 0.8 / len(runs)
    for k, (run, style) in enumerate(zip(runs, styles, strict=True)):
        offset = (k - (len(runs) - 1) / 2) * width
        for x, name in enumerate(run.names):
            b = run.bots[name]
            left.bar(
                x + offset,
                _share(b.wins, b.hands),
                width,
                color=COLOURS[x % len(COLOURS)],
                hatch=style["hatch"],
                edgecolor="white",
                label=short_name(run, runs) if x == 0 else None,
            )
        for s in range(run.seats):
            right.bar(
                s + offset,
                _share(run.seat_wins[s], run.seat_hands[s]),
                width,
                color="#0b5d3b",
                hatch=style["hatch"],
                edgecolor="white",
            )
    left.set_xticks(range(len(runs[0].names)), runs[0].names)
    left.set_title(t(N_("per bot")), fontsize=11)
    right.set_xticks(range(runs[0].seats), [t(runs[0].seat_name(s)) for s in range(runs[0].seats)])
    right.set_title(t(N_("per seat (all bots)")), fontsize=11)
    for ax in (left, right):
        _style(ax)
        ax.yaxis.set_major_formatter(_percent())
    left.set_ylabel(t(N_("hands won")))
    if len(runs) > 1:
        fig.legend(frameon=False, fontsize=9, loc="outside lower center", ncols=len(runs))
    return _png(fig)


def _step(ax: Axes, hist: Histogram, **style: Any) -> None:
    """A histogram as a step line of shares (its inner bins from the first to the last
    used; the open bins are in the CSV only)."""
    total = hist.total
    if not total:
        return
    edges: list[int] = []
    shares: list[float] = []
    for lo, hi, n in hist.bins():
        if lo is None or hi is None:
            continue
        if not edges:
            edges.append(lo)
        edges.append(hi)
        shares.append(n / total)
    if shares:
        ax.stairs(shares, edges, **style)


def _histograms(runs: Sequence[RunStats], attr: str, xlabel: str, ylabel: str) -> bytes:
    fig = _figure(6.4, 4.0)
    ax = fig.add_subplot()
    styles = _run_styles(runs)
    for run, style in zip(runs, styles, strict=True):
        for x, name in enumerate(run.names):
            label = name if len(runs) == 1 else f"{name} ({short_name(run, runs)})"
            _step(
                ax,
                getattr(run.bots[name], attr),
                color=COLOURS[x % len(COLOURS)],
                linestyle=style["linestyle"],
                linewidth=1.6,
                label=label,
            )
    _style(ax)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.yaxis.set_major_formatter(_percent())
    ax.legend(frameon=False, fontsize=9)
    return _png(fig)


def plot_balances(runs: Sequence[RunStats], t: Say) -> bytes:
    return _histograms(
        runs,
        "balances",
        t(N_("points won or lost in a hand that was won (bins of 100)")),
        t(N_("share of its hands")),
    )


def plot_scores(runs: Sequence[RunStats], t: Say) -> bytes:
    return _histograms(
        runs,
        "scores",
        t(N_("score of the winning hand (bins of 100)")),
        t(N_("share of its wins")),
    )


def plot_hand_length(runs: Sequence[RunStats], t: Say) -> bytes:
    """Discards a hand: the share of hands that ended after each number of discards."""
    fig = _figure()
    ax = fig.add_subplot()
    for run, style in zip(runs, _run_styles(runs), strict=True):
        for counts, colour, what in (
            (run.length_won, "#0b5d3b", t(N_("won"))),
            (run.length_remise, "#8a6d00", t(N_("remise"))),
        ):
            if not counts:
                continue
            lo, hi = min(counts), max(counts)
            xs = list(range(lo, hi + 2))
            ys = [counts[n] / run.hands for n in range(lo, hi + 1)]
            label = what if len(runs) == 1 else f"{what} ({short_name(run, runs)})"
            ax.stairs(
                ys, xs, color=colour, linestyle=style["linestyle"], linewidth=1.6, label=label
            )
    _style(ax)
    ax.set_xlabel(t(N_("tiles discarded in the hand (all seats)")))
    ax.set_ylabel(t(N_("share of all hands")))
    ax.yaxis.set_major_formatter(_percent())
    ax.legend(frameon=False, fontsize=9)
    return _png(fig)


def _item_keys(runs: Sequence[RunStats]) -> list[str]:
    """The items drawn: the most frequent over the runs (then catalogue order)."""
    rank = {key: i for i, key in enumerate(ITEMS)}
    best: dict[str, float] = {}
    for run in runs:
        for key, n in run.items.items():
            best[key] = max(best.get(key, 0.0), _share(n, run.won))
    keys = sorted(best, key=lambda k: (-best[k], rank.get(k, len(rank)), k))
    return keys[:MAX_ITEM_BARS]


def plot_items(runs: Sequence[RunStats], t: Say) -> bytes:
    """How often each scoring item occurred in the winning hands (share of the wins)."""
    keys = _item_keys(runs)
    fig = _figure(6.4, 1.4 + 0.3 * max(1, len(keys)) * (1 + 0.4 * (len(runs) - 1)))
    ax = fig.add_subplot()
    height = 0.8 / len(runs)
    for k, (run, style) in enumerate(zip(runs, _run_styles(runs), strict=True)):
        offset = (k - (len(runs) - 1) / 2) * height
        ys = [y + offset for y in range(len(keys))]
        xs = [_share(run.items[key], run.won) for key in keys]
        ax.barh(
            ys,
            xs,
            height,
            color="#0b5d3b",
            hatch=style["hatch"],
            edgecolor="white",
            label=short_name(run, runs),
        )
    names = [t.item(key) for key in keys]
    ax.set_yticks(range(len(keys)), names, fontsize=9)
    ax.invert_yaxis()
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.xaxis.set_major_formatter(_percent())
    ax.set_xlabel(t(N_("share of the winning hands")))
    if len(runs) > 1:
        ax.legend(frameon=False, fontsize=9)
    if not keys:
        ax.text(
            0.5, 0.5, t(N_("no hand was won")), ha="center", va="center", transform=ax.transAxes
        )
    return _png(fig)


PLOTS: Final[tuple[tuple[str, str, Plot], ...]] = (
    ("outcomes.png", N_("How the hands ended"), plot_outcomes),
    ("win_rates.png", N_("Win rate per bot and per seat"), plot_win_rates),
    ("balances.png", N_("Balance of a hand, per bot"), plot_balances),
    ("scores.png", N_("Score of the winning hands, per bot"), plot_scores),
    ("hand_length.png", N_("Hand length: discards a hand"), plot_hand_length),
    ("items.png", N_("Scoring items in the winning hands"), plot_items),
)


# --------------------------------------------------------------------------- the page


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    num: bool = False


@dataclass(frozen=True, slots=True)
class PageTable:
    """A table of the page: a row head column, then columns grouped by statistic (one
    column per run under each)."""

    title: str
    groups: tuple[str, ...]
    """The statistics (each spans one column per run)."""
    runs: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Cell, ...]], ...]
    note: str = ""
    csv: str = ""


def _pct(part: int, whole: int) -> str:
    return f"{100 * _share(part, whole):.1f}%"


def _side_by_side(
    title: str,
    runs: Sequence[RunStats],
    keys: Sequence[str],
    groups: Sequence[tuple[str, Callable[[RunStats, str], str]]],
    head: Callable[[str], str] = str,
    note: str = "",
    csv: str = "",
) -> PageTable:
    rows = []
    for key in keys:
        cells = tuple(Cell(value(run, key), num=True) for _g, value in groups for run in runs)
        rows.append((head(key), cells))
    return PageTable(
        title,
        tuple(g for g, _v in groups),
        tuple(short_name(r, runs) for r in runs),
        tuple(rows),
        note,
        csv,
    )


def _outcome_table(runs: Sequence[RunStats], t: Say) -> PageTable:
    reasons = sorted({r for run in runs for r in run.reasons})
    keys = [
        "hands",
        "won",
        "self-drawn",
        "claimed",
        "remise",
        *[f"r:{r}" for r in reasons],
        "decisions",
        "draws",
        "discards",
    ]

    def value(run: RunStats, key: str) -> str:
        h = run.hands
        counts = {
            "won": run.won,
            "self-drawn": run.self_drawn,
            "claimed": run.won - run.self_drawn,
            "remise": h - run.won,
        }
        if key == "hands":
            if run.spec.matches:
                return t(N_("{hands} ({matches} matches)")).format(hands=h, matches=run.units)
            return str(h)
        if key in counts:
            return f"{counts[key]} ({_pct(counts[key], h)})"
        if key.startswith("r:"):
            n = run.reasons[key[2:]]
            return f"{n} ({_pct(n, h)})"
        total = {"decisions": run.decisions, "draws": run.draws, "discards": run.discards}[key]
        return f"{float(Fraction(total, h)):.1f}"

    heads = {
        "hands": N_("Hands played"),
        "won": N_("Won"),
        "self-drawn": N_("… self-drawn"),
        "claimed": N_("… on a claimed tile"),
        "remise": N_("Remise"),
        "decisions": N_("Decisions a hand (mean)"),
        "draws": N_("Wall draws a hand (mean)"),
        "discards": N_("Discards a hand (mean)"),
    }
    return _side_by_side(
        t(N_("How the hands ended")),
        runs,
        keys,
        [(t(N_("hands (share)")), value)],
        head=lambda k: f"… {t(k[2:])}" if k.startswith("r:") else t(heads[k]),
        csv="summary.csv, remises.csv",
    )


def _bot_table(runs: Sequence[RunStats], t: Say) -> PageTable:
    def stat(f: Callable[[Any], str]) -> Callable[[RunStats, str], str]:
        return lambda run, name: f(run.bots[name]) if name in run.bots else ""

    def mean(b: Any) -> str:
        return f"{float(Fraction(b.balance, b.hands)):+.1f}" if b.hands else ""

    groups = [
        (t(N_("Win rate (wins)")), stat(lambda b: f"{_pct(b.wins, b.hands)} ({b.wins})")),
        (
            t(N_("Self-drawn / claimed")),
            stat(lambda b: f"{b.self_drawn} / {b.wins - b.self_drawn}"),
        ),
        (t(N_("Dealt in")), stat(lambda b: str(b.dealt_in))),
        (t(N_("Mean balance a hand")), stat(mean)),
    ]
    return _side_by_side(
        t(N_("Per bot")),
        runs,
        runs[0].names,
        groups,
        note=t(
            N_(
                "Counted per seat-hand: a bot with several copies counts the hands of all "
                "of them.  Dealt in: wins of another seat on this bot's discard."
            )
        ),
        csv="bots.csv",
    )


def _seat_table(runs: Sequence[RunStats], t: Say) -> PageTable:
    first = runs[0]
    groups: list[tuple[str, Callable[[RunStats, str], str]]] = [
        (t(N_("All bots")), lambda run, s: _pct(run.seat_wins[int(s)], run.seat_hands[int(s)]))
    ]

    def of_bot(name: str) -> Callable[[RunStats, str], str]:
        def value(run: RunStats, seat: str) -> str:
            b = run.bots[name]
            return _pct(b.seat_wins[int(seat)], b.seat_hands[int(seat)])

        return value

    groups.extend((name, of_bot(name)) for name in first.names)
    return _side_by_side(
        t(N_("Win rate per seat")),
        runs,
        [str(s) for s in range(first.seats)],
        groups,
        head=lambda s: t(first.seat_name(int(s))),
        note=t(
            N_(
                "The seat's wind in the hand; the bots rotate, so each sits everywhere "
                "equally often."
            )
        ),
        csv="seats.csv",
    )


def _items_table(runs: Sequence[RunStats], t: Say, limits: bool) -> PageTable:
    catalogue = LIMIT_HANDS if limits else ITEMS
    order = {key: i for i, key in enumerate(catalogue)}
    best: dict[str, float] = {}
    for run in runs:
        counts = run.limits if limits else run.items
        for key, n in counts.items():
            best[key] = max(best.get(key, 0.0), _share(n, run.won))
    keys = sorted(best, key=lambda k: (-best[k], order.get(k, len(order)), k))

    def value(run: RunStats, key: str) -> str:
        n = (run.limits if limits else run.items)[key]
        return f"{_pct(n, run.won)} ({n})"

    return _side_by_side(
        t(N_("Limit hands won")) if limits else t(N_("Scoring items in the winning hands")),
        runs,
        keys,
        [(t(N_("of the wins (hands)")), value)],
        head=t.item,
        note="" if keys else t(N_("None.")),
        csv="limit_hands.csv" if limits else "items.csv",
    )


def render_page(runs: Sequence[RunStats], plots: dict[str, bytes], t: Say) -> str:
    """The page: the runs' tables and the plots (inline ``data:`` images)."""
    first = runs[0]
    played = [
        {
            "name": short_name(run, runs),
            "spec": shown_spec(run.label),
            "title": run.rules.title,
            "hands": run.hands,
            "matches": run.units if run.spec.matches else None,
        }
        for run in runs
    ]
    images = {
        name: (t(title), "data:image/png;base64," + base64.b64encode(plots[name]).decode())
        for name, title, _draw in PLOTS
    }
    tables = [
        _outcome_table(runs, t),
        _bot_table(runs, t),
        _seat_table(runs, t),
        _items_table(runs, t, limits=False),
        _items_table(runs, t, limits=True),
    ]
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("mahjong_nts.sim", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    gettext = translator(t.lang)
    env.install_gettext_translations(gettext, newstyle=True)  # type: ignore[attr-defined]
    return env.get_template("report.html").render(
        lang=t.lang,
        compare=len(runs) > 1,
        played=played,
        seed=str(first.spec.seed),
        bots=", ".join(first.spec.bots),
        matches=first.spec.matches,
        images=images,
        tables=tables,
        csv_files=[table.name for table in merged_tables(runs)],
    )


def write_report(path: Path, runs: Sequence[RunStats], lang: str = "en") -> list[str]:
    """Write the report of one run, or two (``--compare``), into ``path`` (checked before
    with :func:`~mahjong_nts.sim.report.check_report_dir`); the files written, sorted.

    The page and the plots are in ``lang`` (``"en"`` or ``"nl"``); the CSV files are the
    same in every language (English column names, both names of each scoring item)."""
    if not 1 <= len(runs) <= 2:
        raise ValueError(f"a report shows one run or two, not {len(runs)}")
    tables = merged_tables(runs)  # raises before anything is written when nothing was played
    t = Say(lang)
    plots = {name: _draw(draw, runs, t) for name, _title, draw in PLOTS}
    page = render_page(runs, plots, t)
    clear_report_dir(path)
    written = write_csv_files(path, tables)
    for name, data in plots.items():
        (path / name).write_bytes(data)
        written.append(name)
    (path / "index.html").write_text(page, encoding="utf-8", newline="")
    written.append("index.html")
    manifest = {
        "format": REPORT_FORMAT,
        "version": 1,
        "runs": [
            {
                "ruleset": shown_spec(run.label),
                "ruleset_name": run.rules.name,
                "unit": "match" if run.spec.matches else "hand",
                "units": run.units,
                "hands": run.hands,
                "seed": str(run.spec.seed),
                "bots": list(run.spec.bots),
            }
            for run in runs
        ],
        "files": sorted([*written, "report.json"]),
    }
    (path / "report.json").write_text(
        json.dumps(manifest, indent=2) + "\n", encoding="utf-8", newline=""
    )
    return manifest["files"]  # type: ignore[return-value]
