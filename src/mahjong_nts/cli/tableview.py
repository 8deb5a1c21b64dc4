"""Rendering a hand in play for the terminal (``play``) and a logged hand (``replay``).

Tiles are shown as Unicode glyphs followed by their notation, so a terminal
without a Mahjong font still shows what is meant.  Event descriptions come in
two flavours: the full one of a log, and the one a player at the table sees
(``hide_tiles``; which events a seat sees at all is decided in the core, by
``core.observation.visible_events``).  Every word is in the language of the run
(:mod:`mahjong_nts.cli.i18n`); tiles keep their notation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from mahjong_nts.cli.i18n import N_, _, current, ngettext, pgettext
from mahjong_nts.core.actions import Action
from mahjong_nts.core.hand import Meld
from mahjong_nts.core.notation import format_meld, format_tiles
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.tiles import WINDS, Tile, tile_name
from mahjong_nts.i18n import render

__all__ = [
    "TileStrip",
    "action_text",
    "event_text",
    "meld_text",
    "player_name",
    "render_table",
    "round_text",
    "seat_label",
    "stop_reason_text",
    "tiles_text",
    "wind_letter",
    "wind_text",
]

_WIND_LETTERS = N_("E S W N")
"""The seats' wind letters, East to North (Dutch: O Z W N)."""

YOU = "you"
"""The human player's name in ``play`` (and in its hand logs); shown translated."""

_STOP_REASONS = frozenset(
    {
        N_("quit by the player"),
        N_("end of input"),
        N_("interrupted"),
        N_("input closed"),
        N_("stopped before the end"),
    }
)
"""Why ``play`` stopped a hand early: written in English into the log, shown translated."""


def wind_letter(seat: int) -> str:
    """The wind letter of seat index ``seat`` (``E``; in Dutch ``O``)."""
    letters = _(_WIND_LETTERS).split()
    if len(letters) != len(WINDS):  # a broken translation: the notation's letters
        letters = [w.token for w in WINDS]
    return letters[seat] if 0 <= seat < len(letters) else str(seat)


def wind_text(wind: Tile) -> str:
    """A wind by name (``East``, ``Oost``), or the green dragon of a green-dragon hand."""
    if wind == Tile.GREEN:
        return _("green dragon")
    return tile_name(wind, current())


def round_text(wind: Tile) -> str:
    """The round: ``East round`` (``Oostronde``), or ``green-dragon hand``."""
    if wind == Tile.GREEN:
        return _("green-dragon hand")
    return _("{wind} round").format(wind=tile_name(wind, current()))


def player_name(name: str) -> str:
    """A player's name as shown: the human player's ``you`` in the language of the run."""
    return _(YOU) if name == YOU else name


def stop_reason_text(reason: str) -> str:
    """Why a hand was stopped, as shown (``play``'s reasons translated, others as written)."""
    return _(reason) if reason in _STOP_REASONS else reason


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
    """``E ann`` (the seat's wind letter and the player's name; Dutch ``O ann``)."""
    if seat < 0:
        return _("table")
    wind = wind_letter(seat)
    if names and seat < len(names):
        return f"{wind} {player_name(names[seat])}"
    return wind


_ACTIONS: dict[str, Callable[[], str]] = {
    "discard": lambda: pgettext("action", "discard"),
    "pung": lambda: pgettext("action", "pung"),
    "chow": lambda: pgettext("action", "chow"),
    "kong": lambda: pgettext("action", "kong"),
    "mahjong": lambda: pgettext("action", "mahjong"),
    "pass": lambda: pgettext("action", "pass"),
    "announce": lambda: pgettext("action", "announce"),
}
"""The actions a player may choose, by name, in the language of the run (Dutch
``weggooien``, ``passen``; the context "action" keeps them apart from the same
words elsewhere in the catalogue)."""


def action_word(word: str) -> str:
    """An action's name (``discard``, ``pass``) in the language of the run."""
    say = _ACTIONS.get(word)
    return say() if say is not None else word


