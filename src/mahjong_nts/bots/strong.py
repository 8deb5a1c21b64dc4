"""A stronger bot: the heuristic bot's plans, with the hand's real worth, a look at the
next draw, and defence.

It builds on :mod:`mahjong_nts.bots.heuristic` (plans for the doublings a mahjong needs,
shanten, live tiles, claims by value and speed) and changes how it discards on its own
turn:

* **plans for value**: a plan also counts the doublings it brings beyond the ones a
  mahjong needs (each doubles the hand): a pure or clean hand, pungs of dragons and of
  the own and round wind weigh more than a bare two doublings;
* **seven pairs weighs more**: the seven-pairs plan costs 0.3 steps beyond its shanten,
  not the heuristic bot's 0.7: it is a limit hand that needs no doubling (250 under
  nts-2016, more than a bare two-doubling hand), and a non-winner waiting for it scores
  half its value;
* **what a ready hand is worth**, asked of the real scorer
  (:func:`~mahjong_nts.core.winvalue.win_value`): for every discard that leaves the hand
  ready, each winning tile is scored self-drawn and on a discard with the seat's own
  winds, melds and flowers.  A wait that may not go mahjong (too few doublings) is no
  wait; one that may only win self-drawn is half of one in ``strong`` (a discard comes
  from any of three seats; a third in ``normal``); the expected settlement of the live
  winning tiles makes a bigger hand a better wait.
* **the next draw**: among discards that the plans value about alike, the one after
  which more live tiles (counted from everything in sight: own tiles, every discard,
  every open meld) make the hand better, weighted by how much better.
* **near ready, the expected points** (``Level.exact``): when the chosen discard leaves
  the hand ready or one step from ready, it and the discards the plans value about
  alike that do so too are valued by an exact expectation over the own draws left
  (:class:`_Expectation`): for a ready hand, the chance to draw (or be offered) a live
  winning tile that may go mahjong in each draw, times what it wins, against the
  opponents' chance to end the hand first; for a hand one step away, each tile kind
  that could be drawn, the ready hand it makes with the best discard after it and
  that hand's worth in the draws then left.  The discard of the most points is
  played.  By paired duels over 2000 fresh walls, +12.9 [+3.1, +22.7] a hand under
  nts-2016 and +20.4 [+9.9, +30.9] under nmb-2009 (docs/bots.md, the ninth round).
* **defence**: each opponent's threat is read from the table (open melds, how many
  tiles he has let go, whether his open sets already hold the doublings a mahjong needs
  or a clean-looking suit), and each tile's danger from it (his suit in a clean-looking
  hand, the neighbours of his chows, honours still unseen; a tile he let go himself, or
  an honour whose other copies are all in sight, is safe).  A tile's danger costs more
  the more the opponent threatens and the farther the own hand is from ready.  Where
  the discarder pays the winner double (nmb-2009), a far hand folds when an opponent
  looks close to mahjong late in the hand: it throws the safest tile, the plans
  breaking ties.  Where he pays no more than the others (nts-2016, nts-2002,
  rode-draak) it never folds: dealing in then costs what the opponent's win costs
  anyway (won on the tile, he gets from the discarder what each other player pays),
  and a hand that gives up cannot win (by paired duels under nts-2016, folding cost
  about 4 points a hand; docs/bots.md).
* **the hand's worth as a non-winner**: when another seat wins, every non-winner lays
  his hand open, scores its pungs, kongs, scoring pair and the doublings for all (a
  clean hand counts its loose tiles too), or half an irregular limit hand he waits for,
  and receives his score from each of the other two (RULES.md, "Settlement", rulings 2
  and 12).  Each discard near the best is credited with that score of the tiles it
  keeps, asked of the real scorer (:func:`loser_score`): a step for 100 points late in
  the hand, a quarter of that early (``Level.loser_weight``).  So a late hand keeps a
  concealed dragon pung's suit clean rather than its stray circle.
* **irregular limit hands** (``Level.limit_plans``): thirteen orphans, the wind and
  dragon snakes and the Peking garden need no doubling and win a limit (1000 or 2000
  under nts-2016, from each of the three), about three to seven times what a hand
  with two doublings brings.  While no meld is declared, the discard that leaves the
  nearest of them (:func:`limit_pick`) is played when that target, less a credit of
  half a step for a hand worth 1000 and one step more for one worth twice that
  (:func:`limit_credits`), is no farther than the plans' value of their own choice;
  ties go to the discard that more live tiles bring nearer.  A pung, kong or chow that
  would open such a hand is let go.  By paired duels, +17.0 [+5.0, +29.0] a hand under
  nts-2016 over 2000 fresh walls (+26.9 in the screen that chose it; docs/bots.md, the
  seventeenth round).
* **near ready, claims by expected points** (``Level.exact_claims``): when the hand is
  ready or one step from ready and a pung or chow is on offer, passing and each claim
  (with its best discard after it, the meld declared, so the real scorer says what the
  opened hand may still win) are valued by the same expectation; the plans' answer
  gives way to one expected to bring 50 points more.  So a hand ready on one tile kind
  with two doublings takes a pung of its own wind that leaves it ready on two kinds with
  three, and a concealed hand a step from ready takes the chow that makes it ready when
  its waits, open, still have the doublings a mahjong needs and are worth the
  concealment given up.  By paired duels, +9.6 [+4.1, +15.1] a hand under nts-2016 over
  2000 fresh walls (docs/bots.md, the twenty-first round).

A search by sampled draws (:mod:`mahjong_nts.bots.search`) of the discard and claim
decisions can be turned on in :class:`Level` (``rollouts``, ``claim_rollouts``); no
level turns it on, since no setting of it has yet beaten the bot without it in a duel
(docs/bots.md).

A learned value of the position a discard leaves (:func:`discard_features`, a linear
model fitted to self-play outcomes by ``benchmarks/train_strong_value.py``, its weights
in :mod:`mahjong_nts.bots.strong_value`) can rank the best few discards
(``Level.learned``) and decide pungs and chows (``Level.learned_claims``); no level
turns it on, since no setting of it has yet beaten the bot without it (docs/bots.md).

A learned advantage of each candidate of a decision over the others
(:func:`choice_features`, a linear model fitted by ``benchmarks/train_strong_choice.py``
to the differences between the candidates' outcomes when each is played out to the
hand's end on the same wall, its weights in :mod:`mahjong_nts.bots.strong_choice`) can
pick among the best few discards (``Level.choice``) and decide pungs and chows
(``Level.choice_claims``); no level turns it on, since it has not beaten the bot
without it (docs/bots.md).

``strong`` also lets a small win go (``Level.decline``): a fully concealed ready hand
offered a mahjong on a discard weighs the sure win against waiting for a self-drawn one
(two more doublings under nts-2016, the self-drawn points, and the score from each of
the three), from the live winning tiles, the own draws left and the opponents' chance
to end the hand first (:meth:`StrongBot._declines`); a limit hand, a robbed kong, a hand
with an open meld and a win with fewer than two own draws left are always taken.  By
paired duels it gains about a point and a half a hand.

Levels (registered in :data:`~mahjong_nts.bots.base.BOTS`):

* ``strong``: all of the above;
* ``normal``: plans for value, seven pairs and the real worth of ready hands, without
  the look at the next draw, the expected points near ready, the worth as a
  non-winner, the irregular limit hands and reading the opponents' threat (it keeps
  the heuristic bot's care for what an opponent's open melds show he collects);
* ``easy``: the heuristic bot that now and then (one decision in four) throws any single
  tile of its hand or lets a claim go: mistakes on purpose, for beginners (it never
  breaks a pair and never lets a mahjong go).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final, TypeVar

from mahjong_nts.bots._mypyc import mypyc_attr
from mahjong_nts.bots.heuristic import (
    HeuristicBot,
    Weights,
    _as_claimed,
    _Bases,
    _best_discard,
    _connection,
    _Context,
    _danger,
    _discard_values,
    _pick,
    _Plan,
    _records,
    _Saved,
    _Values,
    evaluate,
)
from mahjong_nts.bots.search import Policy, Win, futures, rollout_values, state_seed
from mahjong_nts.bots.strong_choice import CLAIM, DISCARD
from mahjong_nts.bots.strong_value import COEF, INTERCEPT
from mahjong_nts.core.actions import Action, ActionKind
from mahjong_nts.core.analysis import waiting_tiles
from mahjong_nts.core.game import Phase
from mahjong_nts.core.hand import Hand, Meld, MeldKind
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.rules import RuleSet, TableRules
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.shanten import (
    seven_pairs_shanten,
    shanten,
    snakes_shanten,
    thirteen_orphans_shanten,
)
from mahjong_nts.core.tiles import NUM_KINDS, Tile
from mahjong_nts.core.wall import tile_set
from mahjong_nts.core.winvalue import win_value

__all__ = ["EasyBot", "Level", "NormalBot", "StrongBot", "loser_score"]

_HONOURS = range(27, NUM_KINDS)


@dataclass(frozen=True, slots=True)
class Level:
    """What a level of the bot does (see the module's docstring)."""

    real_worth: bool = True
    """Value ready hands by the real scorer."""
    look_ahead: bool = True
    """Weigh discards by the live tiles that improve the hand afterwards."""
    defence: bool = True
    """Read the opponents' threat and fold when one is close and the own hand far."""
    mistakes: float = 0.0
    """Share of decisions played badly on purpose."""
    look_ahead_weight: float = 1.5
    """Value steps a sure improvement on the next draw is worth."""
    near: float = 0.5
    """Discards whose value is within this of the best are looked ahead ..."""
    look_ahead_most: int = 3
    """... at most this many of them, the best first (the look ahead is the bot's
    dearest part: one plan valuation for each tile kind that could come)."""
    self_drawn_share: float = 1 / 3
    """A winning tile that wins only self-drawn counts this much of one that wins on
    a discard too."""
    fold_threat: float = 0.75
    """An opponent this threatening (0..1) makes a far hand fold, under a rule set whose
    discarder pays the winner double (under the others the bot never folds)."""
    fold_distance: float = 2.0
    """The own hand folds when its best value is at least this (steps from ready)."""
    danger_weight: float = 0.35
    """Value steps a tile's danger costs when the hand does not fold."""
    surplus: float = 0.25
    """Value steps each doubling beyond the ones a mahjong needs is worth to a plan (a
    doubling doubles the hand), for at most ``surplus_most`` of them.  Small: by duel,
    0.25 beat 0.5, and 1.0 lost to the heuristic bot (a faster hand wins more often
    than a bigger one pays; docs/bots.md)."""
    surplus_most: float = 2.0
    seven_pairs_penalty: float = 0.3
    """Value steps the seven-pairs plan costs beyond its shanten (the heuristic bot's
    ``Weights.seven_pairs_penalty`` is 0.7, for its waits on single tiles).  Lower here:
    seven pairs is a limit hand that needs no doubling (250 under nts-2016, more than a
    bare two-doubling hand) and a non-winner waiting for it scores half of that."""
    rollouts: int = 0
    """Sampled futures each candidate discard is played through (0: no search)."""
    search_most: int = 3
    """The search compares at most this many discards, the best of the ordering first ..."""
    search_near: float = 1.0
    """... whose score is within this of the best."""
    search_far: float = 3.0
    """No search while the hand is this far (steps) from ready or farther."""
    search_turns: int = 12
    """The own draws a sampled future holds at most (fewer when the wall is shorter)."""
    hazard: float = 0.04
    """Chance a turn round that an opponent ends the hand, before his threat is read."""
    claim_rollouts: int = 0
    """Sampled futures each option of a claim window (pass, each pung or chow) is played
    through (0: the heuristic bot's claims)."""
    rollout_pungs: bool = False
    """A sampled future pungs a discard that brings its plan nearer."""
    worth_cap: float = math.inf
    """A sampled win counts its settlement up to this (see
    :func:`~mahjong_nts.bots.search.rollout_values`)."""
    search_z: float = 0.0
    """A searched discard replaces the ordering's choice when it is ahead of it by this
    many standard errors of the mean difference over the common futures."""
    loser_weight: float = 0.0
    """Value steps 100 points of the hand's score as a non-winner are worth (when another
    seat wins, each non-winner receives his own score from the other two): the score of
    the 13 tiles a discard keeps, asked of the real scorer (:func:`loser_score`), from a
    quarter of this early in the hand to all of it as the wall runs out; 0: not
    valued.  By paired duels, 1.0 beat 2.0 and 3.0 (docs/bots.md)."""
    loser_cap: float = 1.5
    """At most this many value steps for a discard's non-winner score."""
    loser_near: float = 1.5
    """Only discards whose plan value is within this of the best are so valued."""
    decline: bool = False
    """A fully concealed hand may let a mahjong on a discard go, when waiting for a
    self-drawn win (two more doublings and the self-drawn points, from each of the three)
    is expected to bring ``decline_margin`` more (see :meth:`StrongBot._declines`).  On
    for ``strong`` only: by paired duels over fresh walls, +1.7 [+0.5, +2.9] a hand with
    these settings (docs/bots.md)."""
    decline_margin: float = 0.0
    """Points the wait must be expected to bring beyond the sure win now."""
    decline_loss: float = 250.0
    """Points the seat is taken to lose when an opponent ends the hand meanwhile."""
    decline_hazard: float = 1.5
    """The opponents' chance to end the hand each round, in multiples of ``hazard``
    (more for each set they have declared)."""
    decline_discard_share: float = 0.5
    """A discard of an opponent is a winning tile this much as often as a drawn tile is
    (an opponent keeps the tiles he needs)."""
    decline_rounds: int = 2
    """No mahjong is let go with fewer own draws than this left in the wall."""
    exact: bool = False
    """Near ready, play the discard of the best expected points: when the ordering's
    discard leaves the hand ready or one step from ready, it and the discards whose plan
    value is within ``exact_near`` of the best that do so too are each valued by an
    exact expectation over the own draws left (:class:`_Expectation`, with the
    opponents' chance to end the hand and the loss then of ``decline_hazard`` and
    ``decline_loss``), and the best of them is played (never when the hand folds).  On
    for ``strong`` only (docs/bots.md, the ninth round)."""
    exact_near: float = 0.5
    """The discards so valued besides the ordering's: those within this of the best."""
    learned: bool = False
    """Rank the best few discards by the learned value of the position each leaves
    (:func:`discard_features`, the weights of :mod:`mahjong_nts.bots.strong_value`)."""
    learned_near: float = 1.0
    """The discards ranked so: those whose score is within this of the best ..."""
    learned_most: int = 3
    """... at most this many of them, the best first."""
    learned_weight: float = 1.0
    """Value steps 100 points of the learned value are worth beside the score."""
    learned_claims: bool = False
    """Decide a pung or chow on offer by the learned value (:meth:`StrongBot.
    _learned_claim`): of passing, and of each claim followed by its best discard."""
    learned_claim_margin: float = 0.0
    """Points a claim's learned value must beat passing's by."""
    choice: bool = False
    """Pick among the best few discards (those ``learned`` ranks) by the learned
    advantage of each over the others (:func:`choice_features`, the weights
    ``DISCARD`` of :mod:`mahjong_nts.bots.strong_choice`, fitted on counterfactual
    play-outs of each candidate on the same wall)."""
    choice_claims: bool = False
    """Decide a pung or chow on offer by the learned advantage of passing and of each
    claim (followed by its best discard; the weights ``CLAIM``)."""
    explore: float = 0.0
    """Share of the own-turn discards that take one of those few at random (for
    training data only; 0 in every level)."""
    weights: Weights | None = None
    """The heuristic bot's judgement this level plays with, its ``seven_pairs_penalty``
    replaced by the level's (``None``: the heuristic bot's defaults, so replaced)."""
    limit_plans: bool = False
    """Play for thirteen orphans, a snake or the Peking garden (irregular limit hands,
    :func:`limit_pick`) while no meld is declared, when one of them is no farther than
    the plans' value less its credit; claims that would open the hand then pass."""
    limit_credit: float = 0.5
    """Value steps an irregular limit hand worth 1000 is credited over the plans; one
    worth ``v``: this plus ``log2(v / 1000)`` (so thirteen orphans at 2000, one more)."""
    limit_most: int = 5
    """Never played for from farther (shanten) than this."""
    exact_claims: bool = False
    """Near ready, decide a pung or chow on offer by expected points
    (:meth:`StrongBot._exact_claim`): when the hand is ready or one step from ready,
    passing and each pung or chow (followed by its best discard that leaves the hand
    ready or a step away, the meld declared) are valued by the expectation of
    ``Level.exact`` (:class:`_Expectation`), and the plans' answer gives way to the best
    of them when that is ahead by ``exact_claim_margin``."""
    exact_claim_margin: float = 50.0
    """Points the best answer must be expected to bring beyond the plans' one."""


STRONG = Level(
    exact=True,
    loser_weight=1.0,
    decline=True,
    self_drawn_share=0.5,
    surplus_most=3.0,
    weights=Weights(simples_extra=0.25),
    limit_plans=True,
    exact_claims=True,
)
"""``self_drawn_share``, ``surplus_most`` and ``simples_extra`` as tuned together by
paired duels (the eighth round in docs/bots.md: +3.3 [+0.3, +6.2] a hand over 5500
walls they were not tuned on, seeds 22 to 25); ``exact``, the expected points near
ready, from the ninth round (+12.9 [+3.1, +22.7] a hand over 2000 walls of seed 32,
fresh after the screen that chose it; under nmb-2009 +20.4 [+9.9, +30.9]);
``limit_plans``, the irregular limit hands, from the seventeenth round; ``exact_claims``,
claims near ready by expected points, from the twenty-first."""
NORMAL = Level(look_ahead=False, defence=False)
EASY = Level(
    real_worth=False,
    look_ahead=False,
    defence=False,
    surplus=0.0,
    mistakes=0.25,
    seven_pairs_penalty=Weights().seven_pairs_penalty,
)


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot(HeuristicBot):
    """The heuristic bot's plans, with real hand values, a look ahead and defence."""

    name = "strong"
    level = STRONG

    def __init__(
        self,
        seed: int = 0,
        rules: RuleSet | None = None,
        weights: Weights | None = None,
        level: Level | None = None,
    ) -> None:
        if level is not None:
            # (a subclass of its own passes its level here: the compiled build reads the
            # attribute natively, so a class attribute ``level`` of an interpreted
            # subclass would be ignored there)
            self.level = level
        if weights is None:
            weights = replace(
                self.level.weights or Weights(),
                seven_pairs_penalty=self.level.seven_pairs_penalty,
            )
        super().__init__(seed, rules, weights)
        self._obs: Observation | None = None
        self._may_fold = rules is not None and rules.settlement.discarder_double
        """Folding pays only where the discarder pays the winner double (module doc)."""
        self._ask: Win | None = None
        """The win question of the decision now (:meth:`_win`), made when first asked."""
        self._limits_of: RuleSet | None = None
        self._limits: LimitCredits | None = None
        """:meth:`_limit_credits`: the rule set they are of, and the credits."""
        self.record: list[tuple[float, ...]] | None = None
        """When a list: the features (:func:`discard_features`) of the position after
        each own-turn discard the bot plays (not folding; not when it declares a kong
        instead) are appended to it (the training data of the learned value)."""

    def _context(self, obs: Observation) -> _Context:
        if not self.level.surplus:
            return super()._context(obs)
        return _ValueContext(obs, self._values, self.weights, self._plans, self.level)

    def act(self, obs: Observation) -> Action:
        self._obs = obs
        self._ask = None
        lv = self.level
        if lv.mistakes and obs.to_act and self._rng.random() < lv.mistakes:
            slip = self._mistake(obs)
            if slip is not None:
                return slip
        if lv.decline and obs.phase is Phase.CLAIM and obs.offered is not None:
            passing = self._declines(obs)
            if passing is not None:
                return passing
        record = self.record
        if record is None:
            return super().act(obs)
        kept = len(record)
        action = super().act(obs)
        if action.kind is not ActionKind.DISCARD and action.kind is not ActionKind.ANNOUNCE:
            # the discard valued (and recorded) was not played: a kong was declared
            del record[kept:]
        return action

    # ---------------------------------------------------------------- letting a win go

    def _declines(self, obs: Observation) -> Action | None:
        """The pass that lets the mahjong on offer go, when the hand is fully concealed
        and waiting for a self-drawn win is worth more; ``None`` to decide as usual.

        Under nts-2016 a fully concealed hand won self-drawn scores two doublings more
        (x4) and the self-drawn points, and the winner receives his score from each of
        the three others: a small concealed hand that wins on a discard gets a quarter
        of its self-drawn worth.  The wait is valued round by round back from the end
        of the wall: in each round every opponent ends the hand with the table's hazard
        (the seat then loses ``decline_loss``), else his discard is a winning tile with
        chance ``decline_discard_share`` x live winning tiles / unseen tiles (then taken,
        or let go again when waiting is worth more), and the own draw wins with chance
        live winning tiles / unseen tiles.  Never a limit hand (its value does not grow
        self-drawn), nor with fewer than ``decline_rounds`` own draws left, nor a
        robbed kong (not a claim window), nor a hand with an open meld."""
        lv = self.level
        offered = obs.offered
        assert offered is not None
        mahjong: Action | None = None
        passing: Action | None = None
        for a in obs.legal:
            if a.kind is ActionKind.MAHJONG:
                mahjong = a
            elif a.kind is ActionKind.PASS:
                passing = a
        if mahjong is None or passing is None:
            return None
        me = obs.me
        if any(m is None or m.open for m in me.melds):
            return None
        n = len(obs.seats)
        rounds = obs.live_left // n
        if rounds < lv.decline_rounds or n < 2:
            return None
        now = win_value(obs, offered, self_drawn=False)
        if not now.allowed or now.limit_hand is not None:
            return None
        ctx = self._context(obs)
        counts = ctx.hand
        waits = waiting_tiles(counts, n_melds=len(me.melds), duplicate_pairs=ctx.v.duplicate_pairs)
        live = ctx.live
        unseen = sum(live)
        key = bytes(counts)
        drawn = claimed = 0.0  # live winning tiles, self-drawn and on a discard
        worth_drawn = worth_claimed = 0.0
        for w in waits:
            k = live[w]
            if not k:
                continue
            ok, balance = self._win(key, w, True)
            if ok:
                drawn += k
                worth_drawn += k * balance
            ok, balance = self._win(key, w, False)
            if ok:
                claimed += k
                worth_claimed += k * balance
        if drawn <= 0.0 or unseen <= 0:
            return None
        self_drawn = worth_drawn / drawn
        on_discard = worth_claimed / claimed if claimed else 0.0
        p = drawn / unseen
        q = lv.decline_discard_share * claimed / unseen
        h = min(_hazard(obs, lv) * lv.decline_hazard / (n - 1), 0.5)
        value = 0.0  # the wait's worth with no round left: a remise
        for _ in range(rounds):
            x = p * self_drawn + (1.0 - p) * value
            for _ in range(n - 1):
                x = -h * lv.decline_loss + (1.0 - h) * (q * max(on_discard, x) + (1.0 - q) * x)
            value = x
        return passing if value - now.balance > lv.decline_margin else None

    # ---------------------------------------------------------------- mistakes (easy)

    def _mistake(self, obs: Observation) -> Action | None:
        """A beginner's slip: let a claim go, or throw any single tile (never a tile of a
        pair or pung, never when mahjong is on offer)."""
        legal = obs.legal
        if any(a.kind is ActionKind.MAHJONG for a in legal):
            return None
        if obs.phase is not Phase.TURN:
            for a in legal:
                if a.kind is ActionKind.PASS:
                    return a
            return None
        counts = [0] * NUM_KINDS
        for t in obs.concealed:
            counts[t] += 1
        loose = [
            a
            for a in legal
            if a.kind is ActionKind.DISCARD and a.tile is not None and counts[a.tile] == 1
        ]
        if not loose:
            loose = [a for a in legal if a.kind is ActionKind.DISCARD]
        return self._rng.choice(loose) if loose else None

    # ---------------------------------------------------------------- discards

    def _pick_discard(
        self, ctx: _Context, counts: list[int], choices: list[int]
    ) -> tuple[float, int | None]:
        lv = self.level
        if not choices:
            return math.inf, None
        bases = _Bases(counts, ctx)
        values = _discard_values(counts, ctx, bases, choices)
        scores = list(values)
        best = min(values)
        far = _distance(bases)
        if lv.real_worth:
            for i, t in enumerate(choices):
                if values[i] <= best + 1.0:
                    scores[i] += self._ready_adjustment(ctx, counts, t)
        if lv.loser_weight:
            # the hand's worth as a non-winner: from a quarter of the weight early in the
            # hand (the tiles kept then are far from those it ends with) to all of it
            obs = ctx.obs
            gone = _wall_gone(obs)
            factor = lv.loser_weight * (0.25 + 0.75 * gone)
            for i, t in enumerate(choices):
                if values[i] <= best + lv.loser_near:
                    counts[t] -= 1
                    try:
                        points = loser_score(obs, counts)
                    finally:
                        counts[t] += 1
                    scores[i] -= min(factor * points / 100.0, lv.loser_cap)
        folding = False
        dangers = self._dangers(ctx)
        if lv.defence:
            threat, danger = dangers
            if threat > 0.0:
                top = min(scores)
                if self._may_fold and threat >= lv.fold_threat and far >= lv.fold_distance:
                    # fold: the safest tile; the plans break ties (and keep a far hand
                    # from throwing what it needs when the dangers are alike)
                    folding = True
                    scores = [
                        danger[t] * 3.0 + 0.2 * (s - top)
                        for t, s in zip(choices, scores, strict=True)
                    ]
                else:
                    w = lv.danger_weight * threat * min(max(far - 0.5, 0.0), 2.0)
                    scores = [s + w * danger[t] for t, s in zip(choices, scores, strict=True)]
        elif far >= 2.0:
            # the heuristic bot's care: what an opponent visibly collects
            weight = ctx.w.danger_weight * min(far - 1.0, 2.0)
            d = ctx.danger
            scores = [s + weight * d[t] for t, s in zip(choices, scores, strict=True)]
        if lv.look_ahead and best >= 0.5 and not folding:
            # the best few (ties: the least connected tile first) are looked ahead
            top = min(scores)
            near = sorted(
                (i for i, s in enumerate(scores) if s <= top + lv.near),
                key=lambda i: (scores[i], _connection(counts, choices[i], ctx.live)),
            )[: lv.look_ahead_most]
            if len(near) > 1:
                for i in near:
                    gain = _expected_gain(counts, ctx, choices[i], values[i])
                    scores[i] -= lv.look_ahead_weight * gain
        if lv.rollouts and not folding and far < lv.search_far:
            picked = self._search(ctx, counts, choices, scores, bases)
            if picked is not None:
                return values[choices.index(picked)], picked
        if not folding and (lv.learned or lv.choice or lv.explore or self.record is not None):
            return self._learned_pick(ctx, counts, choices, scores, values, dangers)
        if folding:
            return _pick(counts, ctx, choices, scores, values)
        value, tile = self._ordering_pick(ctx, counts, choices, scores, values)
        if lv.limit_plans and not ctx.n_melds:
            credits = self._limit_credits(ctx.obs.rules)
            if credits is not None:
                irregular = limit_pick(counts, choices, value, credits, lv.limit_most, ctx.live)
                if irregular is not None:
                    return -math.inf, irregular  # (no kong beside it: a kong breaks it)
        return value, tile

    def _limit_credits(self, rules: RuleSet) -> LimitCredits | None:
        """:func:`limit_credits` of ``rules``, worked out once for the bot's rule set."""
        if rules is not self._limits_of:
            self._limits_of = rules
            self._limits = limit_credits(rules, self.level.limit_credit)
        return self._limits

    def _ordering_pick(
        self,
        ctx: _Context,
        counts: list[int],
        choices: list[int],
        scores: list[float],
        values: list[float],
    ) -> tuple[float, int]:
        """The discard of the best score (:func:`_pick`), or near ready the one of more
        expected points (:meth:`_exact_pick`, ``Level.exact``), with its value (not
        folding)."""
        value, tile = _pick(counts, ctx, choices, scores, values)
        if self.level.exact:
            tile = self._exact_pick(ctx, counts, choices, values, tile)
            value = values[choices.index(tile)]
        return value, tile

    def _exact_pick(
        self, ctx: _Context, counts: list[int], choices: list[int], values: list[float], tile: int
    ) -> int:
        """``tile`` (the ordering's discard), or the discard of more expected points
        (:class:`_Expectation`) among those whose plan value ``values`` is within
        ``Level.exact_near`` of the best, when ``tile`` and at least one of those leave
        the hand ready or one step from ready (``Level.exact``)."""
        obs = ctx.obs
        n = len(obs.seats)
        rounds = obs.live_left // n
        if rounds < 1 or n < 2 or len(choices) < 2:
            return tile
        nm = ctx.n_melds
        dup = ctx.v.duplicate_pairs
        counts[tile] -= 1
        steps = shanten(counts, n_melds=nm, duplicate_pairs=dup)
        counts[tile] += 1
        if steps > 1:
            return tile
        top = min(values) + self.level.exact_near
        near: list[tuple[int, int]] = [(tile, steps)]
        for t, v in zip(choices, values, strict=True):
            if t != tile and v <= top:
                counts[t] -= 1
                steps = shanten(counts, n_melds=nm, duplicate_pairs=dup)
                counts[t] += 1
                if steps <= 1:
                    near.append((t, steps))
        if len(near) < 2:
            return tile
        ev = _Expectation(ctx, self._win, rounds, _hazard(obs, self.level), self.level)
        best, best_worth = tile, -math.inf
        for t, steps in near:
            counts[t] -= 1
            try:
                worth = ev.hand(counts, steps)[rounds]
            finally:
                counts[t] += 1
            if worth > best_worth:
                best, best_worth = t, worth
        return best

    def _learned_pick(
        self,
        ctx: _Context,
        counts: list[int],
        choices: list[int],
        scores: list[float],
        values: list[float],
        dangers: tuple[float, Sequence[float]],
    ) -> tuple[float, int]:
        """The discard among the best few of ``scores`` whose score, less the learned
        value of the position it leaves, is best (``Level.learned``); one of them at
        random now and then (``Level.explore``); its features recorded (:attr:`record`).
        ``dangers``: :meth:`_dangers`."""
        lv = self.level
        _, tile = self._ordering_pick(ctx, counts, choices, scores, values)
        top = min(scores)
        near = sorted(
            (i for i, s in enumerate(scores) if s <= top + lv.learned_near),
            key=lambda i: (scores[i], _connection(counts, choices[i], ctx.live)),
        )[: lv.learned_most]
        first = choices.index(tile)
        if first not in near:
            near = [first, *near[: lv.learned_most - 1]]
        feats: dict[int, tuple[float, ...]] = {}
        if lv.choice:
            near, cands = self.discard_candidates(ctx, counts, choices, scores, values, dangers)
            if len(near) > 1:
                first = near[_most_advantage(DISCARD, cands)]
        elif lv.learned and len(near) > 1:
            best_score = math.inf
            for i in near:
                f = feats[i] = self._features(ctx, counts, choices[i], values[i], dangers)
                s = scores[i] - lv.learned_weight * predict(f) / 100.0
                if s < best_score - 1e-9:
                    best_score, first = s, i
        if lv.explore and len(near) > 1 and self._rng.random() < lv.explore:
            first = near[self._rng.randrange(len(near))]
        record = self.record
        if record is not None:
            known = feats.get(first)
            if known is None:
                known = self._features(ctx, counts, choices[first], values[first], dangers)
            record.append(known)
        return values[first], choices[first]

    def discard_candidates(
        self,
        ctx: _Context,
        counts: list[int],
        choices: list[int],
        scores: list[float],
        values: list[float],
        dangers: tuple[float, Sequence[float]],
    ) -> tuple[list[int], list[tuple[float, ...]]]:
        """The best few discards of the ordering (indices into ``choices``: at most
        ``Level.learned_most`` whose score is within ``Level.learned_near`` of the best),
        the ordering's own choice first, and their :func:`choice_features` (none when
        there is only the one)."""
        lv = self.level
        _, tile = self._ordering_pick(ctx, counts, choices, scores, values)
        first = choices.index(tile)
        top = min(scores)
        near = sorted(
            (i for i, s in enumerate(scores) if s <= top + lv.learned_near and i != first),
            key=lambda i: (scores[i], _connection(counts, choices[i], ctx.live)),
        )[: lv.learned_most - 1]
        near.insert(0, first)
        if len(near) < 2:
            return near, []
        feats = [
            choice_features(
                self._features(ctx, counts, choices[i], values[i], dangers),
                scores[i] - scores[first],
                values[i] - values[first],
                rank,
                ActionKind.DISCARD,
            )
            for rank, i in enumerate(near)
        ]
        return near, feats

    def claim_candidates(
        self, obs: Observation, ctx: _Context, counts: list[int], choice: Action
    ) -> tuple[list[Action], list[tuple[float, ...]]]:
        """Passing and each pung or chow on offer, ``choice`` (the bot's own answer) first,
        and their :func:`choice_features` (a claim: followed by its best discard); none
        when ``choice`` is none of them or there is no pung or chow on offer."""
        if choice.kind not in (ActionKind.PASS, ActionKind.PUNG, ActionKind.CHOW):
            return [], []
        got = self._claim_positions(obs, ctx, counts)
        if got is None:
            return [], []
        passing, here, threat, base, claims = got
        if not (choice == passing or any(choice == a for a, _, _ in claims)):
            return [], []
        acts = [passing]
        bases = [base]
        values = [here]
        for a, value, f in claims:
            if f is None:  # no plan fits the claim: the hand as it is, and no nearer
                value = max(here, 8.0)
                f = discard_features(ctx, counts, 0.0, threat, value, self._win)
            acts.append(a)
            bases.append(f)
            values.append(value)
        own = acts.index(choice)
        order = [own, *(i for i in range(len(acts)) if i != own)]
        feats = [
            choice_features(bases[i], 0.0, values[i] - values[own], rank, acts[i].kind)
            for rank, i in enumerate(order)
        ]
        return [acts[i] for i in order], feats

    def _claim_positions(
        self, obs: Observation, ctx: _Context, counts: list[int]
    ) -> (
        tuple[
            Action,
            float,
            float,
            tuple[float, ...],
            list[tuple[Action, float, tuple[float, ...] | None]],
        ]
        | None
    ):
        """What passing and each pung or chow on offer leave, for the learned claims:
        passing, the plan value of the hand as it is, the opponents' top threat, the
        :func:`discard_features` of the hand as it is, and for each claim its plan value
        and the features of the position after it and its best discard (``None`` when no
        plan fits the claim); ``None`` when no pung or chow is on offer."""
        passing, options = _pass_and_claims(obs)
        if passing is None or not options:
            return None
        threat, danger = self._dangers(ctx)
        here = evaluate(counts, ctx)
        base = discard_features(ctx, counts, 0.0, threat, here, self._win)
        claims: list[tuple[Action, float, tuple[float, ...] | None]] = []
        saved = ctx.save()
        for a in options:
            after, meld = _claimed(ctx, counts, a, obs.offered, saved)
            try:
                choices = [x for x in range(NUM_KINDS) if after[x]]
                value, d = _best_discard(after, ctx, choices)
                f: tuple[float, ...] | None = None
                if d is not None and ctx.plans:
                    after[d] -= 1
                    win = _memo_win(_later(obs, (meld,)))
                    f = discard_features(ctx, after, danger[d], threat, value, win, (meld,))
                claims.append((a, value, f))
            finally:
                ctx.restore(saved)
        return passing, here, threat, base, claims

    def _dangers(self, ctx: _Context) -> tuple[float, Sequence[float]]:
        """The opponents' top threat and each tile kind's danger (:func:`_threats`); none
        without ``Level.defence``."""
        return _threats(ctx) if self.level.defence else _NO_DANGER

    def _features(
        self,
        ctx: _Context,
        counts: list[int],
        t: int,
        value: float,
        dangers: tuple[float, Sequence[float]],
    ) -> tuple[float, ...]:
        """:func:`discard_features` of discarding ``t`` (``counts`` the hand with it)."""
        counts[t] -= 1
        try:
            return discard_features(ctx, counts, dangers[1][t], dangers[0], value, self._win)
        finally:
            counts[t] += 1

    def _search(
        self,
        ctx: _Context,
        counts: list[int],
        choices: list[int],
        scores: list[float],
        bases: _Bases,
    ) -> int | None:
        """The discard that sampled futures find best among the few the ordering puts
        first (:mod:`mahjong_nts.bots.search`); ``None`` to keep the ordering's."""
        lv = self.level
        obs = ctx.obs
        top = min(scores)
        near = sorted(
            (i for i, s in enumerate(scores) if s <= top + lv.search_near),
            key=lambda i: (scores[i], _connection(counts, choices[i], ctx.live)),
        )[: lv.search_most]
        if len(near) < 2:
            return None
        first = _pick(counts, ctx, choices, scores, scores)[1]
        sampled = _sampled(ctx, lv, lv.rollouts, ())
        if sampled is None:
            return None
        rounds, hazard, seqs, later = sampled
        seats = len(obs.seats)
        pungs = _pung_wins(obs) if lv.rollout_pungs else None
        cands = [choices[i] for i in near]
        if first not in cands:
            cands[-1] = first
        worth: dict[int, list[float]] = {}
        for d in cands:
            counts[d] -= 1
            try:
                policy = _policy(counts, ctx, [x[0] for x in bases.kept], bases.sevens)
                worth[d] = rollout_values(
                    counts, policy, seqs, rounds, seats - 1, hazard, later, lv.worth_cap, pungs
                )
            finally:
                counts[d] += 1
        return _most_ahead(first, worth[first], list(worth.items()), lv.search_z)

    def _claim(self, obs: Observation, ctx: _Context, counts: list[int]) -> Action:
        choice = self._planned_claim(obs, ctx, counts)
        if choice.kind in (ActionKind.PUNG, ActionKind.CHOW, ActionKind.KONG) and (
            self._limit_holds(ctx, counts)
        ):
            # a claim opens the hand, and an irregular limit hand must stay concealed
            for a in obs.legal:
                if a.kind is ActionKind.PASS:
                    return a
        if self.level.exact_claims and choice.kind in (
            ActionKind.PASS,
            ActionKind.PUNG,
            ActionKind.CHOW,
        ):
            return self._exact_claim(obs, ctx, counts, choice)
        return choice

    def _limit_holds(self, ctx: _Context, counts: list[int]) -> bool:
        """Whether the concealed 13 tiles ``counts`` are played for an irregular limit
        hand (``Level.limit_plans``): the nearest (:func:`limit_target`) at most
        ``Level.limit_most`` steps away and, less its credit, no farther than the plans."""
        lv = self.level
        if not lv.limit_plans or ctx.n_melds:
            return False
        credits = self._limit_credits(ctx.obs.rules)
        if credits is None:
            return False
        v, s, _ = limit_target(counts, credits)
        return s <= lv.limit_most and v <= evaluate(counts, ctx)

    def _exact_claim(
        self, obs: Observation, ctx: _Context, counts: list[int], choice: Action
    ) -> Action:
        """``choice`` (the plans' pass, pung or chow), or the answer of more expected
        points (``Level.exact_claims``): when the hand (13 tiles ``counts``) is ready or
        one step from ready, passing is valued by :class:`_Expectation` and each pung or
        chow on offer by the best of the discards after it that leave the hand ready or
        a step away, with the meld declared (the real scorer's answer for the hand so
        opened); the best of them is played when ahead of ``choice`` by
        ``Level.exact_claim_margin``.  Not while the hand is played for an irregular
        limit hand (it stays concealed), nor with no own draw left."""
        passing, options = _pass_and_claims(obs)
        n = len(obs.seats)
        rounds = obs.live_left // n
        if passing is None or not options or rounds < 1 or n < 2:
            return choice
        dup = ctx.v.duplicate_pairs
        steps = shanten(counts, n_melds=ctx.n_melds, duplicate_pairs=dup)
        if steps > 1 or self._limit_holds(ctx, counts):  # (the cheaper test first)
            return choice
        lv = self.level
        hazard = _hazard(obs, lv)
        ev = _Expectation(ctx, self._win, rounds, hazard, lv)
        worth: list[tuple[Action, float]] = [(passing, ev.hand(list(counts), steps)[rounds])]
        saved = ctx.save()
        for a in options:
            after, meld = _claimed(ctx, counts, a, obs.offered, saved)
            try:
                best = _claim_worth(ctx, after, meld, obs, rounds, hazard, lv)
            finally:
                ctx.restore(saved)
            if best is not None:
                worth.append((a, best))
        mine = next((w for a, w in worth if a == choice), None)
        if mine is None:  # (a claim the expectation cannot value: the plans decide)
            return choice
        top, top_worth = choice, mine
        for a, w in worth:
            if w > top_worth:
                top, top_worth = a, w
        return top if top_worth > mine + lv.exact_claim_margin else choice

    def _planned_claim(self, obs: Observation, ctx: _Context, counts: list[int]) -> Action:
        """The claim window's answer by the plans (the heuristic bot's, or a search's or
        learned value's when the level asks for them)."""
        choice = super()._claim(obs, ctx, counts)
        lv = self.level
        if lv.learned_claims and choice.kind in (ActionKind.PASS, ActionKind.PUNG, ActionKind.CHOW):
            choice = self._learned_claim(obs, ctx, counts, choice)
        if lv.choice_claims:
            acts, cands = self.claim_candidates(obs, ctx, counts, choice)
            if acts:
                choice = acts[_most_advantage(CLAIM, cands)]
        if not lv.claim_rollouts:
            return choice
        options = [
            a
            for a in obs.legal
            if a.kind in (ActionKind.PUNG, ActionKind.CHOW) and a.tile is not None
        ]
        if not options or not any(a.kind is ActionKind.PASS for a in obs.legal):
            return choice
        if evaluate(counts, ctx) >= lv.search_far:
            return choice
        sampled = _sampled(ctx, lv, lv.claim_rollouts, (1,))
        if sampled is None:
            return choice
        rounds, hazard, seqs, later = sampled
        seats = len(obs.seats)
        policy = _policy(counts, ctx, list(ctx.plans), ctx.sevens)
        worth: list[tuple[Action, list[float]]] = [
            (
                a,
                rollout_values(
                    counts, policy, seqs, rounds, seats - 1, hazard, later, lv.worth_cap
                ),
            )
            for a in obs.legal
            if a.kind is ActionKind.PASS
        ][:1]
        saved = ctx.save()
        for a in options:
            after, meld = _claimed(ctx, counts, a, obs.offered, saved)
            try:
                choices = [x for x in range(NUM_KINDS) if after[x]]
                _, d = _best_discard(after, ctx, choices)
                if d is not None and ctx.plans:
                    after[d] -= 1
                    claimed = _later(obs, (meld,))
                    policy = _policy(after, ctx, list(ctx.plans), False)
                    values = rollout_values(
                        after,
                        policy,
                        seqs,
                        rounds,
                        seats - 1,
                        hazard,
                        _memo_win(claimed),
                        lv.worth_cap,
                    )
                    worth.append((a, values))
            finally:
                ctx.restore(saved)
        base = next((v for a, v in worth if a == choice), None)
        if base is None:
            return choice
        return _most_ahead(choice, base, worth, lv.search_z)

    def _learned_claim(
        self, obs: Observation, ctx: _Context, counts: list[int], choice: Action
    ) -> Action:
        """Passing, or the pung or chow on offer (followed by the heuristic bot's best
        discard), whichever leaves the position of the best learned value (passing: the
        hand as it is, no discard's danger); ``choice`` when there is no choice."""
        got = self._claim_positions(obs, ctx, counts)
        if got is None:
            return choice
        picked, _, _, base, claims = got
        best = predict(base) + self.level.learned_claim_margin
        for a, _, f in claims:
            if f is not None:
                worth = predict(f)
                if worth > best:
                    best, picked = worth, a
        return picked

    def _ready_adjustment(self, ctx: _Context, counts: list[int], t: int) -> float:
        """For a discard that leaves the hand ready: how much worse (or better) it is than
        the plans think, from the real worth of its waits.  0 for a hand not ready."""
        counts[t] -= 1
        try:
            waits = waiting_tiles(
                counts, n_melds=ctx.n_melds, duplicate_pairs=ctx.v.duplicate_pairs
            )
            if not waits:
                return 0.0
            key = bytes(counts)
            live = ctx.live
            tiles = 0.0
            gain = 0.0
            for w in waits:
                n = live[w]
                if not n:
                    continue
                ok_d, bal_d = self._win(key, w, False)
                ok_s, bal_s = self._win(key, w, True)
                if ok_d:
                    tiles += n
                    gain += n * (bal_d + bal_s) / 2
                elif ok_s:
                    tiles += n * self.level.self_drawn_share
                    gain += n * self.level.self_drawn_share * bal_s
        finally:
            counts[t] += 1
        if tiles <= 0.0:
            return 1.2  # ready, but no live tile may go mahjong: as good as one step away
        mean = gain / tiles
        adj = -0.25 * math.tanh(tiles / 4.0)  # more winning tiles: better
        adj -= 0.12 * max(min(math.log2(mean / 600.0), 2.0), -1.0)  # a bigger hand: better
        if tiles < 2.0:
            adj += 0.3 * (2.0 - tiles)  # a thin wait
        return adj

    def _win(self, key: bytes, tile: int, self_drawn: bool) -> tuple[bool, int]:
        """Whether the 13 concealed tiles ``key`` may go mahjong on ``tile`` and the
        settlement it brings, as a win later in this hand (:func:`_later`: never the
        heavenly hand, nor a last tile), with the seat's melds and flowers now.  Asked
        once per tile and way of winning in a decision: the answers hold for this
        position only (its seat, winds, melds and flowers), so they are not kept past it."""
        ask = self._ask
        if ask is None:
            obs = self._obs
            assert obs is not None
            ask = self._ask = _memo_win(_later(obs))
        return ask(key, tile, self_drawn)


class _Expectation:
    """Expected points of a hand of 13 concealed tiles, ready or one step from ready,
    for :meth:`StrongBot._exact_pick`, with ``k`` own draws left (``k`` = 0 to
    ``rounds``; the hand ends in a remise, 0, when none is left).

    A round is the opponents' turns, then the own draw.  At each opponent's turn the
    hand ends with chance ``h`` (the table's hazard a round x ``Level.decline_hazard``,
    shared among the opponents), the seat then losing ``Level.decline_loss``; else his
    discard is a winning tile of a ready hand with chance ``Level.
    decline_discard_share`` x its live winning tiles that may go mahjong on a discard /
    the unseen tiles (taken when worth more than waiting on).  Each tile kind ``t``
    unseen (``ctx.live``) is drawn with chance its live count / the unseen tiles: a
    winning tile that may go mahjong self-drawn wins its settlement (:meth:`StrongBot.
    _win`); else the best discard after it of the ready hands it can leave, each valued
    as keeping its waits for the draws left (:meth:`ready`), is played, or the drawn
    tile is thrown again (the hand as it was, one draw later).  So a hand one step away
    is valued by what each draw makes ready and how much that is worth, and a ready
    hand may change its wait once."""

    __slots__ = (
        "base",
        "dup",
        "h",
        "live",
        "loss",
        "nm",
        "opps",
        "ready_of",
        "rounds",
        "share",
        "unseen",
        "waits_of",
        "win",
    )

    def __init__(self, ctx: _Context, win: Win, rounds: int, hazard: float, lv: Level) -> None:
        n = len(ctx.obs.seats)
        self.win = win
        self.rounds = rounds
        live = ctx.live
        table = ctx.obs.rules.table
        if not _plays_every_kind(table):  # kinds not played are not live
            played = {int(t) for t in tile_set(table)}
            live = [k if t in played else 0 for t, k in enumerate(live)]
        self.live: list[int] = live
        self.base: list[int] = ctx.hand
        """The concealed tiles now (a copy beyond them in a what-if hand was drawn)."""
        self.unseen = max(sum(live), 1)
        self.opps = n - 1
        self.h = min(hazard * lv.decline_hazard / (n - 1), 0.5)
        self.loss = lv.decline_loss
        self.share = lv.decline_discard_share
        self.nm = ctx.n_melds
        self.dup = ctx.v.duplicate_pairs
        self.ready_of: dict[bytes, list[float]] = {}
        self.waits_of: dict[bytes, tuple[int, ...]] = {}

    def _waits(self, key: bytes) -> tuple[int, ...]:
        got = self.waits_of.get(key)
        if got is None:
            got = self.waits_of[key] = waiting_tiles(key, n_melds=self.nm, duplicate_pairs=self.dup)
        return got

    def _round(self, x: float, q: float, on_discard: float) -> float:
        """The worth before the opponents' turns of ``x`` after them."""
        h = self.h
        lost = h * self.loss
        for _ in range(self.opps):
            x = -lost + (1.0 - h) * (q * max(on_discard, x) + (1.0 - q) * x)
        return x

    def ready(self, key: bytes) -> list[float]:
        """The ready hand ``key`` keeping its waits: its worth with each count of own
        draws left."""
        got = self.ready_of.get(key)
        if got is not None:
            return got
        live, base, win = self.live, self.base, self.win
        drawn = claimed = worth_drawn = worth_claimed = 0.0
        for w in self._waits(key):
            k = live[w] - max(key[w] - base[w], 0)
            if k <= 0:
                continue
            ok, balance = win(key, w, True)
            if ok:
                drawn += k
                worth_drawn += k * balance
            ok, balance = win(key, w, False)
            if ok:
                claimed += k
                worth_claimed += k * balance
        u = self.unseen
        q = self.share * claimed / u
        on_discard = worth_claimed / claimed if claimed else 0.0
        out = [0.0] * (self.rounds + 1)
        for k in range(1, self.rounds + 1):
            out[k] = self._round(worth_drawn / u + (1.0 - drawn / u) * out[k - 1], q, on_discard)
        self.ready_of[key] = out
        return out

    def hand(self, after: list[int], steps: int) -> list[float]:
        """The hand ``after`` (13 concealed tiles, ``steps`` 0: ready, 1: one step
        away): its worth with each count of own draws left.  A copy it holds beyond
        :attr:`base` was drawn: one live copy fewer (as in :meth:`ready`)."""
        key = bytes(after)
        live, base, u, win = self.live, self.base, self.unseen, self.win
        waits = self._waits(key) if steps == 0 else ()
        p_win = wins = p_follow = claimed = worth_claimed = 0.0
        follow: list[tuple[float, list[list[float]]]] = []
        for t in range(NUM_KINDS):
            k = live[t] - max(key[t] - base[t], 0)  # (a copy beyond the base was drawn)
            if k <= 0:
                continue
            if t in waits:
                ok, balance = win(key, t, True)
                ok_claimed, balance_claimed = win(key, t, False)
                if ok_claimed:
                    claimed += k
                    worth_claimed += k * balance_claimed
                if ok:
                    p_win += k / u
                    wins += k / u * balance
                    continue
            options: list[list[float]] = []
            after[t] += 1
            try:
                # (one step away: only a draw that leaves the 14 tiles a discard from ready)
                if not steps or shanten(after, n_melds=self.nm, duplicate_pairs=self.dup) <= 0:
                    for d in range(NUM_KINDS):
                        if after[d] and d != t:
                            after[d] -= 1
                            ready = bytes(after)
                            after[d] += 1
                            if self._waits(ready):
                                options.append(self.ready(ready))
            finally:
                after[t] -= 1
            if options:
                follow.append((k / u, options))
                p_follow += k / u
        q = self.share * claimed / u
        on_discard = worth_claimed / claimed if claimed else 0.0
        out = [0.0] * (self.rounds + 1)
        for r in range(1, self.rounds + 1):
            stay = out[r - 1]
            x = wins + (1.0 - p_win - p_follow) * stay
            for p, options in follow:
                x += p * max(stay, max(o[r - 1] for o in options))
            out[r] = self._round(x, q, on_discard)
        return out


class _ValueContext(_Context):
    """The heuristic bot's context, whose plans also count the doublings they bring
    beyond the ones a mahjong needs (each doubles the hand's worth)."""

    __slots__ = ("surplus", "surplus_most")

    def __init__(
        self,
        obs: Observation,
        v: _Values,
        w: Weights,
        plans: dict[str, _Plan],
        level: Level,
    ) -> None:
        super().__init__(obs, v, w, plans)
        self.surplus = level.surplus
        self.surplus_most = level.surplus_most

    def lack_cost(self, plan: _Plan, held_value: float) -> float:
        lack = self.v.need - self.doublings(plan, held_value)
        if lack > 0:
            return self.w.cost_per_doubling * lack
        return -self.surplus * min(-lack, self.surplus_most)


@mypyc_attr(allow_interpreted_subclasses=True)
class NormalBot(StrongBot):
    """The strong bot without the look ahead and without folding."""

    name = "normal"
    level = NORMAL


@mypyc_attr(allow_interpreted_subclasses=True)
class EasyBot(StrongBot):
    """The heuristic bot with mistakes on purpose (one decision in four)."""

    name = "easy"
    level = EASY


_T = TypeVar("_T")


def _sampled(
    ctx: _Context, lv: Level, rollouts: int, salt: tuple[int, ...]
) -> tuple[int, float, list[list[int]], Win] | None:
    """What a search of the position samples: the rounds a future holds, the hazard a
    round, ``rollouts`` futures (seeded by the public state and ``salt``) and the win
    question of a win later in the hand; ``None`` when no round is left."""
    obs = ctx.obs
    rounds = min(lv.search_turns, obs.live_left // len(obs.seats))
    if rounds <= 0:
        return None
    hazard = _hazard(obs, lv)
    seed = state_seed(obs.seat, obs.concealed, (obs.seq, obs.live_left, obs.discard_count, *salt))
    return rounds, hazard, futures(ctx.live, rollouts, seed), _memo_win(_later(obs))


def _most_ahead(
    first: _T, base: list[float], options: list[tuple[_T, list[float]]], z: float
) -> _T:
    """The option whose values, on the same futures as ``base`` (``first``'s), are
    furthest ahead of them, if by more than ``z`` standard errors of the mean difference
    (future by future); else ``first``."""
    best, best_z = first, z
    n = len(base)
    for option, values in options:
        if option == first:
            continue
        ahead = _ahead(values, base, n)
        if ahead > best_z:
            best, best_z = option, ahead
    return best


def _ahead(values: list[float], base: list[float], n: int) -> float:
    """How far ``values`` is ahead of ``base`` on the same ``n`` futures: the mean
    difference in standard errors (-inf when not ahead at all)."""
    diffs = [x - y for x, y in zip(values, base, strict=True)]
    mean = sum(diffs) / n
    if mean <= 0.0:
        return -math.inf
    var = sum((x - mean) ** 2 for x in diffs) / max(n - 1, 1)
    return mean / math.sqrt(var / n) if var > 0.0 else math.inf


def _hazard(obs: Observation, lv: Level) -> float:
    """The chance a round that an opponent ends the hand: ``lv.hazard``, more for each
    set the opponents have declared."""
    shown = sum(
        1 for view in obs.seats if view.seat != obs.seat for m in view.melds if m is None or m.open
    )
    return min(lv.hazard * (1.0 + 0.5 * shown), 0.5)


def _later(obs: Observation, melds: tuple[Meld, ...] = ()) -> Observation:
    """``obs`` as a win later in the hand would be valued in it (with ``melds`` declared
    by the seat, for what-ifs of claims): after a round of discards, with tiles still in
    the wall and no tile on offer, so no heavenly or earthly hand and no last tile or
    discard counts (they belong to the position now, not to a future win)."""
    seats = obs.seats
    if melds:
        turn = obs.turn
        seats = tuple(
            replace(
                v,
                melds=(*v.melds, *melds),
                claimed_from=(*v.claimed_from, *(turn for _ in melds)),
            )
            if v.seat == obs.seat
            else v
            for v in obs.seats
        )
    n = len(obs.seats)
    return replace(
        obs,
        seats=seats,
        phase=Phase.TURN,
        to_act=False,
        offered=None,
        drawn=None,
        discard_count=obs.discard_count + n,
        live_left=max(obs.live_left - n, 1),
    )


def _pung_wins(
    obs: Observation,
) -> Callable[[tuple[int, ...]], Win]:
    """The win questions of ``obs`` with open pungs of the tiles given declared (for the
    pungs of a sampled future), made once per set of tiles for one decision."""
    made: dict[tuple[int, ...], Win] = {}

    def get(tiles: tuple[int, ...]) -> Win:
        hit = made.get(tiles)
        if hit is None:
            melds = tuple(Meld(MeldKind.PUNG, Tile(t)) for t in tiles)
            hit = made[tiles] = _memo_win(_later(obs, melds))
        return hit

    return get


@dataclass(frozen=True, slots=True)
class LimitCredits:
    """The value steps each irregular limit hand a bot may play for is credited over the
    plans (``None``: the rule set has no such hand)."""

    orphans: float | None
    """Thirteen orphans."""
    snakes: float | None
    """The wind snake, the dragon snake and the Peking garden (the least of their
    values; ``None`` unless the rule set has all three)."""


_SNAKES: Final = ("wind_snake", "dragon_snake", "peking_garden")


def _plays_every_kind(table: TableRules) -> bool:
    """The table plays all three suits and four winds (three players play neither the
    characters nor North)."""
    return len(table.suits) >= 3 and len(table.winds) >= 4


def limit_credits(rules: RuleSet, credit: float) -> LimitCredits | None:
    """The credits (:class:`LimitCredits`) of ``rules``' irregular limit hands: ``credit``
    for a hand worth 1000, plus ``log2(value / 1000)``, a hand's value being what it wins
    on a discard (else self-drawn); ``None`` when the rule set has none of them, or
    plays a set without all three suits and four winds (three players: no characters,
    no North), whose shanten counts would wait on tiles that are not there."""
    if not _plays_every_kind(rules.table):
        return None
    hands = rules.scoring.limit_hands

    def worth(name: str) -> float | None:
        lv = hands.get(name)
        if lv is None:
            return None
        v = lv.claimed if lv.claimed is not None else lv.self_drawn
        return float(v) if v else None

    o = worth("thirteen_orphans")
    snakes = [worth(name) for name in _SNAKES]
    least = min(x for x in snakes if x is not None) if None not in snakes else None
    if o is None and least is None:
        return None
    return LimitCredits(
        credit + math.log2(o / 1000.0) if o is not None else None,
        credit + math.log2(least / 1000.0) if least is not None else None,
    )


def limit_target(counts: list[int], credits: LimitCredits) -> tuple[float, int, int]:
    """The irregular limit hand a concealed hand is best played for: (its shanten less
    its credit, its shanten, 0 for thirteen orphans or 1 for the snakes), the least of
    these triples; ``(inf, 99, 0)`` when the rule set has neither."""
    best: tuple[float, int, int] = (math.inf, 99, 0)
    if credits.orphans is not None:
        s = thirteen_orphans_shanten(counts)
        best = (s - credits.orphans, s, 0)
    if credits.snakes is not None:
        s = snakes_shanten(counts)
        other = (s - credits.snakes, s, 1)
        if other < best:
            best = other
    return best


def limit_pick(
    counts: list[int],
    choices: Sequence[int],
    value: float,
    credits: LimitCredits,
    most: int,
    live: Sequence[int],
) -> int | None:
    """The discard that plays for an irregular limit hand, or ``None``: among ``choices``
    (``counts``: the hand with the discard), those after which the best target
    (:func:`limit_target`) is at most ``most`` steps away and, less its credit, no
    farther than ``value`` (the plans' value of the discard they chose); of those, the
    nearest, then the one with the most live tiles (``live``) that bring it nearer.
    A hand that may play for none of them costs two shanten counts: a tile taken
    away never brings a target nearer, so the 14 tiles bound every discard."""
    bound = math.inf
    if credits.orphans is not None:
        s = thirteen_orphans_shanten(counts)
        if s <= most:
            bound = s - credits.orphans
    if credits.snakes is not None:
        s = snakes_shanten(counts)
        if s <= most:
            bound = min(bound, s - credits.snakes)
    if bound > value:  # no target within ``most`` steps, or none near enough
        return None
    best = math.inf
    tied: list[tuple[int, int]] = []
    for t in choices:
        counts[t] -= 1
        v, s, kind = limit_target(counts, credits)
        counts[t] += 1
        if s <= most and v <= value:
            if v < best:
                best, tied = v, [(t, kind)]
            elif v == best:
                tied.append((t, kind))
    if len(tied) < 2:
        return tied[0][0] if tied else None
    pick, most_live = tied[0][0], -1
    for t, kind in tied:
        counts[t] -= 1
        n = _nearer(counts, kind, live)
        counts[t] += 1
        if n > most_live:
            pick, most_live = t, n
    return pick


def _nearer(counts: list[int], kind: int, live: Sequence[int]) -> int:
    """The live tiles (``live`` copies of each kind) that bring the target ``kind`` of
    :func:`limit_target` nearer to the 13 tiles ``counts``."""
    steps = thirteen_orphans_shanten if kind == 0 else snakes_shanten
    now = steps(counts)
    n = 0
    for u in range(NUM_KINDS):
        if live[u] and counts[u] < 4:
            counts[u] += 1
            if steps(counts) < now:
                n += live[u]
            counts[u] -= 1
    return n


def loser_score(obs: Observation, counts: list[int], more: tuple[Meld, ...] = ()) -> int:
    """The observing seat's score as a non-winner (another seat won) holding the concealed
    tiles ``counts`` (13 tiles with its declared melds and ``more``, a kong counting as
    three), its winds and flowers: what the scorer gives the hand laid open at the end
    (0 for a dead hand)."""
    me = obs.me
    if me.dead:
        return 0
    melds = (*(m for m in me.melds if m is not None), *more)
    tiles = tuple(Tile(x) for x in range(NUM_KINDS) for _ in range(counts[x]))
    res = score_hand(Hand(tiles, melds, me.bonus), Situation(me.wind, obs.round_wind), obs.rules)
    return res.score


FEATURES: tuple[str, ...] = (
    "value",
    "shanten",
    "lack",
    "seven_pairs",
    "ready",
    "wins_discard",
    "wins_self",
    "win_value",
    "ukeire",
    "gain",
    "loser",
    "danger",
    "threat",
    "gone",
    "concealed",
    "melds",
    "held",
    "gone_x_shanten",
    "gone_x_ready",
    "wins_x_value",
    "early_x_ukeire",
    "gone_x_loser",
)
"""The names of :func:`discard_features`, in order (the weights module says the same)."""


def discard_features(
    ctx: _Context,
    after: list[int],
    danger: float,
    threat: float,
    value: float,
    win: Win,
    melds: tuple[Meld, ...] = (),
) -> tuple[float, ...]:
    """The position after a discard as numbers (:data:`FEATURES`), read from the
    observation of ``ctx`` alone: ``after`` the concealed tiles kept, ``danger`` the
    discard's danger and ``threat`` the opponents' top threat (:func:`_threats`),
    ``value`` the plans' value of the tiles kept, ``win`` the win question of a win later
    in the hand, ``melds`` the melds a claim would declare beside the seat's own (``ctx``
    set for them).

    value, the kept plans' least shanten and the doublings the best of them lacks (steps,
    negative for surplus), the seven pairs' shanten; ready or not, the live winning
    tiles that may go mahjong on a discard and self-drawn (fours), the mean settlement
    of a self-drawn win on them (thousands); the share of the unseen tiles that make the
    plans better when drawn (tenths) and the steps they gain on average; the hand's
    score as a non-winner (hundreds); the discard's danger and the top threat; how much
    of the wall is gone; concealed or not, declared melds, doublings held; and a few
    products of these."""
    obs = ctx.obs
    live = ctx.live
    bases = _Bases(after, ctx)
    shanten = 8.0
    lack = 0.0
    best = math.inf
    for _, base, _, cost in bases.kept:
        if base < shanten:
            shanten = float(base)
        if base + cost < best:
            best, lack = base + cost, cost
    dup = ctx.v.duplicate_pairs
    sevens = float(min(seven_pairs_shanten(after, duplicate_pairs=dup), 6)) if ctx.sevens else 6.0
    waits = waiting_tiles(after, n_melds=ctx.n_melds, duplicate_pairs=dup)
    key = bytes(after)
    on_discard = self_drawn = worth = 0.0
    for w in waits:
        n = live[w]
        if not n:
            continue
        ok, _ = win(key, w, False)
        if ok:
            on_discard += n
        ok, balance = win(key, w, True)
        if ok:
            self_drawn += n
            worth += n * balance
    win_worth = worth / self_drawn / 1000.0 if self_drawn else 0.0
    total = sum(live)
    floor = bases.floor
    better = 0
    gain = 0.0
    if total > 0 and floor < math.inf:
        for x in range(NUM_KINDS):
            n = live[x]
            if n <= 0 or not _relevant(after, x):
                continue
            after[x] += 1
            f = _Bases(after, ctx).floor
            after[x] -= 1
            if f < floor - 1e-6:
                better += n
                gain += n * min(floor - f, 1.5)
        gain /= total
    ukeire = 10.0 * better / total if total > 0 else 0.0
    loser = min(loser_score(obs, after, melds) / 100.0, 10.0)
    gone = _wall_gone(obs)
    ready = 1.0 if waits else 0.0
    wins_self = self_drawn / 4.0
    return (
        min(value, 8.0),
        shanten,
        lack,
        sevens,
        ready,
        on_discard / 4.0,
        wins_self,
        win_worth,
        ukeire,
        gain,
        loser,
        danger,
        threat,
        gone,
        1.0 if ctx.concealed else 0.0,
        float(ctx.n_melds),
        ctx.held_value(after) + ctx.meld_value,
        gone * shanten,
        gone * ready,
        wins_self * win_worth,
        (1.0 - gone) * ukeire,
        gone * loser,
    )


def _wall_gone(obs: Observation) -> float:
    """How much of the hand has gone by: the discards made over the discards made and the
    live wall left (0 at the deal, near 1 at the wall's end)."""
    return obs.discard_count / max(obs.discard_count + obs.live_left, 1)


def predict(features: tuple[float, ...]) -> float:
    """The learned value of a position (points of the seat's balance at the hand's end):
    the linear model of :mod:`mahjong_nts.bots.strong_value` on ``features``."""
    total = INTERCEPT
    for c, x in zip(COEF, features, strict=True):
        total += c * x
    return total


CHOICE_FEATURES: tuple[str, ...] = (
    *FEATURES,
    "score_gap",
    "value_gap",
    "rank",
    "claim",
    "chow",
    "danger_x_threat",
    "danger_x_gone",
    "claim_x_gone",
    "claim_x_ready",
    "claim_x_shanten",
    "claim_x_loser",
    "chow_x_gone",
)
"""The names of :func:`choice_features`, in order (the weights module says the same)."""

_F = {name: i for i, name in enumerate(FEATURES)}


def choice_features(
    base: tuple[float, ...], score_gap: float, value_gap: float, rank: int, kind: ActionKind
) -> tuple[float, ...]:
    """A candidate of a decision as numbers (:data:`CHOICE_FEATURES`): the
    :func:`discard_features` ``base`` of the position it leaves, its ordering score and
    plan value less those of the bot's own choice, its place (0: the bot's own choice),
    whether it claims a pung or chow, and a chow; and products that let what a choice
    changes depend on the position (a feature the candidates share drops out of their
    differences): the discard's danger times the top threat and the wall gone, and a
    claim's times the wall gone, ready or not after it, its shanten, its non-winner
    score, and a chow's times the wall gone."""
    claim = 1.0 if kind is ActionKind.PUNG or kind is ActionKind.CHOW else 0.0
    chow = 1.0 if kind is ActionKind.CHOW else 0.0
    danger = base[_F["danger"]]
    gone = base[_F["gone"]]
    return (
        *base,
        score_gap,
        value_gap,
        float(rank),
        claim,
        chow,
        danger * base[_F["threat"]],
        danger * gone,
        claim * gone,
        claim * base[_F["ready"]],
        claim * base[_F["shanten"]],
        claim * base[_F["loser"]],
        chow * gone,
    )


def _most_advantage(coef: Sequence[float], cands: list[tuple[float, ...]]) -> int:
    """The candidate of the highest learned advantage ``sum(coef[i] * features[i])``
    (the first of equals: the bot's own choice)."""
    best = 0
    top = -math.inf
    for k, f in enumerate(cands):
        total = 0.0
        for c, x in zip(coef, f, strict=True):
            total += c * x
        if total > top + 1e-9:
            best, top = k, total
    return best


_NO_DANGER: Final[tuple[float, Sequence[float]]] = (0.0, (0.0,) * NUM_KINDS)
"""No threat and no danger (:meth:`StrongBot._dangers` without ``Level.defence``)."""


def _claimed(
    ctx: _Context, counts: list[int], a: Action, offered: int | None, saved: _Saved
) -> tuple[list[int], Meld]:
    """The concealed tiles after the pung or chow ``a`` of the tile ``offered`` (before
    the discard that follows) and its meld; ``ctx`` set for the hand with that meld
    (``saved``: its fields before, which the caller puts back)."""
    t = a.tile
    assert t is not None and offered is not None
    after, kind, _ = _as_claimed(ctx, counts, a.kind, t, offered, saved)
    return after, Meld(kind, Tile(t))


def _pass_and_claims(obs: Observation) -> tuple[Action | None, list[Action]]:
    """The pass of a claim window and the pungs and chows on offer in it."""
    passing: Action | None = None
    options: list[Action] = []
    for a in obs.legal:
        if a.kind is ActionKind.PASS:
            passing = a
        elif a.kind in (ActionKind.PUNG, ActionKind.CHOW) and a.tile is not None:
            options.append(a)
    return passing, options


def _claim_worth(
    ctx: _Context,
    after: list[int],
    meld: Meld,
    obs: Observation,
    rounds: int,
    hazard: float,
    lv: Level,
) -> float | None:
    """The expected points (:class:`_Expectation`) of a claim: the best of the discards
    from the concealed tiles ``after`` it that leave the hand ready or one step from
    ready, with ``meld`` declared (``ctx`` set for it); ``None`` when none does."""
    dup = ctx.v.duplicate_pairs
    base = list(after)
    ev: _Expectation | None = None
    best = -math.inf
    for d in range(NUM_KINDS):
        if not after[d]:
            continue
        after[d] -= 1
        try:
            steps = shanten(after, n_melds=ctx.n_melds, duplicate_pairs=dup)
            if steps <= 1:
                if ev is None:
                    ev = _Expectation(ctx, _memo_win(_later(obs, (meld,))), rounds, hazard, lv)
                    ev.base = base  # a copy beyond the tiles after the claim was drawn
                    # no more live copies than the claim leaves (the tile on offer is
                    # in sight already in a real game; this bounds any observation)
                    live = list(ev.live)
                    for t in set(meld.tiles):
                        held = base[t] + meld.tiles.count(t)
                        live[t] = min(live[t], max(4 - held, 0))
                    ev.live = live
                    ev.unseen = max(sum(live), 1)
                w = ev.hand(after, steps)[rounds]
                if w > best:
                    best = w
        finally:
            after[d] += 1
    return best if ev is not None else None


def _memo_win(obs: Observation) -> Win:
    """A win question for a what-if position, remembered for one decision."""
    memo: dict[tuple[bytes, int, bool], tuple[bool, int]] = {}

    def win(key: bytes, tile: int, self_drawn: bool) -> tuple[bool, int]:
        hit = memo.get((key, tile, self_drawn))
        if hit is None:
            concealed = [Tile(x) for x in range(NUM_KINDS) for _ in range(key[x])]
            v = win_value(obs, tile, self_drawn=self_drawn, concealed=concealed)
            hit = memo[(key, tile, self_drawn)] = (v.allowed, v.balance)
        return hit

    return win


def _policy(after: list[int], ctx: _Context, plans: list[_Plan], sevens: bool) -> Policy:
    """The plan the hand ``after`` (a discard made) is best valued by, as a rollout
    policy: the plan of ``plans`` of the lowest value, or seven pairs (when
    ``sevens``)."""
    recs = _records(after)
    n = ctx.n_melds
    hv = ctx.held_value(after)
    best = math.inf
    plan: _Plan | None = None
    for p in plans:
        v = p.shanten(recs, n) + ctx.lack_cost(p, hv)
        if v < best:
            best, plan = v, p
    dup = ctx.v.duplicate_pairs
    if sevens:
        sv = seven_pairs_shanten(after, duplicate_pairs=dup) + ctx.w.seven_pairs_penalty
        if sv < best or plan is None:
            return Policy([True] * NUM_KINDS, (0, 1, 2, 3), True, n, dup)
    if plan is None:
        return Policy([True] * NUM_KINDS, (0, 1, 2, 3), False, n, dup)
    return Policy(plan.keep, plan.slots, False, n, dup)


def _distance(bases: _Bases) -> float:
    """How far the hand is from ready: the best kept plan's shanten after the best
    discard (the doublings a plan lacks or brings left out: a valuable far hand is still
    far, and a near hand that lacks a doubling may still get it)."""
    far = min((base for _, base, _, _ in bases.kept), default=math.inf)
    if bases.pungs is not None and bases.pungs_shanten < far:
        far = bases.pungs_shanten
    return far


def _relevant(after: list[int], t: int) -> bool:
    """A drawn ``t`` can change the hand: it meets a held tile of its kind or within
    two ranks of its suit."""
    if after[t]:
        return True
    if t >= 27:
        return False
    r = t % 9
    return any(after[t + d] for d in (-2, -1, 1, 2) if 0 <= r + d <= 8)


def _expected_gain(counts: list[int], ctx: _Context, d: int, value: float) -> float:
    """How much better the hand gets, on average, from the next tile drawn after
    discarding ``d`` (value steps; draws weighted by the live count of each kind)."""
    after = list(counts)
    after[d] -= 1
    live = ctx.live
    total = sum(live)
    if total <= 0:
        return 0.0
    gain = 0.0
    for t in range(NUM_KINDS):
        n = live[t] - (1 if t == d else 0)
        if n <= 0 or not _relevant(after, t):
            continue
        after[t] += 1
        floor = _Bases(after, ctx).floor
        after[t] -= 1
        if floor < value:
            gain += n * min(value - floor, 1.5)
    return gain / total


def _threats(ctx: _Context) -> tuple[float, list[float]]:
    """The most threatening opponent's threat (0..1) and each tile kind's danger (0..)
    summed over the opponents, weighted by their threat."""
    obs = ctx.obs
    v = ctx.v
    danger = [0.0] * NUM_KINDS
    top = 0.0
    seen = [4 - x for x in ctx.live]  # copies in sight (own tiles included)
    let_go: dict[int, set[int]] = {}
    for d in obs.history:
        let_go.setdefault(d.seat, set()).add(int(d.tile))
    chow_danger = _danger(obs)
    for view in obs.seats:
        if view.seat == obs.seat:
            continue
        melds = [m for m in view.melds if m is not None]
        shown = [m for m in melds if m.open]
        hidden_kongs = sum(1 for m in view.melds if m is None)
        n_sets = len(melds) + hidden_kongs
        turns = sum(1 for d in obs.history if d.seat == view.seat)
        threat = min(1.0, min(max(0.0, (turns - 8) / 16.0), 0.35) + 0.25 * n_sets)
        if view.dead:
            continue
        suits = {m.tile // 9 for m in shown if m.tile < 27}
        clean = len(suits) == 1 and len(shown) >= 2
        worth = 0
        for m in shown:
            if m.kind is not MeldKind.CHOW and m.tile >= 27:
                t = int(m.tile)
                if t >= Tile.GREEN:
                    worth += v.dragon
                if t == Tile.EAST + view.seat:
                    worth += v.own_wind
                if t == obs.round_wind:
                    worth += v.round_wind
        if shown and not clean and worth < v.need and any(m.kind is MeldKind.CHOW for m in shown):
            threat *= 0.5  # open, mixed suits, few doublings shown: still far from a mahjong
        if threat <= 0.0:
            continue
        top = max(top, threat)
        mine = let_go.get(view.seat, set())
        for t in range(NUM_KINDS):
            if t in mine:
                risk = 0.15
            elif t >= 27:
                unseen = 4 - seen[t]
                risk = 0.0 if unseen <= 0 else (0.3 if unseen == 1 else 0.6)
            else:
                r = t % 9
                risk = 0.7 if r in (0, 8) else (0.85 if r in (1, 7) else 1.0)
                if clean:
                    (s,) = suits
                    risk *= 1.8 if t // 9 == s else 0.3
            if clean and t >= 27:
                risk *= 1.3
            if t not in mine:
                risk += 0.3 * chow_danger[t]
            danger[t] += threat * risk
    return top, danger
