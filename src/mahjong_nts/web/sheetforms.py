"""The score sheet's forms and exports, without HTTP: a form's fields read into
what the store takes (names, a rule set, an entry), the store's errors put
beside the field they are about, an entry shown as text or put back into the
form, and the sheet as CSV.

Forms are ``application/x-www-form-urlencoded`` (a plain HTML form), at most
:data:`MAX_FORM_BYTES` bytes and :data:`MAX_FORM_FIELDS` fields.  Field names:

* start: ``name`` (3 to 5 times, in order round the table; empty ones are left
  out), ``ruleset`` (a shipped rule set), ``flowers`` (play with flowers and
  seasons), ``chip`` (cents per point, empty for none).  Three names add the
  ``+three-players`` overlay, five ``+five-players``;
* a hand: ``kind`` (``scores`` or ``hands``), ``score0``..``score4`` (empty is
  0) or ``hand0``..``hand4`` (each player's hand in the notation of
  docs/notation.md, the winning tile marked ``+``; empty for the dreamer),
  ``winner`` (empty: a remise), ``discarder`` (empty: self-drawn), ``dominant``
  (a green-dragon hand), ``how`` (how the winner got the winning tile: ``wall``,
  ``discard``, ``loose_tile``, ``robbed_kong``) and ``last_tile`` (hands only),
  and ``version`` for a correction.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final
from urllib.parse import parse_qsl

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.hand import MeldKind
from mahjong_nts.core.notation import parse_hand
from mahjong_nts.core.rules import MAX_SCORE
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats import wire
from mahjong_nts.formats.rulefiles import SHIPPED
from mahjong_nts.sheet import MAX_NAME_CHARS, Row, SheetError
from mahjong_nts.store import SheetView

__all__ = [
    "HOW",
    "MAX_FORM_BYTES",
    "MAX_FORM_FIELDS",
    "MAX_HAND_CHARS",
    "SCORE_DIGITS",
    "Form",
    "FormProblem",
    "csv_text",
    "describe_entry",
    "entry_from_form",
    "entry_values",
    "error_field",
    "euros",
    "form_keys",
    "form_of",
    "hand_request",
    "hand_text",
    "parse_form",
    "session_from_form",
    "wind_name",
]

MAX_FORM_BYTES: Final = 64 * 1024
"""Bytes of a form's body (urlencoded)."""

MAX_FORM_FIELDS: Final = 64
"""Fields in one form (a hand's form has at most 17)."""

MAX_HAND_CHARS: Final = 200
"""Characters of one hand in the notation (a hand of 18 tiles with melds and
flowers takes about 70)."""

SCORE_DIGITS: Final = len(str(MAX_SCORE))
"""Digits of the largest score (``core.rules.MAX_SCORE``, 2**48: 15 digits)."""

MAX_FIELD_CHARS: Final = 200
"""Characters of any other field."""

HOW: Final = ("wall", "discard", "loose_tile", "robbed_kong")
"""How the winner got the winning tile (``win.from`` of the JSON contract)."""

_MAX_PLAYERS: Final = 5
_GUARD: Final = ("=", "+", "-", "@", "\t", "\r")
_HANDS_IN: Final = re.compile(r"\bhands(?:\[|\.)(\d)")

Gettext = Callable[[str], str]


class FormProblem(Exception):
    """A form that cannot be read at all (too long, too many fields)."""


@dataclass
class Form:
    """A form's fields (the last value of each, ``name`` all of them in order)
    and the problems found, by field."""

    values: dict[str, str] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)

    def get(self, key: str) -> str:
        return self.values.get(key, "")


def parse_form(body: bytes) -> Form:
    """The fields of an urlencoded body (:class:`FormProblem` past the bounds
    or when it is not UTF-8)."""
    if len(body) > MAX_FORM_BYTES:
        raise FormProblem(f"a form has at most {MAX_FORM_BYTES} bytes")
    try:
        text = body.decode("utf-8")
        pairs = parse_qsl(
            text, keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS, errors="strict"
        )
    except UnicodeDecodeError:
        raise FormProblem("a form is sent as UTF-8") from None
    except ValueError:
        raise FormProblem(f"a form has at most {MAX_FORM_FIELDS} fields") from None
    return form_of(pairs)


