"""The learned value of a position after a discard (``Level.learned`` of
:mod:`mahjong_nts.bots.strong`), ``INTERCEPT + sum(COEF[i] * features[i])`` over
:func:`~mahjong_nts.bots.strong.discard_features`:
points the seat receives when it wins the hand (0 when it does not).

Generated, do not edit: made by
    python benchmarks/train_strong_value.py --hands 16000 --seed 1001 --ruleset nts-2016
    --explore 0.2 --target win --lam 1.0 --ridge 1.0 --clip 3000.0 --out
    src/mahjong_nts/bots/strong_value.py
(16000 hands of seed 1001, 458619 decisions, nts-2016, TD lambda 1.0, 2026-11-27 00:32 UTC).
"""

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
INTERCEPT: float = 438.1298705754506
COEF: tuple[float, ...] = (
    -91.52257124820163,  # value
    27.677766136117665,  # shanten
    1.5270385036381506,  # lack
    -1.7991926212952105,  # seven_pairs
    28.892705702101438,  # ready
    60.381415058200254,  # wins_discard
    -8.150588101145091,  # wins_self
    59.512127548229046,  # win_value
    3.2735632370151917,  # ukeire
    204.1901666170742,  # gain
    349.29756858279256,  # loser
    8.367502433974288,  # danger
    -26.28847792879612,  # threat
    -337.34321353943943,  # gone
    -90.07082751551339,  # concealed
    -14.754889547399955,  # melds
    26.457060795001688,  # held
    -24.149078495919618,  # gone_x_shanten
    -110.64628698278656,  # gone_x_ready
    50.56003200350938,  # wins_x_value
    -16.887240870638752,  # early_x_ukeire
    -368.75393215326324,  # gone_x_loser
)
