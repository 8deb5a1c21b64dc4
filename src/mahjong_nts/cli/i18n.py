"""The language of the terminal: chosen once per run, before the app is built.

``--lang nl|en`` anywhere in the arguments, else ``MAHJONG_NTS_LANG``, else a Dutch
locale (``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` starting with ``nl``), else English
(:func:`choose`).  Messages are translated when they are made (:func:`_`); help texts
are marked where they are written (:func:`N_`) and translated when the app is built
(:func:`translate_command`), so one process can show help in either language.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from mahjong_nts.core.errors import quote
from mahjong_nts.i18n import DEFAULT_LANGUAGE, Language, language, translator

__all__ = [
    "N_",
    "_",
    "choose",
    "current",
    "ngettext",
    "pgettext",
    "set_language",
    "translate_command",
]

_CURRENT: list[Language] = [DEFAULT_LANGUAGE]

LANG_OPTION = "--lang"


def current() -> Language:
    """The language of this run's texts."""
    return _CURRENT[0]


def set_language(lang: Language) -> None:
    _CURRENT[0] = lang


def _(text: str) -> str:
    """``text`` in the language of this run (fill ``{name}`` placeholders after)."""
    return translator(current()).gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` for ``n``, in the language of this run."""
    return translator(current()).ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    """``text`` in the language of this run, as meant in ``context`` (one English word
    may need two Dutch ones: the action "pass" is "passen", a player "past")."""
    return translator(current()).pgettext(context, text)


def N_(text: str) -> str:
    """``text`` unchanged, marked for the catalogue: a help text, translated when the
    app is built."""
    return text


class LangProblem(ValueError):
    """A ``--lang`` without a value or with one that names no language we have."""


def choose(
    args: list[str], environ: Mapping[str, str] | None = None
) -> tuple[Language, list[str], bool]:
    """The language of the run and the arguments without ``--lang``: ``--lang X``
    (or ``--lang=X``) anywhere before ``--`` (the last one counts), else
    ``MAHJONG_NTS_LANG``, else the locale, else English; and whether ``--lang`` was
    given."""
    env = os.environ if environ is None else environ
    rest: list[str] = []
    given: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        if arg == LANG_OPTION:
            if i + 1 >= len(args):
                raise LangProblem(f"{LANG_OPTION}: give nl or en")
            given = args[i + 1]
            i += 2
            continue
        if arg.startswith(LANG_OPTION + "="):
            given = arg.partition("=")[2]
            i += 1
            continue
        rest.append(arg)
        i += 1
    if given is not None:
        chosen = language(given) if given in ("nl", "en") else None
        if chosen is None:
            raise LangProblem(f"{LANG_OPTION}: {quote(given)} is not en or nl")
        return chosen, rest, True
    from_env = language(env.get("MAHJONG_NTS_LANG", ""))
    if from_env is not None:
        return from_env, rest, False
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:  # the first one set decides, as for gettext
            return ("nl" if value.lower().startswith("nl") else DEFAULT_LANGUAGE), rest, False
    return DEFAULT_LANGUAGE, rest, False


# click's own words in the help, for the catalogue: typer's copy of click writes them in
# English, and they are translated here as the help is written (its usage errors:
# cli.clicktext)
_CLICK_WORDS = (N_("Usage:"), N_("Options"), N_("Arguments"), N_("Commands"))
_HELP_OPTION = N_("Show this message and exit.")
_DEFAULT = N_("default")
_REQUIRED = N_("required")
_USAGE_WORDS = (N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))
_TYPES = {
    "<str>": N_("<str>"),
    "<int>": N_("<int>"),
    "<int range>": N_("<int range>"),
    "<path>": N_("<path>"),
    "<list[str]>": N_("<list[str]>"),
}
"""The type of an option's value, as typer shows it after the option's name."""


def _words(text: str) -> str:
    """A definition of click's help list with click's own words translated."""
    if text == _HELP_OPTION:
        return _(text)
    text = text.replace("[default: ", f"[{_(_DEFAULT)}: ")
    return text.replace("[required]", f"[{_(_REQUIRED)}]")


def _term(term: str) -> str:
    """An option's (or argument's) name in click's help list, its type translated."""
    at = term.rfind(" <")
    kind = term[at + 1 :]
    if at > 0 and kind in _TYPES:
        return f"{term[:at]} {_(_TYPES[kind])}"
    return term


def _formatter(base: type[Any]) -> type[Any]:
    """Click's help layout (``base``: typer may vendor click) with its headings in the
    language of the run."""

    class Formatter(base):  # type: ignore[misc]
        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            word = (prefix or "Usage:").strip()
            super().write_usage(prog, args, _(word) + " ")

        @contextmanager
        def section(self, name: str) -> Iterator[None]:
            with super().section(_(name)):
                yield

        def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
            rows = [(_term(term), _words(text)) for term, text in rows]
            super().write_dl(rows, col_max, col_spacing)

    return Formatter


def _context(base: type[Any]) -> type[Any]:
    """``base`` (click's, or typer's vendored, context) writing help in the run's language."""
    if getattr(base, "_translated", False):
        return base
    return type(
        "Context",
        (base,),
        {"formatter_class": _formatter(base.formatter_class), "_translated": True},
    )


def _paragraphs(text: str) -> str:
    """A help text translated paragraph by paragraph (a module's ``HELP`` may join
    several texts of the catalogue with blank lines)."""
    return "\n\n".join(_(part) for part in text.split("\n\n"))


def translate_command(command: Any) -> None:
    """Translate the help of ``command``, its parameters and its subcommands, in place
    (``command`` is built afresh for each run)."""
    command.context_class = _context(command.context_class)
    if command.help:
        command.help = _paragraphs(command.help)
    if command.short_help:
        command.short_help = _(command.short_help)
    for name in ("options_metavar", "subcommand_metavar"):  # [OPTIONS], COMMAND [ARGS]...
        value = getattr(command, name, None)
        if isinstance(value, str) and value in _USAGE_WORDS:
            setattr(command, name, _(value))
    for param in command.params:
        help_text = getattr(param, "help", None)
        if isinstance(help_text, str) and help_text:
            param.help = _(help_text)
        if isinstance(param.metavar, str) and param.metavar:  # an argument's name: N_("file")
            param.metavar = _(param.metavar)
    for sub in getattr(command, "commands", {}).values():
        translate_command(sub)
