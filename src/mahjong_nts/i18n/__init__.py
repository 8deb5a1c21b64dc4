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

Re-extract and update after changing texts (see ``docs/web.md``)::

    pybabel extract -F babel.cfg -o src/mahjong_nts/i18n/locales/mahjong_nts.pot src
    pybabel update -i src/mahjong_nts/i18n/locales/mahjong_nts.pot \\
        -d src/mahjong_nts/i18n/locales -D mahjong_nts
    pybabel compile -d src/mahjong_nts/i18n/locales -D mahjong_nts
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path
from typing import Final, Literal

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALES_DIR",
    "Language",
    "language",
    "negotiate",
    "parse_accept_language",
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
