"""The pages of the online tables (web/online_pages.py) and the table drawn by the server
(web/livetable.py): the lobby, the new-table form and what it asks the server for, every
refusal a page with its message (never a 500), joining by form, the table and spectator
pages, and the sockets that draw the table only when asked (``?html=1``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from mahjong_nts.online.limits import MAX_NICKNAME_CHARS
from mahjong_nts.web import Settings, create_app
from mahjong_nts.web.livetable import MOVES_SHOWN, LiveDrawer
from mahjong_nts.web.online_pages import MAX_FORM_BYTES, MAX_FORM_FIELDS, MAX_NEW_TABLE_FORM_BYTES

HTML = {"accept": "text/html"}

FOUR_HUMANS = {"turn": "off", "claim": "off", "hands": "1"}


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """An app whose claim windows are short and whose bots move at once."""
    data: Path = tmp_path_factory.mktemp("online-pages")
    app = create_app(Settings(data_dir=data, window_seconds=0.05, bot_delay_seconds=0.0))
    with TestClient(app, raise_server_exceptions=True) as c:
        yield c


def make(client: TestClient, **fields: str) -> str:
    """A table made by the new-table form: its id."""
    answer = client.post("/online", data=fields, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    match = re.fullmatch(r"/online/([A-Za-z0-9_-]{22})\?new=1", answer.headers["location"])
    assert match, answer.headers["location"]
    return match.group(1)


def settings_of(client: TestClient, table: str) -> dict[str, Any]:
    answer = client.get(f"/api/online/tables/{table}")
    assert answer.status_code == 200
    state: dict[str, Any] = answer.json()
    return state


def open_tables(app: FastAPI) -> int:
    return len(app.state.online.tables)


def test_the_nav_leads_to_the_lobby(client: TestClient) -> None:
    page = client.get("/", headers=HTML).text
    assert '<a href="/online">Online</a>' in page
    lobby = client.get("/online", headers=HTML)
    assert lobby.status_code == 200
    assert '<a href="/online" aria-current="page">Online</a>' in lobby.text
    assert 'action="/online"' in lobby.text  # the form of a new table
    dutch = client.get("/online?lang=nl", headers=HTML).text
    assert "Nieuwe tafel" in dutch and "Tafel maken" in dutch
    client.cookies.clear()  # the language switch set its cookie


def test_the_form_asks_for_what_was_chosen(client: TestClient) -> None:
    # three players and flowers are overlays of the rule set; the seats past the
    # third are not read; "off" is no timer
    table = make(
        client,
        ruleset="nmb-2009",
        flowers="1",
        players="3",
        seat0="human",
        seat1="random",
        seat2="human",
        seat3="heuristic",
        seat4="heuristic",
        turn="off",
        claim="20",
        hands="4",
        bot="random",
        public="1",
        hints="1",
    )
    state = settings_of(client, table)
    assert state["settings"] == {
        "ruleset": "nmb-2009+flowers+three-players",
        "ruleset_name": "nmb-2009+flowers+three-players",
        "rules_file": None,
        "players": 3,
        "turn_seconds": None,
        "claim_seconds": 20,
        "window_seconds": 2.0,
        "hands": 4,
        "public": True,
        "hints": True,
        "bot": "random",
    }
    assert [(s["kind"], s["bot"]) for s in state["seats"]] == [
        ("human", None),
        ("bot", "random"),
        ("human", None),
    ]
    # the defaults: nts-2016, four players, 30 s and 10 s, the whole match, private
    state = settings_of(client, make(client))
    assert state["settings"]["ruleset"] == "nts-2016" and state["settings"]["players"] == 4
    assert (state["settings"]["turn_seconds"], state["settings"]["claim_seconds"]) == (30, 10)
    assert state["settings"]["hands"] is None and not state["settings"]["public"]


def test_the_lobby_lists_public_tables_only(client: TestClient) -> None:
    public = make(client, public="1", seat1="heuristic")
    private = make(client)
    page = client.get("/online", headers=HTML).text
    assert f'href="/online/{public}"' in page
    assert private not in page
    assert "3 seats free" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"ruleset": "/etc/passwd"}, "Choose one of the rule sets shown."),
        ({"ruleset": "nts-2016+five-players"}, "Choose one of the rule sets shown."),
        ({"players": "6"}, "Choose 3, 4 or 5 players."),
        ({"seat2": "god"}, "Seat 3: a player or a bot."),
        (
            {"seat0": "heuristic", "seat1": "random", "seat2": "random", "seat3": "random"},
            "Keep at least one seat for a player.",
        ),
        ({"turn": "3"}, "Turn timer: from 5 to 600 seconds, or off."),
        ({"turn": "30.5"}, "Turn timer: from 5 to 600 seconds, or off."),
        ({"claim": "121"}, "Claim timer: from 2 to 120 seconds, or off."),
        ({"hands": "17"}, "Hands: from 1 to 16, or the whole match."),
        ({"hands": "0"}, "Hands: from 1 to 16, or the whole match."),
        ({"bot": "oracle"}, "Choose one of the bots shown."),
        # never a module, though the command line's loader would import this one
        ({"seat2": "mahjong_nts.bots.base:RandomBot"}, "Seat 3: a player or a bot."),
        ({"bot": "mahjong_nts.bots.base:RandomBot"}, "Choose one of the bots shown."),
    ],
)
def test_a_form_that_cannot_be_played_is_refused_beside_it(
    client: TestClient, app: FastAPI, fields: dict[str, str], message: str
) -> None:
    before = open_tables(app)
    answer = client.post("/online", data=fields, headers=HTML, follow_redirects=False)
    assert answer.status_code == 422
    assert f'<p class="play-error" role="alert" id="new-error">{message}</p>' in answer.text
    assert open_tables(app) == before
    # and the page keeps what was chosen
    if "seat2" in fields:
        assert '<option value="human" selected>' in answer.text


def test_a_form_past_its_bounds_is_refused(client: TestClient, app: FastAPI) -> None:
    before = open_tables(app)
    # the new table's form may hold house rules: MAX_NEW_TABLE_FORM_BYTES; joining is short
    big = client.post("/online", data={"house": "x" * MAX_NEW_TABLE_FORM_BYTES}, headers=HTML)
    assert big.status_code == 413
    assert f"at most {MAX_NEW_TABLE_FORM_BYTES}" in big.text
    table = next(iter(app.state.online.tables))  # one made before (5 a client at most)
    join = client.post(
        f"/online/{table}/join", data={"nickname": "x" * MAX_FORM_BYTES}, headers=HTML
    )
    assert join.status_code == 413 and f"at most {MAX_FORM_BYTES}" in join.text
    many = {f"f{i}": "1" for i in range(MAX_FORM_FIELDS + 1)}
    crowded = client.post("/online", data=many, headers=HTML)
    assert crowded.status_code == 400
    assert "Too many fields" in crowded.text

    def chunks() -> Iterator[bytes]:
        yield b"ruleset=nts-2016"

    unsized = client.post(
        "/online",
        content=chunks(),
        headers={**HTML, "content-type": "application/x-www-form-urlencoded"},
    )
    assert unsized.status_code == 411
    assert open_tables(app) == before


def test_joining_by_form(client: TestClient) -> None:
    table = make(client, **FOUR_HUMANS)
    page = client.get(f"/online/{table}?seat=2", headers=HTML)
    assert page.status_code == 200
    assert '<input type="hidden" name="seat" value="2">' in page.text
    assert "Your seat: 3" in page.text
    # a name with markup, taken as text
    answer = client.post(
        f"/online/{table}/join",
        data={"nickname": "<b>Ann</b>", "seat": "2"},
        headers=HTML,
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == f"/online/{table}"
    cookie = answer.cookies[f"mjseat_{table}"]
    token = cookie.split(".")[0]
    answer = client.get(f"/online/{table}", headers=HTML)
    assert answer.headers["cache-control"] == "no-store"  # it holds the seat's token
    seated = answer.text
    assert "&lt;b&gt;Ann&lt;/b&gt;" in seated and "<b>Ann</b>" not in seated
    assert 'id="live" data-status="waiting"' in seated
    assert f"/online/{table}/rejoin/{token}" in seated  # the seat's own rejoin link
    assert f'data-socket="/ws/online/{table}"' in seated
    client.cookies.clear()
    # the same seat, the same name (in other letters), no name, a seat that is no number
    for data, status, text in [
        ({"nickname": "Bob", "seat": "2"}, 409, "Seat 3 is taken already: choose another."),
        (
            {"nickname": "<B>ANN</B>", "seat": "1"},
            409,
            "The name &lt;B&gt;ANN&lt;/B&gt; is taken at this table: choose another.",
        ),
        ({"nickname": "Bob", "seat": "4"}, 422, "Choose one of the free seats."),
        ({"nickname": "", "seat": "1"}, 422, "nickname: give a name of 1 to 24 characters"),
        ({"nickname": "x" * (MAX_NICKNAME_CHARS + 1)}, 422, "at most 24 characters"),
        ({"nickname": "Bob", "seat": "x"}, 422, "Choose one of the free seats."),
    ]:
        refused = client.post(f"/online/{table}/join", data=data, headers=HTML)
        assert refused.status_code == status, (data, refused.text)
        assert text in refused.text, (data, text)
        assert f"mjseat_{table}" not in refused.cookies
    # a link whose seat is taken offers the free ones
    again = client.get(f"/online/{table}?seat=2", headers=HTML).text
    assert "Seat 3 of your link is taken already: choose another." in again
    assert re.findall(r'name="seat" value="(\d)"', again) == ["0", "1", "3"]


def test_unknown_tables_are_pages_that_say_so(client: TestClient) -> None:
    for path in ["/online/" + "A" * 22, "/online/watch/" + "B" * 22, "/online/short"]:
        page = client.get(path, headers=HTML)
        assert page.status_code == 404, path
        assert 'role="alert"' in page.text and "no such table" in page.text
    posted = client.post("/online/" + "A" * 22 + "/join", data={"nickname": "Ann"})
    assert posted.status_code == 404


def test_a_spectator_page_has_no_seat_and_no_chat_form(fast: TestClient) -> None:
    # (each app makes at most 5 tables for one client address: this one is another)
    table = make(fast, **FOUR_HUMANS)
    watch = settings_of(fast, table)["watch"]
    page = fast.get(f"/online/watch/{watch}", headers=HTML).text
    assert f'data-socket="/ws/online/watch/{watch}"' in page
    assert 'id="chat-form"' not in page and 'id="link-rejoin"' not in page
    assert table not in page  # the watch link never leads to the players' link


def _states(ws: Any, count: int) -> list[dict[str, Any]]:
    out = []
    while len(out) < count:
        message = ws.receive_json()
        if message["type"] == "state":
            out.append(message)
    return out


def test_the_socket_draws_the_table_only_when_asked(fast: TestClient) -> None:
    table = make(fast, seat1="heuristic", seat2="heuristic", seat3="heuristic", **FOUR_HUMANS)
    answer = fast.post(f"/api/online/tables/{table}/join", json={"nickname": "Ann", "seat": 0})
    assert answer.status_code == 200
    with fast.websocket_connect(f"/ws/online/{table}") as plain:
        (state,) = _states(plain, 1)
        assert "html" not in state  # the protocol of docs/online.md, as it is
    with fast.websocket_connect(f"/ws/online/{table}?html=1&lang=nl") as drawn:
        (state,) = _states(drawn, 1)
        html = state["html"]
        hand = state["hand"]
        assert hand["to_act"] and hand["phase"] == "turn"  # East (Ann) discards first
        assert html.startswith('<div id="live" data-status="playing"')
        assert "Jouw hand" in html and "jij bent Oost" in html
        # a tile button per tile of her hand, each with its key, all of them enabled
        buttons = re.findall(r'value="(discard [^"]+)" class="tile-btn[^"]*" data-key="(.)"', html)
        assert [b[0] for b in buttons] == ["discard " + t for t in hand["concealed"]]
        assert "".join(b[1] for b in buttons) == "1234567890qwertyu"[: len(buttons)]
        assert " disabled" not in html.split('role="group"')[1].split("</div>")[0]
        assert hand["seed_commitment"] in html
        # a move: the next state shows it among the last moves
        tile = hand["legal"][0]
        drawn.send_json({"type": "act", "hand": 0, "seq": hand["seq"], "action": tile})
        later = _states(drawn, 1)[0]
        assert later["events"] and "gooit" in later["html"]
        assert later["hand"]["seq"] > hand["seq"]


def test_the_drawer_keeps_the_last_moves_of_the_hand(fast: TestClient, app: FastAPI) -> None:
    table = make(fast, seat1="heuristic", seat2="heuristic", seat3="heuristic", **FOUR_HUMANS)
    fast.post(f"/api/online/tables/{table}/join", json={"nickname": "Ann", "seat": 0})
    real = fast.get(f"/api/online/tables/{table}").json()
    fast.cookies.clear()

    def _state(hand: int | None, events: list[dict[str, Any]]) -> str:
        """The real state, with the hand's number and the events set."""
        return json.dumps(
            {
                **real,
                "hand": None if hand is None else {**real["hand"], "number": hand},
                "events": events,
            }
        )

    def moves(html: str) -> int:
        return html.split('<ol class="events"')[1].split("</ol>")[0].count("<li>")

    drawer = LiveDrawer(app.state.pages, "en")
    chat = json.dumps({"type": "chat", "line": {"seat": 0, "text": "state"}})
    assert drawer(chat) == chat  # not a state: as it came
    discard = {"kind": "discard", "seat": 0, "tiles": ["b3"]}
    first = json.loads(drawer(_state(0, [discard] * 5)))
    assert moves(first["html"]) == 5
    second = json.loads(drawer(_state(0, [discard] * 7)))
    html = second["html"]
    assert moves(html) == MOVES_SHOWN  # the last eight of twelve
    assert '<ol class="events" aria-live="polite" start="5">' in html
    third = json.loads(drawer(_state(1, [discard])))  # a new hand starts a new list
    assert moves(third["html"]) == 1
    assert '<ol class="events" aria-live="polite" start="1">' in third["html"]
    waiting = json.loads(drawer(_state(None, [])))
    assert "The moves appear here" not in waiting["html"] and "Your hand" not in waiting["html"]


