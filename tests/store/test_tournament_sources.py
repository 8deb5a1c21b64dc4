"""A tournament table's result from an online table or an evening score sheet
(online/tournament_sources.py), on SQLite and on a real PostgreSQL.

The online tables are played by bots on the real online server (tests/played_tables.py)
and read back from what it stored; the sheets are stored through the store's own API,
as the sheet pages store them.  The sheets' settlement is worked by
hand from the NTS rules (docs/tournament.md, docs/sheet.md): East (player 0) goes
mahjong with 40, the others hold 10, 0 and 8.  East wins 2 x 40 from each: +240.
Between the losers the difference is paid (East not involved, single): player 1 gets
10 from player 2 and 2 from player 3, player 3 gets 8 from player 2.  So
1: -80 + 10 + 2 = -68, 2: -80 - 10 - 8 = -98, 3: -80 - 2 + 8 = -74."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from mahjong_nts.online.tournament_sources import (
    MAX_SOURCE_CHARS,
    enter_result_from,
    online_source,
    sheet_source,
)
from mahjong_nts.store import Conflict, Store, open_store
from mahjong_nts.store.online import NewEvent, NewSeat, append_events, create_table
from mahjong_nts.store.sheets import add_hand, create_session
from mahjong_nts.store.tournaments import (
    create_tournament,
    get_tournament,
    import_players,
    result_changes,
    set_round,
)
from mahjong_nts.tournament import InvalidResult
from played_tables import Played, play_bot_table, tally

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


def _by_table_seat(played: Played) -> tuple[int, ...]:
    """Each table seat's balance summed over the hand logs (a log's settlement is by
    hand seat; ``header.hand.players`` says which table seat sat there)."""
    sums = [0] * played.logs[0].header.seats
    for log in played.logs:
        assert log.result is not None and log.header.hand is not None
        for hand_seat, b in enumerate(log.result.settlement.balances):
            sums[log.header.hand.players[hand_seat]] += b
    return tuple(sums)


def test_an_online_table_gives_each_seat_its_settlements(store: Store) -> None:
    # four bots play four hands, dealt from seed 4; East moves on after each hand
    played = play_bot_table(store, seed=4, hands=4)
    expected = _by_table_seat(played)
    assert sum(expected) == 0 and any(expected)
    for link in (
        played.id,
        f"https://club.example/online/{played.id}",
        f"/online/{played.id}/",
        f"http://localhost:8000/online/watch/{played.watch_id}?lang=nl",
    ):
        src = online_source(store, link)
        assert (src.balances, src.hands) == (expected, 4)
    tid = _tournament(store)
    done = enter_result_from(store, tid, 1, 1, online_source(store, played.id), by="Els")
    # matched by seat order: the seating's East (3) has seat 0, South (1) seat 1, ...
    assert done.version == 1 and done.entered_by == "Els"
    assert done.result.players == (3, 1, 4, 2) and done.result.finals == expected
    again = online_source(store, played.id)
    with pytest.raises(Conflict, match="was entered already"):
        enter_result_from(store, tid, 1, 1, again)


def test_an_online_table_gives_each_seat_its_mahjongs_and_deal_ins(store: Store) -> None:
    """Seed 4's four hands, as their logs (written by the server in play) tell them:
    hand 1, table seats 0-3 in hand seats 0-3: hand seat 2 (table seat 2) goes mahjong
    on the discard of hand seat 1 (table seat 1); hand 2, table seats 1, 2, 3, 0: hand
    seat 3 (table seat 0) on the discard of hand seat 1 (table seat 2); hand 3, table
    seats 2, 3, 0, 1: hand seat 0 (table seat 2) self-drawn; hand 4, table seats 3, 0,
    1, 2: hand seat 3 (table seat 2) on the discard of hand seat 2 (table seat 1).
    So mahjongs 1, 0, 3, 0 and deal-ins 0, 2, 1, 0."""
    played = play_bot_table(store, seed=4, hands=4)
    assert played.told() == [
        ([0, 1, 2, 3], 2, 1),
        ([1, 2, 3, 0], 3, 1),
        ([2, 3, 0, 1], 0, None),
        ([3, 0, 1, 2], 3, 2),
    ], "the bots play seed 4 otherwise now: choose a seed with a self-drawn hand again"
    src = online_source(store, played.id)
    assert (src.mahjongs, src.deal_ins) == ((1, 0, 3, 0), (0, 2, 1, 0))
    # stored with the result, in the tournament's seat order (3, 1, 4, 2), and counted
    # in the standings: player 4 (table seat 2) made 3 mahjongs, player 1 dealt in twice
    tid = _tournament(store)
    done = enter_result_from(store, tid, 1, 1, src)
    assert (done.result.mahjongs, done.result.deal_ins) == ((1, 0, 3, 0), (0, 2, 1, 0))
    rows = {s.player: (s.mahjongs, s.deal_ins) for s in get_tournament(store, tid).standings()}
    assert rows[3] == (1, 0) and rows[1] == (0, 2) and rows[4] == (3, 1) and rows[2] == (0, 0)


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 6])
def test_the_counts_are_those_of_the_hand_logs(tmp_path: Path, seed: int) -> None:
    """Other deals (remises, self-drawn hands): the counts from the stored events are
    the ones the hand logs that the server wrote in play say."""
    store = open_store(f"sqlite:///{tmp_path / 'o.sqlite3'}")
    try:
        played = play_bot_table(store, seed=seed, hands=4)
        src = online_source(store, played.id)
        assert (src.mahjongs, src.deal_ins) == tally(played)
        assert sum(src.mahjongs) == sum(winner is not None for _, winner, _ in played.told())
    finally:
        store.close()


def test_a_table_of_three_and_one_of_five(store: Store) -> None:
    three = play_bot_table(store, seed=7, hands=3, ruleset="nts-2016+three-players", seats=3)
    five = play_bot_table(store, seed=8, hands=5, ruleset="nmb-2009+five-players", seats=5)
    for played, seats in ((three, 3), (five, 5)):
        src = online_source(store, played.id)
        assert len(src.balances) == len(src.mahjongs) == len(src.deal_ins) == seats
        assert (src.mahjongs, src.deal_ins) == tally(played)


def test_an_online_table_that_cannot_give_the_result(store: Store) -> None:
    tid = _tournament(store)
    playing, _ = _online(store, [HAND], finished=False)
    with pytest.raises(InvalidResult, match="is not finished"):
        online_source(store, playing)
    three = play_bot_table(store, seed=7, hands=1, ruleset="nts-2016+three-players", seats=3)
    with pytest.raises(InvalidResult, match="table 1 seats 4 players and the online table has 3"):
        enter_result_from(store, tid, 1, 1, online_source(store, three.id))
    # finished, its settlements stored, but its hands are not the ones its seed deals
    # (or its actions are missing): the mahjongs and deal-ins cannot be known
    forged, _ = _online(store, [HAND])
    with pytest.raises(InvalidResult, match="its hands cannot be played again from what is stored"):
        online_source(store, forged)
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


def test_a_score_sheet_gives_each_player_its_mahjongs_and_deal_ins(store: Store) -> None:
    """The sheet records who won and who discarded the winning tile (none: self-drawn).
    Five hands chosen here: 1. Anna self-drawn; 2. Cor on Bram's discard; 3. a remise;
    4. Cor on Dirk's discard; 5. Bram on Cor's discard.  Mahjongs: Anna 1, Bram 1,
    Cor 2, Dirk 0; deal-ins: Anna 0, Bram 1, Cor 1, Dirk 1."""
    token = create_session(store, names=["Anna", "Bram", "Cor", "Dirk"]).token
    for hand in (
        {"scores": [40, 10, 0, 8], "winner": 0},
        {"scores": [0, 8, 30, 2], "winner": 2, "discarder": 1},
        {"scores": [0, 0, 0, 0], "winner": None},
        {"scores": [4, 0, 24, 16], "winner": 2, "discarder": 3},
        {"scores": [2, 36, 12, 0], "winner": 1, "discarder": 2},
    ):
        add_hand(store, token, hand)
    src = sheet_source(store, token)
    assert (src.mahjongs, src.deal_ins) == ((1, 1, 2, 0), (0, 1, 1, 1))
    tid = _tournament(store)  # table 1 seats 3, 1, 4, 2: Anna is player 3, Bram 1, ...
    done = enter_result_from(store, tid, 1, 1, src)
    assert (done.result.mahjongs, done.result.deal_ins) == ((1, 1, 2, 0), (0, 1, 1, 1))
    rows = {s.player: (s.mahjongs, s.deal_ins) for s in get_tournament(store, tid).standings()}
    assert (rows[3], rows[1], rows[4], rows[2]) == ((1, 0), (1, 1), (2, 1), (0, 1))
