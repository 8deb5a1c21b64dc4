"""Issue 8: the score bounds of the wire, the hand logs and the core are one.

A valid rule set may score up to ``core.rules.MAX_SCORE`` (2**48); ``settle`` takes every
such score and a hand log holds every balance it leads to (at most 8 times a score)."""

from __future__ import annotations

import ast
from itertools import product
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mahjong_nts.cli import app
from mahjong_nts.core.actions import Action, ActionKind
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.rules import MAX_ROUND_TO, MAX_SCORE, SettlementRules, score_bound
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.core.settlement import (
    MAX_BALANCE,
    MAX_PAYMENT,
    MAX_SETTLED_SCORE,
    balance_factor,
    settle,
)
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats import gamelog, gamelog_schema
from mahjong_nts.formats.rulefiles import load_ruleset

runner = CliRunner()

_FLAGS = [
    SettlementRules(east_double=e, discarder_double=d, dominant_double=g, round_to=r)
    for e, d, g, r in product((False, True), (False, True), (False, True), (0, 10, MAX_ROUND_TO))
]


def test_the_bounds_derive_from_the_core() -> None:
    assert MAX_SCORE == 2**48
    assert MAX_SETTLED_SCORE == 2**48 + 500  # 2**48 rounds up by at most half of 1000
    assert gamelog_schema.MAX_NUMBER == MAX_SETTLED_SCORE
    assert gamelog_schema.MAX_AMOUNT == MAX_BALANCE == 8 * MAX_SETTLED_SCORE < 2**53
    assert MAX_PAYMENT == 4 * MAX_SETTLED_SCORE
    assert [balance_factor(p) for p in (3, 4)] == [6, 8]


