"""Rendering a hand in play for the terminal (``play``) and a logged hand (``replay``).

Tiles are shown as Unicode glyphs followed by their notation, so a terminal
without a Mahjong font still shows what is meant.  Event descriptions come in
two flavours: the full one of a log, and the one a player at the table sees
(``hide_tiles``; which events a seat sees at all is decided in the core, by
``core.observation.visible_events``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from mahjong_nts.core.actions import Action
from mahjong_nts.core.hand import Meld
from mahjong_nts.core.notation import format_meld, format_tiles
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.tiles import WINDS, Tile

__all__ = [
    "TileStrip",
    "action_text",
    "event_text",
    "meld_text",
    "render_table",
    "seat_label",
    "tiles_text",
]

_WIND_LETTERS = ("E", "S", "W", "N")


def tiles_text(tiles: Sequence[int], *, sort: bool = False) -> str:
    """``🀐🀑🀒 b1 b2 b3``: glyphs, then the tokens (in the given order unless ``sort``)."""
    if not tiles:
        return ""
    ts = sorted(tiles) if sort else list(tiles)
    glyphs = "".join(Tile(t).glyph for t in ts)
    tokens = format_tiles(ts) if sort else " ".join(Tile(t).token for t in ts)
    return f"{glyphs} {tokens}"


class TileStrip:
    """Tiles in a row, each tile's glyph above its token, wrapped to the width it gets.

    Each tile takes a column as wide as the wider of its glyph and its token (by the
    terminal cells they fill: the red dragon's glyph takes two, the others one), and
    both are padded to it, so the pictures and the notation line up whatever the width;
    a row that does not fit goes on as another pair of lines.  Used for the Discards
    column, where the glyphs and the tokens were two lines that drifted apart.
    """

    def __init__(self, tiles: Sequence[int], *, token_style: str = "dim") -> None:
        self.cells = [(Tile(t).glyph, Tile(t).token) for t in tiles]
        self.widths = [max(cell_len(g), cell_len(k)) for g, k in self.cells]
        self.token_style = token_style

    def rows(self, width: int) -> list[tuple[str, str]]:
        """The glyph and token lines of each row for ``width`` cells."""
        out: list[tuple[str, str]] = []
        glyphs: list[str] = []
        tokens: list[str] = []
        used = 0
        for (glyph, token), w in zip(self.cells, self.widths, strict=True):
            if glyphs and used + 1 + w > width:
                out.append((" ".join(glyphs), " ".join(tokens)))
                glyphs, tokens, used = [], [], 0
            used += w + (1 if glyphs else 0)
            glyphs.append(glyph + " " * (w - cell_len(glyph)))
            tokens.append(token + " " * (w - cell_len(token)))
        if glyphs:
            out.append((" ".join(glyphs), " ".join(tokens)))
        return [(g.rstrip(), k.rstrip()) for g, k in out]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        if not self.cells:
            return Measurement(0, 0)
        return Measurement(max(self.widths), sum(self.widths) + len(self.widths) - 1)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for glyphs, tokens in self.rows(max(1, options.max_width)):
            yield Text(glyphs, no_wrap=True, overflow="crop")
            yield Text(tokens, style=self.token_style, no_wrap=True, overflow="crop")


def meld_text(meld: Meld | None) -> str:
    """An open meld as glyphs and ``[b123]``; ``None`` (a hidden concealed kong) as ``(????)``."""
    if meld is None:
        return "🀫🀫🀫🀫 (????)"
    return f"{''.join(t.glyph for t in meld.tiles)} {format_meld(meld)}"


def seat_label(seat: int, names: Sequence[str] | None = None) -> str:
    """``E ann`` (the seat's wind letter and the player's name)."""
    if seat < 0:
        return "table"
    wind = _WIND_LETTERS[seat] if seat < len(_WIND_LETTERS) else str(seat)
    if names and seat < len(names):
        return f"{wind} {names[seat]}"
    return wind


def action_text(act: Action) -> str:
    """``discard 🀒 b3``; ``pass``; ``chow 🀐🀑🀒 b1`` (a chow shows its three tiles)."""
    if act.tile is None:
        return str(act)
    word = act.kind.word
    if word == "chow":
        tiles = [act.tile + k for k in range(3)]
        return f"{word} {''.join(Tile(t).glyph for t in tiles)} {act.tile.token}"
    return f"{word} {act.tile.glyph} {act.tile.token}"


_VERBS = {
    "deal": "is dealt",
    "draw": "draws",
    "loose": "takes a loose tile",
    "flower": "shows",
    "discard": "discards",
    "kong": "kong",
    "chow": "chow",
    "pung": "pung",
    "pass": "passes",
    "mahjong": "calls mahjong",
    "announce": "announces the lucky thirteen and discards",
    "meld": "melds",
    "robbed": "is robbed of",
    "dead": "is dead",
    "mahjong_won": "wins with",
    "remise": "remise",
}

_PRIVATE = frozenset({"deal", "draw", "loose"})


def event_text(
    kind: str,
    seat: int,
    tiles: Sequence[int],
    note: str = "",
    names: Sequence[str] | None = None,
    *,
    hide_tiles: bool = False,
) -> str:
    """One event as a line: ``S bob draws 🀒 b3``.  ``hide_tiles`` leaves out
    the tiles of a private event (another seat's draw)."""
    who = seat_label(seat, names)
    if kind == "remise":
        return f"remise: {note}" if note else "remise"
    verb = _VERBS.get(kind, kind)
    text = f"{who} {verb}"
    if tiles and not (hide_tiles and kind in _PRIVATE):
        text += " " + tiles_text(tiles, sort=kind in ("deal", "meld"))
    if kind == "loose" and hide_tiles:
        text = f"{who} takes a loose tile"
    if note and kind != "remise":
        text += f" ({note})"
    return text


def render_table(
    console: Console,
    obs: Observation,
    names: Sequence[str],
    *,
    title: str = "",
) -> None:
    """The table as ``obs.seat`` sees it: every seat's open melds, flowers and
    discards, tiles held, then the walls and the own hand."""
    table = Table(title=title or None, title_justify="left", show_lines=False, expand=False)
    table.add_column("Seat", no_wrap=True)
    table.add_column("Melds and flowers")
    table.add_column("Discards")
    table.add_column("Held", justify="right")
    for view in obs.seats:
        label = seat_label(view.seat, names)
        if view.seat == obs.turn and obs.result is None:
            label = "▶ " + label
        if view.dead:
            label += " (dead)"
        parts = [meld_text(m) for m in view.melds]
        if view.bonus:
            parts.append(tiles_text(view.bonus))
        discards = TileStrip(view.discards)
        style = "bold" if view.seat == obs.seat else ""
        table.add_row(
            Text(label, style=style),
            Text("\n".join(parts)),
            discards,
            str(view.concealed_count),
        )
    console.print(table)
    wind = "green dragon" if obs.round_wind == Tile.GREEN else obs.round_wind.token
    dominant = f", dominant {seat_label(obs.dominant, names)}" if obs.dominant is not None else ""
    console.print(
        f"Round {wind}{dominant} · tiles left: wall {obs.live_left}, dead wall {obs.dead_left}",
        markup=False,
        highlight=False,
    )
    concealed = list(obs.concealed)
    hand = f"Your hand ({WINDS[obs.seat].token}): {tiles_text(concealed, sort=True)}"
    if obs.drawn is not None:
        hand += f"   drew {tiles_text([obs.drawn])}"
    if obs.offered is not None:
        hand += f"   on offer: {tiles_text([obs.offered])} from {seat_label(obs.turn, names)}"
    console.print(hand, markup=False, highlight=False)
