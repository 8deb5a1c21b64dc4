"""JSON from outside, parsed within bounds: one function every reader of JSON uses.

:func:`loads` refuses, with a clear :class:`JsonInputError`, what the standard
``json.loads`` takes or chokes on:

* a text longer than ``max_bytes`` (checked before parsing);
* bytes that are not UTF-8;
* duplicate keys in an object (``{"winner": 1, "winner": 2}``: which one counts?);
* whole numbers of more than :data:`MAX_INT_DIGITS` digits (Python refuses past
  4300 digits with a ValueError of its own; nothing here needs more than 80);
* ``NaN``, ``Infinity`` and numbers too large for a float;
* nesting deeper than ``max_depth``.

Messages quote at most a short excerpt of the input (:func:`mahjong_nts.core.errors.quote`),
never the whole of it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from mahjong_nts.core.errors import QUOTE_CHARS, MahjongError, quote
from mahjong_nts.core.text import N_

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "JsonInputError",
    "field_path",
    "loads",
    "printable",
]

MAX_INT_DIGITS: Final = 80
"""Digits of a whole number (a 256-bit seed has 78)."""

MAX_DEPTH: Final = 16
"""Nesting of arrays and objects."""


class JsonInputError(MahjongError):
    """JSON that is malformed or outside the bounds; the message says which and where."""


def field_path(parts: Sequence[int | str]) -> str:
    """Where in a JSON value an error is, for a message: ``melds[1].tiles`` (each key
    cut to :data:`~mahjong_nts.core.errors.QUOTE_CHARS` characters: an unknown key
    can be long)."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            if len(part) > QUOTE_CHARS:
                part = part[: QUOTE_CHARS - 3] + "..."
            out += f".{part}" if out else part
    return out


def printable(text: str) -> str:
    """``text`` with every character a terminal could act on (control and format
    characters, line and paragraph separators, unassigned code points) written as an
    escape (``\\x1b``, ``\\u202e``), so that text from a file, a log or a request cannot
    move the cursor, recolour or clear the terminal, or reorder what is shown."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable():
            out.append(ch)
        elif (code := ord(ch)) < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JsonInputError(N_("duplicate key {key} in an object"), key=quote(key))
        out[key] = value
    return out


def _int(text: str) -> int:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_INT_DIGITS:
        raise JsonInputError(
            N_("a whole number of {digits} digits: at most {most} are accepted"),
            digits=digits,
            most=MAX_INT_DIGITS,
        )
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_INT_DIGITS:
        raise JsonInputError(
            N_("a number written with {count} characters: at most {most}"),
            count=len(text),
            most=MAX_INT_DIGITS,
        )
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonInputError(N_("the number {value} is too large"), value=quote(text))
    return value


def _constant(text: str) -> Any:
    raise JsonInputError(N_("{text} is not a JSON number"), text=text)


def _depth(value: Any, limit: int) -> int:
    """The nesting depth of ``value`` (iteratively; stops once past ``limit``)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                return deepest
        stack.extend((child, depth) for child in children)
    return deepest


def loads(
    data: str | bytes,
    *,
    max_bytes: int,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Parse one JSON text within the bounds; :class:`JsonInputError` when it is not."""
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > max_bytes:
        raise JsonInputError(
            N_("the text is {size} bytes long: at most {most} are accepted"),
            size=size,
            most=max_bytes,
        )
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonInputError(N_("not valid UTF-8 (byte {byte})"), byte=exc.start) from None
    else:
        text = data
    try:
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
        )
    except JsonInputError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonInputError(
            N_("invalid JSON at column {column}: {error}"), column=exc.colno, error=exc.msg
        ) from None
    except RecursionError:
        raise JsonInputError(N_("nested more than {most} levels deep"), most=max_depth) from None
    except ValueError as exc:  # e.g. a lone surrogate the decoder refuses
        raise JsonInputError(N_("invalid JSON: {error}"), error=quote(str(exc))) from None
    if _depth(value, max_depth) > max_depth:
        raise JsonInputError(N_("nested more than {most} levels deep"), most=max_depth)
    return value
