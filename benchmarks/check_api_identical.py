"""Send many requests to the web app's ASGI callable in this process; print one line per
request: a hash of the answer exactly as the app sends it (the status, every header in
its order, the body's bytes, how the body was split into messages).

For checking that a change to the web stack or to the notation changes no answer of the
HTTP API: run it with each tree first on ``PYTHONPATH`` and compare the outputs (``cmp``);
give a request's number as a third argument to print that request and its whole answer
instead.

    PYTHONPATH=/path/to/other/src python benchmarks/check_api_identical.py 1 5000 > other.txt
    PYTHONPATH=src python benchmarks/check_api_identical.py 1 5000 > this.txt
    cmp other.txt this.txt

The requests (seeded): hands of ``check_identical.make_case`` under the shipped rule sets
(winners and not, melds open and concealed, flowers, every way of winning and its flags),
their tiles written as tokens, compact groups, lists, Dutch winds, glyphs, aliases, with
odd whitespace; some with a broken tile, field or type; house rules inline; settle
requests by scores and by hands; bodies that are not JSON within the bounds (cut, duplicate
keys, deep, long numbers, NaN, not UTF-8, not an object, empty, too long, chunked, with a
wrong or missing Content-Type or Content-Length); other methods and paths.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from check_identical import SHIPPED, make_case
from mahjong_nts.core.hand import MeldKind
from mahjong_nts.core.notation import format_tiles
from mahjong_nts.core.tiles import Tile, tile_glyph
from mahjong_nts.formats import wire
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.web import Settings, create_app

KINDS = {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"}
SOURCES = {"WALL": "wall", "DISCARD": "discard", "LOOSE_TILE": "loose_tile"}
ALIASES = {
    Tile.EAST: ["oost", "east", "O"],
    Tile.SOUTH: ["zuid", "south", "Z"],
    Tile.WEST: ["west"],
    Tile.NORTH: ["noord", "north"],
    Tile.GREEN: ["groen", "green", "Fa"],
    Tile.RED: ["rood", "red"],
    Tile.WHITE: ["wit", "white"],
    Tile.B3: ["bamboe3", "bamboo3"],
    Tile.K5: ["kringen5", "dots5", "circles5"],
    Tile.T7: ["tekens7", "characters7", "man7"],
}
BROKEN = [
    "b0", "k10", "x", "b", "EE1", "f5", "s0", "bamboe", "Oost3", "[b123]", "+b1", "(", ")",
    "b1b", "🀄x", "t99", "q", "E-", "k1,2", "F1", "", "  ", "b1\x00", "zz", "Wind", "b12345678999",
]  # fmt: skip
SPACES = [" ", " ", " ", "  ", "\t", "\n", "\u3000", "\u00a0", " \r\n "]


def tiles_text(rng: random.Random, tiles: list[int]) -> str | list[str]:
    """``tiles`` written in one of the ways the API takes."""
    tokens = [Tile(t).token for t in tiles]
    style = rng.random()
    if style < 0.3:
        return " ".join(tokens)
    if style < 0.5:
        return format_tiles(tiles)
    if style < 0.6:
        return tokens
    if style < 0.68:
        return "".join(t if t not in "ES" else {"E": "O", "S": "Z"}[t] for t in " ".join(tokens))
    if style < 0.74:
        return "".join(tile_glyph(Tile(t)) for t in tiles)
    if style < 0.84:
        return " ".join(rng.choice(ALIASES.get(Tile(t), [Tile(t).token])) for t in tiles)
    words = format_tiles(tiles).split() if rng.random() < 0.5 else tokens
    return rng.choice(SPACES[:3]) + "".join(w + rng.choice(SPACES) for w in words)


def score_request(rng: random.Random, rules_list: list[Any]) -> dict[str, Any]:
    rules, concealed, melds, bonus, w, seat, rnd, dead, win_args = make_case(rng, rules_list)
    req: dict[str, Any] = {
        "seat_wind": Tile(seat).token,
        "round_wind": Tile(rnd).token,
        "concealed": tiles_text(rng, list(concealed)),
    }
    if rng.random() < 0.85:
        req["ruleset"] = rules.name
    if melds:
        req["melds"] = [
            {"kind": KINDS[m.kind], "tiles": tiles_text(rng, list(m.tiles)), "open": m.open}
            for m in melds
        ]
    if bonus:
        req["flowers"] = tiles_text(rng, bonus)
    if w is not None:
        req["winning_tile"] = Tile(w).token
    if win_args is not None:
        source, flags = win_args
        win = {"from": SOURCES.get(source.name, source.name.lower()), **flags}
        if source.name == "WALL" and not flags and rng.random() < 0.3:
            win = {}
        req["win"] = win
    if dead:
        req["dead"] = True
    if "winning_tile" not in req and rng.random() < 0.1:
        req["partial"] = True
    return req


def break_request(rng: random.Random, req: dict[str, Any]) -> None:
    """One thing wrong with ``req``."""
    r = rng.random()
    if r < 0.35:
        tiles = req["concealed"]
        words = tiles if isinstance(tiles, list) else str(tiles).split()
        words = list(words) or ["b1"]
        words[rng.randrange(len(words))] = rng.choice(BROKEN)
        req["concealed"] = words if isinstance(tiles, list) else " ".join(words)
    elif r < 0.45:
        req[rng.choice(["extra", "seat", "Concealed", "winning"])] = 1
    elif r < 0.55:
        req.pop(rng.choice(["seat_wind", "round_wind", "concealed"]), None)
    elif r < 0.7:
        key = rng.choice(["seat_wind", "round_wind", "winning_tile", "dead", "melds", "win"])
        req[key] = rng.choice([1, True, None, [], {}, "b1", "X", 2.5, "oost"])
    elif r < 0.8:
        req["ruleset"] = rng.choice(
            ["nts-2017", "/etc/passwd", "club.toml", "nts-2016+nothing", "", 3, ["nts-2016"]]
        )
    elif r < 0.9 and req.get("melds"):
        meld = req["melds"][0]
        meld[rng.choice(["kind", "tiles", "open", "extra"])] = rng.choice(["pung", "b1 b2 b4", 1])
    else:
        req["flowers"] = rng.choice(["b1", "f1 f1", "f5", "s1 s2 s3 s4 f1 f2 f3 f4 f1", 7])


def house_rules(rng: random.Random) -> dict[str, Any]:
    return rng.choice(
        [
            {"base": "nts-2016", "scoring": {"limit": rng.choice([500, 1000, 3000])}},
            {"base": "nmb-2009", "scoring": {"min_doublings": rng.choice([0, 1, 2])}},
            {"scoring": {"points": {"mahjong": rng.choice([10, 20, 30])}}},
            {"base": "nts-2016", "scoring": {"limit": -5}},
            {"base": "nts-2016", "nonsense": 1},
        ]
    )


def settle_request(rng: random.Random, rules_list: list[Any]) -> dict[str, Any]:
    rules = rng.choice(rules_list)
    seats = wire.table_seats(rules)
    seats = rng.choice([seats] * 8 + [3, 4, 5, 2, 6])
    winner = rng.randrange(seats) if rng.random() < 0.9 else rng.choice([None, -1, seats])
    req: dict[str, Any] = {"ruleset": rules.name, "winner": winner}
    if rng.random() < 0.7:
        req["scores"] = [rng.choice([0, 2, 8, 24, 40, 96, 576, 2000]) for _ in range(seats)]
        if req.get("winner") is not None and 0 <= req["winner"] < seats and rng.random() < 0.8:
            req["scores"][req["winner"]] = rng.choice([20, 40, 64, 500, 2000])
    else:
        hands: list[Any] = []
        for _ in range(seats):
            hand = score_request(rng, [rules])
            for key in ("seat_wind", "ruleset", "round_wind"):
                hand.pop(key, None)
            hands.append(hand if rng.random() < 0.95 else None)
        req["hands"] = hands
    for key, p in (("east", 0.3), ("discarder", 0.3), ("dreamer", 0.05), ("dominant", 0.05)):
        if rng.random() < p:
            req[key] = rng.randrange(seats)
    if rng.random() < 0.2:
        req["round_wind"] = rng.choice(["E", "S", "W", "N", "F", "Z", "x"])
    if rng.random() < 0.1:
        req["round_to"] = rng.choice([1, 2, 10, 0, -1])
    if rng.random() < 0.05:
        req["scores"] = rng.choice([[1, 2], "1 2 3 4", [10**30, 0, 0, 0], [True, 0, 0, 0]])
    return req


def raw_body(rng: random.Random, good: bytes) -> tuple[list[bytes], list[tuple[bytes, bytes]]]:
    """A body that is not JSON within the bounds, or a request that is framed wrongly;
    the body's chunks and the headers."""
    json_type = [(b"content-type", b"application/json")]
    r = rng.random()
    if r < 0.1:
        body = good[: rng.randrange(len(good))]
    elif r < 0.2:
        body = b'{"seat_wind": "E", "seat_wind": "S", "round_wind": "E", "concealed": "b1"}'
    elif r < 0.28:
        depth = rng.choice([15, 16, 17, 40])
        body = b'{"concealed": ' + b"[" * depth + b"]" * depth + b"}"
    elif r < 0.34:
        body = b'{"dead": ' + b"9" * rng.choice([80, 81, 200]) + b"}"
    elif r < 0.4:
        body = rng.choice([b'{"dead": NaN}', b'{"x": Infinity}', b"[1, -Infinity]"])
    elif r < 0.46:
        body = rng.choice([b'{"concealed": "b1\xff"}', b"\xef\xbb\xbf{}", b"\x00"])
    elif r < 0.54:
        body = rng.choice([b"[]", b"1", b'"x"', b"null", b"true", b"[{}]", b"", b" "])
    elif r < 0.6:
        body = b'{"concealed": "' + b"b1 " * 25_000 + b'"}'
    elif r < 0.66:
        body = b" " * 65_536 + b"{}"
    elif r < 0.72:  # chunked: no Content-Length
        cut = sorted(rng.sample(range(1, len(good)), 2))
        return [good[: cut[0]], good[cut[0] : cut[1]], good[cut[1] :]], json_type
    elif r < 0.76:
        return [b"x" * 40_000, b"x" * 40_000], json_type
    else:
        kind = rng.choice(
            [
                b"text/plain",
                b"application/json; charset=utf-8",
                b"APPLICATION/JSON",
                b"application/jsonx",
                b"application/x-www-form-urlencoded",
                b"multipart/form-data; boundary=x",
                None,
                b"application/json" + b"x" * 200,
            ]
        )
        headers = [] if kind is None else [(b"content-type", kind)]
        return [good], [*headers, (b"content-length", str(len(good)).encode())]
    headers = [*json_type, (b"content-length", str(len(body)).encode())]
    if rng.random() < 0.1:
        headers = [*json_type, (b"content-length", rng.choice([b"abc", b"-1", b"9" * 30]))]
    if rng.random() < 0.05:
        headers = [*json_type, (b"content-length", b"1000000")]
    return [body], headers