def action_text(act: Action) -> str:
    """``discard 🀒 b3``; ``pass``; ``chow 🀐🀑🀒 b1`` (a chow shows its three tiles)."""
    word = action_word(act.kind.word)
    if act.tile is None:
        return word
    if act.kind.word == "chow":
        tiles = [act.tile + k for k in range(3)]
        return f"{word} {''.join(Tile(t).glyph for t in tiles)} {act.tile.token}"
    return f"{word} {act.tile.glyph} {act.tile.token}"


_EVENTS = {
    "deal": N_("{who} is dealt {tiles}"),
    "draw": N_("{who} draws {tiles}"),
    "loose": N_("{who} takes a loose tile {tiles}"),
    "flower": N_("{who} shows {tiles}"),
    "discard": N_("{who} discards {tiles}"),
    "kong": N_("{who} kong {tiles}"),
    "chow": N_("{who} chow {tiles}"),
    "pung": N_("{who} pung {tiles}"),
    "announce": N_("{who} announces the lucky thirteen and discards {tiles}"),
    "meld": N_("{who} melds {tiles}"),
    "robbed": N_("{who} is robbed of {tiles}"),
    "mahjong_won": N_("{who} wins with {tiles}"),
}
"""An event with its tiles, by kind."""

_BARE_EVENTS = {
    "draw": N_("{who} draws"),
    "loose": N_("{who} takes a loose tile"),
    "kong": N_("{who} kong"),
    "pass": N_("{who} passes"),
    "mahjong": N_("{who} calls mahjong"),
    "dead": N_("{who} is dead"),
}
"""An event without tiles (or with tiles the seat may not see), by kind."""

_NOTED_EVENTS = {
    ("kong", "concealed"): N_("{who} kong (concealed)"),
    ("dead", "false mahjong"): N_("{who} is dead (false mahjong)"),
}
"""An event without tiles whose note the core gives it, by kind and note: another
seat's concealed kong (its tile hidden), a false mahjong."""

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
        if not note:
            return _("remise")
        # the core's reason (or a log's, read back): said in the run's language
        return _("remise: {reason}").format(reason=render(note, current()))
    shown = bool(tiles) and not (hide_tiles and kind in _PRIVATE)
    if shown and kind in _EVENTS:
        text = _(_EVENTS[kind]).format(
            who=who, tiles=tiles_text(tiles, sort=kind in ("deal", "meld"))
        )
    elif kind == "deal":
        n = len(tiles)
        text = ngettext("{who} is dealt {n} tile", "{who} is dealt {n} tiles", n).format(
            who=who, n=n
        )
    elif (kind, note) in _NOTED_EVENTS:
        return _(_NOTED_EVENTS[kind, note]).format(who=who)
    elif kind in _BARE_EVENTS:
        text = _(_BARE_EVENTS[kind]).format(who=who)
    else:  # a kind this version does not know (a newer log): as it is written
        text = f"{who} {kind}"
        if shown:
            text += " " + tiles_text(tiles)
    if note:
        text += f" ({render(note, current())})"
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
    table.add_column(_("Seat"), no_wrap=True)
    table.add_column(_("Melds and flowers"))
    table.add_column(_("Discards"))
    table.add_column(_("Held"), justify="right")
    for view in obs.seats:
        label = seat_label(view.seat, names)
        if view.seat == obs.turn and obs.result is None:
            label = "▶ " + label
        if view.dead:
            label += " " + _("(dead)")
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
    line = round_text(obs.round_wind)
    if obs.dominant is not None:
        line += ", " + _("dominant {who}").format(who=seat_label(obs.dominant, names))
    line += " · " + _("tiles left: wall {wall}, dead wall {dead}").format(
        wall=obs.live_left, dead=obs.dead_left
    )
    console.print(line, markup=False, highlight=False)
    concealed = list(obs.concealed)
    hand = _("Your hand ({wind}): {tiles}").format(
        wind=wind_letter(obs.seat), tiles=tiles_text(concealed, sort=True)
    )
    if obs.drawn is not None:
        hand += "   " + _("drew {tiles}").format(tiles=tiles_text([obs.drawn]))
    if obs.offered is not None:
        hand += "   " + _("on offer: {tiles} from {who}").format(
            tiles=tiles_text([obs.offered]), who=seat_label(obs.turn, names)
        )
    console.print(hand, markup=False, highlight=False)
