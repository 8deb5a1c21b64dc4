"""The sheet repository (store/sheets.py) on SQLite and on a real PostgreSQL: sessions,
hands, corrections with their history, bounds, and two writers at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from mahjong_nts.formats import wire
from mahjong_nts.sheet import MAX_HANDS, SheetError
from mahjong_nts.store import (
    Conflict,
    NotFound,
    Store,
    add_hand,
    changes,
    correct_hand,
    create_session,
    get_sheet,
    open_store,
    sheet_version,
)
from mahjong_nts.store.models import SheetChange, SheetHand

pytestmark = pytest.mark.db

NAMES = ["Ann", "Bob", "Cor", "Dirk"]
FILLER = "b1 b4 b7 k2 k5 k8 t3 t6 t9 E S W N"
WINNING = "b1 b2 b3 b4 b5 b6 b7 b8 b9 b1 b1 b1 b5 b5"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    yield s
    s.close()


def _count(store: Store, model: type) -> int:
    with store.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_create_and_read_back(store: Store) -> None:
    info = create_session(store, names=NAMES, ruleset="nmb-2009", chip="0.25")
    assert len(info.token) == 32 and info.names == tuple(NAMES)
    assert info.ruleset_name == "nmb-2009" and info.chip == Decimal("0.25")
    view = get_sheet(store, info.token)
    assert view.session == info and view.hands == ()
    assert view.sheet.rules.table.rotate_on_east_win is False
    other = create_session(store, names=NAMES)
    assert other.token != info.token and other.ruleset_name == "nts-2016"


def test_house_rules_inline_and_never_a_file(store: Store) -> None:
    info = create_session(
        store,
        names=NAMES,
        ruleset={"base": "nts-2016", "name": "club", "settlement": {"east_double": False}},
    )
    sheet = get_sheet(store, info.token).sheet
    assert sheet.rules.name == "club" and sheet.rules.settlement.east_double is False
    with pytest.raises(SheetError, match=r"ruleset: .*file"):
        create_session(store, names=NAMES, ruleset="/etc/passwd")


def test_hands_rows_and_totals(store: Store) -> None:
    token = create_session(store, names=NAMES, chip=1).token
    first = add_hand(store, token, {"scores": [40, 10, 0, 8], "winner": 0})
    assert first.number == 0 and first.version == 1
    assert first.row.balances == (240, -68, -98, -74)  # NTS 2016 2.1, worked in test_evening
    add_hand(store, token, {"scores": [0, 0, 0, 0], "winner": None})
    view = get_sheet(store, token)
    assert [h.row.east for h in view.hands] == [0, 1]
    assert view.rows[-1].totals == (240, -68, -98, -74)
    assert view.rows[-1].money_totals == (240, -68, -98, -74)
    assert view.hands[0].entry == {"scores": [40, 10, 0, 8], "winner": 0}
    assert view.hands[0].created.tzinfo is not None


def test_calculator_hands_settle_as_the_settle_contract(store: Store) -> None:
    token = create_session(store, names=NAMES).token
    add_hand(store, token, {"scores": [0, 0, 0, 0], "winner": None})  # Bob is East now
    hands = [
        {"concealed": FILLER},
        {"concealed": "F F F b1 b4 b7 k2 k5 k8 t3 t6 t9 C"},
        {"concealed": WINNING, "winning_tile": "b5", "win": {"from": "discard"}},
        {"concealed": FILLER},
    ]
    view = add_hand(store, token, {"hands": hands, "winner": 2, "discarder": 3})
    answer = wire.settle(
        wire.SettleRequest.model_validate(
            {"east": 1, "winner": 2, "discarder": 3, "hands": hands, "round_wind": "E"}
        )
    )
    assert list(view.row.balances) == answer["balances"]
    assert list(view.row.scores) == answer["scores"]
    assert view.row.details == tuple(answer["hands"])
    assert sum(view.row.balances) == 0 and view.row.balances[2] > 0


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"scores": [1, 2, 3], "winner": None}, "give 4 scores"),
        ({"scores": [1, 2, 3, 4]}, "winner: required field is missing"),
        ({"scores": [1, 2, 3, 4], "winner": None, "x": 1}, "x: unknown field"),
        ({"scores": [1, 2, 3, 4], "hands": [], "winner": None}, "either scores"),
        ({"scores": ["1", 2, 3, 4], "winner": None}, r"scores\[0\]"),
        ({"scores": [1, 2, 3, 4], "winner": 9}, "winner: a player is a number 0-3"),
        (
            {"hands": [{"concealed": FILLER, "seat_wind": "E"}, None, None, None], "winner": None},
            r"hands\[0\].seat_wind: the sheet gives",
        ),
        ({"hands": [{"concealed": "b1"}] * 4, "winner": None}, r"hands\[0\]"),
        ({"scores": [1] * 4, "winner": None, "dominant": 1}, "no green-dragon hand"),
        ({"scores": [1] * 4, "winner": None, "pad": "x" * 20000}, "at most 16384 bytes"),
        ([1, 2], "an entry is an object"),
    ],
)
def test_bad_entries_store_nothing(store: Store, entry: object, message: str) -> None:
    token = create_session(store, names=NAMES).token
    with pytest.raises(SheetError, match=message):
        add_hand(store, token, entry)  # type: ignore[arg-type]
    assert get_sheet(store, token).hands == () and _count(store, SheetHand) == 0


def test_bad_sessions(store: Store) -> None:
    with pytest.raises(SheetError, match="names: rule set 'nts-2016' is played by four"):
        create_session(store, names=NAMES[:3])
    with pytest.raises(SheetError, match="chip"):
        create_session(store, names=NAMES, chip="1000")
    with pytest.raises(SheetError, match="ruleset"):
        create_session(store, names=NAMES, ruleset="no-such-rules")
    assert create_session(store, names=NAMES[:3], ruleset="nmb-2009+three-players").names == (
        "Ann",
        "Bob",
        "Cor",
    )


def test_unknown_links(store: Store) -> None:
    create_session(store, names=NAMES)
    for token in ["x" * 32, "", "a" * 33, "../../etc", "Ann Bob"]:
        with pytest.raises(NotFound, match="no sheet has this link"):
            get_sheet(store, token)
    token = create_session(store, names=NAMES).token
    with pytest.raises(NotFound, match="no hand 1"):
        correct_hand(store, token, 0, {"scores": [0] * 4, "winner": None}, version=1)


def test_a_correction_keeps_its_history_and_recomputes_the_rest(store: Store) -> None:
    token = create_session(store, names=NAMES, ruleset="nmb-2009").token
    add_hand(store, token, {"scores": [0, 10, 0, 0], "winner": 1})  # South wins: on
    add_hand(store, token, {"scores": [0, 0, 0, 0], "winner": None})
    before = get_sheet(store, token)
    assert [r.east for r in before.rows] == [0, 1]
    fixed = correct_hand(store, token, 0, {"scores": [20, 0, 0, 0], "winner": 0}, version=1)
    # NMB 2009: East is not doubled; self-drawn, so no discarder pays double
    assert fixed.version == 2 and fixed.row.balances == (60, -20, -20, -20)
    after = get_sheet(store, token)
    assert [r.east for r in after.rows] == [0, 0]  # East won: nmb-2009 keeps him East
    assert after.rows[1].totals == (60, -20, -20, -20)
    history = changes(store, token)
    assert [(c.number, c.version) for c in history] == [(0, 2)]
    assert history[0].old_entry == {"scores": [0, 10, 0, 0], "winner": 1}
    assert history[0].new_entry == {"scores": [20, 0, 0, 0], "winner": 0}
    assert history[0].changed <= datetime.now(UTC)
    correct_hand(store, token, 0, {"scores": [0, 0, 0, 0], "winner": None}, version=2)
    assert [c.version for c in changes(store, token, 0)] == [2, 3]
    assert changes(store, token, 1) == ()


def test_the_version_counts_every_write_and_nothing_else(store: Store) -> None:
    token = create_session(store, names=NAMES).token
    other = create_session(store, names=NAMES).token
    assert sheet_version(store, token) == 0 == get_sheet(store, token).version
    add_hand(store, token, {"scores": [0, 10, 0, 0], "winner": 1})
    add_hand(store, token, {"scores": [0, 0, 0, 0], "winner": None})
    assert sheet_version(store, token) == 2
    correct_hand(store, token, 0, {"scores": [0, 12, 0, 0], "winner": 1}, version=1)
    assert sheet_version(store, token) == 3 == get_sheet(store, token).version
    # refused writes, reads and another sheet's hands change nothing
    with pytest.raises(SheetError):
        add_hand(store, token, {"scores": [0, 10, 0, 0], "winner": 1, "discarder": 1})
    with pytest.raises(Conflict):
        correct_hand(store, token, 0, {"scores": [0, 9, 0, 0], "winner": 1}, version=1)
    get_sheet(store, token)
    add_hand(store, other, {"scores": [0, 10, 0, 0], "winner": 1})
    assert sheet_version(store, token) == 3 and sheet_version(store, other) == 1
    for bad in ["x" * 32, "", "../../etc"]:
        with pytest.raises(NotFound, match="no sheet has this link"):
            sheet_version(store, bad)


def test_a_correction_that_does_not_fit_changes_nothing(store: Store) -> None:
    token = create_session(store, names=NAMES).token
    add_hand(store, token, {"scores": [0, 10, 0, 0], "winner": 1})
    with pytest.raises(SheetError, match="discarder"):
        correct_hand(store, token, 0, {"scores": [0] * 4, "winner": 1, "discarder": 1}, version=1)
    view = get_sheet(store, token)
    assert view.hands[0].version == 1 and _count(store, SheetChange) == 0


def test_a_stale_version_is_a_conflict(store: Store) -> None:
    token = create_session(store, names=NAMES).token
    add_hand(store, token, {"scores": [0, 10, 0, 0], "winner": 1})
    correct_hand(store, token, 0, {"scores": [0, 12, 0, 0], "winner": 1}, version=1)
    with pytest.raises(Conflict, match="corrected by someone else since version 1"):
        correct_hand(store, token, 0, {"scores": [0, 99, 0, 0], "winner": 1}, version=1)
    view = get_sheet(store, token)
    assert view.hands[0].entry["scores"] == [0, 12, 0, 0] and len(changes(store, token)) == 1


def test_two_writers_correcting_the_same_hand_lose_no_update(db_url: str) -> None:
    stores = [open_store(db_url) for _ in range(2)]
    try:
        token = create_session(stores[0], names=NAMES).token
        add_hand(stores[0], token, {"scores": [0, 10, 0, 0], "winner": 1})
        barrier = threading.Barrier(2)
        results: list[object] = [None, None]

        def write(i: int) -> None:
            barrier.wait()
            try:
                results[i] = correct_hand(
                    stores[i], token, 0, {"scores": [0, 20 + i, 0, 0], "winner": 1}, version=1
                )
            except Conflict as exc:
                results[i] = exc

        threads = [threading.Thread(target=write, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        conflicts = [r for r in results if isinstance(r, Conflict)]
        assert len(conflicts) == 1, results
        winner = 1 - results.index(conflicts[0])
        view = get_sheet(stores[0], token)
        assert view.hands[0].version == 2
        assert view.hands[0].entry["scores"] == [0, 20 + winner, 0, 0]
        history = changes(stores[0], token)
        assert len(history) == 1 and history[0].new_entry == view.hands[0].entry
    finally:
        for s in stores:
            s.close()


def test_two_writers_adding_hands_lose_none(db_url: str) -> None:
    stores = [open_store(db_url) for _ in range(3)]
    try:
        token = create_session(stores[0], names=NAMES).token
        barrier = threading.Barrier(3)
        outcome: list[str] = []

        def write(i: int) -> None:
            barrier.wait()
            try:
                add_hand(stores[i], token, {"scores": [0, i, 0, 0], "winner": 1})
                outcome.append("added")
            except Conflict:
                outcome.append("conflict")

        threads = [threading.Thread(target=write, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        view = get_sheet(stores[0], token)
        assert len(view.hands) == outcome.count("added") >= 1
        assert [h.number for h in view.hands] == list(range(len(view.hands)))
    finally:
        for s in stores:
            s.close()


def test_a_sheet_holds_at_most_max_hands(store: Store) -> None:
    token = create_session(store, names=NAMES).token
    add_hand(store, token, {"scores": [0, 0, 0, 0], "winner": None})
    now = datetime.now(UTC)
    with store.transaction() as session:
        session_id = session.scalars(select(SheetHand.session_id)).one()
        session.add_all(
            SheetHand(
                session_id=session_id,
                position=i,
                entry={"scores": [0, 0, 0, 0], "winner": None},
                version=1,
                created=now,
                updated=now,
            )
            for i in range(1, MAX_HANDS)
        )
    assert len(get_sheet(store, token).hands) == MAX_HANDS
    with pytest.raises(SheetError, match="at most 500 hands"):
        add_hand(store, token, {"scores": [0, 0, 0, 0], "winner": None})
    assert _count(store, SheetHand) == MAX_HANDS
