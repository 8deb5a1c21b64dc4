"""Translations: one gettext catalogue for the web pages and the terminal.

English is the source language; the Dutch catalogue lives in
``locales/nl/LC_MESSAGES/mahjong_nts.po`` beside its compiled ``.mo`` (committed,
so nothing is built at run time).  Both front ends (``web/`` and ``cli/``) take
their texts from here, so this package sits below them and imports neither.

>>> translator("nl").gettext("Settle")
'Afrekenen'
>>> negotiate("nl-BE,nl;q=0.9,en;q=0.8", None)
'nl'
>>> negotiate("de-DE,en;q=0.5", None)
'en'

Texts of the rules core and the formats (errors, what a scored item counted, why an
item did not count) are :class:`~mahjong_nts.core.text.Text` values: English, with the
template and parameters they were made from.  :func:`render` says one in a language:

>>> from mahjong_nts.core.notation import parse_hand
>>> try:
...     parse_hand("b1 b1 b1 b1 b1")
... except ValueError as exc:
...     error = exc
>>> render(error.text, "nl")
'5 exemplaren van b1 (5 dicht): er zijn maar 4 van elke steen'
>>> render(error.text, "en") == str(error)
True

Re-extract and update after changing texts (see ``docs/web.md``)::

    pybabel extract -F babel.cfg -o src/mahjong_nts/i18n/locales/mahjong_nts.pot src
    pybabel update -i src/mahjong_nts/i18n/locales/mahjong_nts.pot \\
        -d src/mahjong_nts/i18n/locales -D mahjong_nts
    pybabel compile -d src/mahjong_nts/i18n/locales -D mahjong_nts
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal

from mahjong_nts.core.text import Text, TextList

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALES_DIR",
    "Language",
    "language",
    "negotiate",
    "parse_accept_language",
    "render",
    "render_error",
    "translator",
]

DOMAIN: Final = "mahjong_nts"
"""The gettext domain: ``locales/<lang>/LC_MESSAGES/mahjong_nts.mo``."""

LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"

Language = Literal["nl", "en"]

LANGUAGES: Final[tuple[Language, ...]] = ("en", "nl")
"""The languages there are texts for; English is the source language."""

DEFAULT_LANGUAGE: Final[Language] = "en"

MAX_ACCEPT_LANGUAGE: Final = 1000
"""Characters of an Accept-Language header that are looked at (the rest is ignored)."""

MAX_ACCEPT_ENTRIES: Final = 20
"""Languages of an Accept-Language header that are looked at."""


def language(value: object) -> Language | None:
    """``value`` as one of :data:`LANGUAGES` (``"NL"``, ``"nl-BE"`` and ``"nl_NL"``
    give ``"nl"``), or None when it names no language there are texts for."""
    if not isinstance(value, str):
        return None
    primary = value.strip().replace("_", "-").split("-", 1)[0].lower()
    if primary == "nl":
        return "nl"
    if primary == "en":
        return "en"
    return None


@functools.cache
def translator(lang: str) -> gettext.NullTranslations:
    """The translations for ``lang``: the Dutch catalogue for ``"nl"``, the
    source texts (English) for ``"en"`` and for any language without a catalogue."""
    if language(lang) == "nl":
        return gettext.translation(DOMAIN, localedir=LOCALES_DIR, languages=["nl"])
    return gettext.NullTranslations()


def _is_tag(tag: str) -> bool:
    """A language tag as BCP 47 writes it: subtags of 1 to 8 ASCII letters or digits
    joined by ``-`` (``nl``, ``nl-BE``, ``zh-Hant-TW``)."""
    return all(0 < len(part) <= 8 and part.isascii() and part.isalnum() for part in tag.split("-"))


def parse_accept_language(header: str) -> list[str]:
    """The languages of an Accept-Language header, most wanted first (``q=0``
    means not wanted; ``*`` and malformed entries are left out).  At most :data:`MAX_ACCEPT_ENTRIES`
    entries of the first :data:`MAX_ACCEPT_LANGUAGE` characters are read."""
    weighted: list[tuple[float, int, str]] = []
    entries = header[:MAX_ACCEPT_LANGUAGE].split(",")[:MAX_ACCEPT_ENTRIES]
    for index, entry in enumerate(entries):
        tag, _, params = entry.strip().partition(";")
        tag = tag.strip()
        if not _is_tag(tag):
            continue
        q = 1.0
        params = params.strip()
        if params:
            name, _, value = params.partition("=")
            if name.strip().lower() != "q":
                continue
            try:
                q = float(value.strip())
            except ValueError:
                continue
            if not 0 <= q <= 1:
                continue
        if q > 0:
            weighted.append((-q, index, tag.replace("-", "_")))
    return [tag for _, _, tag in sorted(weighted)]


def negotiate(
    accept_language: str | None,
    cookie: str | None,
    *,
    default: Language = DEFAULT_LANGUAGE,
) -> Language:
    """The language of a page: the ``lang`` cookie when it names one there are
    texts for, else the best of the browser's Accept-Language (Babel's
    ``negotiate_locale``), else ``default``."""
    chosen = language(cookie)
    if chosen is not None:
        return chosen
    if accept_language:
        from babel.core import negotiate_locale  # imported when needed: the CLI starts fast

        best = negotiate_locale(parse_accept_language(accept_language), LANGUAGES, aliases={})
        # negotiate_locale matches "nl_BE" to "nl" and returns the preferred spelling
        found = language(best)
        if found is not None:
            return found
    return default


MAX_RENDER_DEPTH: Final = 12
"""Texts nested in the parameters of a text that are rendered; deeper ones are shown
in English (the core nests at most four)."""

_FORMAT_ERRORS: Final = (KeyError, IndexError, ValueError, AttributeError, TypeError)


def render(text: object, lang: str) -> str:
    """``text`` in ``lang``: a :class:`~mahjong_nts.core.text.Text` (or a
    :class:`~mahjong_nts.core.text.TextList`) translated template by template, each
    parameter that is a text itself translated too; a plain ``str`` looked up whole in
    the catalogue (an English text read back from a log); anything else as ``str()``.
    English (and any language without a catalogue) gives ``str(text)``, the English.

    Never raises: a translation whose template does not fit the parameters (a missing
    or misspelt field, a bad format) gives the English template with the parameters
    rendered, and failing that the English text."""
    if language(lang) != "nl":
        return str(text)
    gettext = translator(lang).gettext
    if isinstance(text, Text | TextList):
        return _render(text, gettext, 0)
    if isinstance(text, str):
        return gettext(text) if text else text
    return str(text)


def _render(value: Any, gettext: Callable[[str], str], depth: int) -> str:
    if depth > MAX_RENDER_DEPTH:
        return str(value)
    if isinstance(value, TextList):
        sep = _render(value.sep, gettext, depth + 1)
        return sep.join(_render(part, gettext, depth + 1) for part in value.parts)
    if not isinstance(value, Text):
        return str(value)
    template = value.template
    translated = gettext(template) if template else template
    if not value.params:
        return translated
    params = {
        key: _render(v, gettext, depth + 1) if isinstance(v, Text | TextList) else v
        for key, v in value.params.items()
    }
    for candidate in (translated, template):
        try:
            return candidate.format_map(params)
        except _FORMAT_ERRORS:
            continue
    return str(value)


def render_error(exc: BaseException, lang: str) -> str | None:
    """The message of an error of the package (a
    :class:`~mahjong_nts.core.errors.MahjongError`) in ``lang``, or None for any other
    error (its message is not ours to translate)."""
    from mahjong_nts.core.errors import MahjongError

    if isinstance(exc, MahjongError):
        return render(exc.text, lang)
    return None
