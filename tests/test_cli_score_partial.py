"""``mahjong-nts score --partial``: a non-winner from only the sets that score."""

from __future__ import annotations

from cli_helpers import invoke_main


def test_partial_scores_the_sets_shown() -> None:
    # seat S, round E: concealed pung of C 8, open pung of E 4; dragon pung and round-wind
    # pung 1 doubling each: 12 x 4 = 48
    result = invoke_main(["score", "CCC [EEE]", "--seat", "S", "--partial"])
    assert result.exit_code == 0, result.output
    assert "Score         48" in result.stdout


def test_without_partial_the_same_sets_are_too_few_tiles() -> None:
    result = invoke_main(["score", "CCC [EEE]", "--seat", "S"])
    assert result.exit_code == 2
    assert "non-winning hand has 13 tiles" in result.stderr


def test_partial_refuses_a_winning_tile_and_too_many_tiles() -> None:
    won = invoke_main(["score", "b111 +b1", "--partial"])
    assert won.exit_code == 2 and won.stderr.startswith("error: --partial is for a non-winner")
    big = invoke_main(["score", "b111 b222 b333 b444 b55", "--partial"])
    assert big.exit_code == 2
    assert "a partial hand has at most 13 tiles" in big.stderr
    assert "Traceback" not in won.output + big.output
