"""Generate ``docs/rules.md`` from the shipped rule-set data.

The whole file is generated: the four shipped rule sets side by side, one
table per section, then the overlays, then every ruling (the project's
rulings, and the decisions recorded in each data file's ``notes``).  Prose
guides live elsewhere (``docs/notation.md``, ``docs/json.md``).

Regenerate with::

    python -m mahjong_nts.formats.rulesdoc > docs/rules.md
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from mahjong_nts.core.items import ITEMS, LIMIT_HANDS, ItemKind
from mahjong_nts.core.rules import LimitValue, RuleSet
from mahjong_nts.core.text import join
from mahjong_nts.formats.citations import localizable
from mahjong_nts.formats.rulefiles import (
    DEFAULT_RULESET,
    OVERLAYS,
    SHIPPED,
    load_ruleset,
    overlay_info,
    shipped_mapping,
)

__all__ = [
    "RULINGS",
    "RuleRow",
    "RuleTable",
    "citations",
    "format_value",
    "key_label",
    "limit_value_text",
    "main",
    "render_rules_doc",
    "rule_tables",
]

REGENERATE: Final = "python -m mahjong_nts.formats.rulesdoc > docs/rules.md"

BOOKS: Final = (
    (
        "NTS 2016",
        "Nederlandse MahjongBond, Nederlandse Toernooi Spelregels, januari 2016 "
        "(cited by its numbered sections, 1 to 2.4.2)",
        "nts-2016",
    ),
    (
        "NTS 2002",
        "Nederlandse toernooispelregels 2002, Definitief 1.0 (Nederlandse Mah-Jongcommissie), "
        "with its list of changes, Wijzigingen (cited by heading)",
        "nts-2002",
    ),
    (
        "NTS 2002 web copy",
        "a club's web copy of the 2002 text ('Spelregels – Mah-Jong'), played with flowers and "
        "seasons (144 tiles, walls of 18) and with a 3-player wall of 24",
        "nts-2002 + flowers",
    ),
    (
        "NMB 2009",
        "Spelregels volgens Nederlandse Mahjong Bond, Versie 2.0 2009, Mahjong Club Groene Hart "
        "(cited by heading; Begrippen is its glossary)",
        "nmb-2009 (+ flowers, three-players, five-players)",
    ),
    (
        "Rode Draak 1998",
        "Mahjongclub De Rode Draak, 'De puntentelling' (1998), a club's scoring sheet "
        "(cited by heading)",
        "rode-draak",
    ),
)
"""The books, by the short name every citation uses: (short name, what it is, rule set)."""

RULINGS: Final[tuple[tuple[str, str], ...]] = (
    # What every rule set shares.
    (
        "136 tiles: bamboo, circles and characters 1-9, the winds East, South, West, North and "
        "the dragons green, red, white; four of each. Flowers and seasons only with the flowers "
        "option.",
        "NTS 2016, 1.3 and 1.4; NTS 2002, Speelmateriaal and Stenen; NMB 2009, Speelmateriaal "
        "and Stenen",
    ),
    (
        "A wall of four sides of 17 stacks of two, opened by two throws of the dice; the dead "
        "wall is the first 14 tiles right of the opening, the two loose tiles included; when "
        "both loose tiles are used the next two from the dead wall's far end go on top (NTS "
        "2016 says 'van de linkerzijde'); the dead wall is not replenished (without flowers). "
        "Deal 13 each, East 14; play goes counter-clockwise: East, South, West, North.",
        "NTS 2016, 1.5, 1.6 and 1.7; NTS 2002, Beginsituatie, Verdelen van de stenen and "
        "Wijzigingen ('Pagina 4'); NMB 2009, Beginsituatie and Verdelen van de stenen",
    ),
    (
        "Claims on the last discard: a chow only by the next player; a pung or kong by anyone, "
        "play then going on to the right of the claimer (players in between are skipped); "
        "mahjong by anyone. The second tile of a pair may be claimed only to go mahjong. A draw "
        "from the wall by the next player closes the claim window.",
        "NTS 2016, 1.8.1, 1.8.2, 1.8.4 and 1.11; NTS 2002, Het chowen, Het pungen, Het Mah-Jong "
        "and Tijdens het spel",
    ),
    (
        "Kongs: concealed (on one's own turn, four in hand, laid closed), open from a discard "
        "(with a concealed pung), promoted (on one's own turn, the fourth tile added to an open "
        "pung). Each kong takes a loose tile, the one nearest the live wall first.",
        "NTS 2016, 1.8.3; NTS 2002, Het kongen; NMB 2009, Begrippen, Kongen",
    ),
    (
        "A mahjong needs at least 2 doublings, except a limit hand (and see rode-draak).",
        "NTS 2016, 1.8; NTS 2002, Mah-Jong and Wijzigingen ('Pagina 5'); NMB 2009, Mahjong",
    ),
    (
        "A score is its points doubled once for every doubling, capped by the limit. Only the "
        "winner scores the 20 for mahjong and the items for how he won; every player scores his "
        "sets, pairs and the doublings for all players.",
        "NTS 2016, 2 (Puntentelling: 'eerst alle punten geteld en daarna eventueel een of "
        "meerdere keren verdubbeld'; 'Alleen de speler die Mahjong haalt ...') and 2.2",
    ),
    # The project's rulings where the books are unclear or silent.
    (
        "A set completed by a claimed winning tile (a discard or a robbed kong) counts as open: "
        "only what a player drew himself is concealed.",
        "NTS 2016, 1.8.1 (N.B.: 'dichte combinaties verkregen door zelf de stenen van de muur te "
        "pakken') and 1.8.2; NTS 2002, Het chowen (note 2)",
    ),
    (
        "A non-winner shows his whole hand; it is arranged to give him the highest score. Only "
        "complete pungs/kongs and scoring pairs count; loose tiles count only for whole-hand "
        "doublings (clean etc.).",
        "NTS 2002, Het verrekenen van de punten ('laat zijn stenen duidelijk zien') and "
        "Wijzigingen ('Pagina 7'); NTS 2016, 2 ('Voor de afzonderlijke stenen worden geen "
        "punten toegekend')",
    ),
    (
        "A winner's hand is arranged for the highest score among all legal arrangements (the "
        "books do not say how to arrange a hand that can be read in several ways).",
        "NTS 2016, 2; NTS 2002, Puntentelling",
    ),
    (
        "A winning hand that is a limit hand of the rule set always scores the limit value "
        "(the highest, if it is several), even where its parts would count more ('Ongeacht de "
        "waarde van de verschillende delen ... altijd de waarde van het limietspel'); only when "
        "it is no limit hand are its arrangements compared by score.",
        "NTS 2016, 2.3.1; NTS 2002, Puntentelling, Algemeen; NMB 2009, Het berekenen van de punten",
    ),
    (
        "Only possible tile (enig mogelijke steen): the hand before the winning tile waits on "
        "exactly one tile kind, counting every completion structurally, whether or not it would "
        "reach 2 doublings (the reading of 'Dit geldt niet als andere mogelijkheden ...').",
        "NMB 2009, Het berekenen van de punten, Winnende steen ('Volmaken met enig mogelijke "
        "steen'); NTS 2002, Winnende steen; NTS 2016, 2.4.1",
    ),
    (
        "A concealed kong counts as a concealed pung for 3/4 concealed pungs; an open kong does "
        "not ('kong geldt als dichte pung' in 2002/2016 is read the same).",
        "NMB 2009, Het berekenen van de punten ('Drie pungs dicht: Een open kong mag niet als "
        "dichte pung geteld worden'); NTS 2016, 2.4.2; NTS 2002, Bijzondere groeperingen",
    ),
    (
        "A kong counts as a pung wherever an item speaks of pungs (four pungs, all pungs, pungs "
        "of dragons or winds): it is a pung with a fourth tile.",
        "NTS 2016, 2.4.1 ('4 Pungs/Kongs van Winden') and 2.4.2 ('Pung of Kong Draken'); "
        "NTS 2002, Bijzondere combinaties ('mag ook een kong zijn')",
    ),
    (
        "A winning loose tile (after a kong) counts as self-drawn: it is drawn from the dead "
        "wall, which is part of the wall.",
        "NTS 2016, 1.8.3 and 2.4.2 ('Kong met bloeiende bloemen'); Rode Draak 1998, Mahjong "
        "('Winnende steen van de dode Muur getrokken')",
    ),
    (
        "A robbed kong counts as a claimed tile; the robbed player is the one who 'discarded' "
        "it (the books do not say who pays for it).",
        "NTS 2016, 2.4.2 ('Kongroof'); NMB 2009, Begrippen, Kongroof",
    ),
    (
        "'Kong on kong' replaces 'kong with blooming flowers'; the circles-5 and circles-1 "
        "variants replace the plain loose-tile and last-tile doublings (they do not add).",
        "NTS 2016, 2.4.2; NTS 2002, Winnende steen; NMB 2009, Het berekenen van de punten, "
        "Winnende steen",
    ),
    (
        "Pe-ling eet cake (win with circles 1 completing a pair of bamboo 1; the circles 1 then "
        "counts as bamboo 1 for every purpose and must be the winning tile) scores its 10 points "
        "on top of 'completes pair'.",
        "NTS 2002, Winnende steen ('De kringen 1 wordt in zo'n geval gezien als bamboe 1'); "
        "NTS 2016, 2.4.1; NMB 2009, Begrippen",
    ),
    (
        "Own wind that is also the round wind: pair points and pung doublings count twice.",
        "NTS 2016, 2 ('Winden kunnen tegelijkertijd eigen en heersende wind zijn ... tweemaal "
        "geteld')",
    ),
    (
        "Seven pairs may contain the same kind twice (four identical tiles as two pairs): "
        "'zeven willekeurige paren'. A rule-set switch (seven_pairs_duplicate).",
        "NTS 2016, 2.4.1; NTS 2002, Limietspelen; NMB 2009, Tweelingen",
    ),
    (
        "Irregular limit hands (and seven-pairs hands) must be fully concealed until the winning "
        "tile. A non-winner waiting for one scores its 'waiting' value instead of his sets; a "
        "waiting regular limit hand scores its ordinary points.",
        "NTS 2016, 2.3.1 and 2.3.2; NTS 2002, Puntentelling, Algemeen; NMB 2009, Het berekenen "
        "van de punten",
    ),
    (
        "Clean hands: schoon = one suit with honours, or only terminals and honours (any suits); "
        "zeer schoon = terminals of one suit with honours; zuiver = one suit only, or honours "
        "only. Only the highest applies, judged on all tiles the player holds, melds included.",
        "NTS 2016, 2.4.2; NTS 2002, Bijzondere spelen; NMB 2009, Verdubbelingstabel",
    ),
    (
        "Only one of 3 concealed pungs / 4 concealed pungs / 3 (concealed) kongs / 4 kongs "
        "applies: the highest.",
        "NTS 2016, 2.4.2 (note *: 'Verdubbelingen mogen niet worden opgeteld'); NTS 2002, "
        "Bijzondere groeperingen (note 4); NMB 2009, Het berekenen van de punten",
    ),
    (
        "Flowers and seasons add nothing to a limit hand: its value is fixed by the limit table.",
        "NTS 2016, 2.3 ('Bij limietspelen krijgt men geen extra punten en/of verdubbelingen'); "
        "NMB 2009, Spelen met gelukstenen; Rode Draak 1998, De Limiet",
    ),
    (
        "Payments that double apply together: a dominant player (green-dragon hand) who also "
        "gave the winning tile under a discarder-pays-double rule pays four times; East in the "
        "same position under an East-double rule set likewise (the books give each double on "
        "its own).",
        "NTS 2016, 2.1 and 2.2; NMB 2009, Verschillen met voorgaande spelregels and Begrippen, "
        "Drie spelers",
    ),
    (
        "Mahjong priority between several claims on one discard: limit hand, pair, pung, chow, "
        "then first in turn after the discarder. nts-2016 gives any limit hand priority; nts-2002 "
        "and nmb-2009 only an irregular one (table.priority_limit).",
        "NTS 2016, 1.8.5.1; NTS 2002, Voorrang; NMB 2009, Voorrang",
    ),
    (
        "Only a promoted kong can be robbed, and only to go mahjong; a pung claimed from a discard "
        "and promoted in the same turn counts as promoted, so it can be robbed.",
        "NMB 2009, Begrippen, Kongroof ('dan geldt dit als het volmaken van een open pung en is "
        "kongroof toegestaan'); NTS 2016, 2.4.2",
    ),
    (
        "A false mahjong claim makes a dead hand: play goes on, that player cannot win, scores 0 "
        "and still pays. A wrong number of tiles is also a dead hand.",
        "NTS 2016, 1.8.5 and 1.10; NTS 2002, Dood spel; NMB 2009, Dood spel",
    ),
    (
        "A 15th kong in one hand ends it as a remise (table.max_kongs = 14); live wall exhausted "
        "without mahjong: remise, nothing is scored.",
        "NMB 2009, Begrippen, Dode muur; NTS 2016, 1.8.5.2",
    ),
    (
        "Settlement: the winner receives his score from each other player; the three others each "
        "receive their own score from the other two. The sum is always 0.",
        "NTS 2016, 2.1; NTS 2002, Het verrekenen van de punten; NMB 2009, Het verrekenen van "
        "de punten",
    ),
    # Per rule set.
    (
        "nts-2016 and nts-2002: the limit is 2000 for every hand, winner or not; East pays and "
        "receives double in every payment he is part of; winds rotate after every hand, remise "
        "included.",
        "NTS 2016, 2.1, 2.2 and 1.8.5; NTS 2002, Puntentelling, Algemeen and Het Mah-Jong",
    ),
    (
        "nts-2016: four rounds (round wind East, South, West, North), 16 hands including remises.",
        "NTS 2016, 1.9",
    ),
    (
        "nts-2002: 'Iedere ronde is de wind van de ronde Oost': the round wind is East in every "
        'round (table.round_wind = "east"); a round ends when every player has been East once.',
        "NTS 2002, Ronde en de windrichting",
    ),
    (
        "nmb-2009: East does not pay or receive double; on a claimed tile the discarder pays "
        "double and the other two single; self-drawn, all pay single. The worked example (East "
        "128, South 272 on West's discard, West dead, North 40) settles to -56, +1088, -712, "
        "-320.",
        "NMB 2009, Verschillen met voorgaande spelregels; Voorbeeld punten berekening",
    ),
    (
        "nmb-2009: self-drawn winning tile 15 points (not for limit hands); limit 2000 "
        "self-drawn, 1500 on a claimed tile, 1500 for a non-winner.",
        "NMB 2009, Verschillen met voorgaande spelregels; Het berekenen van de punten",
    ),
    (
        "nmb-2009: four chows together with pure simples count only if the hand is concealed "
        "except for the winning tile; played open, neither doubling counts.",
        "NMB 2009, Verschillen met voorgaande spelregels ('Alleen Chows' en 'Eenvoudige "
        "Stenen'); Het berekenen van de punten (Vier chows, Pure eenvoud)",
    ),
    (
        "nmb-2009: seven pairs of terminals is 2000/1500 (the text's 'draken en winden' there "
        "is a copy error); waiting values follow the per-hand table (750, 500, 250, 100), not "
        "the 'half of the claimed value' sentence.",
        "NMB 2009, Tweelingen; De onregelmatige limietspelen; Het berekenen van de punten",
    ),
    (
        "nmb-2009: jade is bamboo 2, 3, 4, 6, 8 and green dragons (the example with bamboo 1 is "
        "an error); four kongs (open allowed) and only honours are regular limit hands.",
        "NMB 2009, De regelmatige limietspelen",
    ),
    (
        "nmb-2009: winds do not rotate when East wins, nor after a remise; four rounds, at least "
        "16 hands.",
        "NMB 2009, Algemene gang van het spel, Het mahjong; Ronde en de windrichting",
    ),
    (
        "Flowers and seasons (option): 144 tiles, walls of 18; a drawn flower or season is laid "
        "open and replaced from the dead wall, which is always replenished; 4 points each, own "
        "flower/season 1 doubling each, all four flowers or seasons 1 doubling.",
        "NMB 2009, Spelen met gelukstenen; NTS 2002 web copy, Beginsituatie",
    ),
    (
        "Three players: 96 tiles (bamboo, circles, winds E S W, dragons), three walls of 2 x 16, "
        "dead wall 10, no open chows; after every player has been East once, one hand of the "
        "green dragon with a dominant player who pays and receives double and an extra doubling "
        "for a pung/kong of green dragons.",
        "NMB 2009, Begrippen, Drie spelers",
    ),
    (
        "Five players: the dreamer sits out and neither pays nor receives; after each hand or "
        "remise East becomes the dreamer and the old dreamer North; a round is five hands; an "
        "optional fifth round of the green dragon.",
        "NMB 2009, Begrippen, Vijf spelers",
    ),
    (
        "rode-draak: implement what the sheet states, take the rest from nts-2002. East pays and "
        "receives double (an East winner receives double from everyone).",
        "Rode Draak 1998, De puntentelling",
    ),
    (
        "rode-draak: no limit on ordinary hands; limit hands are worth 1000 or half (500), and "
        "double once if the whole hand was concealed up to and including the self-drawn winning "
        "tile.",
        "Rode Draak 1998, Bijzondere winstspelen, De Limiet; Mahjong, De Verborgen Schat "
        "('Bij limietspelen: 1x verdubbelen')",
    ),
    (
        "rode-draak: mahjong only with a clean hand (schoon or better), or with at least 2 "
        "doublings.",
        "Rode Draak 1998, Mahjong",
    ),
    (
        "rode-draak: the flattened doubling columns read: once for schoon, only terminals and "
        "honours, pung/kong of dragons, own wind, round wind, 3 concealed pungs; twice for 3 "
        "concealed kongs and 4 concealed pungs; three times for 4 kongs (open too), superschoon, "
        "only terminals, only honours.",
        "Rode Draak 1998, Verdubbelingen",
    ),
    (
        "rode-draak: winner doublings: once for all pungs ('winst met gelijke'), once more if "
        "all 2-8; once for the loose tile, robbing a kong and 'de gelukkige dertien'; twice for "
        "earth; three times for fully concealed and 'de drie wijzen'.",
        "Rode Draak 1998, Mahjong (Eén / Twee / Drie keer verdubbelen voor)",
    ),
    (
        "rode-draak: irregular limits heaven, nine gates, thirteen orphans (limit), seven pairs "
        "(limit if superschoon, half if schoon), snake 1, snake 2, Peking garden (half); regular "
        "limits red dragon (half), jade, four winds, twisting snake (limit).",
        "Rode Draak 1998, Onregelmatige Limietspelen; Regelmatige limietspelen",
    ),
)
"""Every ruling that applies, each with the books and sections it comes from."""

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


# --------------------------------------------------------------------------- shared views
# What ``mahjong-nts rules show`` / ``rules diff`` and the web's rules page both show:
# which rows, in which order, with which names.  Front ends only lay them out.

_MEANING_NL: Final = {
    "limit": "maximum van een zelf getrokken winnaar (nee: geen maximum)",
    "limit_claimed": "maximum van een winnaar op een geclaimde steen",
    "limit_non_winner": "maximum van een niet-winnaar",
    "min_doublings": "verdubbelingen die een winnaar nodig heeft (limietspelen uitgezonderd)",
    "clean_hand_may_win": "een schone hand mag met minder verdubbelingen mahjong maken",
    "limit_hand_concealed_doublings": "verdubbelingen voor een dicht gewonnen limietspel",
    "seven_pairs_duplicate": "vier gelijke stenen mogen twee van de zeven paren zijn",
    "four_chows_simples_concealed": "vier chows + pure eenvoud alleen dicht",
    "east_double": "Oost betaalt en ontvangt dubbel",
    "discarder_double": "wie de winnende steen weggooide betaalt de winnaar dubbel",
    "dominant_double": "de dominante speler (groene-drakenspel) betaalt en ontvangt dubbel",
    "round_to": "scores afgerond op een veelvoud hiervan (0: exact)",
    "players": "spelers in een spel",
    "dreamer": "een vijfde speler zit elk spel over (dromer)",
    "suits": "kleuren in het spel (b bamboe, k kringen, t tekens)",
    "winds": "winden in het spel",
    "flowers": "bloemen en seizoenen in het spel",
    "wall_length": "stapels van twee per kant van de muur",
    "dead_wall": "stenen in de dode muur",
    "dead_wall_replenish": "dode muur aangevuld uit de levende muur",
    "max_kongs": "kongs in een spel; één meer is remise",
    "open_chows": "chows mogen geclaimd worden",
    "mahjong_priority": "volgorde tussen meerdere mahjong-claims",
    "priority_limit": "welke limietspelen voorgaan",
    "round_wind": "rondewind draait of is altijd Oost",
    "rotate_on_east_win": "winden draaien als Oost wint",
    "rotate_on_remise": "winden draaien na een remise",
    "rounds": "ronden in een partij",
    "hands": "spellen in een partij",
    "hands_at_least": "'hands' is een minimum",
    "green_dragon": "spellen van de groene draak",
    "false_mahjong": "wat een valse mahjong doet",
}
"""The meaning of each scoring, settlement and table key in Dutch (English: the
``_*_DOC`` tables above, which docs/rules.md prints)."""

_SECTIONS: Final = ("points", "doublings", "limit_hands", "scoring", "settlement", "table")
_SECTION_TITLES: Final = {
    "points": ("Punten", "Points"),
    "doublings": ("Verdubbelingen", "Doublings"),
    "limit_hands": ("Limietspelen", "Limit hands"),
    "scoring": ("Maxima en telregels", "Caps and scoring switches"),
    "settlement": ("Afrekenen", "Settlement"),
    "table": ("Tafel", "Table"),
}
_SWITCH_DOCS: Final[Mapping[str, Mapping[str, str]]] = {
    "scoring": _SCORING_DOC,
    "settlement": _SETTLEMENT_DOC,
    "table": _TABLE_DOC,
}


@dataclass(frozen=True, slots=True)
class RuleRow:
    """One value of several rule sets side by side."""

    key: str
    """The dotted key: ``points.self_drawn``, ``limit_hands.nine_gates``, ``table.players``."""
    nl: str
    """The item's or hand's Dutch name, or the key's meaning in Dutch."""
    en: str
    """The same in English."""
    kind: str
    """For an item, who scores it (``all`` / ``winner``); for a limit hand ``regular``
    or ``irregular``; empty for a switch."""
    values: tuple[Any, ...]
    """The raw value in each set (``None``: the set does not have it; a
    :class:`~mahjong_nts.core.rules.LimitValue` for a limit hand)."""

    @property
    def differs(self) -> bool:
        """Whether the sets disagree on this value."""
        first = self.values[0]
        return any(v != first or type(v) is not type(first) for v in self.values[1:])


