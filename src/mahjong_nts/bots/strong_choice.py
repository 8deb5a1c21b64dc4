"""The learned advantage of a candidate of the strong bot's decisions
(``Level.choice``, ``Level.choice_claims`` of :mod:`mahjong_nts.bots.strong`):
``sum(COEF[i] * features[i])`` over :func:`~mahjong_nts.bots.strong.choice_features`,
``DISCARD`` among the best few own-turn discards, ``CLAIM`` between passing and
each pung or chow on offer; fitted on the differences between a decision's
candidates played out on the same wall (benchmarks/train_strong_choice.py).

Generated, do not edit: made by
    python benchmarks/train_strong_choice.py --hands 2000 --seed 2000 --ruleset
    nts-2016 --share 0.3 --claim-share 1.0 --target balance --ridge 1.0 --clip
    3000.0 --out src/mahjong_nts/bots/strong_choice.py
(2000 hands of seed 2000, 15865 discard and 18151 claim decisions, nts-2016, 2026-11-27
03:19 UTC).
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
DISCARD: tuple[float, ...] = (
    -38.20096320599225,  # value
    11.434377482774256,  # shanten
    -8.980671160781894,  # lack
    0.8844083265613767,  # seven_pairs
    51.00553978540467,  # ready
    147.9558016551301,  # wins_discard
    92.45547423087257,  # wins_self
    8.61329120163493,  # win_value
    2.7657074405352113,  # ukeire
    255.504695908006,  # gain
    -451.44956055388883,  # loser
    27.332398373158473,  # danger
    -23.27313546457219,  # threat
    40.607154411282465,  # gone
    0.0,  # concealed
    0.0,  # melds
    -39.478169224246656,  # held
    -29.852301960265205,  # gone_x_shanten
    -125.52508943677205,  # gone_x_ready
    -36.19497612401689,  # wins_x_value
    -9.197201835571864,  # early_x_ukeire
    831.4013832303368,  # gone_x_loser
    4.113178863110189,  # score_gap
    -38.200963206024774,  # value_gap
    -3.1268711317103124,  # rank
    0.0,  # claim
    0.0,  # chow
    -87.17641541742569,  # danger_x_threat
    43.31891581067256,  # danger_x_gone
    0.0,  # claim_x_gone
    0.0,  # claim_x_ready
    0.0,  # claim_x_shanten
    0.0,  # claim_x_loser
    0.0,  # chow_x_gone
)
CLAIM: tuple[float, ...] = (
    -25.99205999003587,  # value
    -24.300538475440458,  # shanten
    3.879988696729525,  # lack
    -3.0367958077265302,  # seven_pairs
    44.98765064564624,  # ready
    96.77170794728946,  # wins_discard
    -30.75595506482595,  # wins_self
    -127.54434286242277,  # win_value
    -16.71860838908556,  # ukeire
    128.02612182790944,  # gain
    608.6727427662081,  # loser
    -126.69203407300631,  # danger
    109.64141259173837,  # threat
    -31.418619558105796,  # gone
    59.38485235631461,  # concealed
    -66.7152849057151,  # melds
    3.652776004465049,  # held
    43.08182743717035,  # gone_x_shanten
    30.649305587231638,  # gone_x_ready
    194.9405774697838,  # wins_x_value
    10.01366408045914,  # early_x_ukeire
    -658.7940569099351,  # gone_x_loser
    0.0,  # score_gap
    -25.992059990062277,  # value_gap
    14.613542639069635,  # rank
    -66.71528490570589,  # claim
    0.33413738413745336,  # chow
    -8.992859949485144,  # danger_x_threat
    173.55861385904743,  # danger_x_gone
    188.28383127410615,  # claim_x_gone
    -75.70097063954661,  # claim_x_ready
    31.864808862227346,  # claim_x_shanten
    12.377511111318992,  # claim_x_loser
    -10.972224545520858,  # chow_x_gone
)
