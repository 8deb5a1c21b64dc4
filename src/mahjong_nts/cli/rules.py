"""``mahjong-nts rules``: list, show and compare rule sets.

Mounted by the main CLI with ``app.add_typer(cli_rules.app, name="rules")``.
NAME may be anything :func:`mahjong_nts.formats.rulefiles.load_ruleset` accepts: a
shipped set, ``set+overlay``, or a path to a house-rule TOML file.

Every text that comes from a rule file (name, title, source, notes) is printed as
plain text, never read as rich markup: a house file may name itself
``"[bold red]x[/]"``.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mahjong_nts.cli.i18n import N_, _
from mahjong_nts.cli.options import fail, rules_option
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.formats.rulefiles import (
    DEFAULT_RULESET,
    OVERLAYS,
    SHIPPED,
    load_ruleset,
    overlay_info,
    ruleset_diff,
)
from mahjong_nts.formats.rulesdoc import RuleTable, key_label, rule_tables
from mahjong_nts.formats.rulesdoc import format_value as fmt

__all__ = ["app"]

app = typer.Typer(
    name="rules",
    help=N_("Rule sets: list the shipped ones, show one, compare two."),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

_NAME_HELP = N_(
    "A shipped rule set (nts-2016), with overlays (nmb-2009+flowers), "
    "or a path to a house-rule .toml file."
)
NameArg = Annotated[str, typer.Argument(help=_NAME_HELP, metavar=N_("name"))]
SetArg = Annotated[str, typer.Argument(help=_NAME_HELP)]
"""A rule set of ``diff``, named ``a`` and ``b`` in the help."""


def _out() -> Console:
    return Console(highlight=False)


def _load(spec: str) -> RuleSet:
    try:
        return rules_option(spec, "")  # a positional NAME: no option to name
    except MahjongError as exc:
        fail(exc.text)


@app.command("list", help=N_("List the shipped rule sets and the overlays."))
def list_sets() -> None:
    """List the shipped rule sets and the overlays."""
    out = _out()
    table = Table(title=_("Rule sets"), title_justify="left")
    table.add_column(_("name"))
    table.add_column(_("title"))
    table.add_column(_("source"), overflow="fold")
    for name in SHIPPED:
        rs = load_ruleset(name)
        label = _("{name} (default)").format(name=name) if name == DEFAULT_RULESET else name
        table.add_row(Text(label), Text(rs.title), Text(rs.source))
    out.print(table)
    over = Table(title=_("Overlays (add with '+', e.g. nmb-2009+flowers)"), title_justify="left")
    over.add_column(_("name"))
    over.add_column(_("title"))
    over.add_column(_("source"), overflow="fold")
    for name in OVERLAYS:
        title, source, _notes = overlay_info(name)
        over.add_row(Text(name), Text(title), Text(source))
    out.print(over)


def _item_table(table: RuleTable) -> Table:
    out = Table(title=table.en, title_justify="left")
    out.add_column(_("item"), overflow="fold")
    for col in ("Nederlands", "English", _("for")):
        out.add_column(col)
    out.add_column(_("value"), justify="right")
    for row in table.rows:
        out.add_row(
            Text(row.key.split(".", 1)[1]),
            Text(row.nl),
            Text(row.en),
            Text(row.kind),
            Text(fmt(row.values[0])),
        )
    return out


JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help=N_(
            "Print the whole rule set as one JSON object: complete house rules that a "
            "JSON request can carry inline as its ruleset."
        ),
    ),
]


@app.command("show", help=N_("Show every value of a rule set."))
def show(name: NameArg, as_json: JsonOpt = False) -> None:
    """Show every value of a rule set."""
    rs = _load(name)
    if as_json:
        typer.echo(json.dumps(rs.to_mapping(), ensure_ascii=False))
        return
    out = _out()
    out.print(Text.assemble((rs.name, "bold"), ": ", rs.title))
    if rs.source:
        out.print(Text(_("source: {source}").format(source=rs.source)))
    tables = {t.key: t for t in rule_tables([rs])}
    out.print(_item_table(tables["points"]))
    out.print(_item_table(tables["doublings"]))
    limits = Table(title=_("Limit hands"), title_justify="left")
    for col, right in (
        (_("hand"), False),
        ("Nederlands", False),
        ("English", False),
        (_("kind"), False),
        (_("self-drawn"), True),
        (_("claimed"), True),
        (_("waiting"), True),
    ):
        limits.add_column(col, justify="right" if right else "left")
    for row in tables["limit_hands"].rows:
        lv = row.values[0]
        if lv is None:
            continue
        limits.add_row(
            *map(
                Text,
                (
                    row.key.split(".", 1)[1],
                    row.nl,
                    row.en,
                    row.kind,
                    fmt(lv.self_drawn),
                    fmt(lv.claimed),
                    fmt(lv.waiting),
                ),
            )
        )
    out.print(limits)
    for section, title in (
        ("scoring", N_("Scoring")),
        ("settlement", N_("Settlement")),
        ("table", N_("Table")),
    ):
        table = Table(title=_(title), title_justify="left")
        table.add_column(_("key"))
        table.add_column(_("value"))
        for row in tables[section].rows:
            table.add_row(Text(row.key.split(".", 1)[1]), Text(fmt(row.values[0])))
        out.print(table)
    if rs.notes:
        out.print(Text(_("Notes"), style="bold"))
        for note in rs.notes:
            out.print(Text(f"- {note}"))


@app.command("diff", help=N_("Show the values in which two rule sets differ."))
def diff(a: SetArg, b: SetArg) -> None:
    """Show the values in which two rule sets differ."""
    ra, rb = _load(a), _load(b)
    rows = ruleset_diff(ra, rb)
    out = _out()
    if not rows:
        out.print(Text(_("{a} and {b} have the same rule values.").format(a=ra.name, b=rb.name)))
        return
    table = Table(title=Text(_("{a} vs {b}").format(a=ra.name, b=rb.name)), title_justify="left")
    table.add_column(_("key"), overflow="fold")
    table.add_column(_("name"))
    table.add_column(Text(ra.name), justify="right")
    table.add_column(Text(rb.name), justify="right")
    for key, va, vb in rows:
        table.add_row(Text(key), Text(_label(key)), Text(fmt(va)), Text(fmt(vb)))
    out.print(table)


def _label(key: str) -> str:
    names = key_label(key)
    return f"{names[0]} / {names[1]}" if names is not None else ""
