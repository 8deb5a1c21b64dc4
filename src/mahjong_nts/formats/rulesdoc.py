"""Generate ``docs/rules.md`` from the shipped rule-set data.

The whole file is generated: the four shipped rule sets side by side, one
table per section, then the overlays, then every ruling (the project's
rulings, and the decisions recorded in each data file's ``notes``).  Prose
guides live elsewhere (``docs/notation.md``, ``docs/json.md``).

Regenerate with::

    python -m mahjong_nts.formats.rulesdoc > docs/rules.md
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from mahjong_nts.core.items import ITEMS, LIMIT_HANDS, ItemKind
from mahjong_nts.core.rules import LimitValue, RuleSet
from mahjong_nts.formats.rulefiles import (
    DEFAULT_RULESET,
    OVERLAYS,
    SHIPPED,
    load_ruleset,
    overlay_info,
    shipped_mapping,
)

__all__ = ["RULINGS", "format_value", "main", "render_rules_doc"]

REGENERATE: Final = "python -m mahjong_nts.formats.rulesdoc > docs/rules.md"

BOOKS: Final = (
    ("001", "NMB Nederlandse Toernooi Spelregels, januari 2016", "nts-2016"),
    ("002", "Nederlandse toernooispelregels 2002, Definitief 1.0", "nts-2002"),
    (
        "004",
        "club web copy of the 2002 text with flowers and a 3-player wall",
        "nts-2002 + flowers",
    ),
    (
        "000",
        "Spelregels volgens Nederlandse Mahjong Bond, Versie 2.0 2009 (Groene Hart)",
        "nmb-2009 (+ flowers, three-players, five-players)",
    ),
    ("003", "De Rode Draak, 'De puntentelling' (1998)", "rode-draak"),
)

RULINGS: Final[tuple[tuple[str, str], ...]] = (
    # The project's rulings (RULES.md, "Rulings that apply to every rule set").
    (
        "A set completed by a claimed winning tile (a discard or a robbed kong) counts as open.",
        "001 §1.8.5; 002 'Het Mah-Jong'; 000 'Het mahjong'",
    ),
    (
        "A non-winner shows his whole hand; it is arranged to give him the highest score. Only "
        "complete pungs/kongs and scoring pairs count; loose tiles count only for whole-hand "
        "doublings (clean etc.).",
        "002 'Het verrekenen van de punten' ('laat zijn stenen duidelijk zien'); 001 §2",
    ),
    (
        "A winner's hand is arranged for the highest score among all legal arrangements.",
        "001 §2 Puntentelling; 002 'Puntentelling'",
    ),
    (
        "A winning hand that is a limit hand of the rule set always scores the limit value "
        "(the highest, if it is several), even where its parts would count more ('Ongeacht de "
        "waarde van de verschillende delen ... altijd de waarde van het limietspel'); only when "
        "it is no limit hand are its arrangements compared by score.",
        "001 §2.3.1; 002 'Puntentelling, Algemeen'; 000 'Het berekenen van de punten'",
    ),
    (
        "Only possible tile (enig mogelijke steen): the hand before the winning tile waits on "
        "exactly one tile kind, counting every completion structurally, whether or not it would "
        "reach 2 doublings (the reading of 'Dit geldt niet als andere mogelijkheden ...').",
        "000 'Mahjong met de enig mogelijke steen'; 002 'Winnende steen'; 001 §2.4.1",
    ),
    (
        "A concealed kong counts as a concealed pung for 3/4 concealed pungs; an open kong does "
        "not ('kong geldt als dichte pung' in 2002/2016 is read the same).",
        "000 'Drie pungs dicht' ('Een open kong mag niet als dichte pung geteld worden'); "
        "001 §2.4.2; 002 'Bijzondere groeperingen'",
    ),
    (
        "A winning loose tile (after a kong) counts as self-drawn.",
        "001 §2.4.2 'Kong met bloeiende bloemen'; 002 'Winnende steen'",
    ),
    (
        "A robbed kong counts as a claimed tile; the robbed player is the one who 'discarded' it.",
        "000 'Kongroof'; 001 §2.4.2 'Kongroof'",
    ),
    (
        "'Kong on kong' replaces 'kong with blooming flowers'; the circles-5 and circles-1 "
        "variants replace the plain loose-tile and last-tile doublings (they do not add).",
        "001 §2.4.2; 002 'Winnende steen'; 000 'Winnende steen'",
    ),
    (
        "Pe-ling eet cake (win with circles 1 completing a pair of bamboo 1; the circles 1 then "
        "counts as bamboo 1 for every purpose and must be the winning tile) scores its 10 points "
        "on top of 'completes pair'.",
        "002 'Winnende steen'; 000 Begrippen 'Pe-ling eet cake'",
    ),
    (
        "Own wind that is also the round wind: pair points and pung doublings count twice.",
        "001 §2; 002 'Puntentelling' (N.B.); 000 'Het berekenen van de punten'",
    ),
    (
        "Seven pairs may contain the same kind twice (four identical tiles as two pairs): "
        "'zeven willekeurige paren'. A rule-set switch (seven_pairs_duplicate).",
        "001 §2.4.1; 002 'Limietspelen'; 000 'Tweelingen'",
    ),
    (
        "Irregular limit hands (and seven-pairs hands) must be fully concealed until the winning "
        "tile. A non-winner waiting for one scores its 'waiting' value instead of his sets; a "
        "waiting regular limit hand scores its ordinary points.",
        "001 §2.3.1-2.3.2; 002 'Puntentelling, Algemeen'; 000 'Wachtend spel'",
    ),
    (
        "Clean hands: schoon = one suit with honours, or only terminals and honours (any suits); "
        "zeer schoon = terminals of one suit with honours; zuiver = one suit only, or honours "
        "only. Only the highest applies, judged on all tiles the player holds, melds included.",
        "001 §2.4.2; 002 'Bijzondere spelen'; 000 'Verdubbelingstabel'",
    ),
    (
        "Only one of 3 concealed pungs / 4 concealed pungs / 3 (concealed) kongs / 4 kongs "
        "applies: the highest.",
        "001 §2.4.2 (note *); 002 'Bijzondere groeperingen' (note 4); 000 note 4",
    ),
    # What all rule sets share, where the books differ or are unclear.
    (
        "Mahjong priority between several claims on one discard: limit hand, pair, pung, chow, "
        "then first in turn after the discarder. nts-2016 gives any limit hand priority; nts-2002 "
        "and nmb-2009 only an irregular one (table.priority_limit).",
        "001 §1.8.5.1; 002 'Voorrang'; 000 'Voorrang'",
    ),
    (
        "Only a promoted kong can be robbed, and only to go mahjong; a pung claimed from a discard "
        "and promoted in the same turn counts as promoted, so it can be robbed.",
        "000 'Kongroof'",
    ),
    (
        "A false mahjong claim makes a dead hand: play goes on, that player cannot win, scores 0 "
        "and still pays. A wrong number of tiles is also a dead hand.",
        "001 §1.10; 002 'Dood spel'; 000 'Dood spel'",
    ),
    (
        "A 15th kong in one hand ends it as a remise (table.max_kongs = 14); live wall exhausted "
        "without mahjong: remise, nothing is scored.",
        "000 Begrippen 'Dode muur'; 001 §1.8.5.2",
    ),
    (
        "Settlement: the winner receives his score from each other player; the three others each "
        "receive their own score from the other two. The sum is always 0.",
        "001 §2.1; 002 'Het verrekenen van de punten'; 000 'Het verrekenen van de punten'",
    ),
    # Per rule set.
    (
        "nts-2016 and nts-2002: the limit is 2000 for every hand, winner or not; East pays and "
        "receives double in every payment he is part of; winds rotate after every hand, remise "
        "included.",
        "001 §2.1, §2.2, §1.8.5; 002 'Puntentelling, Algemeen', 'Het Mah-Jong'",
    ),
    (
        "nts-2002: 'Iedere ronde is de wind van de ronde Oost': the round wind is East in every "
        'round (table.round_wind = "east").',
        "002 'Ronde en de windrichting'",
    ),
    (
        "nmb-2009: East does not pay or receive double; on a claimed tile the discarder pays "
        "double and the other two single; self-drawn, all pay single. The worked example (East "
        "128, South 272 on West's discard, West dead, North 40) settles to -56, +1088, -712, "
        "-320.",
        "000 'Verschillen met voorgaande spelregels'; 'Voorbeeld punten berekening'",
    ),
    (
        "nmb-2009: self-drawn winning tile 15 points (not for limit hands); limit 2000 "
        "self-drawn, 1500 on a claimed tile, 1500 for a non-winner.",
        "000 'Verschillen met voorgaande spelregels'; 'Het berekenen van de punten'",
    ),
    (
        "nmb-2009: four chows together with pure simples count only if the hand is concealed "
        "except for the winning tile; played open, neither doubling counts.",
        "000 'Bijzondere combinaties' (Vier chows, Pure eenvoud)",
    ),
    (
        "nmb-2009: seven pairs of terminals is 2000/1500 (the text's 'draken en winden' there "
        "is a copy error); waiting values follow the per-hand table (750, 500, 250, 100), not "
        "the 'half of the claimed value' sentence.",
        "000 'Tweelingen'; 'Onregelmatige limietspelen'; 'Het berekenen van de punten'",
    ),
    (
        "nmb-2009: jade is bamboo 2, 3, 4, 6, 8 and green dragons (the example with bamboo 1 is "
        "an error); four kongs (open allowed) and only honours are regular limit hands.",
        "000 'De regelmatige limietspelen'",
    ),
    (
        "nmb-2009: winds do not rotate when East wins, nor after a remise; four rounds, at least "
        "16 hands.",
        "000 'Het mahjong'; 'Ronde en de windrichting'",
    ),
    (
        "Flowers and seasons (option): 144 tiles, walls of 18; a drawn flower or season is laid "
        "open and replaced from the dead wall, which is always replenished; 4 points each, own "
        "flower/season 1 doubling each, all four flowers or seasons 1 doubling.",
        "000 'Spelen met gelukstenen'; 004 'Beginsituatie'",
    ),
    (
        "Three players: 96 tiles (bamboo, circles, winds E S W, dragons), three walls of 2 x 16, "
        "dead wall 10, no open chows; after every player has been East once, one hand of the "
        "green dragon with a dominant player who pays and receives double and an extra doubling "
        "for a pung/kong of green dragons.",
        "000 Begrippen 'Drie spelers'",
    ),
    (
        "Five players: the dreamer sits out and neither pays nor receives; after each hand or "
        "remise East becomes the dreamer and the old dreamer North; a round is five hands; an "
        "optional fifth round of the green dragon.",
        "000 Begrippen 'Vijf spelers'",
    ),
    (
        "rode-draak: implement what the sheet states, take the rest from nts-2002. East pays and "
        "receives double (an East winner receives double from everyone).",
        "003 'De puntentelling'",
    ),
    (
        "rode-draak: no limit on ordinary hands; limit hands are worth 1000 or half (500), and "
        "double once if the whole hand was concealed up to and including the self-drawn winning "
        "tile.",
        "003 'Bijzondere winstspelen, De Limiet'; 'De Verborgen Schat: Bij limietspelen: 1x "
        "verdubbelen'",
    ),
    (
        "rode-draak: mahjong only with a clean hand (schoon or better), or with at least 2 "
        "doublings.",
        "003 'Mahjong'",
    ),
    (
        "rode-draak: the flattened doubling columns read: once for schoon, only terminals and "
        "honours, pung/kong of dragons, own wind, round wind, 3 concealed pungs; twice for 3 "
        "concealed kongs and 4 concealed pungs; three times for 4 kongs (open too), superschoon, "
        "only terminals, only honours.",
        "003 'Verdubbelingen'",
    ),
    (
        "rode-draak: winner doublings: once for all pungs ('winst met gelijke'), once more if "
        "all 2-8; once for the loose tile, robbing a kong and 'de gelukkige dertien'; twice for "
        "earth; three times for fully concealed and 'de drie wijzen'.",
        "003 'Mahjong' (Eén / Twee / Drie keer verdubbelen voor)",
    ),
    (
        "rode-draak: irregular limits heaven, nine gates, thirteen orphans (limit), seven pairs "
        "(limit if superschoon, half if schoon), snake 1, snake 2, Peking garden (half); regular "
        "limits red dragon (half), jade, four winds, twisting snake (limit).",
        "003 'Onregelmatige Limietspelen'; 'Regelmatige limietspelen'",
    ),
)

_SCORING_DOC: Final = {
    "limit": "cap on a self-drawn winner's score (no: no cap)",
    "limit_claimed": "cap on a winner's score on a claimed tile",
    "limit_non_winner": "cap on a non-winner's score",
    "min_doublings": "doublings a winner needs (limit hands excepted)",
    "clean_hand_may_win": "a clean hand may go mahjong with fewer doublings",
    "limit_hand_concealed_doublings": "doublings on a limit hand won fully concealed",
    "seven_pairs_duplicate": "four identical tiles may be two of the seven pairs",
    "four_chows_simples_concealed": "four chows + pure simples only when concealed",
}
_SETTLEMENT_DOC: Final = {
    "east_double": "East pays and receives double",
    "discarder_double": "the discarder pays the winner double",
    "dominant_double": "the dominant player (green-dragon hand) pays and receives double",
    "round_to": "scores rounded to a multiple of this (0: exact)",
}
_TABLE_DOC: Final = {
    "players": "players in a hand",
    "dreamer": "a fifth player sits out each hand",
    "suits": "suits in play (b bamboo, k circles, t characters)",
    "winds": "winds in play",
    "flowers": "flowers and seasons in play",
    "wall_length": "stacks of two per side of the wall",
    "dead_wall": "tiles in the dead wall",
    "dead_wall_replenish": "dead wall refilled from the live wall",
    "max_kongs": "kongs in a hand; one more is a remise",
    "open_chows": "chows may be claimed",
    "mahjong_priority": "order between several mahjong claims",
    "priority_limit": "which limit hands come first",
    "round_wind": "round wind rotates or is always East",
    "rotate_on_east_win": "winds rotate when East wins",
    "rotate_on_remise": "winds rotate after a remise",
    "rounds": "rounds in a game",
    "hands": "hands in a game",
    "hands_at_least": "'hands' is a minimum",
    "green_dragon": "hands of the green dragon",
    "false_mahjong": "what a false mahjong claim does",
}


def format_value(value: Any) -> str:
    """A rule value as shown in tables (here and by ``mahjong-nts rules``): ``—`` for
    none, ``yes`` / ``no``, a list as ``a > b > c``, anything else as ``str``."""
    if value is None:
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, (list, tuple)):
        return " > ".join(str(v) for v in value)
    return str(value)


def _fmt(value: Any) -> str:
    """:func:`format_value` for a Markdown cell: a scalar's ``|`` escaped (lists as is)."""
    text = format_value(value)
    return text if isinstance(value, (list, tuple)) else text.replace("|", "\\|")