@dataclass(frozen=True, slots=True)
class RuleTable:
    """One section (points, doublings, limit hands, scoring, settlement, table)."""

    key: str
    nl: str
    en: str
    rows: tuple[RuleRow, ...]


def limit_value_text(lv: LimitValue | None) -> str:
    """A limit hand's values as one cell: ``self-drawn / claimed / waiting``, ``—``
    for a hand the set does not have (or a way it cannot score)."""
    if lv is None:
        return "—"
    return " / ".join(format_value(v) for v in (lv.self_drawn, lv.claimed, lv.waiting))


def rule_tables(sets: Sequence[RuleSet]) -> tuple[RuleTable, ...]:
    """Every value of ``sets`` side by side, a table per section, in the book's order:
    the items and limit hands that at least one set has (in the order of
    :data:`~mahjong_nts.core.items.ITEMS` and ``LIMIT_HANDS``), then every key of the
    scoring, settlement and table sections.  ``rules show`` is this for one set."""
    tables: list[RuleTable] = []
    for section in _SECTIONS:
        rows: list[RuleRow] = []
        if section in ("points", "doublings"):
            kind = ItemKind.POINTS if section == "points" else ItemKind.DOUBLINGS
            maps = [
                rs.scoring.points if section == "points" else rs.scoring.doublings for rs in sets
            ]
            for item in ITEMS.values():
                if item.kind is kind and any(item.id in m for m in maps):
                    values = tuple(m.get(item.id) for m in maps)
                    rows.append(
                        RuleRow(f"{section}.{item.id}", item.nl, item.en, item.who.value, values)
                    )
        elif section == "limit_hands":
            for hand in LIMIT_HANDS.values():
                lvs = tuple(rs.scoring.limit_hands.get(hand.id) for rs in sets)
                if any(lv is not None for lv in lvs):
                    kind_name = "irregular" if hand.irregular else "regular"
                    rows.append(RuleRow(f"{section}.{hand.id}", hand.nl, hand.en, kind_name, lvs))
        else:
            maps = [rs.to_mapping()[section] for rs in sets]
            for key in maps[0]:
                en = _SWITCH_DOCS[section].get(key, "")
                nl = _MEANING_NL.get(key, en)
                rows.append(RuleRow(f"{section}.{key}", nl, en, "", tuple(m[key] for m in maps)))
        nl_title, en_title = _SECTION_TITLES[section]
        tables.append(RuleTable(section, nl_title, en_title, tuple(rows)))
    return tuple(tables)


