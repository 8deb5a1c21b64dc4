"""The printout shared by the hand-timed profiles (profile_game.py, profile_env.py): each
part's time per unit and share of the whole, the rest, and what one timer call costs."""

from __future__ import annotations

import time
from collections.abc import Mapping


def print_parts(parts: Mapping[str, int], total: int, count: int, decimals: int = 2) -> None:
    """``parts`` (nanoseconds by name, of ``total``) per unit of ``count``, then the rest
    and the cost of the timer the parts were measured with."""
    for name, took in parts.items():
        print(f"  {name:20s} {took / count / 1000:6.{decimals}f} us  {took / total:6.1%}")
    rest = total - sum(parts.values())
    print(f"  {'other':20s} {rest / count / 1000:6.{decimals}f} us  {rest / total:6.1%}")
    clock = time.process_time_ns
    calls = 100_000
    start = clock()
    for _ in range(calls):
        clock()
    print(f"  (one timer call      {(clock() - start) / calls / 1000:6.2f} us)")