def form_of(pairs: Sequence[tuple[str, str]]) -> Form:
    """A :class:`Form` from (key, value) pairs (a body's or a query's)."""
    form = Form()
    for key, value in pairs:
        if key == "name":
            form.names.append(value)
        else:
            form.values[key] = value
    return form


def _player(form: Form, key: str, players: int, _: Gettext) -> int | None:
    text = form.get(key).strip()
    if not text:
        return None
    if text.isdigit() and len(text) == 1 and int(text) < players:
        return int(text)
    form.errors[key] = _("choose one of the players")
    return None


# --------------------------------------------------------------------------- start


def form_keys(players: int) -> frozenset[str]:
    """The keys of the start form's fields that can carry a message."""
    return frozenset(["names", "ruleset", "chip", *(f"name{i}" for i in range(players))])


def session_from_form(form: Form, _: Gettext) -> tuple[list[str], list[int], str, str | None]:
    """``(names, the field of each name, rule set spec, chip)`` from the start
    form; problems go into ``form.errors`` (``names``, ``name0``.., ``ruleset``,
    ``chip``).  The names are checked by the store
    (:func:`~mahjong_nts.sheet.check_names`): here only their count and length,
    which the form needs to choose the rule set.  Empty name fields are left out."""
    index = [i for i, n in enumerate(form.names) if n.strip()]
    names = [form.names[i].strip() for i in index]
    for i, name in zip(index, names, strict=True):
        if len(name) > MAX_NAME_CHARS:
            form.errors[f"name{i}"] = _("a name has at most {n} characters").format(
                n=MAX_NAME_CHARS
            )
    if len(form.names) > _MAX_PLAYERS or not 3 <= len(names) <= _MAX_PLAYERS:
        form.errors["names"] = _("a sheet has 3, 4 or 5 players; got {n}").format(n=len(names))
    base = form.get("ruleset") or SHIPPED[0]
    if base not in SHIPPED:
        form.errors["ruleset"] = _("choose one of the rule sets")
        base = SHIPPED[0]
    spec = base
    if form.get("flowers"):
        spec += "+flowers"
    if len(names) == 3:
        spec += "+three-players"
    elif len(names) == 5:
        spec += "+five-players"
    chip_text = form.get("chip").strip().replace(",", ".")
    if len(chip_text) > 20:
        form.errors["chip"] = _("a chip value has at most 20 characters")
    return names, index, spec, chip_text or None


# --------------------------------------------------------------------------- hands


def hand_request(text: str, *, winner: bool, how: str, last_tile: bool) -> dict[str, Any]:
    """A hand in the notation as the hand object of a ``settle`` request (without
    its winds, which the sheet gives): the winner's with how it was won; a
    non-winner's of fewer than 13 tiles is ``partial`` (only the sets that score,
    :func:`~mahjong_nts.formats.wire.table_hand`).  :class:`MahjongError` (from the
    notation) when it cannot be read."""
    hand = wire.table_hand(parse_hand(text))
    out: dict[str, Any] = {"concealed": " ".join(t.token for t in hand.concealed)}
    if hand.melds:
        out["melds"] = [
            {
                "kind": MeldKind(m.kind).name.lower(),
                "tiles": " ".join(t.token for t in m.tiles),
                "open": m.open,
            }
            for m in hand.melds
        ]
    if hand.bonus:
        out["flowers"] = " ".join(t.token for t in hand.bonus)
    if hand.winning_tile is not None:
        out["winning_tile"] = hand.winning_tile.token
    if hand.partial:
        out["partial"] = True
    if winner:
        win: dict[str, Any] = {"from": how}
        if last_tile:
            win["last_tile"] = True
        out["win"] = win
    return out


def _tokens(value: object) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