def key_label(key: str) -> tuple[str, str] | None:
    """The Dutch and English name of a dotted key of :func:`ruleset_diff
    <mahjong_nts.formats.rulefiles.ruleset_diff>`: the item's, the limit hand's or
    the meaning of a switch; ``None`` for a key nobody named."""
    section, _, name = key.partition(".")
    if section in ("points", "doublings") and name in ITEMS:
        item = ITEMS[name]
        return item.nl, item.en
    if section == "limit_hands" and name in LIMIT_HANDS:
        hand = LIMIT_HANDS[name]
        return hand.nl, hand.en
    if section in _SWITCH_DOCS and name in _SWITCH_DOCS[section]:
        return _MEANING_NL[name], _SWITCH_DOCS[section][name]
    return None


def _comment(line: str) -> str:
    """The comment at the end of a TOML line (``#`` outside a string), stripped."""
    quote = ""
    escaped = False
    for i, ch in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[i + 1 :].strip()
    return ""


@functools.lru_cache(maxsize=len(SHIPPED) + len(OVERLAYS))
def _file_citations(name: str) -> Mapping[str, str]:
    text = resources.files("mahjong_nts").joinpath(f"data/rulesets/{name}.toml").read_text("utf-8")
    out: dict[str, str] = {}
    section = ""
    heading = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line.strip("[] ")
            heading = ""
        elif line.startswith("#"):
            heading = line.lstrip("# ").strip()
        elif "=" in line and section in _SECTIONS:
            key = line.split("=", 1)[0].strip()
            parts = [p for p in (heading, _comment(line)) if p]
            if parts:
                out[f"{section}.{key}"] = localizable(" · ".join(parts))
    return out


