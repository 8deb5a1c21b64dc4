"""The strong bot and its levels: decisions whose right answer follows from the rules,
defence late in the hand, determinism, and the levels' registration."""

from __future__ import annotations

import dataclasses

import pytest
from bot_helpers import LATE_DISCARDS, discards_of, make_obs, play

from mahjong_nts.bots import BOTS, make_bot
from mahjong_nts.bots.heuristic import HeuristicBot, _Context
from mahjong_nts.bots.strong import (
    STRONG,
    EasyBot,
    NormalBot,
    StrongBot,
    _Expectation,
    _later,
    loser_score,
)
from mahjong_nts.core.game import Phase
from mahjong_nts.core.hand import Hand
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.tiles import Tile
from mahjong_nts.core.winvalue import win_value
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.online.settings import BOT_LEVELS


def act(bot: StrongBot, obs_text: str, legal: list[str], **kw: object) -> str:
    return str(bot.act(make_obs(obs_text, legal, **kw)))  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", [StrongBot, NormalBot])
def test_claims_a_pung_of_its_own_wind_when_it_needs_a_doubling(cls: type[StrongBot]) -> None:
    # South (seat 1), East round, open: a chow of bamboo is declared, so no fully
    # concealed hand; nothing else gives a doubling.  A pung of South (own wind) is one
    # doubling and a set: claimed.
    hand = "k234 t45 t78 SS N"
    melds = {1: ["[b123]"]}
    legal = ["pung S", "pass"]
    got = act(cls(0), hand, legal, phase=Phase.CLAIM, offered="S", seat=1, melds=melds)
    assert got == "pung S"


def test_takes_a_legal_mahjong() -> None:
    hand = "b123 b456 b789 k234 CC"
    assert act(StrongBot(0), hand, ["mahjong", *discards_of(hand)]) == "mahjong"


EARLY_DISCARDS = {0: "b1 W", 1: "C", 2: "k9", 3: "b9"}
"""A few discards, so that a self-drawn win is no heavenly hand."""


@pytest.mark.parametrize("cls", [StrongBot, NormalBot])
def test_seven_pairs_ready_beats_a_regular_wait_that_wins_only_self_drawn(
    cls: type[StrongBot],
) -> None:
    # South, concealed: throwing t3 leaves b456 b456 t345 with k44 NN, ready on k4 or N;
    # its doublings (none but the two for a fully concealed hand) allow mahjong only
    # self-drawn, for (20 + 2 + 4 or 8 ...) x 4 = 104 or 120 (nts-2016).  Throwing t5
    # (or t4) leaves six pairs and a single: seven pairs, a limit hand of 250 that needs
    # no doubling, so it wins on a discard too (three live tiles), and scores 125 as a
    # non-winner waiting for it.  The heuristic bot throws t3.
    hand = "b4 b4 b5 b5 b6 b6 k4 k4 t3 t3 t4 t5 N N"
    obs = make_obs(hand, discards_of(hand), seat=1, discards=EARLY_DISCARDS)
    assert str(cls(0).act(obs)) in {"discard t4", "discard t5"}
    assert str(HeuristicBot(0).act(obs)) == "discard t3"


def test_keeps_seven_pairs_when_the_regular_hand_stays_as_far() -> None:
    # Five pairs (b3 k3 k5 k9 t7) and b2 b4 t4 t5.  Throwing t4 leaves the regular hand
    # two steps from ready, as throwing b3 does, and seven pairs one step (five pairs and
    # three singles); throwing b3 breaks a pair: seven pairs two steps away.  Seven pairs
    # is worth 250 without a doubling; the regular hand still lacks both doublings a
    # mahjong on a discard needs.  The strong bot keeps the pair (with the heuristic
    # bot's 0.7 steps for seven pairs and half a step's credit for each surplus
    # doubling, as it had before, it threw b3).
    hand = "b2 b3 b3 b4 k3 k3 k5 k5 k9 k9 t4 t5 t7 t7"
    obs = make_obs(hand, discards_of(hand), seat=1, discards=EARLY_DISCARDS)
    assert str(StrongBot(0).act(obs)) == "discard t4"


