"""The tournament repository (store/tournaments.py) on SQLite and on a real PostgreSQL:
tournaments, registration (one by one and from a players file), seating, results with
their corrections' history, penalties, standings, and two officials at once.

Expected standings are worked out by hand from the ranking rules of docs/tournament.md
(table points 4/2/1/0 by place at the table, tied players splitting the points of the
places they hold; then the total score; penalties off the score, never off the table
points)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from datetime import date
from fractions import Fraction

import pytest
from sqlalchemy import func, select

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.store import Conflict, NotFound, Store, open_store
from mahjong_nts.store.models import (
    Tournament,
    TournamentPlayer,
    TournamentResult,
    TournamentResultChange,
    TournamentRound,
)
from mahjong_nts.store.tournaments import (
    add_penalty,
    add_player,
    create_tournament,
    edit_player,
    enter_result,
    get_tournament,
    import_players,
    remove_player,
    result_changes,
    seat_next_round,
    set_round,
    set_rounds,
    swap_players,
    tournament_standings,
    tournament_version,
)
from mahjong_nts.tournament import (
    DayPlans,
    InvalidPlayer,
    InvalidResult,
    InvalidSeating,
    InvalidSettings,
    Round,
    SeatingOptions,
    next_round,
)

pytestmark = pytest.mark.db

EIGHT = "\n".join(
    [
        "first name,last name,club,ema",
        "Anna,de Vries,Draak,04120001",
        "Bram,Bakker,Draak,",
        "Cor,Jansen,Hilversum,",
        "Dirk,Visser,Hilversum,",
        "Eva,Smit,Utrecht,",
        "Fleur,Mulder,Utrecht,",
        "Gijs,de Boer,Delft,",
        "Hanna,Bos,Delft,",
    ]
)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    yield s
    s.close()


def _count(store: Store, model: type) -> int:
    with store.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def _new(store: Store, rounds: int = 4, **kw: object) -> int:
    return create_tournament(store, name="Herfsttoernooi", day="2026-11-28", rounds=rounds, **kw).id


def _eight(store: Store, **kw: object) -> int:
    tid = _new(store, **kw)
    import_players(store, tid, EIGHT)
    return tid


def test_create_and_read_back(store: Store) -> None:
    info = create_tournament(
        store,
        name="Herfsttoernooi",
        day="2026-11-28",
        rounds=5,
        ruleset="nmb-2009",
        fives=False,
        clubs_apart=True,
        ranking={"points": "4/2/1/0.5", "ties": "share"},
        seed=7,
    )
    assert len(info.token) == 32 and len(info.public_id) == 22
    view = get_tournament(store, info.id)
    assert view.info == info == get_tournament(store, info.token).info
    assert get_tournament(store, info.public_id).info == info
    assert info.day == date(2026, 11, 28) and info.ruleset_name == "nmb-2009"
    assert info.rounds == 5 and info.fives is False and info.clubs_apart is True
    assert info.ranking.points.four == (4, 2, 1, Fraction(1, 2))
    assert info.ranking.points.ties == "share" and info.seed == "7"
    assert view.roster.players == () and view.rounds == () and view.results == ()


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"name": "<b>Cup</b>"}, "not markup"),
        ({"name": ""}, "empty"),
        ({"day": "28-11-2026"}, "YYYY-MM-DD"),
        ({"rounds": 0}, "rounds: 1 to 20"),
        ({"rounds": 21}, "rounds: 1 to 20"),
        ({"ruleset": "/etc/passwd"}, "rule set"),
        ({"ranking": {"points": "4/2/1"}}, "four numbers"),
        ({"ranking": {"method": "luck"}}, "table_points or score"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_tournaments_store_nothing(store: Store, kw: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"name": "Cup", "day": "2026-11-28", "rounds": 4, **kw}
    with pytest.raises(InvalidSettings, match=message):
        create_tournament(store, **args)  # type: ignore[arg-type]
    assert _count(store, Tournament) == 0


def test_unknown_tournaments_and_read_only_links(store: Store) -> None:
    info = create_tournament(store, name="Cup", day="2026-11-28", rounds=4)
    for ref in (info.id + 1, "x" * 32, "bad link!", 0, True):
        with pytest.raises(NotFound, match="no tournament"):
            get_tournament(store, ref)  # type: ignore[arg-type]
    with pytest.raises(NotFound, match="cannot change"):
        add_player(store, info.public_id, first_name="Anna")
    assert _count(store, TournamentPlayer) == 0


def test_register_players_and_refuse_duplicates(store: Store) -> None:
    tid = _new(store)
    anna = add_player(store, tid, first_name="Anna", last_name="de Vries", ema="04120001")
    bram = add_player(store, tid, first_name=" Bram ", last_name="Bakker", club="Draak")
    assert (anna.number, bram.number) == (1, 2) and bram.first_name == "Bram"
    with pytest.raises(InvalidPlayer, match=r"'anna DE vries' is registered already \(player 1\)"):
        add_player(store, tid, first_name="anna ", last_name=" DE vries")
    with pytest.raises(InvalidPlayer, match=r"EMA number '04120001' is registered already"):
        add_player(store, tid, first_name="Other", ema="04120001")
    with pytest.raises(InvalidPlayer, match="not markup"):
        add_player(store, tid, first_name="<script>alert(1)</script>")
    with pytest.raises(InvalidPlayer, match="empty"):
        add_player(store, tid, first_name="  ")
    assert [p.name for p in get_tournament(store, tid).roster] == ["Anna de Vries", "Bram Bakker"]


def test_import_a_players_file(store: Store) -> None:
    tid = _new(store)
    text = (
        "\ufeffVoornaam;Achternaam;Vereniging\n"
        'Anna;de Vries;"Draak; Zuid"\n\n'
        '"Jan ""J"", jr.";Bos;\n'
    )
    added = import_players(store, tid, text)
    assert [(p.number, p.name, p.club) for p in added] == [
        (1, "Anna de Vries", "Draak; Zuid"),
        (2, 'Jan "J", jr. Bos', ""),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "first name,last name\nAnna,Smit\nBo,<b>x</b>\n",
            r"line 3, column 2 \(last name\).*markup",
        ),
        ("first name,last name\nAnna,Smit\nBo\n", r"line 3: 1 fields, but the header names 2"),
        ("first name,shoe size\nAnna,38\n", r"line 1, column 2: 'shoe size' is not a column"),
        ("last name\nSmit\n", "no first name column"),
        ("first name\nAnna\n\nanna\n", r"line 4: 'anna' is registered already \(line 2\)"),
        ('first name,last name\nAnna,"Smit\n', "not closed"),
        ("", "empty"),
        ("first name\n", "no players"),
        ("first name\n" + "x\n" * 70000, "larger than"),
        ("first name\n" + "".join(f"P{i}\n" for i in range(401)), "more than 400"),
        ("first name\nAnna de Vries\n", r"line 2: 'Anna de Vries' is registered already"),
    ],
)
def test_a_bad_players_file_registers_nobody(store: Store, text: str, message: str) -> None:
    tid = _new(store)
    add_player(store, tid, first_name="Anna", last_name="de Vries")
    before = tournament_version(store, tid)
    with pytest.raises(InvalidPlayer, match=message):
        import_players(store, tid, text)
    assert _count(store, TournamentPlayer) == 1
    assert tournament_version(store, tid) == before


def test_seat_rounds_with_late_dropped_and_substitute_players(store: Store) -> None:
    tid = _eight(store, rounds=3)
    late = add_player(store, tid, first_name="Ivo", last_name="Laat", first_round=2)
    first = seat_next_round(store, tid)
    assert first.number == 1 and sorted(first.players) == list(range(1, 9))
    assert sorted(len(t) for t in first.tables) == [4, 4]
    # player 3 leaves after round 1, a substitute takes their place from round 2
    edit_player(store, tid, 3, last_round=1)
    sub = add_player(store, tid, first_name="Jet", substitute_for=3, first_round=2)
    second = seat_next_round(store, tid)
    assert sorted(second.players) == [1, 2, 4, 5, 6, 7, 8, late.number, sub.number]
    assert sorted(len(t) for t in second.tables) == [4, 5]  # nine players: a table of five
    edit_player(store, tid, 6, absent=[3])
    third = seat_next_round(store, tid)
    assert sorted(third.players) == [1, 2, 4, 5, 7, 8, late.number, sub.number]
    with pytest.raises(InvalidSeating, match="all 3 rounds are seated"):
        seat_next_round(store, tid)
    view = get_tournament(store, tid)
    assert view.rounds == (first, second, third)
    with pytest.raises(InvalidPlayer, match="round 2 is seated already"):
        edit_player(store, tid, 1, last_round=1)


def test_a_substitute_for_a_player_who_plays_on_is_refused(store: Store) -> None:
    tid = _eight(store)
    with pytest.raises(InvalidPlayer, match="mark player 5 as dropped after round 2"):
        add_player(store, tid, first_name="Jet", first_round=3, substitute_for=5)
    edit_player(store, tid, 5, last_round=2)
    sub = add_player(store, tid, first_name="Jet", first_round=3, substitute_for=5)
    assert get_tournament(store, tid).substitutes == {sub.number: 5}


def test_the_same_seed_seats_the_same_way(store: Store) -> None:
    a, b = _eight(store, seed=11), _eight(store, seed=11)
    assert seat_next_round(store, a) == seat_next_round(store, b)


def test_seat_round_remembers_the_day_plan(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight clicks on *Seat round k* plan the day once (the plan is remembered) and seat
    as the plan made afresh at every click did; a player registered for a later round
    (the day changed) plans the day again, and again seats as without the cache."""
    import mahjong_nts.store.tournaments as repo
    import mahjong_nts.tournament.seating as seating

    made: list[int] = []
    plan_rounds = seating.plan_rounds

    def counting(*args: object, **kw: object) -> tuple[Round, ...]:
        made.append(len(args[0]))  # type: ignore[arg-type]  # the rounds it plans
        return plan_rounds(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(seating, "plan_rounds", counting)
    monkeypatch.setattr(repo, "_DAY_PLANS", DayPlans())
    tid = _new(store, rounds=8, seed=23, clubs_apart=True)
    import_players(store, tid, EIGHT)
    for k in range(9, 17):
        add_player(store, tid, first_name=f"Speler{k}", club="Leiden" if k < 11 else "")
    clubs = {1: "Draak", 2: "Draak", 3: "Hilversum", 4: "Hilversum", 5: "Utrecht"}
    clubs |= {6: "Utrecht", 7: "Delft", 8: "Delft", 9: "Leiden", 10: "Leiden"}
    options = SeatingOptions(clubs=clubs)

    def fresh(day: list[list[int]], history: list[Round]) -> Round:
        k = len(history) + 1
        return next_round(
            day,
            history,
            options,
            plan_rng=random.Random("23:plan"),
            round_rng=random.Random(f"23:{k}"),
        )

    def click() -> tuple[Round, int]:  # the round seated, and the whole days it planned
        before = len(made)
        seated = seat_next_round(store, tid)
        return seated, made[before:].count(8)  # (a round seated alone plans 1 round)

    day = [list(range(1, 17))] * 8
    history: list[Round] = []
    clicks = []
    for _ in range(4):
        seated, plans = click()
        clicks.append(plans)
        assert seated == fresh(day, history)
        history.append(seated)
    assert clicks == [1, 0, 0, 0]  # one plan for four clicks
    late = add_player(store, tid, first_name="Ivo", last_name="Laat", first_round=6)
    later = [list(range(1, 17))] * 5 + [[*range(1, 17), late.number]] * 3
    for _ in range(4):
        seated, plans = click()
        clicks.append(plans)
        assert seated == fresh(later, history)
        history.append(seated)
    assert clicks == [1, 0, 0, 0, 1, 0, 0, 0]  # the changed day planned once more
    assert get_tournament(store, tid).rounds == tuple(history)


def test_the_tournament_stays_writable_while_a_round_is_planned(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planning a round takes seconds on a big day; meanwhile the officials enter the
    results of the round before (another process here) without waiting for it, and the
    round is stored.  A player registered while a round is planned makes that round
    refused (nothing stored, a clear message); seated again, it counts the player."""
    import mahjong_nts.store.tournaments as repo

    planning, go = threading.Event(), threading.Event()

    def slow(*args: object, **kw: object) -> Round:
        planning.set()
        assert go.wait(30)
        return next_round(*args, **kw)  # type: ignore[arg-type]

    stores = [open_store(db_url) for _ in range(2)]
    try:
        tid = _eight(stores[0])
        seat_next_round(stores[0], tid)
        monkeypatch.setattr(repo, "next_round", slow)
        seated: list[object] = []
        seater = threading.Thread(
            target=lambda: seated.append(seat_next_round(stores[0], tid)), daemon=True
        )
        seater.start()
        assert planning.wait(30)
        official = threading.Thread(
            target=lambda: enter_result(stores[1], tid, 1, 1, [40, 10, -20, -30], by="o"),
            daemon=True,
        )
        official.start()
        official.join(10)
        waited = official.is_alive()
        go.set()
        seater.join(30)
        official.join(30)
        assert not waited, "the result waited for the round's plan"
        view = get_tournament(stores[1], tid)
        assert view.result(1, 1) is not None and len(view.rounds) == 2
        assert seated == [view.rounds[1]]

        planning.clear()
        go.clear()
        refused: list[BaseException] = []

        def seat() -> None:
            try:
                seat_next_round(stores[0], tid)
            except InvalidSeating as exc:
                refused.append(exc)

        seater = threading.Thread(target=seat, daemon=True)
        seater.start()
        assert planning.wait(30)
        late = add_player(stores[1], tid, first_name="Ivo", first_round=3)
        go.set()
        seater.join(30)
        assert [str(e) for e in refused] == [
            "round 3: the players or the rounds changed while it was being seated; nothing "
            "was stored: seat it again"
        ]
        assert len(get_tournament(stores[1], tid).rounds) == 2
        third = seat_next_round(stores[0], tid)
        assert late.number in third.players and len(get_tournament(stores[1], tid).rounds) == 3
    finally:
        for s in stores:
            s.close()


def test_set_and_swap_a_round(store: Store) -> None:
    tid = _eight(store)
    with pytest.raises(InvalidSeating, match="player 8 plays but is not seated"):
        set_round(store, tid, 1, [(1, 2, 3, 4), (5, 6, 7)])
    with pytest.raises(InvalidSeating, match="player 4 at table 1 and at table 2"):
        set_round(store, tid, 1, [(1, 2, 3, 4), (4, 6, 7, 8)])
    with pytest.raises(InvalidSeating, match="no player number 9"):
        set_round(store, tid, 1, [(1, 2, 3, 4), (5, 6, 7, 8, 9)])
    with pytest.raises(InvalidSeating, match="seat round 1 first"):
        set_round(store, tid, 2, [(1, 2, 3, 4), (5, 6, 7, 8)])
    assert _count(store, TournamentRound) == 0
    set_round(store, tid, 1, [(1, 2, 3, 4), (5, 6, 7, 8)])
    set_round(store, tid, 2, [(1, 2, 5, 6), (3, 4, 7, 8)])
    done = swap_players(store, tid, 2, 2, 3)
    # 1 and 3 met in round 1; so did 2 and 4: each a repeat meeting, seen twice now
    assert done.round.tables == ((1, 3, 5, 6), (2, 4, 7, 8))
    assert done.new_repeats == ((1, 3, 2), (2, 4, 2))
    assert get_tournament(store, tid).rounds[1] == done.round


def test_a_schedule_is_stored_whole_or_not_at_all(store: Store) -> None:
    tid = _eight(store)
    one = Round(1, ((1, 2, 3, 4), (5, 6, 7, 8)))
    with pytest.raises(InvalidSeating, match="round 3: seat round 2 first"):
        set_rounds(store, tid, [one, Round(3, ((1, 5, 2, 6), (3, 7, 4, 8)))])
    assert get_tournament(store, tid).rounds == ()
    two = Round(2, ((1, 5, 2, 6), (3, 7, 4, 8)))
    assert set_rounds(store, tid, [one, two]) == (one, two)
    assert get_tournament(store, tid).rounds == (one, two)


def _fixed(store: Store) -> int:
    tid = _eight(store)
    set_round(store, tid, 1, [(1, 2, 3, 4), (5, 6, 7, 8)])
    return tid


def test_results_and_standings_worked_by_hand(store: Store) -> None:
    tid = _fixed(store)
    enter_result(store, tid, 1, 1, [40, 10, -20, -30], by="Tafelleider")
    enter_result(store, tid, 1, 2, [25, 25, -10, -40], mahjongs=[2, 2, 1, 0])
    table = tournament_standings(store, tid)
    # table 1: 4/2/1/0; table 2: players 5 and 6 tie for first: (4 + 2) / 2 = 3 each
    # then by total score: 7 (1 point, -10) before 3 (1 point, -20); 5 and 6 equal on
    # every tie-break (2 mahjongs each, no deal-ins, equal at their own table): shared
    got = [(s.place, s.player, s.table_points, s.total) for s in table]
    assert got == [
        (1, 1, 4, 40),
        (2, 5, 3, 25),
        (2, 6, 3, 25),
        (4, 2, 2, 10),
        (5, 7, 1, -10),
        (6, 3, 1, -20),
        (7, 4, 0, -30),
        (8, 8, 0, -40),
    ]
    # a penalty comes off the score, never the table points: 5 falls behind 6
    add_penalty(store, tid, player=5, round_number=1, points=5, reason="valse mahjong")
    add_penalty(store, tid, player=1, round_number=1, points=10, reason="te laat")
    table = tournament_standings(store, tid)
    got = [(s.place, s.player, s.table_points, s.total) for s in table[:3]]
    assert got == [(1, 1, 4, 30), (2, 6, 3, 25), (3, 5, 3, 20)]


@pytest.mark.parametrize(
    ("kw", "error", "message"),
    [
        ({"finals": [40, 10, -20, -25]}, InvalidResult, r"sum to 5, not 0 \(5 too many\)"),
        ({"finals": [40, 10, -20, -40]}, InvalidResult, r"sum to -10, not 0 \(10 too few\)"),
        ({"finals": [40, -40, 0]}, InvalidResult, "3 scores for 4 players"),
        ({"players": [1, 2, 3, 3]}, InvalidResult, "player 3 twice"),
        ({"players": [1, 2, 3, 5]}, InvalidResult, r"players 1, 2, 3, 5, but 1, 2, 3, 4 were"),
        ({"table": 3}, InvalidResult, "round 1 has no table 3"),
        ({"round_number": 2}, InvalidResult, "round 2 is not seated"),
        ({"finals": [2**49, 0, 0, -(2**49)]}, InvalidResult, "whole number from -2"),
        ({"mahjongs": [1, 2, 3, 1001]}, InvalidResult, "0 to 1000"),
        ({"by": "<i>me</i>"}, MahjongError, "not markup"),
    ],
)
def test_a_refused_result_stores_nothing(
    store: Store, kw: dict[str, object], error: type[Exception], message: str
) -> None:
    tid = _fixed(store)
    before = tournament_version(store, tid)
    args: dict[str, object] = {"round_number": 1, "table": 1, "finals": [40, 10, -20, -30], **kw}
    with pytest.raises(error, match=message):
        enter_result(store, tid, **args)  # type: ignore[arg-type]
    assert _count(store, TournamentResult) == 0
    assert tournament_version(store, tid) == before


def test_a_player_in_two_places_is_refused(store: Store) -> None:
    tid = _fixed(store)
    enter_result(store, tid, 1, 1, [40, 10, -20, -30])
    with pytest.raises(InvalidResult, match="player 1 at table 1 and at table 2"):
        enter_result(store, tid, 1, 2, [25, 25, -10, -40], players=[1, 6, 7, 8])
    assert _count(store, TournamentResult) == 1


def test_corrections_keep_their_history(store: Store) -> None:
    tid = _fixed(store)
    first = enter_result(store, tid, 1, 1, [40, 10, -20, -30], by="Els")
    assert first.version == 1 and first.entered_by == "Els"
    with pytest.raises(Conflict, match=r"entered already \(by 'Els', version 1\)"):
        enter_result(store, tid, 1, 1, [30, 10, -10, -30], by="Piet")
    fixed = enter_result(store, tid, 1, 1, [30, 10, -10, -30], by="Piet", version=1)
    assert fixed.version == 2 and fixed.result.finals == (30, 10, -10, -30)
    with pytest.raises(Conflict, match="since version 1 \\(it is at version 2\\)"):
        enter_result(store, tid, 1, 1, [20, 20, -10, -30], version=1)
    with pytest.raises(InvalidResult, match="sum to 10"):
        enter_result(store, tid, 1, 1, [30, 10, 0, -30], version=2)
    with pytest.raises(InvalidResult, match="no result to correct"):
        enter_result(store, tid, 1, 2, [0, 0, 0, 0], version=1)
    history = result_changes(store, tid)
    assert len(history) == 1
    change = history[0]
    assert (change.round, change.table, change.version, change.changed_by) == (1, 1, 2, "Piet")
    assert change.old["finals"] == [40, 10, -20, -30]
    assert change.new["finals"] == [30, 10, -10, -30]
    view = get_tournament(store, tid)
    assert view.result(1, 1) is not None and view.result(1, 1).version == 2  # type: ignore[union-attr]
    with pytest.raises(InvalidSeating, match="round 1 has results already"):
        set_round(store, tid, 1, [(1, 2, 3, 4), (5, 6, 7, 8)])
    with pytest.raises(InvalidPlayer, match="mark them as dropped"):
        remove_player(store, tid, 2)


def test_remove_a_player_never_seated(store: Store) -> None:
    tid = _eight(store)
    remove_player(store, tid, 8)
    with pytest.raises(InvalidPlayer, match="no player number 8"):
        remove_player(store, tid, 8)
    assert [p.number for p in get_tournament(store, tid).roster] == list(range(1, 8))
    assert add_player(store, tid, first_name="Hanna", last_name="Bos").number == 8


def test_bad_penalties_store_nothing(store: Store) -> None:
    tid = _eight(store)
    for kw, message in (
        ({"points": 0}, "give 1 to 2"),
        ({"reason": " "}, "give the reason"),
        ({"player": 9}, "no player number 9"),
        ({"round_number": 5}, "tournament has 4"),
    ):
        args: dict[str, object] = {
            "player": 1,
            "round_number": 1,
            "points": 10,
            "reason": "te laat",
            **kw,
        }
        with pytest.raises(MahjongError, match=message):
            add_penalty(store, tid, **args)  # type: ignore[arg-type]
    assert get_tournament(store, tid).penalties == ()


def test_the_version_counts_every_write(store: Store) -> None:
    tid = _new(store)
    assert tournament_version(store, tid) == 1
    add_player(store, tid, first_name="Anna")
    import_players(store, tid, "first name\nBram\nCor\nDirk\n")
    seat_next_round(store, tid)
    assert tournament_version(store, tid) == 4
    get_tournament(store, tid)
    assert tournament_version(store, tid) == 4


def _threads(count: int, work: object) -> None:
    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]  # type: ignore[arg-type]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)


def test_two_officials_entering_one_table_lose_nothing(db_url: str) -> None:
    stores = [open_store(db_url) for _ in range(2)]
    try:
        tid = _fixed(stores[0])
        barrier = threading.Barrier(2)
        outcome: list[object] = [None, None]
        finals = ([40, 10, -20, -30], [30, 20, -20, -30])

        def write(i: int) -> None:
            barrier.wait()
            try:
                outcome[i] = enter_result(stores[i], tid, 1, 1, finals[i], by=f"official {i}")
            except Conflict as exc:
                outcome[i] = exc

        _threads(2, write)
        conflicts = [o for o in outcome if isinstance(o, Conflict)]
        assert len(conflicts) == 1, outcome
        winner = 1 - outcome.index(conflicts[0])
        view = get_tournament(stores[0], tid)
        stored = view.result(1, 1)
        assert stored is not None and stored.version == 1
        assert list(stored.result.finals) == finals[winner]
        assert stored.entered_by == f"official {winner}"
    finally:
        for s in stores:
            s.close()


def test_two_officials_at_two_tables_both_land(db_url: str) -> None:
    stores = [open_store(db_url) for _ in range(2)]
    try:
        tid = _fixed(stores[0])
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def write(i: int) -> None:
            barrier.wait()
            try:
                enter_result(stores[i], tid, 1, i + 1, [40, 10, -20, -30])
            except BaseException as exc:  # pragma: no cover - shown by the assert
                errors.append(exc)

        _threads(2, write)
        assert errors == []
        assert len(get_tournament(stores[0], tid).results) == 2
    finally:
        for s in stores:
            s.close()


def test_two_officials_correcting_one_table_lose_no_update(db_url: str) -> None:
    stores = [open_store(db_url) for _ in range(2)]
    try:
        tid = _fixed(stores[0])
        enter_result(stores[0], tid, 1, 1, [40, 10, -20, -30])
        barrier = threading.Barrier(2)
        outcome: list[object] = [None, None]

        def write(i: int) -> None:
            barrier.wait()
            try:
                outcome[i] = enter_result(
                    stores[i], tid, 1, 1, [40 - i, 10 + i, -20, -30], version=1
                )
            except Conflict as exc:
                outcome[i] = exc

        _threads(2, write)
        conflicts = [o for o in outcome if isinstance(o, Conflict)]
        assert len(conflicts) == 1, outcome
        winner = 1 - outcome.index(conflicts[0])
        stored = get_tournament(stores[0], tid).result(1, 1)
        assert stored is not None and stored.version == 2
        assert stored.result.finals == (40 - winner, 10 + winner, -20, -30)
        assert _count(stores[0], TournamentResultChange) == 1
    finally:
        for s in stores:
            s.close()