def test_the_score_bound_is_one_constant() -> None:
    """Only ``core.rules`` defines the score bound: the wire, the sheet and the pages
    import it (a sheet once had a bound of its own, 10**12, below settle's)."""
    src = Path(__file__).resolve().parents[1] / "src" / "mahjong_nts"
    defined = []
    for path in sorted(src.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            defined += [
                f"{path.relative_to(src)}:{t.id}"
                for t in targets
                if isinstance(t, ast.Name) and t.id == "MAX_SCORE"
            ]
    assert defined == ["core/rules.py:MAX_SCORE"]


def test_the_largest_balances_are_reached() -> None:
    """Worked out by hand at four players (east double, discarder double, every score S):
    East wins on South's discard: South pays 2 * 2 * S, West and North 2 * S each, so East
    gains 8 S.  North wins on East's discard, East's own score 0: East pays North 4 S and
    South and West 2 S each, so East loses 8 S.  At three players the same gives 6 S."""
    s = MAX_SCORE
    both = SettlementRules(
        east_double=True, discarder_double=True, dominant_double=False, round_to=0
    )
    won = settle([s] * 4, winner=0, discarder=1, east=0, rules=both)
    assert won.balances[0] == 8 * s == balance_factor(4) * s
    lost = settle([0, s, s, s], winner=3, discarder=0, east=0, rules=both)
    assert lost.balances[0] == -8 * s
    three = settle([s] * 3, winner=0, discarder=1, east=0, rules=both)
    assert three.balances[0] == 6 * s == balance_factor(3) * s
    assert max(p.amount for p in won.payments) == 4 * s


@given(
    n=st.sampled_from([3, 4, 5]),
    scores=st.lists(st.integers(0, MAX_SCORE), min_size=5, max_size=5),
    data=st.data(),
)
def test_no_balance_exceeds_the_factor(n: int, scores: list[int], data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from(_FLAGS))
    dreamer = 4 if n == 5 else None
    playing = [s for s in range(n) if s != dreamer]
    winner = data.draw(st.sampled_from(playing))
    discarder = data.draw(st.sampled_from([None, *(s for s in playing if s != winner)]))
    east = data.draw(st.sampled_from(playing))
    dominant = data.draw(st.sampled_from([None, *playing]))
    got = [0 if s == dreamer else scores[s] for s in range(n)]
    res = settle(
        got,
        winner=winner,
        discarder=discarder,
        east=east,
        rules=rules,
        dominant=dominant,
        dreamer=dreamer,
    )
    top = max(res.scores)
    assert top <= MAX_SETTLED_SCORE
    assert all(abs(b) <= balance_factor(len(playing)) * top for b in res.balances)
    assert all(p.amount <= 4 * top for p in res.payments)


# --------------------------------------------------------------------------- a real hand

TOP = """\
base = "nts-2016"
name = "top-of-the-bound"
[scoring]
limit = false
limit_claimed = false
limit_non_winner = false
[points]
{points}
[doublings]
{doublings}
"""
_SETS = [f"{k}_{t}_{h}" for k in ("pung", "kong") for t in ("simple", "major")
         for h in ("open", "concealed")]  # fmt: skip
_ZERO = [
    "three_concealed_pungs",
    "four_concealed_pungs",
    "three_concealed_kongs",
    "four_kongs",
    "clean_suit",
    "clean_terminals",
    "very_clean",
    "pure_suit",
    "pure_honours",
    "four_chows",
    "four_pungs",
    "pure_simples",
    "small_four_winds",
    "small_three_dragons",
    "fully_concealed",
    "last_tile",
    "last_tile_circles1",
    "loose_tile",
    "loose_tile_circles5",
    "robbing_kong",
    "kong_on_kong",
]
_WANT = (Tile.EAST, Tile.GREEN, Tile.RED, Tile.WHITE)


def _top_rules(tmp_path: Path) -> Path:
    """Every set and the mahjong worth 1000 points, a pung of dragons, of the own wind and
    of the round wind 7 doublings each, nothing else doubles, no limit: the bound is
    (4 * 1000 + 1000 + 20) << (3 * 7 + 7 + 7) = 5020 * 2**35, about 0.6 * MAX_SCORE."""
    points = "\n".join(f"{k} = 1000" for k in [*_SETS, "mahjong"])
    doublings = "\n".join(
        [*(f"{k} = 7" for k in ("pung_dragon", "pung_own_wind", "pung_round_wind")),
         *(f"{k} = 0" for k in _ZERO)]
    )  # fmt: skip
    path = tmp_path / "top.toml"
    path.write_text(TOP.format(points=points, doublings=doublings), encoding="utf-8")
    return path


def _pungs(game: Game, seat: int) -> int:
    return sum(m.kind.name in ("PUNG", "KONG") for m in game.melds[seat]) + sum(
        k >= 3 for k in game.hands[seat]
    )


def _steered(game: Game) -> Action:
    """East collects pungs of honours and goes mahjong only with four pungs; the others
    feed it the honours it holds pairs of and never claim."""
    legal = game.legal_actions()
    seat = game.current_seat
    kinds = {a.kind: a for a in legal}
    if seat == 0:
        if ActionKind.MAHJONG in kinds and _pungs(game, 0) + (game.phase is not Phase.TURN) >= 4:
            return kinds[ActionKind.MAHJONG]
        if game.phase is not Phase.TURN:
            pungs = [a for a in legal if a.kind is ActionKind.PUNG]
            return pungs[0] if pungs else kinds[ActionKind.PASS]
        hand = game.hands[0]
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        return min(discards, key=lambda a: (hand[a.tile] >= 2, a.tile in _WANT))  # type: ignore[index]
    if game.phase is not Phase.TURN:
        return kinds[ActionKind.PASS]
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    feed = [a for a in discards if a.tile in _WANT and game.hands[0][a.tile] >= 2]  # type: ignore[index]
    return feed[0] if feed else discards[-1]


def test_a_hand_at_the_top_of_the_bound_is_played_logged_verified_and_settled(
    tmp_path: Path,
) -> None:
    """Issue 8: under a valid house rule set, East (seed 730, steered) wins with four
    pungs worth 1000 each, two of dragons and one of East in the East round: 5000 points
    and 4 * 7 doublings, 5000 * 2**28 = 1,342,177,280,000, more than the old settle bound
    (10**12).  East receives double from each of the three others: 6 times that.  The
    hand is logged, the log verifies (replay --verify), and settle takes the scores."""
    path = _top_rules(tmp_path)
    rules = load_ruleset(str(path))
    assert MAX_SCORE // 2 < score_bound(rules.scoring) == 5020 << 35 <= MAX_SCORE
    game = Game(rules, SeedRng(730))
    while not game.is_over:
        game.apply(_steered(game))
    result = game.result
    assert result is not None and result.winner == 0
    score = 5000 << 28
    assert result.scores[0].score == score > 10**12
    balances = result.settlement.balances
    assert balances[0] == 6 * score
    log = tmp_path / "hand.jsonl"
    gamelog.write_hand_log(log, game, ruleset=str(path), seed=730)
    res = runner.invoke(app, ["replay", str(log), "--verify", "--ruleset", str(path)])
    assert res.exit_code == 0, res.output
    scores = ",".join(str(s.score) for s in result.scores)
    res = runner.invoke(
        app, ["settle", "--ruleset", str(path), "--scores", scores, "--winner", "0"]
    )
    assert res.exit_code == 0, res.output
    assert f"{balances[0]:+d}" in res.output
    # the JSON contract: the house rule set settles as its base, nts-2016
    request = f'{{"winner": 0, "scores": [{scores}]}}\n'
    res = runner.invoke(app, ["settle", "--json"], input=request)
    assert res.exit_code == 0, res.output
    assert f'"balances": [{", ".join(map(str, balances))}]' in res.output


def test_a_log_holds_the_largest_balance(tmp_path: Path) -> None:
    """The schema takes a balance of exactly MAX_AMOUNT and refuses one more."""
    info = gamelog_schema.SettlementInfo
    top = gamelog_schema.MAX_AMOUNT
    assert info(scores=[0, 0, 0, 0], balances=[top, -top, 0, 0]).balances[0] == top
    try:
        info(scores=[0, 0, 0, 0], balances=[top + 1, -top - 1, 0, 0])
    except ValueError:
        pass
    else:
        raise AssertionError("a balance past MAX_AMOUNT was taken")