def test_keeps_the_tile_a_clean_ready_looking_opponent_needs() -> None:
    # West shows three bamboo-and-honour melds (a clean-looking bamboo hand, four tiles
    # concealed: one tile from ready or ready) late in the hand.  Our hand plays circles
    # and honours, far from ready: the lone b5 is what our plans throw first, but West
    # collects bamboo; South is safe (West let it go himself, and every other South is
    # in sight).  Both levels that read the table throw South, not b5.
    hand = "k1 k2 k4 k5 k7 k8 k9 E E F F P b5 S"
    melds = {2: ["[b234]", "[b777]", "[CCC]"]}
    obs = make_obs(hand, discards_of(hand), melds=melds, discards=LATE_DISCARDS)
    assert obs.seats[2].concealed_count == 4
    assert str(StrongBot(0).act(obs)) == "discard S"
    # without an opponent who threatens, the bamboo tile (no use to a circles hand) goes
    quiet = make_obs(hand, discards_of(hand))
    assert str(StrongBot(0).act(quiet)) == "discard b5"


def test_throws_a_safe_tile_when_far_and_an_opponent_is_close() -> None:
    # Our hand is far from ready whatever it throws (one pair, nothing else together),
    # and six steps from any irregular limit hand; West (three open melds, late) is
    # close.  The strong bot throws a safe tile: white dragon (West holds the other
    # three in his pung: nobody can wait on the fourth) or a wind West let go himself,
    # rather than a fresh tile of our hand.  (A hand a step from thirteen orphans plays
    # for it instead: test_strong_limits.py.)
    hand = "b2 b5 b8 k2 k5 k8 t3 t6 S W N N P C"
    melds = {2: ["[b234]", "[k777]", "[PPP]"]}
    obs = make_obs(hand, discards_of(hand), melds=melds, discards=LATE_DISCARDS)
    thrown = str(StrongBot(0).act(obs))
    assert thrown in {"discard P", "discard S", "discard W"}, thrown


def test_folds_only_where_the_discarder_pays_double() -> None:
    # The same late table; West shows three pungs (white dragon, b2, k7) and has let go
    # eleven tiles, t2 among them.  Our hand (East, concealed) is two steps from ready:
    # the chow t2-t3-t4, partial sets b4-b5, k4-k5, t4-t5, the pair b7, and the lone
    # k1, t9 and red dragon.  Under nts-2016 the discarder pays the winner no more than
    # the others do (NTS 2016, 2.1), so a dangerous tile costs at most West's win a turn
    # sooner: the bot keeps its hand and throws the lone red dragon.  Under nmb-2009 the
    # discarder pays double: the far hand folds to t2, safe against West (he let it go)
    # though it breaks the chow.
    hand = "C b4 b5 b7 b7 k1 k4 k5 t2 t3 t4 t4 t5 t9"
    melds = {2: ["[b222]", "[k777]", "[PPP]"]}
    thrown = {}
    for name in ("nts-2016", "nmb-2009"):
        rules = load_ruleset(name)
        obs = make_obs(hand, discards_of(hand), melds=melds, discards=LATE_DISCARDS, rules=rules)
        thrown[name] = str(StrongBot(0, rules).act(obs))
    assert thrown == {"nts-2016": "discard C", "nmb-2009": "discard t2"}


def test_deterministic_for_a_seed() -> None:
    rules = load_ruleset("nts-2016")
    for name in ("strong", "normal", "easy"):
        logs = []
        for _ in range(2):
            players = [make_bot(name, 5 + s, rules) for s in range(4)]
            game = play(rules, players, 3)
            logs.append([(e.kind, e.seat, e.tiles) for e in game.events])
        assert logs[0] == logs[1]


def test_easy_makes_mistakes_and_strong_does_not() -> None:
    # the same position asked a hundred times: the strong bot always throws the lone
    # North; the easy bot sometimes throws another tile, and never the pair
    hand = "b123 k234 t567 b56 k88 N"
    legal = discards_of(hand)
    strong = {act(StrongBot(s), hand, legal) for s in range(20)}
    assert strong == {"discard N"}
    easy = [act(EasyBot(s), hand, legal) for s in range(100)]
    assert "discard N" in easy and len(set(easy)) > 1
    assert "discard k8" not in easy


