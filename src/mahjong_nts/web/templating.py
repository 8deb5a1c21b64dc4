"""Jinja2 pages in the reader's language.

One Jinja2 environment per language, each with the i18n extension and that
language's gettext translations installed (``_()``, ``gettext``, ``ngettext``
and ``{% trans %}`` in templates); a request picks its environment, so no
environment is changed while a page renders.  The language of a request:
``?lang=nl`` (which also sets the ``lang`` cookie), else the cookie, else the
browser's Accept-Language, else the app's default (see
:func:`mahjong_nts.i18n.negotiate`).

Texts that come from the rules core and the formats (an error, an item's detail, why
an item did not count, a citation's notes) are English
:class:`~mahjong_nts.core.text.Text` values; the ``tr`` filter says one in the page's
language: ``{{ it.detail|tr }}`` (:func:`mahjong_nts.i18n.render`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from mahjong_nts.calc.result import JINJA_OPTIONS
from mahjong_nts.calc.result import TEMPLATES_DIR as CALC_TEMPLATES_DIR
from mahjong_nts.i18n import LANGUAGES, Language, language, negotiate, render, translator

__all__ = ["LANG_COOKIE", "Pages", "pages_of", "request_language"]

TEMPLATES_DIR: Final = Path(__file__).resolve().parent / "templates"

LANG_COOKIE: Final = "lang"
LANG_COOKIE_AGE: Final = 365 * 24 * 3600

LANGUAGE_NAMES: Final[Mapping[Language, str]] = {"en": "English", "nl": "Nederlands"}
"""Each language named in itself (the switch is read by whoever wants that language)."""

NAV: Final = (
    ("/", "calculator"),
    ("/settle", "settle"),
    ("/sheet", "sheet"),
    ("/play", "play"),
    ("/online", "online"),
    ("/tournaments", "tournaments"),
    ("/rules", "rules"),
)


def _render_in(text: object, lang: Language) -> str:
    """The ``tr`` filter: ``text`` (a core text) in ``lang``."""
    return render(text, lang)


def request_language(request: Request, default: Language) -> tuple[Language, bool]:
    """The language of ``request``, and whether it was chosen by ``?lang=`` (then
    the answer sets the cookie)."""
    asked = language(request.query_params.get("lang"))
    if asked is not None:
        return asked, True
    return (
        negotiate(
            request.headers.get("accept-language"),
            request.cookies.get(LANG_COOKIE),
            default=default,
        ),
        False,
    )


class Pages:
    """The templates, one environment per language."""

    def __init__(self, default_language: Language) -> None:
        self.default_language = default_language
        self.envs: dict[Language, jinja2.Environment] = {}
        for lang in LANGUAGES:
            env = jinja2.Environment(
                loader=jinja2.FileSystemLoader([TEMPLATES_DIR, CALC_TEMPLATES_DIR]),
                **JINJA_OPTIONS,
            )
            env.install_gettext_translations(translator(lang), newstyle=True)  # type: ignore[attr-defined]
            env.filters["tr"] = functools.partial(_render_in, lang=lang)
            self.envs[lang] = env

    def render(
        self,
        request: Request,
        name: str,
        *,
        status_code: int = 200,
        active: str | None = None,
        **context: Any,
    ) -> HTMLResponse:
        """Template ``name`` in the request's language, as an HTML answer."""
        lang, _ = request_language(request, self.default_language)
        html = (
            self.envs[lang]
            .get_template(name)
            .render(
                lang=lang,
                languages=[(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
                nav=NAV,
                active=active,
                path=request.url.path,
                **context,
            )
        )
        return self.respond(request, html, status_code=status_code)

    def respond(self, request: Request, html: str, *, status_code: int = 200) -> HTMLResponse:
        """``html`` (in the request's language) as the answer, with the language
        headers and, when ``?lang=`` chose it, the cookie."""
        lang, chosen = request_language(request, self.default_language)
        response = HTMLResponse(html, status_code=status_code)
        response.headers["Content-Language"] = lang
        response.headers["Vary"] = "Accept-Language, Cookie"
        if chosen:
            response.set_cookie(
                LANG_COOKIE, lang, max_age=LANG_COOKIE_AGE, httponly=True, samesite="lax"
            )
        return response


def pages_of(request: Request) -> Pages:
    """The app's page renderer (built once by ``create_app``, kept in its state)."""
    pages: Pages = request.app.state.pages
    return pages
