"""A tournament table's result from an online table or an evening score sheet
(store/tournament_sources.py), on SQLite and on a real PostgreSQL.

The online tables and sheets are stored through the store's own API, as the online
server and the sheet pages store them.  The settlement used throughout is worked by
hand from the NTS rules (docs/tournament.md, docs/sheet.md): East (player 0) goes
mahjong with 40, the others hold 10, 0 and 8.  East wins 2 x 40 from each: +240.
Between the losers the difference is paid (East not involved, single): player 1 gets
10 from player 2 and 2 from player 3, player 3 gets 8 from player 2.  So
1: -80 + 10 + 2 = -68, 2: -80 - 10 - 8 = -98, 3: -80 - 2 + 8 = -74."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from mahjong_nts.store import Conflict, Store, open_store
from mahjong_nts.store.online import NewEvent, NewSeat, append_events, create_table
from mahjong_nts.store.sheets import add_hand, create_session
from mahjong_nts.store.tournament_sources import (
    MAX_SOURCE_CHARS,
    enter_result_from,
    online_source,
    sheet_source,
)
from mahjong_nts.store.tournaments import (
    create_tournament,
    get_tournament,
    import_players,
    result_changes,
    set_round,
)
from mahjong_nts.tournament import InvalidResult

pytestmark = pytest.mark.db

HAND = [240, -68, -98, -74]
"""The settlement worked out above, by player."""
FOUR = "first name\nAnna\nBram\nCor\nDirk\nEva\nFleur\nGijs"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    yield s
    s.close()


def _online(store: Store, hands: list[list[int]], *, finished: bool = True) -> tuple[str, str]:
    """An online table that played ``hands`` (each its balances by seat): its id and
    its watching id."""
    table_id, watch_id = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    players = len(hands[0])
    create_table(
        store,
        table_id=table_id,
        watch_id=watch_id,
        settings={"ruleset": "nts-2016", "hands": len(hands)},
        ruleset_name="nts-2016",
        public=False,
        creator="c1",
        seats=[NewSeat("human")] * players,
        events=[NewEvent("created", {"match_seed": "12345"})],
    )
    seq = 1
    for n, balances in enumerate(hands):
        events = [
            NewEvent("dealt", {"seed": str(n), "players": list(range(players))}, hand=n),
            NewEvent(
                "ended",
                {"seed": str(n), "reason": "mahjong", "winner": 0, "balances": balances},
                hand=n,
            ),
        ]
        last = n == len(hands) - 1
        if last and finished:
            events.append(NewEvent("finished", {}, hand=n))
        append_events(
            store, table_id, seq, events, status="finished" if last and finished else "playing"
        )
        seq += len(events)
    return table_id, watch_id


def _tournament(store: Store) -> int:
    """Seven players: round 1 seats 1-4 at table 1 and 5-7 at table 2 (of three)."""
    tid = create_tournament(store, name="Herfst", day="2026-11-28", rounds=2).id
    import_players(store, tid, FOUR)
    set_round(store, tid, 1, [(3, 1, 4, 2), (5, 6, 7)])
    return tid


def test_an_online_table_gives_each_seat_its_settlements(store: Store) -> None:
    # hand 1 as above; hand 2 the same hand with player 1 as the winning East (the
    # balances move one seat on): each seat's sum is its result.
    second = [HAND[3], HAND[0], HAND[1], HAND[2]]
    table_id, watch_id = _online(store, [HAND, second])
    expected = (240 - 74, -68 + 240, -98 - 68, -74 - 98)
    assert sum(expected) == 0
    for link in (
        table_id,
        f"https://club.example/online/{table_id}",
        f"/online/{table_id}/",
        f"http://localhost:8000/online/watch/{watch_id}?lang=nl",
    ):
        src = online_source(store, link)
        assert (src.balances, src.hands) == (expected, 2)
    tid = _tournament(store)
    done = enter_result_from(store, tid, 1, 1, online_source(store, table_id), by="Els")
    # matched by seat order: the seating's East (3) has seat 0, South (1) seat 1, ...
    assert done.version == 1 and done.entered_by == "Els"
    assert done.result.players == (3, 1, 4, 2) and done.result.finals == expected
    again = online_source(store, table_id)
    with pytest.raises(Conflict, match="was entered already"):
        enter_result_from(store, tid, 1, 1, again)


def test_an_online_table_that_cannot_give_the_result(store: Store) -> None:
    tid = _tournament(store)
    playing, _ = _online(store, [HAND], finished=False)
    with pytest.raises(InvalidResult, match="is not finished"):
        online_source(store, playing)
    three, _ = _online(store, [[2, -1, -1]])
    with pytest.raises(InvalidResult, match="table 1 seats 4 players and the online table has 3"):
        enter_result_from(store, tid, 1, 1, online_source(store, three))
    for unknown in (
        secrets.token_urlsafe(16),
        f"https://club.example/online/watch/{secrets.token_urlsafe(16)}",
        "/etc/passwd",
        "../online/" + "x" * 21,
        "https://club.example/sheet/" + "x" * 32,
    ):
        with pytest.raises(InvalidResult, match="no online table has the link or id"):
            online_source(store, unknown)
    broken, _ = _online(store, [[240, -68, -98, "-74"]])  # type: ignore[list-item]
    with pytest.raises(InvalidResult, match="hand 1 is stored without its settlement"):
        online_source(store, broken)
    for empty in ("", "   ", "x" * (MAX_SOURCE_CHARS + 1)):
        with pytest.raises(InvalidResult, match=f"1 to {MAX_SOURCE_CHARS} characters"):
            online_source(store, empty)
    assert get_tournament(store, tid).results == ()  # nothing stored


def test_a_score_sheet_gives_its_running_totals(store: Store) -> None:
    token = create_session(
        store, names=["Cor", "Eva", "Fleur"], ruleset="nts-2016+three-players"
    ).token
    with pytest.raises(InvalidResult, match="has no hands yet"):
        sheet_source(store, token)
    # three players: East (0) goes mahjong with 40, the others hold 10 and 0: East
    # gets 80 from each, player 1 gets 10 from player 2.
    add_hand(store, token, {"scores": [40, 10, 0], "winner": 0})
    add_hand(store, token, {"scores": [0, 0, 0], "winner": None})  # a remise: nothing
    src = sheet_source(store, f"https://club.example/sheet/{token}")
    assert (src.balances, src.hands) == ((160, -70, -90), 2)
    assert sheet_source(store, token) == src
    tid = _tournament(store)
    four = create_session(store, names=["A", "B", "C", "D"]).token
    add_hand(store, four, {"scores": [40, 10, 0, 8], "winner": 0})
    with pytest.raises(InvalidResult, match="table 2 seats 3 players and the score sheet has 4"):
        enter_result_from(store, tid, 1, 2, sheet_source(store, four))
    done = enter_result_from(store, tid, 1, 2, src, by="Piet")
    assert done.result.players == (5, 6, 7) and done.result.finals == (160, -70, -90)
    # a correction from the other sheet of the table: the history keeps the old one
    add_hand(store, token, {"scores": [0, 20, 0], "winner": 1})
    fixed = enter_result_from(store, tid, 1, 2, sheet_source(store, token), by="Els", version=1)
    assert fixed.version == 2
    (change,) = result_changes(store, tid, 1, 2)
    assert change.old["finals"] == [160, -70, -90] and change.changed_by == "Els"
    assert change.new["finals"] == list(fixed.result.finals)
    with pytest.raises(Conflict, match="since version 1"):
        enter_result_from(store, tid, 1, 2, sheet_source(store, token), version=1)
    for unknown in ("x" * 32, "/sheet/short", f"/online/{token[:22]}"):
        with pytest.raises(InvalidResult, match="no score sheet has the link"):
            sheet_source(store, unknown)