def test_the_dreamer_sits_out_and_is_asked_for_the_next_hand(fast: TestClient) -> None:
    # five players: the first hand's dreamer is the fifth seat (nts-2016+five-players),
    # here the only person at the table; the bots play the hand
    bots = {f"seat{i}": "heuristic" for i in range(4)}
    table = make(fast, players="5", seat4="human", turn="off", claim="off", hands="2", **bots)
    joined = fast.post(f"/api/online/tables/{table}/join", json={"nickname": "Eva"})
    assert joined.json()["seat"] == 4
    with fast.websocket_connect(f"/ws/online/{table}?html=1") as ws:
        (first,) = _states(ws, 1)
        assert first["hand"]["dreamer"] == 4 and first["hand"]["me"] is None
        assert "You sit this hand out (you are the dreamer)." in first["html"]
        assert 'id="act-form"' not in first["html"]
        assert re.search(r"Eva</span> \(you\) · dreamer", first["html"])
        end = first
        while end["hand"]["result"] is None:
            end = _states(ws, 1)[0]
        assert "Ready for the next hand" in end["html"] and 'data-key="n"' in end["html"]
        ws.send_json({"type": "next", "hand": 0})
        later = _states(ws, 1)[0]
        while later["hand"]["number"] == 0 and 4 not in later["hand"]["ready"]:
            later = _states(ws, 1)[0]
    fast.cookies.clear()
