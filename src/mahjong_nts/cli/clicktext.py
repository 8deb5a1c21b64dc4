"""click's own sentences in the language of the run: the usage errors of typer.

typer carries its own copy of click, which writes its usage errors in English only
("No such option", "Missing argument", "Invalid value for", "Got unexpected extra
argument(s)").  :func:`usage_text` says each of them again from the error's fields
(its class, the option or argument it names, the pydantic error typer converted a
value with), with texts from our catalogue; an error it does not know keeps click's
English sentence.  click's words in the help (``Usage:``, ``Options``,
``[default: ...]``) are translated in :mod:`mahjong_nts.cli.i18n`.
"""

from __future__ import annotations

import re
from typing import Any

from mahjong_nts.cli.i18n import N_, _
from mahjong_nts.core.errors import quote

__all__ = ["usage_text"]

_NO_COMMAND = re.compile(r"No such command (.+)\.", re.S)
_EXTRA = re.compile(r"Got unexpected extra arguments?(?:\(s\))? \((.*)\)", re.S)
_NEEDS = re.compile(r"Option .+ requires (an argument|(\d+) arguments)\.", re.S)
_NO_VALUE = re.compile(r"Option .+ does not take a value\.", re.S)
_NUMBER = re.compile(r"[+-]?[0-9]{1,20}")

_REASONS = {
    "int_parsing": N_("{value} is not a whole number"),
    "int_from_float": N_("{value} is not a whole number"),
    "int_type": N_("{value} is not a whole number"),
    "int_parsing_size": N_("the number has too many digits"),
    "less_than_equal": N_("must be at most {le}, not {value}"),
    "greater_than_equal": N_("must be at least {ge}, not {value}"),
    "less_than": N_("must be less than {lt}, not {value}"),
    "greater_than": N_("must be more than {gt}, not {value}"),
}
"""What was wrong with a value, by the type of the pydantic error typer raised on it
(typer converts every value with pydantic)."""


def _kinds(exc: BaseException) -> set[str]:
    """The names of the classes ``exc`` is an instance of (typer's copy of click and
    click itself name their errors alike)."""
    return {c.__name__ for c in type(exc).__mro__}


def _hint(exc: Any) -> str:
    """The option or argument a parameter error is about, as click names it:
    ``'--hands' / '-n'``, ``'file'``."""
    hint = getattr(exc, "param_hint", None)
    if hint is None and getattr(exc, "param", None) is not None:
        hint = exc.param.get_error_hint()
    if isinstance(hint, list | tuple):
        hint = " / ".join(repr(h) for h in hint)
    return hint if isinstance(hint, str) else ""


def _reason(exc: BaseException) -> str | None:
    """Why a value was refused, from the pydantic error behind typer's BadParameter;
    ``None`` when there is none we know."""
    cause = exc.__cause__
    errors = getattr(cause, "errors", None)
    if not callable(errors):
        return None
    try:
        first = errors()[0]
    except (IndexError, TypeError, ValueError):
        return None
    template = _REASONS.get(str(first.get("type")))
    if template is None:
        return None
    given = first.get("input")
    text = given if isinstance(given, str) else str(given)
    shown = text if _NUMBER.fullmatch(text) else quote(text)  # a number needs no quotes
    fields = {
        key: value for key, value in (first.get("ctx") or {}).items() if isinstance(value, int)
    }
    return _(template).format(value=shown, **fields)


def _no_such_option(exc: Any) -> str:
    message = _("no such option {option}").format(option=quote(exc.option_name))
    possible = [p for p in getattr(exc, "possibilities", None) or [] if isinstance(p, str)]
    if possible:
        message += "; " + _("did you mean {options}?").format(
            options=", ".join(sorted(possible)[:5])
        )
    return message


def _bad_option(exc: Any, text: str) -> str | None:
    option = quote(getattr(exc, "option_name", ""))
    needs = _NEEDS.fullmatch(text)
    if needs is not None:
        if needs.group(2) is None:
            return _("option {option} requires an argument").format(option=option)
        return _("option {option} requires {n} arguments").format(option=option, n=needs.group(2))
    if _NO_VALUE.fullmatch(text):
        return _("option {option} does not take a value").format(option=option)
    return None


def _missing(exc: Any) -> str:
    param = getattr(exc, "param", None)
    hint = _hint(exc)
    if getattr(param, "param_type_name", None) == "option":
        return _("missing option {name}").format(name=hint)
    if param is not None:
        return _("missing argument {name}").format(name=hint)
    return _("a value is missing")


def _usage(text: str) -> str | None:
    """A usage error that is only its message (``ctx.fail``)."""
    command = _NO_COMMAND.fullmatch(text)
    if command is not None:
        return _("no such command {name}").format(name=command.group(1))
    if text == "Missing command.":
        return _("missing command")
    extra = _EXTRA.fullmatch(text)
    if extra is not None:
        return _("got unexpected extra argument(s) ({arguments})").format(arguments=extra.group(1))
    return None


def usage_text(exc: BaseException) -> str:
    """What is wrong, in one line, for a usage error of typer (click): in the language
    of the run, or click's own English sentence for one it does not know."""
    kinds = _kinds(exc)
    text = str(getattr(exc, "message", "") or "")
    said: str | None = None
    if "NoSuchOption" in kinds and isinstance(getattr(exc, "option_name", None), str):
        said = _no_such_option(exc)
    elif "MissingParameter" in kinds:
        said = _missing(exc)
    elif "BadParameter" in kinds:
        reason = _reason(exc)
        hint = _hint(exc)
        if reason is not None:
            said = (
                _("invalid value for {name}: {reason}").format(name=hint, reason=reason)
                if hint
                else _("invalid value: {reason}").format(reason=reason)
            )
    elif "BadOptionUsage" in kinds:
        said = _bad_option(exc, text)
    elif "UsageError" in kinds:
        said = _usage(text)
    if said is not None:
        return said
    format_message = getattr(exc, "format_message", None)
    message = format_message() if callable(format_message) else str(exc)
    message = " ".join(str(message).split()).rstrip(".")
    if message[:2].istitle():  # "No such command" -> "no such command"
        message = message[0].lower() + message[1:]
    return message
