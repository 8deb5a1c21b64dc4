"""Real online tables for the tests that read them back (a tournament's result taken
from an online table): bots play every seat on the real online server, in this
process, and every event is stored as the server stores it in play."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from mahjong_nts.formats import gamelog
from mahjong_nts.formats.gamelog import HandLog
from mahjong_nts.online.config import OnlineConfig
from mahjong_nts.online.server import OnlineServer
from mahjong_nts.store import Store


def tally(played: Played) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each table seat's mahjongs and deal-ins, read from the hand logs."""
    seats = played.logs[0].header.seats + (
        1 if played.logs[0].header.hand.dreamer is not None else 0
    )
    mahjongs, deal_ins = [0] * seats, [0] * seats
    for log in played.logs:
        result, hand = log.result, log.header.hand
        assert result is not None and hand is not None
        if result.winner is not None:
            mahjongs[hand.players[result.winner]] += 1
            if result.discarder is not None:
                deal_ins[hand.players[result.discarder]] += 1
    return tuple(mahjongs), tuple(deal_ins)


SECRET = b"played-tables-test-secret-32-bytes!"


@dataclass(frozen=True)
class Played:
    id: str
    watch_id: str
    logs: tuple[HandLog, ...]
    """Each hand's log as the server wrote it in play (from the live game, not from
    the stored events): who won (``result.winner``) on whose discard
    (``result.discarder``; hand seats, ``header.hand.players`` their table seats)."""

    def told(self) -> list[tuple[list[int], int | None, int | None]]:
        """Each hand as its log tells it: the table seats in hand seat order, the
        winner and the discarder (hand seats; ``None``: a remise, self-drawn)."""
        out = []
        for log in self.logs:
            assert log.result is not None and log.header.hand is not None
            out.append((log.header.hand.players, log.result.winner, log.result.discarder))
        return out


def play_bot_table(
    store: Store, *, seed: int, hands: int, ruleset: str = "nts-2016", seats: int = 4
) -> Played:
    """A table of ``seats`` bots dealt from ``seed`` (``OnlineConfig.seed``: the same
    seed deals and plays the same hands), played to its end."""

    async def play() -> Played:
        config = OnlineConfig(window_seconds=0.0, bot_delay=0.0, next_hand_seconds=0.0, seed=seed)
        server = OnlineServer(store, SECRET, config)
        await server.start()
        try:
            data: dict[str, Any] = {
                "ruleset": ruleset,
                "hands": hands,
                "turn_seconds": None,
                "seats": [{"kind": "bot"}] * seats,
            }
            table = await server.create(data, "tests")
            for _ in range(6000):
                if table.status == "finished":
                    break
                await asyncio.sleep(0.01)
            assert table.status == "finished", "the bots did not finish the table in 60 s"
            logs = tuple(gamelog.parse_hand_log(table.log(n)[0]) for n in range(hands))
            return Played(table.id, table.watch_id, logs)
        finally:
            await server.stop()

    return asyncio.run(play())
