"""Hand logs: write a hand as versioned JSON Lines, read one back, verify it by replay.

A log holds a header (enough to rebuild the :class:`~mahjong_nts.core.game.Game`:
rule-set spec, seed, round wind, dominant seat), one line per ``game.events``
entry and a result line; the format is in ``docs/logs.md`` and its lines are the
models of :mod:`mahjong_nts.formats.gamelog_schema`.

:func:`hand_log` / :func:`write_hand_log` write one; :func:`read_hand_log` parses
one (:class:`LogFormatError`, with the line, for a file that is no valid hand
log); :func:`verify_hand_log` re-plays it and raises :class:`LogMismatch` at the
first line that disagrees with the replay.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from mahjong_nts import __version__
from mahjong_nts.core.actions import Action, ActionKind, action
from mahjong_nts.core.errors import IllegalAction, InvalidAction, MahjongError
from mahjong_nts.core.game import Event, Game
from mahjong_nts.core.match import HandSetup
from mahjong_nts.core.notation import format_hand
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.scoring import ScoreResult
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.core.tiles import Tile, parse_tile
from mahjong_nts.formats import wire
from mahjong_nts.formats.gamelog_schema import (
    DECIDED_KINDS,
    FORMAT,
    VERSION,
    EventLine,
    HandInfo,
    HeaderLine,
    PaymentInfo,
    ResultLine,
    SeatScore,
    SettlementInfo,
    WinInfo,
)
from mahjong_nts.formats.rulefiles import load_ruleset

__all__ = [
    "FORMAT",
    "VERSION",
    "HandLog",
    "LogFormatError",
    "LogMismatch",
    "Verified",
    "event_line",
    "event_text",
    "hand_log",
    "header_line",
    "new_game",
    "parse_hand_log",
    "read_hand_log",
    "result_line",
    "rules_digest",
    "verify_hand_log",
    "write_hand_log",
]

Line = HeaderLine | EventLine | ResultLine


class LogFormatError(ValueError):
    """The file is not a readable hand log (bad JSON, unknown line, bad field)."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line
        self.message = message


class LogMismatch(ValueError):
    """The log does not agree with a replay of the hand, first at ``line``."""

    def __init__(self, line: int, expected: str, found: str) -> None:
        super().__init__(f"line {line}: expected {expected}, log says {found}")
        self.line = line
        self.expected = expected
        self.found = found


# --------------------------------------------------------------------------- writing


def rules_digest(rules: RuleSet) -> str:
    """A short fingerprint of every value of a rule set (not its name)."""
    data = rules.to_mapping()
    for key in ("name", "title", "source", "notes"):
        data.pop(key, None)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _tokens(tiles: Sequence[int]) -> str:
    return " ".join(Tile(t).token for t in tiles)


def event_line(event: Event, n: int) -> EventLine:
    return EventLine(
        type="event",
        n=n,
        kind=event.kind,
        seat=event.seat,
        tiles=_tokens(event.tiles),
        decided=event.decided,
        note=event.note,
    )


def _hands(game: Game) -> list[str]:
    result = game.result
    out = []
    for seat in range(game.n):
        winning = result.winning_tile if result is not None and result.winner == seat else None
        out.append(format_hand(game.hand_of(seat, winning)))
    return out


def _seat_score(seat: int, res: ScoreResult) -> SeatScore:
    return SeatScore(
        seat=seat,
        score=res.score,
        points=res.points,
        doublings=res.doublings,
        limit_hand=res.limit_hand,
        base=res.base,
        mahjong_allowed=res.mahjong_allowed,
        dead=res.dead,
        items=[it.id for it in res.items for _ in range(it.count)],
    )


_FLAGS = ("last_tile", "last_discard", "kong_on_kong", "first_discard", "heaven", "lucky_thirteen")