def test_levels_are_registered_and_offered_online() -> None:
    for name, cls in (("strong", StrongBot), ("normal", NormalBot), ("easy", EasyBot)):
        assert BOTS[name] is cls and make_bot(name, 1).name == name
        assert name in BOT_LEVELS
    assert BOT_LEVELS[0] == "strong"


def test_a_wait_is_valued_for_the_position_it_is_asked_in() -> None:
    # South (seat 1), concealed b123 b456 k234 t567 S, ready on S (the pair).  In an East
    # round the pair of South is the seat's own wind; in a South round it is the round's
    # wind too, which scores 2 points more: the same tiles are worth more there.  One bot
    # decides in both positions; its answers for the first must not be reused in the
    # second (they were once remembered by the concealed tiles alone, across decisions
    # and hands).
    waiting = "b123 b456 k234 t567 S"
    key = bytes(Hand(parse_tiles(waiting)).counts)
    bot = StrongBot(0)
    got = {}
    for wind in (Tile.EAST, Tile.SOUTH):
        obs = make_obs(
            f"{waiting} N",
            discards_of(f"{waiting} N"),
            seat=1,
            round_wind=wind,
            discards=EARLY_DISCARDS,
        )
        bot.act(obs)
        got[wind] = bot._win(key, int(Tile.SOUTH), True)
        later = win_value(_later(obs), Tile.SOUTH, self_drawn=True, concealed=parse_tiles(waiting))
        assert got[wind] == (later.allowed, later.balance)
    assert got[Tile.SOUTH][1] > got[Tile.EAST][1]


# ---------------------------------------------------------------- the hand's worth as a loser


@pytest.mark.parametrize(
    ("seat", "concealed", "melds", "points"),
    [
        # South, East round (NTS 2016 points and doublings, RULES.md ruling 2): the
        # concealed pungs of red dragon and bamboo 1 score 8 points each; the pair k5 and
        # the loose tiles nothing; the dragon pung is one doubling: 16 x 2.
        (1, "C C C b1 b1 b1 k5 k5 t2 t4 t6 N E", [], 32),
        # the same red dragons as an open pung: 4 points, still a doubling: (4 + 8) x 2
        (1, "b1 b1 b1 k5 k5 t2 t4 t6 N E", ["[CCC]"], 24),
        # six pairs and a single in three suits, concealed: waiting for seven pairs, a
        # non-winner scores half its 250 (ruling 12), not his sets (none)
        (1, "b1 b1 k3 k3 k7 k7 t2 t2 t8 t8 N N C", [], 125),
        # the same in bamboo and honours: clean seven pairs, half of 500
        (1, "b1 b1 b3 b3 b5 b5 b7 b7 b9 b9 N N C", [], 250),
        # East in the East round, open pungs of West and South (4 points each), the pair
        # of East counted as own and as round wind (2 + 2, ruling 10), loose tiles all
        # bamboo: clean, one doubling for every player: (8 + 4) x 2
        (0, "b1 b2 b3 b3 b4 E E", ["[WWW]", "[SSS]"], 24),
        # ... and with a circle among them no doubling: 12
        (0, "b2 b3 b3 b4 t3 E E", ["[WWW]", "[SSS]"], 12),
    ],
)
def test_loser_score_is_the_hand_laid_open_by_the_scorer(
    seat: int, concealed: str, melds: list[str], points: int
) -> None:
    obs = make_obs(concealed, [], seat=seat, melds={seat: melds})
    counts = list(Hand(parse_tiles(concealed)).counts)
    assert loser_score(obs, counts) == points