def _limit_cell(lv: LimitValue | None) -> str:
    if lv is None:
        return "—"
    return " / ".join(_fmt(v) for v in (lv.self_drawn, lv.claimed, lv.waiting))


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], right: int = 0) -> list[str]:
    """A Markdown table; the last ``right`` columns are right-aligned."""
    aligns = ["---"] * (len(header) - right) + ["---:"] * right
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(aligns) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def _item_section(title: str, kind: ItemKind, sets: Sequence[RuleSet]) -> list[str]:
    def values(rs: RuleSet) -> Any:
        return rs.scoring.points if kind is ItemKind.POINTS else rs.scoring.doublings

    rows = []
    for item in ITEMS.values():
        if item.kind is not kind or not any(item.id in values(rs) for rs in sets):
            continue
        cells = [_fmt(values(rs).get(item.id)) for rs in sets]
        rows.append([f"`{item.id}`", item.nl, item.en, item.who.value, *cells])
    header = ["item", "Nederlands", "English", "for", *(rs.name for rs in sets)]
    return [f"## {title}", "", *_table(header, rows, right=len(sets)), ""]


def _switch_section(
    title: str, section: str, doc: dict[str, str], sets: Sequence[RuleSet]
) -> list[str]:
    maps = [rs.to_mapping()[section] for rs in sets]
    rows = [[f"`{key}`", meaning, *(_fmt(m[key]) for m in maps)] for key, meaning in doc.items()]
    header = ["key", "meaning", *(rs.name for rs in sets)]
    return [f"## {title}", "", *_table(header, rows, right=len(sets)), ""]


