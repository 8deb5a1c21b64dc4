"""The options ``--report DIR`` and ``--compare RULESET`` of ``mahjong-nts simulate``:
checked before any hand is played, and the report written after the run.

The statistics are :mod:`mahjong_nts.sim.report`'s, the plots and the page
:mod:`mahjong_nts.sim.report_page`'s; this module only checks the options and words
their problems in the language of the run (``error: ...``, exit code 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mahjong_nts.cli.i18n import _, current, ngettext
from mahjong_nts.cli.options import fail, guard, os_problem, rules_option, stderr
from mahjong_nts.core.errors import quote
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.sim.report import ReportDirError, RunStats, check_report_dir
from mahjong_nts.sim.simulate import table_size

__all__ = ["check_report_options", "dir_problem", "write_report_dir"]


def dir_problem(exc: ReportDirError) -> str:
    """What is wrong with the report folder, in the language of the run."""
    # the folder as given (one quoted excerpt a message: error() cuts quotes to excerpts)
    path, name = str(exc.path), quote(exc.name)
    if exc.why == "file":
        text = _("--report: {path} is a file, not a folder")
    elif exc.why == "no-parent":
        name = str(exc.name)
        text = _("--report: {path} cannot be made: {name} is not a folder")
    elif exc.why == "unreadable":
        name = str(exc.name)
        text = _("--report: {path} cannot be read: {name}")
    elif exc.why == "unwritable":
        name = str(exc.name)
        text = _("--report: {path} cannot be written: {name} does not take new files")
    else:
        text = _(
            "--report: {path} is not empty and not a previous report (it holds {name}): "
            "give a new or empty folder, or one a report was written into"
        )
    return text.format(path=path, name=name)


def check_report_options(
    report: Path | None,
    compare: str | None,
    *,
    log: Path | None,
    ruleset: str,
    rules: RuleSet,
    matches: bool,
) -> RuleSet | None:
    """Check ``--report`` and ``--compare`` (exit 2 on a problem); the rule set of
    ``--compare`` when given.  Nothing is made on disk."""
    if compare is not None and report is None:
        fail(_("--compare shows two rule sets side by side in a report: give --report DIR too"))
    if report is None:
        return None
    # the page's module (jinja2) only for a report
    from mahjong_nts.sim.report_page import INSTALL_HINT, ReportUnavailable, require_matplotlib

    try:
        require_matplotlib()
    except ReportUnavailable:
        fail(
            _("--report draws its plots with matplotlib, an optional extra: {hint}").format(
                hint=INSTALL_HINT
            )
        )
    try:
        check_report_dir(report)
    except ReportDirError as exc:
        fail(dir_problem(exc))
    if compare is None:
        return None
    if log is not None:
        fail(_("--log writes the hand logs of one rule set: not with --compare"))
    if compare.strip() == ruleset.strip():
        fail(
            _("--compare: {ruleset} is the rule set of --ruleset already: give another").format(
                ruleset=quote(compare)
            )
        )
    with guard():
        other = rules_option(compare, "--compare")
    ours, theirs = table_size(rules, matches), table_size(other, matches)
    if ours != theirs:
        fail(
            _(
                "--compare: {other} plays {theirs} seats, {ruleset} {ours}: the same bots "
                "cannot play both"
            ).format(other=other.name, theirs=theirs, ruleset=rules.name, ours=ours)
        )
    return other


def write_report_dir(report: Path, runs: Sequence[RunStats]) -> None:
    """Write the report, in the language of the run (exit 2 when the folder cannot be
    written); says where on stderr."""
    from mahjong_nts.sim.report_page import write_report

    try:
        files = write_report(report, runs, current())
    except OSError as exc:
        fail("--report: " + os_problem(exc))
    stderr.print(
        ngettext("report: {path} ({n} file)", "report: {path} ({n} files)", len(files)).format(
            path=str(report / "index.html"), n=len(files)
        ),
        markup=False,
    )