def test_keeps_a_concealed_dragon_pung_clean_late_in_the_hand() -> None:
    # South, North round, eight tiles left in the wall: bamboo, a concealed pung of white
    # dragons, a red dragon and t5.  Throwing t5 keeps the hand clean: as a non-winner
    # the white pung's 8 points double twice (the dragon pung and the clean hand), 32;
    # throwing the red dragon leaves t5 and 8 x 2 = 16.  The plans value both alike (the
    # red dragon is a single with one copy gone, t5 the only circle), and each
    # non-winner receives his score from the other two.  Without the non-winner's worth
    # (``loser_weight`` 0) the bot throws the red dragon, the less connected tile.
    hand = "b2 b4 b5 b5 b6 b7 b7 b9 b9 t5 C P P P"
    discards = {0: "C t1 k9 N", 1: "W k1", 2: "t9 S k2", 3: "E k8"}
    obs = dataclasses.replace(
        make_obs(hand, discards_of(hand), seat=1, round_wind=Tile.NORTH, discards=discards),
        live_left=8,
    )
    assert str(StrongBot(0).act(obs)) == "discard t5"
    plain = StrongBot(0, level=dataclasses.replace(STRONG, loser_weight=0.0))
    assert str(plain.act(obs)) == "discard C"


# ---------------------------------------------------------------- letting a small win go

CONCEALED_READY = "C C C S S S b2 b3 b4 k5 k5 t4 t5"
"""South's concealed hand (East round), ready on t3 or t6."""
QUIET = {0: "b1 W t3", 1: "N", 2: "k9", 3: "b9"}
"""A quiet table early in the hand; East has just thrown t3."""


def test_lets_a_small_discard_win_go_for_a_self_drawn_concealed_one() -> None:
    # South (seat 1), East round, nts-2016, nothing declared: pungs of red dragons and of
    # South, b234, the pair k5 and t45, ready on t3 or t6.  On East's t3: 20 for mahjong,
    # 8 + 8 for the two concealed honour pungs = 36 points; one doubling for the dragon
    # pung, one for the own wind: 36 x 4 = 144, which East pays double: 576.  Self-drawn
    # the same tiles score 2 points more and two more doublings (fully concealed): 38 x 16
    # = 608, 2432 from the three.  Seven winning tiles are live (one t3 is out) among
    # about a hundred unseen, with twelve own draws left: the chance to draw one of them
    # is about 1 - (1 - 7/100)**12 = 0.58, worth about 1400 against a sure 576.
    obs = make_obs(
        CONCEALED_READY,
        ["mahjong", "pass"],
        seat=1,
        phase=Phase.CLAIM,
        offered="t3",
        discards=QUIET,
    )
    t3 = parse_tiles("t3")[0]
    now = win_value(obs, t3, self_drawn=False)
    later = win_value(_later(obs), t3, self_drawn=True, concealed=parse_tiles(CONCEALED_READY))
    assert (now.points, now.doublings, now.balance) == (36, 2, 576)
    assert (later.points, later.doublings, later.balance) == (38, 4, 2432)
    assert str(StrongBot(0).act(obs)) == "pass"
    # the other levels, the heuristic bot and strong with the switch off take it
    plain = StrongBot(0, level=dataclasses.replace(STRONG, decline=False))
    for bot in (plain, NormalBot(0), HeuristicBot(0)):
        assert str(bot.act(obs)) == "mahjong"


@pytest.mark.parametrize(
    ("hand", "offered", "phase", "melds", "live_left"),
    [
        # the wall nearly out: one own draw left (seven tiles, four seats)
        (CONCEALED_READY, "t3", Phase.CLAIM, [], 7),
        # the same hand robbing a kong: always taken
        (CONCEALED_READY, "t3", Phase.ROB, [], 50),
        # seven pairs (a limit hand, 250 self-drawn or not): a limit hand is never let go
        ("b1 b1 k3 k3 k7 k7 t2 t2 t8 t8 N N C", "C", Phase.CLAIM, [], 50),
        # an open pung of South: no fully concealed hand to wait for
        ("C C C b2 b3 b4 k5 k5 t4 t5", "t3", Phase.CLAIM, ["[SSS]"], 50),
    ],
)
def test_takes_a_limit_hand_a_late_win_a_robbed_kong_and_an_open_hands_win(
    hand: str, offered: str, phase: Phase, melds: list[str], live_left: int
) -> None:
    obs = make_obs(
        hand,
        ["mahjong", "pass"],
        seat=1,
        phase=phase,
        offered=offered,
        melds={1: melds},
        discards=QUIET,
        live_left=live_left,
    )
    assert win_value(obs, parse_tiles(offered)[0], self_drawn=False).allowed
    assert str(StrongBot(0).act(obs)) == "mahjong"


