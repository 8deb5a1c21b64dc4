"""A rule set written as a house-rule TOML file (the inverse of reading one).

:func:`rules_toml` writes a complete rule set (``RuleSet.to_mapping()``: no ``base``,
every value) as TOML that :func:`mahjong_nts.formats.rulefiles.load_ruleset` reads back
to the same rule set, name and values.  It is what an online table played with house
rules offers for download, so that ``mahjong-nts replay LOG --verify --ruleset FILE``
can check the table's hand logs (a log never makes replay read a file it names).

The rule mapping holds only text, whole numbers, booleans, lists of those and tables;
anything else is a :class:`TypeError` (a bug, not input).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from mahjong_nts.core.rules import RuleSet

__all__ = ["rules_toml"]

_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n",
                   "\f": "\\f", "\r": "\\r"}  # fmt: skip


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"a rule value of type {type(value).__name__} has no TOML form")


def rules_toml(rules: RuleSet, comment: str | None = None) -> str:
    """The whole rule set as a house-rule file (no ``base``), with ``comment`` (one
    line) on top."""
    data = rules.to_mapping()
    lines: list[str] = []
    if comment is not None:
        lines.append("# " + " ".join(comment.split()))
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            tables.append((key, value))
        elif isinstance(value, list) and len(value) > 1:
            lines.append(f"{_key(key)} = [")
            lines.extend(f"    {_value(v)}," for v in value)
            lines.append("]")
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, table in tables:
        lines.append("")
        lines.append(f"[{_key(key)}]")
        lines.extend(f"{_key(k)} = {_value(v)}" for k, v in table.items())
    return "\n".join(lines) + "\n"