def result_line(game: Game, *, stopped: str = "stopped before the end") -> ResultLine:
    """The result line of ``game`` (``over=False`` while it is still in play)."""
    n_events = len(game.events)
    result = game.result
    if result is None:
        return ResultLine(
            type="result", over=False, events=n_events, reason=stopped, hands=_hands(game)
        )
    win = None
    if result.win is not None:
        flags = [f for f in _FLAGS if getattr(result.win, f)]
        win = WinInfo(source=result.win.source.value, flags=flags)  # type: ignore[arg-type]
    st = result.settlement
    return ResultLine(
        type="result",
        over=True,
        events=n_events,
        reason=result.reason,
        winner=result.winner,
        discarder=result.discarder,
        win=win,
        winning_tile=None if result.winning_tile is None else result.winning_tile.token,
        hands=_hands(game),
        scores=[_seat_score(s, r) for s, r in enumerate(result.scores)],
        settlement=SettlementInfo(
            scores=list(st.scores),
            balances=list(st.balances),
            payments=[
                PaymentInfo(payer=p.payer, payee=p.payee, amount=p.amount) for p in st.payments
            ],
        ),
    )


def header_line(
    game: Game,
    *,
    ruleset: str,
    seed: int,
    setup: HandSetup | None = None,
    players: Sequence[str] | None = None,
) -> HeaderLine:
    names = list(players) if players is not None else [f"seat {s}" for s in range(game.n)]
    if len(names) != game.n:
        raise ValueError(f"players: give one name per seat ({game.n}), got {len(names)}")
    if setup is not None and setup.seed != seed:
        raise ValueError(f"seed {seed} is not the hand's seed {setup.seed} (setup.seed)")
    hand = None
    if setup is not None:
        hand = HandInfo(
            number=setup.number,
            round=setup.round,
            players=list(setup.players),
            dreamer=setup.dreamer,
            dominant=setup.dominant,
        )
    return HeaderLine(
        type="header",
        format=FORMAT,
        version=VERSION,
        program=f"mahjong-nts {__version__}",
        ruleset=ruleset,
        ruleset_name=game.rules.name,
        rules_digest=rules_digest(game.rules),
        seed=seed,
        round_wind=game.round_wind.token,
        dominant=game.dominant,
        seats=game.n,
        players=names,
        hand=hand,
    )


def _dump(line: BaseModel) -> dict[str, Any]:
    if isinstance(line, EventLine):
        data: dict[str, Any] = {
            "type": "event",
            "n": line.n,
            "kind": line.kind,
            "seat": line.seat,
            "tiles": line.tiles,
            "decided": line.decided,
        }
        if line.note:
            data["note"] = line.note
        return data
    return line.model_dump(mode="json")


def hand_log(
    game: Game,
    *,
    ruleset: str,
    seed: int,
    setup: HandSetup | None = None,
    players: Sequence[str] | None = None,
    stopped: str = "stopped before the end",
) -> list[dict[str, Any]]:
    """The log of ``game`` as a list of JSON objects, one per line.

    ``ruleset`` is the spec the rules were loaded from (``"nts-2016+flowers"``
    or a house-rule file's path), ``seed`` the seed of the game's
    :class:`~mahjong_nts.core.seeding.SeedRng`; ``setup`` (a match's hand) and
    ``players`` (a name per seat) are recorded too.  A game still in play gets a result line with
    ``over: false`` and ``stopped`` as its reason.
    """
    lines: list[BaseModel] = [
        header_line(game, ruleset=ruleset, seed=seed, setup=setup, players=players)
    ]
    lines.extend(event_line(e, i) for i, e in enumerate(game.events))
    lines.append(result_line(game, stopped=stopped))
    return [_dump(line) for line in lines]