def test_a_level_plays_with_its_own_weights_and_its_own_seven_pairs_penalty() -> None:
    # ``Level.weights`` are the heuristic bot's weights a level plays with; the level's
    # seven-pairs penalty replaces theirs, so a changed level changes its weights too.
    assert STRONG.weights is not None
    strong = StrongBot(0)
    assert strong.weights == dataclasses.replace(
        STRONG.weights, seven_pairs_penalty=STRONG.seven_pairs_penalty
    )
    cheap = StrongBot(0, level=dataclasses.replace(STRONG, seven_pairs_penalty=0.1))
    assert cheap.weights.seven_pairs_penalty == 0.1
    assert cheap.weights.simples_extra == STRONG.weights.simples_extra
    # a level without weights of its own plays the heuristic bot's defaults
    plain = StrongBot(0, level=dataclasses.replace(STRONG, weights=None))
    assert plain.weights.simples_extra == HeuristicBot(0).weights.simples_extra
    assert plain.weights.seven_pairs_penalty == STRONG.seven_pairs_penalty
    # weights passed to the bot win over the level's
    given = dataclasses.replace(HeuristicBot(0).weights, prune=3.0)
    assert StrongBot(0, weights=given).weights == given
    # normal keeps the heuristic bot's hope for simples
    assert NormalBot(0).weights.simples_extra == HeuristicBot(0).weights.simples_extra


# ---------------------------------------------------------------- the exact look ahead near ready


def _expectation(
    concealed: str, discards: dict[int, str], hazard: float, rounds: int
) -> tuple[StrongBot, Observation, _Expectation]:
    """South's position holding ``concealed`` (14 tiles), with ``discards`` on the table,
    and the expectation of :meth:`StrongBot._exact_pick` made in it."""
    obs = make_obs(concealed, discards_of(concealed), seat=1, discards=discards)
    bot = StrongBot(0)
    bot.act(obs)  # the bot's win question is now this position's
    ctx = bot._context(obs)
    return bot, obs, _Expectation(ctx, bot._win, rounds, hazard, bot.level)


def _self_drawn(obs: Observation, waiting: str, tile: str) -> int:
    """The settlement of a self-drawn win on ``tile`` (asserted allowed, and not on a
    discard) later in the hand, by the scorer."""
    t = parse_tiles(tile)[0]
    concealed = parse_tiles(waiting)
    drawn = win_value(_later(obs), t, self_drawn=True, concealed=concealed)
    claimed = win_value(_later(obs), t, self_drawn=False, concealed=concealed)
    assert drawn.allowed and not claimed.allowed
    return drawn.balance


def test_a_ready_hand_is_worth_its_chance_to_draw_a_winning_tile_in_the_draws_left() -> None:
    # South keeps b123 b456 b789 k234 C (throwing N): ready on red dragon only, one C
    # in hand and two on the table, so one is live among the 136 - 14 - 6 = 116 unseen.
    # Fully concealed and self-drawn, the hand has the two doublings a mahjong needs
    # (nts-2016); on a discard none: no win.  With no opponent ending the hand, k own
    # draws win with chance 1 - (1 - p)^k, p = 1/116.  With hazard h a round (East,
    # South and West each ending it with h x decline_hazard / 3 before the own draw, the
    # seat then losing decline_loss) one draw is worth p S (1 - g)^3 - g L (1 + (1 - g)
    # + (1 - g)^2), g that share.
    concealed = "b1 b2 b3 b4 b5 b6 b7 b8 b9 k2 k3 k4 C N"
    discards = {0: "b1 W C", 2: "k9 C", 3: "b9"}
    waiting = "b1 b2 b3 b4 b5 b6 b7 b8 b9 k2 k3 k4 C"
    key = bytes(Hand(parse_tiles(waiting)).counts)
    bot, obs, calm = _expectation(concealed, discards, 0.0, 3)
    s = _self_drawn(obs, waiting, "C")
    p = 1 / 116
    got = calm.ready(key)
    assert got[0] == 0.0
    for k in (1, 2, 3):
        assert got[k] == pytest.approx((1 - (1 - p) ** k) * s)
    _, _, risky = _expectation(concealed, discards, 0.1, 1)
    g = 0.1 * bot.level.decline_hazard / 3
    loss = bot.level.decline_loss
    want = p * s * (1 - g) ** 3 - g * loss * (1 + (1 - g) + (1 - g) ** 2)
    assert risky.ready(key)[1] == pytest.approx(want)


