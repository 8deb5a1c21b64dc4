"""The table view of ``play``: each discard's glyph stands above its token, at any width.

Positions are counted in terminal cells as rich (and the terminal) count them: the red
dragon's glyph 🀄 is two cells wide (East Asian Width W), every other tile glyph one.
"""

from __future__ import annotations

import functools
import io
import itertools
import random

import pytest
from rich.cells import cell_len
from rich.console import Console

from mahjong_nts.cli.tableview import TileStrip, render_table
from mahjong_nts.core.game import Game
from mahjong_nts.core.observation import observe
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.rulefiles import load_ruleset

GLYPH_TOKEN = {Tile(t).glyph: Tile(t).token for t in range(42)}


def render(renderable: object, width: int) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, legacy_windows=False)
    if callable(renderable):
        renderable(console)
    else:
        console.print(renderable)
    return out.getvalue().splitlines()


def positions(line: str) -> list[tuple[int, str]]:
    """Each character of ``line`` with the terminal cell it starts at."""
    out, x = [], 0
    for ch in line:
        out.append((x, ch))
        x += cell_len(ch)
    return out


def pairs_in(glyph_line: str, token_line: str, lo: int = -1, hi: int = 10**6) -> list[tuple]:
    """(glyph cell, glyph, token cell, token) for the tiles between cells lo and hi."""
    glyphs = [(x, ch) for x, ch in positions(glyph_line) if lo < x < hi and ch in GLYPH_TOKEN]
    if not glyphs:
        return []
    cells = [(x, ch) for x, ch in positions(token_line) if lo < x < hi]
    tokens = []
    for i, (x, ch) in enumerate(cells):
        if ch != " " and (i == 0 or cells[i - 1][1] == " "):
            word = "".join(c for _, c in cells[i:]).split(" ")[0]
            tokens.append((x, word))
    assert len(glyphs) == len(tokens), (glyph_line, token_line)
    return [(gx, g, tx, t) for (gx, g), (tx, t) in zip(glyphs, tokens, strict=True)]


def test_widths_as_the_terminal_counts_them() -> None:
    # the premise of the layout: one cell per glyph but the red dragon's two
    assert cell_len(Tile.RED.glyph) == 2
    assert {cell_len(Tile(t).glyph) for t in range(42) if t != Tile.RED} == {1}


@pytest.mark.parametrize("width", [80, 40, 12, 5, 3])
def test_strip_puts_each_glyph_above_its_token(width: int) -> None:
    tiles = [Tile.RED, Tile.B1, Tile.EAST, Tile.RED, Tile.T9, Tile.WHITE, Tile.F1, Tile.RED]
    tiles += [Tile(t) for t in range(42)]
    lines = render(TileStrip(tiles), width)
    assert len(lines) % 2 == 0
    seen = []
    for glyph_line, token_line in zip(lines[::2], lines[1::2], strict=True):
        assert cell_len(glyph_line) <= width and cell_len(token_line) <= width
        for gx, g, tx, t in pairs_in(glyph_line, token_line):
            assert gx == tx and GLYPH_TOKEN[g] == t
            seen.append(t)
    assert seen == [t.token for t in tiles]  # every tile once, in order, row after row


def test_strip_is_one_row_when_it_fits() -> None:
    lines = render(TileStrip([Tile.B1, Tile.RED, Tile.EAST, Tile.K9]), 80)
    # b1 takes 2 cells, the red dragon 2, E 1, k9 2; single spaces between
    assert lines == ["🀐  🀄 🀀 🀡", "b1 C  E k9"]


def test_empty_strip_renders_nothing() -> None:
    assert render(TileStrip([]), 20) == []


def _midgame(seed: int, steps: int) -> Game:
    game = Game(load_ruleset("nts-2016"), SeedRng(seed))
    pick = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(pick.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("width", [120, 80, 60])
def test_discards_column_lines_up_in_the_table(width: int) -> None:
    checked = 0
    for seed in range(6):
        game = _midgame(seed, 220)
        obs = observe(game, 0)
        lines = render(functools.partial(render_table, obs=obs, names="abcd"), width)
        for top, below in itertools.pairwise(lines):
            bars = [x for x, ch in positions(top) if ch in "│"]
            if len(bars) < 4:
                continue
            for gx, g, tx, t in pairs_in(top, below, bars[2], bars[3]):
                assert gx == tx and GLYPH_TOKEN[g] == t, (width, top, below)
                checked += 1
        # every seat's discards are shown, each once
        shown = sum(len(view.discards) for view in obs.seats)
        assert shown > 0
    assert checked > 100