def citations(spec: str) -> dict[str, str]:
    """Where each value of a shipped rule set (``nmb-2009+flowers``: overlays after
    ``+``) comes from in its book, as its data file says: the section heading above
    the value and the comment beside it, by dotted key.  A value an overlay sets is
    cited from the overlay's file, its name in front.  Keys without a comment are
    left out.  ``spec`` must name shipped files only (ValueError otherwise)."""
    head, *overlays = spec.split("+")
    if head not in SHIPPED or any(o not in OVERLAYS for o in overlays):
        raise ValueError(f"not a shipped rule set with shipped overlays: {spec[:60]!r}")
    out = dict(_file_citations(head))
    for overlay in overlays:
        for key in shipped_mapping(overlay).keys() & set(_SECTIONS):
            for sub in shipped_mapping(overlay)[key]:
                out.pop(f"{key}.{sub}", None)
        out.update({k: join("", (f"{overlay}: ", v)) for k, v in _file_citations(overlay).items()})
    return out


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
        "changes a value with a house-rule file that names its `base` "
        "([house-rules.md](house-rules.md); `mahjong-nts rules show` and `mahjong-nts rules "
        "diff`). The notation guide is in "
        "[notation.md](notation.md), the JSON interfaces in [json.md](json.md).",
        "",
        "## The rule sets",
        "",
        *_table(
            ["name", "title", "source"], [[f"`{rs.name}`", rs.title, rs.source] for rs in sets]
        ),
        "",
        "The books, by the short names every citation here uses:",
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
        "rulings come first, each with the books and sections it comes from (by the short "
        "names above); then the rulings and decisions recorded in each data file.",
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