def hand_text(hand: Mapping[str, Any]) -> str:
    """A stored hand object written back in the notation (the inverse of
    :func:`hand_request`, as far as the notation goes)."""
    concealed = _tokens(hand.get("concealed"))
    winning = hand.get("winning_tile")
    if isinstance(winning, str) and winning in concealed:
        concealed.remove(winning)
    parts = [" ".join(concealed)] if concealed else []
    for meld in hand.get("melds") or []:
        if isinstance(meld, Mapping):
            inner = " ".join(_tokens(meld.get("tiles")))
            parts.append(f"[{inner}]" if meld.get("open", True) else f"({inner})")
    parts.extend(_tokens(hand.get("flowers")))
    if isinstance(winning, str):
        parts.append(f"+{winning}")
    return " ".join(parts)


def entry_from_form(form: Form, players: int, _: Gettext) -> dict[str, Any] | None:
    """The entry (the store's JSON object) of an add or correct form, or ``None``
    with the problems in ``form.errors`` (each beside its field)."""
    winner = _player(form, "winner", players, _)
    discarder = _player(form, "discarder", players, _)
    dominant = _player(form, "dominant", players, _)
    entry: dict[str, Any]
    if form.get("kind") == "hands":
        how = form.get("how") or "wall"
        if how not in HOW:
            form.errors["how"] = _("choose how the winning tile was got")
            how = "wall"
        if discarder is not None and how not in ("discard", "robbed_kong"):
            how = "discard"  # a discarder was named: the tile came from him
        if discarder is None and how in ("discard", "robbed_kong") and winner is not None:
            form.errors["discarder"] = _("say whose discard (or kong) gave the winning tile")
        hands: list[dict[str, Any] | None] = []
        for p in range(players):
            key = f"hand{p}"
            text = form.get(key).strip()
            if not text:
                hands.append(None)
                continue
            if len(text) > MAX_HAND_CHARS:
                form.errors[key] = _("a hand has at most {n} characters").format(n=MAX_HAND_CHARS)
                hands.append(None)
                continue
            try:
                hands.append(
                    hand_request(
                        text,
                        winner=p == winner,
                        how=how,
                        last_tile=bool(form.get("last_tile")),
                    )
                )
            except MahjongError as exc:
                form.errors[key] = exc.text
                hands.append(None)
        entry = {"hands": hands}
    else:
        scores: list[int] = []
        for p in range(players):
            key = f"score{p}"
            text = form.get(key).strip()
            if not text:
                scores.append(0)
            elif not (text.isdigit() and text.isascii()):
                form.errors[key] = _("a score is a whole number, 0 or more")
                scores.append(0)
            elif len(text) > SCORE_DIGITS or int(text) > MAX_SCORE:
                form.errors[key] = _("a score is a whole number from 0 to {most}").format(
                    most=MAX_SCORE
                )
                scores.append(0)
            else:
                scores.append(int(text))
        entry = {"scores": scores}
    entry["winner"] = winner
    if discarder is not None:
        entry["discarder"] = discarder
    if dominant is not None:
        entry["dominant"] = dominant
    return None if form.errors else entry


def entry_values(entry: Mapping[str, Any], players: int) -> dict[str, str]:
    """The form's fields for an entry (to correct it: the form prefilled)."""
    values: dict[str, str] = {}
    for key in ("winner", "discarder", "dominant"):
        value = entry.get(key)
        values[key] = "" if value is None else str(value)
    if "hands" in entry:
        values["kind"] = "hands"
        hands = entry.get("hands") or []
        for p in range(players):
            hand = hands[p] if p < len(hands) else None
            values[f"hand{p}"] = hand_text(hand) if isinstance(hand, Mapping) else ""
            win = hand.get("win") if isinstance(hand, Mapping) else None
            if isinstance(win, Mapping):
                values["how"] = str(win.get("from", "wall"))
                values["last_tile"] = "1" if win.get("last_tile") else ""
    else:
        values["kind"] = "scores"
        scores = entry.get("scores") or []
        for p in range(players):
            values[f"score{p}"] = str(scores[p]) if p < len(scores) else ""
    return values