def make_request(rng: random.Random, rules_list: list[Any]) -> dict[str, Any]:
    """One request: method, path, query, headers, body chunks."""
    r = rng.random()
    path = "/api/score"
    if r < 0.6:
        req = score_request(rng, rules_list)
        if rng.random() < 0.04:
            req["ruleset"] = house_rules(rng)
        if rng.random() < 0.15:
            break_request(rng, req)
        body = json.dumps(req, ensure_ascii=rng.random() < 0.5).encode()
        chunks, headers = [body], [(b"content-type", b"application/json")]
        headers.append((b"content-length", str(len(body)).encode()))
    elif r < 0.78:
        path = "/api/settle"
        body = json.dumps(settle_request(rng, rules_list)).encode()
        chunks, headers = [body], [(b"content-type", b"application/json")]
        headers.append((b"content-length", str(len(body)).encode()))
    elif r < 0.93:
        path = rng.choice(["/api/score", "/api/settle"])
        good = json.dumps(score_request(rng, rules_list)).encode()
        chunks, headers = raw_body(rng, good)
    else:
        method = rng.choice(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "POST", "POST"])
        path = rng.choice(
            ["/api/score", "/api/settle", "/api/score/", "/api/scores", "/api", "/api/settle/x"]
        )
        body = json.dumps(score_request(rng, rules_list)).encode()
        return {
            "method": method,
            "path": path,
            "query": rng.choice([b"", b"", b"x=1", b"lang=nl"]),
            "headers": [(b"content-type", b"application/json")],
            "chunks": [body],
        }
    if rng.random() < 0.05:
        headers.append((b"accept", b"text/html"))
    return {
        "method": "POST",
        "path": path,
        "query": b"" if rng.random() < 0.95 else b"lang=nl",
        "headers": [(b"host", b"127.0.0.1:8000"), *headers],
        "chunks": chunks,
    }