def _overlay_rows(data: dict[str, Any], prefix: str = "") -> list[list[str]]:
    rows: list[list[str]] = []
    for key, value in data.items():
        if not prefix and key in ("name", "title", "source", "notes"):
            continue
        dotted = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            rows.extend(_overlay_rows(value, dotted))
        else:
            rows.append([f"`{dotted}`", _fmt(value)])
    return rows


def render_rules_doc() -> str:
    """The whole of ``docs/rules.md``."""
    sets = [load_ruleset(name) for name in SHIPPED]
    out: list[str] = [
        "# Rule sets",
        "",
        "<!-- Generated file: do not edit. Regenerate with",
        f"     {REGENERATE}",
        "     The values live in src/mahjong_nts/data/rulesets/*.toml. -->",
        "",
        "Every value below is rule-set data (`src/mahjong_nts/data/rulesets/*.toml`), shown "
        f"side by side for the shipped rule sets. `{DEFAULT_RULESET}` is the default. A club "
        "changes a value with a house-rule file that names its `base` (see `mahjong-nts rules "
        "show` and `mahjong-nts rules diff`). The notation guide is in "
        "[notation.md](notation.md), the JSON interfaces in [json.md](json.md).",
        "",
        "## The rule sets",
        "",
        *_table(
            ["name", "title", "source"], [[f"`{rs.name}`", rs.title, rs.source] for rs in sets]
        ),
        "",
        "Books (in `seeds/`):",
        "",
        *_table(["book", "what it is", "rule set"], [[b, what, rs] for b, what, rs in BOOKS]),
        "",
        "A value of `—` means the rule set does not score that item (or hand) at all.",
        "",
    ]
    out += _item_section("Points", ItemKind.POINTS, sets)
    out += _item_section("Doublings", ItemKind.DOUBLINGS, sets)
    out += [
        "Items of one exclusive group (only the highest counts): "
        + "; ".join(
            f"{group}: " + ", ".join(f"`{i.id}`" for i in ITEMS.values() if i.group == group)
            for group in dict.fromkeys(i.group for i in ITEMS.values() if i.group)
        )
        + ".",
        "",
    ]
    rows = []
    for hand in LIMIT_HANDS.values():
        cells = [_limit_cell(rs.scoring.limit_hands.get(hand.id)) for rs in sets]
        if all(c == "—" for c in cells):
            continue
        rows.append(
            [f"`{hand.id}`", hand.nl, hand.en, "irregular" if hand.irregular else "regular", *cells]
        )
    out += [
        "## Limit hands",
        "",
        "Each cell: self-drawn / claimed / waiting (a non-winner one tile short; irregular "
        "hands only). `—` inside a cell: the hand cannot score that way.",
        "",
        *_table(
            ["hand", "Nederlands", "English", "kind", *(rs.name for rs in sets)],
            rows,
            right=len(sets),
        ),
        "",
    ]
    out += _switch_section("Caps and scoring switches", "scoring", _SCORING_DOC, sets)
    out += _switch_section("Settlement", "settlement", _SETTLEMENT_DOC, sets)
    out += _switch_section("Table", "table", _TABLE_DOC, sets)

    out += [
        "## Overlays",
        "",
        "Overlays are partial rule files laid over any rule set with `+`, left to right: "
        "`nmb-2009+flowers+three-players`.",
        "",
    ]
    for name in OVERLAYS:
        title, source, _ = overlay_info(name)
        out += [
            f"### `{name}`: {title}",
            "",
            f"Source: {source}.",
            "",
            *_table(["key", "value"], _overlay_rows(shipped_mapping(name)), right=1),
            "",
        ]

    out += [
        "## Rulings",
        "",
        "Where the books contradict themselves or each other, or are silent. The project's "
        "rulings come first, each with the book section it comes from (book numbers as in "
        "the table above); then the rulings and decisions recorded in each data file.",
        "",
        "### Project rulings",
        "",
    ]
    n = 0
    for text, source in RULINGS:
        n += 1
        out.append(f"{n}. {text} *({source})*")
    out.append("")
    out += ["### Recorded in the data files", ""]
    named: list[tuple[str, str, tuple[str, ...]]] = [(rs.name, rs.title, rs.notes) for rs in sets]
    named.extend((name, *overlay_info(name)[::2]) for name in OVERLAYS)
    for set_name, set_title, set_notes in named:
        out += [f"#### `{set_name}`: {set_title}", ""]
        for note in set_notes:
            n += 1
            out.append(f"{n}. {note}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def main() -> None:
    print(render_rules_doc(), end="")


if __name__ == "__main__":
    main()