def error_field(exc: SheetError, players: int) -> str:
    """The form field a :class:`SheetError` of the store is about."""
    where = exc.field
    match = re.fullmatch(r"(names|scores|hands)\[(\d)\].*", where)
    if match:
        kind = {"names": "name", "scores": "score", "hands": "hand"}[match.group(1)]
        return f"{kind}{match.group(2)}"
    if where in ("names", "chip", "ruleset", "winner", "discarder", "dominant"):
        return where
    found = _HANDS_IN.search(exc.message)
    if found and int(found.group(1)) < players:
        return f"hand{found.group(1)}"
    return "entry"


# --------------------------------------------------------------------------- showing


def wind_name(tile: Tile | None, _: Gettext) -> str:
    """A wind (or the green dragon of a green-dragon hand) by name."""
    names = {
        Tile.EAST: _("East"),
        Tile.SOUTH: _("South"),
        Tile.WEST: _("West"),
        Tile.NORTH: _("North"),
        Tile.GREEN: _("Green dragon"),
    }
    return "" if tile is None else names.get(tile, tile.token)


def euros(cents: Decimal, lang: str) -> str:
    """Cents as euros with at least two decimals, in the language's way of
    writing numbers (``1.20`` / ``1,20``)."""
    value = cents / 100
    text = f"{value:.2f}" if value == value.quantize(Decimal("0.01")) else f"{value.normalize():f}"
    return text.replace(".", ",") if lang == "nl" else text


def describe_entry(entry: Mapping[str, Any], names: Sequence[str], _: Gettext) -> str:
    """An entry in a line: each player's score or hand, who won, who discarded."""

    def who(value: object) -> str:
        return names[value] if isinstance(value, int) and 0 <= value < len(names) else "?"

    if "hands" in entry:
        hands = entry.get("hands") or []
        shown = [
            f"{who(p)}: {hand_text(h)}"
            for p, h in enumerate(hands)
            if isinstance(h, Mapping) and p < len(names)
        ]
    else:
        shown = [f"{who(p)} {s}" for p, s in enumerate(entry.get("scores") or [])]
    winner, discarder = entry.get("winner"), entry.get("discarder")
    if winner is None:
        result = _("a remise")
    elif discarder is None:
        result = _("{winner} won, self-drawn").format(winner=who(winner))
    else:
        result = _("{winner} won on the discard of {discarder}").format(
            winner=who(winner), discarder=who(discarder)
        )
    return " · ".join(shown) + "; " + result


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula."""
    return "'" + text if text.startswith(_GUARD) else text


def _money(cents: Decimal) -> str:
    return euros(cents, "en")


def csv_text(view: SheetView, _: Gettext) -> str:
    """The sheet as CSV: a header row, then one row per hand: its number, game,
    round wind, who was East, each player's score, balance and running total
    (and the running total in euros with a chip value), and a note when the
    hand no longer fits its place.  Names and notes starting with ``= + - @``
    (or a tab or carriage return) get a leading ``'`` so that no spreadsheet
    runs them as formulas."""
    names = view.session.names
    money = view.session.chip is not None
    header = [_("hand"), _("game"), _("round wind"), _("East")]
    for name in names:
        header += [
            _cell(f"{name} " + _("score")),
            _cell(f"{name} " + _("balance")),
            _cell(f"{name} " + _("total")),
        ]
        if money:
            header.append(_cell(f"{name} " + _("total in euros")))
    header.append(_("note"))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for hand in view.hands:
        row: Row = hand.row
        line: list[str | int] = [
            row.number + 1,
            row.game + 1,
            wind_name(row.round_wind, _),
            _cell(names[row.east]),
        ]
        for p in range(len(names)):
            line += [row.scores[p], row.balances[p], row.totals[p]]
            if money and row.money_totals is not None:
                line.append(_money(row.money_totals[p]))
        line.append(_cell(row.problem or ""))
        writer.writerow(line)
    return out.getvalue()