async def send_request(app: Any, request: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages the app sends for ``request`` (called as uvicorn calls it)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": request["method"],
        "scheme": "http",
        "path": request["path"],
        "raw_path": request["path"].encode(),
        "query_string": request["query"],
        "root_path": "",
        "headers": request["headers"],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    chunks = list(request["chunks"])

    async def receive() -> dict[str, Any]:
        if chunks:
            body = chunks.pop(0)
            return {"type": "http.request", "body": body, "more_body": bool(chunks)}
        await asyncio.sleep(0)
        return {"type": "http.disconnect"}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


def answer_text(messages: list[dict[str, Any]]) -> str:
    parts = []
    for m in messages:
        if m["type"] == "http.response.start":
            parts.append(f"{m['status']} {list(m.get('headers', []))!r}")
        else:
            parts.append(f"{m['type']} {m.get('body', b'')!r} more={m.get('more_body', False)}")
    return "\n".join(parts)


async def run(seed: int, n: int, show: int | None) -> None:
    rng = random.Random(seed)
    rules_list = [load_ruleset(s) for s in SHIPPED]
    app = create_app(Settings(data_dir=Path(tempfile.mkdtemp(prefix="check-api-"))))
    out = sys.stdout
    for i in range(n):
        request = make_request(rng, rules_list)
        if show is not None and i != show:
            continue
        messages = await send_request(app, request)
        text = answer_text(messages)
        if show is not None:
            print(request)
            print(text)
            return
        status = messages[0].get("status") if messages else None
        body = b"".join(m.get("body", b"") for m in messages[1:])
        digest = hashlib.sha1(text.encode()).hexdigest()[:16]
        out.write(f"{i} {status} {digest} {body[:40]!r}\n")


if __name__ == "__main__":
    asyncio.run(
        run(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else None)
    )
