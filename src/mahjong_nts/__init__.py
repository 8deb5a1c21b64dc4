"""mahjong-nts: Dutch tournament Mahjong (NTS) rules, scoring and settlement."""

__version__ = "0.1.0"
