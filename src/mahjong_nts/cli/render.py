"""Rendering scores and settlements for the terminal (``score``, ``settle``, ``play``)."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mahjong_nts.cli.options import check_lang
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.hand import Hand
from mahjong_nts.core.tiles import tile_name
from mahjong_nts.formats.safejson import printable
from mahjong_nts.formats.wire import seat_wind
from mahjong_nts.i18n import render

_LABELS = {
    "en": {
        "item": "Item",
        "other": "Dutch",
        "points": "Points",
        "doublings": "Doublings",
        "count": "Count",
        "detail": "Detail",
        "total_points": "Total points",
        "limit_hand": "Limit hand",
        "base": "Base",
        "cap": "Limit",
        "score": "Score",
        "mahjong": "Mahjong",
        "allowed": "allowed",
        "refused": "refused",
        "dead": "Dead hand",
        "arrangement": "Arrangement",
        "hand": "Hand",
        "ruleset": "Rule set",
        "seat": "Seat",
        "wind": "Wind",
        "balance": "Balance",
        "pays": "pays",
        "payments": "Payments",
        "none": "none",
        "no_items": "(nothing scores)",
        "remise": "Remise: nothing is paid.",
        "dreamer": "dreamer",
        "sits_out": "Sits this hand out (the dreamer).",
    },
    "nl": {
        "item": "Onderdeel",
        "other": "Engels",
        "points": "Punten",
        "doublings": "Verdubbelingen",
        "count": "Aantal",
        "detail": "Toelichting",
        "total_points": "Totaal punten",
        "limit_hand": "Limietspel",
        "base": "Basis",
        "cap": "Limiet",
        "score": "Score",
        "mahjong": "Mahjong",
        "allowed": "toegestaan",
        "refused": "geweigerd",
        "dead": "Dood spel",
        "arrangement": "Indeling",
        "hand": "Hand",
        "ruleset": "Spelregels",
        "seat": "Plaats",
        "wind": "Wind",
        "balance": "Saldo",
        "pays": "betaalt",
        "payments": "Betalingen",
        "none": "geen",
        "no_items": "(niets telt)",
        "remise": "Remise: er wordt niets betaald.",
        "dreamer": "dromer",
        "sits_out": "Doet deze hand niet mee (de dromer).",
    },
}


def labels(lang: str) -> dict[str, str]:
    return _LABELS[check_lang(lang)]


def group_glyphs(text: str) -> str:
    """Unicode glyphs for a notation group such as ``[b123]`` or ``(CCCC)``."""
    from mahjong_nts.core.notation import parse_tiles

    try:
        tiles = parse_tiles(re.sub(r"[\[\]()+*]", " ", text))
    except (MahjongError, ValueError):
        return ""
    return "".join(t.glyph for t in tiles)


def hand_text(hand: Hand) -> str:
    from mahjong_nts.core.notation import format_hand, glyphs

    return f"{format_hand(hand)}   {glyphs(hand)}"


def print_score(console: Console, resp: dict[str, Any], hand: Hand, lang: str) -> None:
    """The explained score of ``resp`` (a score response) in ``lang``: what the rules
    core says (details, reasons, why mahjong is refused) said in that language too."""
    lab = labels(lang)
    # English names the item in English with the book's Dutch name beneath; Dutch in
    # Dutch only
    other = "nl" if lang == "en" else None
    # Text, not markup: "[k777]" in a hand or a detail is a meld, not a style tag
    table = Table(title=Text(f"{lab['hand']}: {hand_text(hand)}"), title_justify="left")
    # The item in the chosen language, its Dutch name dim beneath it: room for the
    # Detail column (what the item counted) in an 80-column terminal.
    table.add_column(f"{lab['item']} ({lab['other']})" if other else lab["item"])
    show_count = any(it["count"] != 1 for it in resp["items"])
    if show_count:
        table.add_column(lab["count"], justify="right")
    table.add_column(lab["points"], justify="right")
    table.add_column(lab["doublings"], justify="right")
    table.add_column(lab["detail"])
    for it in resp["items"]:
        name = Text(it[lang])
        if other:
            name.append("\n" + it[other], style="dim")
        row: list[Text | str] = [name]
        if show_count:
            row.append(str(it["count"]))
        detail = render(it["detail"], lang)
        row += [str(it["points"] or ""), str(it["doublings"] or ""), Text(detail)]
        table.add_row(*row)
    if not resp["items"]:
        table.add_row(lab["no_items"], *([""] * (4 if show_count else 3)))
    console.print(table)
    rows: list[tuple[str, str]] = [(lab["ruleset"], resp["ruleset"])]
    if resp["dead"]:
        rows.append((lab["dead"], "yes" if lang == "en" else "ja"))
    rows.append((lab["total_points"], str(resp["points"])))
    rows.append((lab["doublings"], str(resp["doublings"])))
    limit = resp["limit_hand_name"]
    rows.append((lab["limit_hand"], limit[lang] if limit else lab["none"]))
    rows.append((lab["base"], str(resp["base"])))
    if resp["cap"] is not None:
        rows.append((lab["cap"], str(resp["cap"])))
    rows.append((lab["score"], str(resp["score"])))
    if resp["mahjong_allowed"] is not None:
        verdict = lab["allowed"] if resp["mahjong_allowed"] else lab["refused"]
        if not resp["mahjong_allowed"] and resp["refusal"]:
            verdict += f": {render(resp['refusal'], lang)}"
        rows.append((lab["mahjong"], verdict))
    if resp["arrangement"]:
        groups = " ".join(resp["arrangement"])
        glyphs = " ".join(g for g in (group_glyphs(a) for a in resp["arrangement"]) if g)
        rows.append((lab["arrangement"], f"{groups}   {glyphs}".rstrip()))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        style = "bold" if key == lab["score"] else ""
        console.print(f"{key:<{width}}  {value}", style=style, markup=False, highlight=False)
    notes = resp.get("not_counted") or []
    if notes:
        title = "Not counted" if lang == "en" else "Telt niet"
        console.print(f"{title}:", markup=False, highlight=False)
        for note in notes:
            named = f"{note[lang]} ({note[other]})" if other else note[lang]
            reason = render(note["reason"], lang)
            console.print(f"  {named}: {reason}", markup=False, highlight=False)


def seat_index_label(
    i: int, east: int, lang: str, *, seats: int = 4, dreamer: int | None = None
) -> str:
    """``"1 South"``: a seat index and its wind, at a table of ``seats`` (3, 4, or 5
    with a dreamer, who has no wind: ``"4 dreamer"``)."""
    if i == dreamer:
        return f"{i} {labels(lang)['dreamer']}"
    return f"{i} {tile_name(seat_wind(i, east, seats=seats, dreamer=dreamer), lang)}"


def print_settlement(
    console: Console,
    resp: dict[str, Any],
    east: int,
    winner: int | None,
    lang: str,
    *,
    dreamer: int | None = None,
) -> None:
    """The settlement table (a row per seat, the winner starred, the dreamer shown
    as sitting out) and the payments.  The rule-set name is shown as plain text,
    never read as rich markup."""
    lab = labels(lang)
    seats = len(resp["scores"])

    def name(i: int) -> str:
        return seat_index_label(i, east, lang, seats=seats, dreamer=dreamer)

    table = Table(
        title=Text(f"{lab['ruleset']}: {printable(resp['ruleset'])}"), title_justify="left"
    )
    table.add_column(lab["seat"])
    table.add_column(lab["score"], justify="right")
    table.add_column(lab["balance"], justify="right")
    for i in range(seats):
        seat = name(i) + (" *" if i == winner else "")
        if i == dreamer:
            table.add_row(Text(seat, style="dim"), Text("-", style="dim"), Text("0", style="dim"))
        else:
            table.add_row(
                Text(seat), Text(str(resp["scores"][i])), Text(f"{resp['balances'][i]:+d}")
            )
    console.print(table)
    if winner is None:
        console.print(lab["remise"], markup=False)
        return
    console.print(f"{lab['payments']}:", markup=False)
    for payer, payee, amount in resp["payments"]:
        console.print(f"  {name(payer)} {lab['pays']} {name(payee)} {amount}", markup=False)
