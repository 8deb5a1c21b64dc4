"""Texts that people read: English, and what it takes to say them in another language.

The rules core explains itself in English (an error, what a scored item counted, why an
item did not count, why a hand may not go mahjong).  Each such text is a :class:`Text`:
a ``str`` whose value is the English, which also keeps the *template* it was made from
and the *parameters* filled in, so that a layer above can say it in Dutch: translate the
template, fill in the same parameters (see :func:`mahjong_nts.i18n.render`).  The core
itself never translates and imports nothing for it.

>>> t = Text(N_("{tile} twice: each flower and season exists only once"), tile="f1")
>>> t
'f1 twice: each flower and season exists only once'
>>> t.template, dict(t.params)
('{tile} twice: each flower and season exists only once', {'tile': 'f1'})

A parameter that is itself a word to translate is a :class:`Text` too (``"concealed"``,
a wind's name); a list of such parts is a :class:`TextList`.  Any other parameter (a tile
token, a number, a quoted value from outside, a rule set's name) is shown as it is.

Templates are :meth:`str.format` strings with named fields (``{tile}``, ``{n:,}``,
``{word!r}``; a literal brace is doubled).  :func:`N_` marks a template for the message
catalogue: ``pybabel extract`` collects the strings it is called on (``N_`` is one of
Babel's default keywords), so every template written ``N_("...")`` is in
``mahjong_nts.pot``.  See ``docs/i18n.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

__all__ = ["N_", "Text", "TextList", "find_param", "join"]


def N_(template: str) -> str:
    """``template`` unchanged, marked for the message catalogue."""
    return template


_NO_PARAMS: Final[Mapping[str, Any]] = {}


class Text(str):
    """English text made from ``template`` and ``params``; ``str(text)`` is the English.

    Equal to (and hashed as) its English, so it can stand wherever a ``str`` stood:
    JSON writes it as the string, tests compare it with the string.
    """

    __slots__ = ("params", "template")

    template: str
    """The template (a :meth:`str.format` string) the text was made from."""
    params: Mapping[str, Any]
    """The values filled into the template: plain values, or texts to translate."""

    def __new__(cls, template: str, /, **params: Any) -> Text:
        english = template.format_map(params) if params else template
        self = str.__new__(cls, english)
        self.template = template
        self.params = params or _NO_PARAMS
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.template, dict(self.params)))


def _rebuild(cls: type[Text], template: str, params: dict[str, Any]) -> Text:
    return cls(template, **params)


class TextList(str):
    """Parts joined by ``sep`` (``"pung of E, pung of S"``), each part and the
    separator translated on their own."""

    __slots__ = ("parts", "sep")

    parts: tuple[str, ...]
    sep: str

    def __new__(cls, sep: str, parts: Iterable[str]) -> TextList:
        items = tuple(parts)
        self = str.__new__(cls, sep.join(items))
        self.parts = items
        self.sep = sep
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (TextList, (self.sep, self.parts))


def join(sep: str, parts: Iterable[str]) -> TextList:
    """``sep.join(parts)`` that remembers its parts (see :class:`TextList`)."""
    return TextList(sep, parts)


_MAX_DEPTH: Final = 8


def find_param(text: object, name: str, _depth: int = 0) -> Any:
    """The parameter ``name`` of ``text`` or of a text among its parameters (the
    first found, outer texts first), or None.

    >>> where = Text(N_("at column {column}"), column=3)
    >>> find_param(Text(N_("{problem} {where}"), problem="x", where=where), "column")
    3
    """
    if not isinstance(text, Text) or _depth > _MAX_DEPTH:
        return None
    if name in text.params:
        return text.params[name]
    for value in text.params.values():
        found = find_param(value, name, _depth + 1)
        if found is not None:
            return found
    return None