def test_a_hand_one_step_away_is_worth_the_ready_hands_its_draws_make() -> None:
    # South keeps b123 b456 b789 k2 k4 C P (throwing N): one step from ready, and only a
    # drawn k3, C or P makes it ready (k3: a wait on C or on P, throwing the other; C:
    # the pair CC and the wait on k3, throwing P; P: likewise, throwing C).  On the table
    # two C and one k3, so live: k3 3, C 1, P 3, among 116 unseen.  No opponent ends the
    # hand: one own draw left is worth nothing (a draw that makes the hand ready leaves
    # no draw to win with); two are worth, for each drawn tile, the best ready hand it
    # makes with one draw left (its live winning tiles / 116 x the self-drawn settlement).
    concealed = "b1 b2 b3 b4 b5 b6 b7 b8 b9 k2 k4 C P N"
    discards = {0: "b1 W C", 2: "k3 C", 3: "b9"}
    _, obs, ev = _expectation(concealed, discards, 0.0, 2)
    after = list(Hand(parse_tiles("b1 b2 b3 b4 b5 b6 b7 b8 b9 k2 k4 C P")).counts)
    got = ev.hand(after, 1)
    u = 116
    sets = "b1 b2 b3 b4 b5 b6 b7 b8 b9"
    on_p = 3 / u * _self_drawn(obs, f"{sets} k2 k3 k4 P", "P")
    on_c = 1 / u * _self_drawn(obs, f"{sets} k2 k3 k4 C", "C")
    on_k3_cc = 3 / u * _self_drawn(obs, f"{sets} k2 k4 C C", "k3")
    on_k3_pp = 3 / u * _self_drawn(obs, f"{sets} k2 k4 P P", "k3")
    want = 3 / u * max(on_p, on_c) + 1 / u * on_k3_cc + 3 / u * on_k3_pp
    assert got[1] == 0.0
    assert got[2] == pytest.approx(want)
    assert on_p > on_c  # the tile drawn k3 is best followed by throwing C


def test_the_expectation_is_asked_under_every_rule_set_but_never_when_folding() -> None:
    # Near ready (b123 b456 b789 k234 and C N: throwing either leaves a hand ready on the
    # other) the discard goes through the expectation, under nmb-2009 (the discarder pays
    # double) as under nts-2016.  The late table of the folding test, where the far hand
    # folds under nmb-2009: the safest tile, the expectation not asked.
    asked: list[int] = []

    class Spy(StrongBot):
        def _exact_pick(
            self,
            ctx: _Context,
            counts: list[int],
            choices: list[int],
            values: list[float],
            tile: int,
        ) -> int:
            asked.append(tile)
            return super()._exact_pick(ctx, counts, choices, values, tile)

    near = "b1 b2 b3 b4 b5 b6 b7 b8 b9 k2 k3 k4 C N"
    far = "C b4 b5 b7 b7 k1 k4 k5 t2 t3 t4 t4 t5 t9"
    melds = {2: ["[b222]", "[k777]", "[PPP]"]}
    for name in ("nts-2016", "nmb-2009"):
        rules = load_ruleset(name)
        asked.clear()
        Spy(0, rules).act(make_obs(near, discards_of(near), discards=EARLY_DISCARDS, rules=rules))
        assert len(asked) == 1, name
    rules = load_ruleset("nmb-2009")
    asked.clear()
    obs = make_obs(far, discards_of(far), melds=melds, discards=LATE_DISCARDS, rules=rules)
    assert str(Spy(0, rules).act(obs)) == "discard t2"
    assert asked == []
