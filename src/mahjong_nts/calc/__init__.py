"""The calculator's answer without HTTP: a query and a language in, the result's HTML out.

:func:`mahjong_nts.calc.result.render_fragment` is what ``GET /calc/result``
answers (``web/calc.py`` calls it) and what the browser runs offline in Pyodide
(``web/offline.py`` serves this package, the part of the core and ``formats/`` it
uses, the catalogue, Jinja2 and MarkupSafe as one zip).  So it imports no web
framework and no pydantic: the standard library, the core, ``formats.scorejob``,
``formats.rulefiles``, ``formats.citations``, ``i18n`` and Jinja2.  It sits above
``formats/`` and ``i18n/`` and below ``web/`` (see docs/web.md, "Offline").
"""