def write_hand_log(
    path: str | os.PathLike[str],
    game: Game,
    *,
    ruleset: str,
    seed: int,
    setup: HandSetup | None = None,
    players: Sequence[str] | None = None,
    stopped: str = "stopped before the end",
) -> Path:
    """Write :func:`hand_log` to ``path`` (atomically: a complete file or none); returns it."""
    lines = hand_log(
        game, ruleset=ruleset, seed=seed, setup=setup, players=players, stopped=stopped
    )
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class HandLog:
    """A parsed hand log: the header and every later line with its line number."""

    header: HeaderLine
    body: tuple[tuple[int, Line], ...]
    path: str = ""

    @property
    def events(self) -> list[EventLine]:
        return [line for _, line in self.body if isinstance(line, EventLine)]

    @property
    def result(self) -> ResultLine | None:
        return next((line for _, line in self.body if isinstance(line, ResultLine)), None)


_MODELS: dict[str, type[BaseModel]] = {
    "header": HeaderLine,
    "event": EventLine,
    "result": ResultLine,
}


def _parse_line(raw: str, lineno: int) -> Line:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise LogFormatError(lineno, f"invalid JSON at column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise LogFormatError(lineno, "invalid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise LogFormatError(lineno, f"expected a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if lineno == 1 and kind != "header":
        raise LogFormatError(
            1, f"not a hand log: the first line should be the header, it is of type {kind!r}"
        )
    model = _MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise LogFormatError(lineno, f"unknown line type {kind!r}: header, event or result")
    if model is HeaderLine:
        if data.get("format") != FORMAT:
            raise LogFormatError(
                lineno, f"not a hand log: format {data.get('format')!r}, expected {FORMAT!r}"
            )
        if data.get("version") != VERSION:
            raise LogFormatError(
                lineno,
                f"hand-log version {data.get('version')!r} is not supported "
                f"(this program reads version {VERSION})",
            )
    try:
        return model.model_validate(data)  # type: ignore[return-value]
    except ValidationError as exc:
        raise LogFormatError(lineno, f"{kind} line: {wire.error_message(exc)}") from None


def parse_hand_log(text: str, path: str = "") -> HandLog:
    """Parse a hand log's text; raises :class:`LogFormatError` naming the line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise LogFormatError(None, "the file is empty, not a hand log")
    parsed: list[tuple[int, Line]] = []
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            raise LogFormatError(i, "empty line")
        parsed.append((i, _parse_line(raw.rstrip("\r"), i)))
    first = parsed[0][1]
    assert isinstance(first, HeaderLine)
    return HandLog(first, tuple(parsed[1:]), path)


def read_hand_log(path: str | os.PathLike[str]) -> HandLog:
    """Read and parse a hand log file (:class:`LogFormatError` when it is none;
    ``OSError`` when it cannot be read)."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LogFormatError(line, "not UTF-8 text") from None
    return parse_hand_log(text, str(path))


# --------------------------------------------------------------------------- verifying


@dataclass
class Verified:
    """A log that agrees with the replay."""

    events: int
    over: bool
    game: Game = field(repr=False)


def event_text(line: EventLine) -> str:
    """``event 12: seat 1 draw b3`` (decided events say so)."""
    text = f"event {line.n}: seat {line.seat} {line.kind}"
    if line.tiles:
        text += f" {line.tiles}"
    if line.note:
        text += f" ({line.note})"
    if line.decided:
        text += " [decided]"
    return text


def _line_text(line: Line) -> str:
    if isinstance(line, EventLine):
        return event_text(line)
    return f"a {line.type} line"


def _first_difference(expected: Any, found: Any, path: str = "") -> tuple[str, Any, Any] | None:
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in expected.keys() | found.keys():
            if key not in expected or key not in found or expected[key] != found[key]:
                sub = f"{path}.{key}" if path else key
                return _first_difference(expected.get(key), found.get(key), sub)
        return None
    if isinstance(expected, list) and isinstance(found, list):
        if len(expected) != len(found):
            return (f"{path} ({len(expected)} entries)", expected, found)
        for i, (a, b) in enumerate(zip(expected, found, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
        return None
    return None if expected == found else (path, expected, found)


def _load_rules(header: HeaderLine) -> RuleSet:
    try:
        return load_ruleset(header.ruleset)
    except MahjongError as exc:
        raise LogFormatError(1, f"ruleset: {exc}") from None
    except OSError as exc:
        raise LogFormatError(1, f"ruleset {header.ruleset!r}: {exc.strerror or exc}") from None


def _action(line: EventLine) -> Action:
    tile = parse_tile(line.tiles) if line.tiles else None
    return action(ActionKind[line.kind.upper()], tile)


def _legal_text(game: Game) -> str:
    legal = ", ".join(str(a) for a in game.legal_actions())
    return f"an action of seat {game.current_seat} ({legal})"


def new_game(header: HeaderLine, rules: RuleSet) -> Game:
    """The game a header describes, dealt and ready for its first action."""
    return Game(
        rules,
        SeedRng(header.seed),
        round_wind=parse_tile(header.round_wind),
        dominant=header.dominant,
    )


def verify_hand_log(log: HandLog) -> Verified:
    """Re-play ``log`` and check every line against the replay.

    Raises :class:`LogMismatch` at the first line that disagrees (the replay's
    line as "expected"), :class:`LogFormatError` when the rule set cannot be
    loaded.  A changed action that is itself legal changes the hand from there
    on; it is reported at the first line that no longer fits.
    """
    header = log.header
    rules = _load_rules(header)
    if rules.name != header.ruleset_name:
        raise LogMismatch(1, f"ruleset_name {rules.name!r}", repr(header.ruleset_name))
    digest = rules_digest(rules)
    if digest != header.rules_digest:
        raise LogMismatch(
            1,
            f"rules_digest {digest} (the rule set's values have changed since)",
            header.rules_digest,
        )
    if rules.table.players != header.seats:
        raise LogMismatch(1, f"seats {rules.table.players}", str(header.seats))
    if len(header.players) != header.seats:
        raise LogMismatch(1, f"{header.seats} player names", str(len(header.players)))
    game = new_game(header, rules)
    events = game.events
    i = 0
    last = 1
    result: tuple[int, ResultLine] | None = None
    for lineno, line in log.body:
        last = lineno
        if result is not None:
            raise LogMismatch(
                lineno, f"the end of the log (the result is line {result[0]})", _line_text(line)
            )
        if isinstance(line, ResultLine):
            result = (lineno, line)
            continue
        if i >= len(events):
            if game.is_over:
                raise LogMismatch(lineno, "the result line (the hand is over)", _line_text(line))
            if (
                not isinstance(line, EventLine)
                or not line.decided
                or line.kind not in DECIDED_KINDS
            ):
                raise LogMismatch(lineno, _legal_text(game), _line_text(line))
            if line.seat != game.current_seat:
                raise LogMismatch(lineno, _legal_text(game), _line_text(line))
            try:
                game.apply(_action(line))
            except (InvalidAction, IllegalAction):
                raise LogMismatch(lineno, _legal_text(game), _line_text(line)) from None
        expected = event_line(events[i], i)
        if expected != line:
            raise LogMismatch(lineno, event_text(expected), _line_text(line))
        i += 1
    if result is None:
        if i < len(events):
            raise LogMismatch(last + 1, event_text(event_line(events[i], i)), "nothing (it ends)")
        want = "the result line" if game.is_over else f"{_legal_text(game)} or the result line"
        raise LogMismatch(last + 1, want, "nothing (it ends)")
    lineno, logged = result
    if i < len(events):
        raise LogMismatch(lineno, event_text(event_line(events[i], i)), "the result line")
    expected_result = result_line(game, stopped=logged.reason)
    diff = _first_difference(
        expected_result.model_dump(mode="json"), logged.model_dump(mode="json")
    )
    if diff is not None:
        where, want, got = diff
        raise LogMismatch(lineno, f"{where} {json.dumps(want)}", f"{where} {json.dumps(got)}")
    return Verified(events=i, over=game.is_over, game=game)
