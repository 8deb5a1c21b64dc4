"""Hand logs: write a hand as hash-chained JSON Lines, read one back, verify it.

A log (format version 2, ``docs/logs.md``) holds a header (enough to rebuild the
:class:`~mahjong_nts.core.game.Game` once the seed is known: rule-set spec, the
SHA-256 commitment of the seed, round wind, dominant seat), one line per
``game.events`` entry, a result line that reveals the seed, and a seal line.
Every line after the header carries ``prev``, the SHA-256 of the line before it
as written, so an edited line breaks the chain; the seal closes the chain and
may carry an Ed25519 or HMAC signature of everything before it
(:mod:`mahjong_nts.formats.logkeys`), which someone who recomputes the chain
cannot forge.

:func:`hand_log` / :func:`write_hand_log` write one; :func:`read_hand_log` parses
one within the bounds of :mod:`~mahjong_nts.formats.gamelog_schema`
(:class:`LogFormatError`, with the line, for a file that is no readable hand
log); :func:`verify_hand_log` checks the chain, the signature, the commitment and
the header, re-plays the hand and raises :class:`LogMismatch` at the first line
that does not hold.  :func:`chain` (re)computes the chain of edited lines.
"""

from __future__ import annotations

import enum
import errno
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from mahjong_nts import __version__
from mahjong_nts.core.actions import Action, ActionKind, action
from mahjong_nts.core.errors import MahjongError, quote
from mahjong_nts.core.game import Event, Game
from mahjong_nts.core.match import HandSetup
from mahjong_nts.core.notation import format_hand
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.scoring import ScoreResult
from mahjong_nts.core.seeding import SeedRng, seed_commitment
from mahjong_nts.core.text import N_, Text
from mahjong_nts.core.tiles import WINDS, Tile, parse_tile
from mahjong_nts.formats import logkeys, safejson
from mahjong_nts.formats.gamelog_schema import (
    DECIDED_KINDS,
    FORMAT,
    MAX_LINE_BYTES,
    MAX_LINES,
    MAX_LOG_BYTES,
    VERSION,
    EventLine,
    HandInfo,
    HeaderLine,
    PaymentInfo,
    ResultLine,
    SealLine,
    SeatScore,
    SettlementInfo,
    WinInfo,
)
from mahjong_nts.formats.logkeys import LogKey
from mahjong_nts.formats.rulefiles import SHIPPED, load_untrusted

__all__ = [
    "FORMAT",
    "SIGNED_PREFIX",
    "VERSION",
    "HandLog",
    "LogFormatError",
    "LogMismatch",
    "Signed",
    "Verified",
    "chain",
    "dump_line",
    "event_line",
    "event_text",
    "hand_log",
    "hand_log_text",
    "header_line",
    "line_digest",
    "log_text",
    "new_game",
    "parse_hand_log",
    "read_hand_log",
    "result_line",
    "rules_digest",
    "verify_hand_log",
    "write_hand_log",
]

Line = HeaderLine | EventLine | ResultLine | SealLine

SIGNED_PREFIX: Final = b"mahjong-nts/hand-log/v2/signature\n"
"""What a signature signs: these bytes, then every byte of the log before the seal line."""

_UNCHAINED: Final = "0" * 64
"""The ``prev`` of a line built here before :func:`chain` gives it the real one."""

_MESSAGE_CHARS: Final = 300
"""Characters of a message about one line (it quotes at most an excerpt of the line)."""


class LogFormatError(MahjongError):
    """The file is not a readable hand log (bad JSON, unknown line, bad field, too big)."""

    def __init__(self, line: int | None, message: str) -> None:
        if len(message) > _MESSAGE_CHARS:  # (a Text this long is shown in English)
            message = message[: _MESSAGE_CHARS - 3] + "..."
        if line is None:
            super().__init__(Text(message) if not isinstance(message, Text) else message)
        else:
            super().__init__(N_("line {line}: {message}"), line=line, message=message)
        self.line = line
        self.message = message


class LogMismatch(MahjongError):
    """The log does not hold, first at ``line``: what was ``expected`` there, what
    the log says, and (``why``) what that means."""

    def __init__(self, line: int, expected: str, found: str, why: str = "") -> None:
        super().__init__(
            N_("line {line}: expected {expected}, log says {found} ({why})")
            if why
            else N_("line {line}: expected {expected}, log says {found}"),
            line=line,
            expected=expected,
            found=found,
            why=why,
        )
        self.line = line
        self.expected = expected
        self.found = found
        self.why = why


# --------------------------------------------------------------------------- writing


def rules_digest(rules: RuleSet) -> str:
    """A short fingerprint of every value of a rule set (not its name)."""
    data = rules.to_mapping()
    for key in ("name", "title", "source", "notes"):
        data.pop(key, None)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def dump_line(obj: Mapping[str, Any]) -> str:
    """One line's JSON text exactly as a log is written (UTF-8, ``", "`` and ``": "``)."""
    return json.dumps(obj, ensure_ascii=False)


def line_digest(raw: bytes | str) -> str:
    """The SHA-256 (hex) of a line's bytes as written, without its line end."""
    data = raw.encode("utf-8") if isinstance(raw, str) else raw
    return hashlib.sha256(data).hexdigest()


def log_text(lines: Sequence[Mapping[str, Any]]) -> str:
    """The file text of ``lines`` (each by :func:`dump_line`, ending in a newline)."""
    return "".join(dump_line(line) + "\n" for line in lines)


def chain(lines: Sequence[Mapping[str, Any]], key: LogKey | None = None) -> list[dict[str, Any]]:
    """``lines`` (the header first) with the hash chain and the seal (re)computed.

    Any ``prev`` in the lines and any seal line are dropped; every line after the
    first gets ``prev`` (the SHA-256 of the line before it, as :func:`dump_line`
    writes it) as its second field, and a seal line closes the chain, signed
    with ``key`` when given (a private key or an HMAC key)."""
    out: list[dict[str, Any]] = []
    texts: list[str] = []
    prev = ""
    for line in lines:
        if line.get("type") == "seal":
            continue
        rest = {k: v for k, v in line.items() if k not in ("type", "prev")}
        item: dict[str, Any] = {"type": line.get("type")}
        if out:
            item["prev"] = prev
        item.update(rest)
        text = dump_line(item)
        texts.append(text)
        prev = line_digest(text)
        out.append(item)
    signature = None
    if key is not None:
        body = "".join(t + "\n" for t in texts).encode("utf-8")
        signature = {
            "alg": key.alg,
            "key_id": key.key_id,
            "value": logkeys.sign(key, SIGNED_PREFIX + body),
        }
    out.append({"type": "seal", "prev": prev, "signature": signature})
    return out


def _tokens(tiles: Sequence[int]) -> str:
    return " ".join(Tile(t).token for t in tiles)


def event_line(event: Event, n: int, prev: str = _UNCHAINED) -> EventLine:
    return EventLine(
        type="event",
        prev=prev,
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


def result_line(
    game: Game, *, seed: int, stopped: str = "stopped before the end", prev: str = _UNCHAINED
) -> ResultLine:
    """The result line of ``game`` (``over=False`` while it is still in play), which
    reveals ``seed``, the seed of its wall."""
    n_events = len(game.events)
    result = game.result
    if result is None:
        return ResultLine(
            type="result",
            prev=prev,
            over=False,
            events=n_events,
            reason=stopped,
            seed=seed,
            hands=_hands(game),
        )
    win = None
    if result.win is not None:
        flags = [f for f in _FLAGS if getattr(result.win, f)]
        win = WinInfo(source=result.win.source.value, flags=flags)  # type: ignore[arg-type]
    st = result.settlement
    return ResultLine(
        type="result",
        prev=prev,
        over=True,
        events=n_events,
        reason=result.reason,
        seed=seed,
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
    """The header of ``game``: it commits to ``seed`` and does not reveal it."""
    names = list(players) if players is not None else [f"seat {s}" for s in range(game.n)]
    if len(names) != game.n:
        raise ValueError(f"players: give one name per seat ({game.n}), got {len(names)}")
    if setup is not None and setup.seed != seed:
        raise ValueError("seed: not the hand's seed (setup.seed)")
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
        seed_commitment=seed_commitment(seed),
        round_wind=game.round_wind.token,
        dominant=game.dominant,
        seats=game.n,
        players=names,
        hand=hand,
    )


def _dump(line: BaseModel) -> dict[str, Any]:
    """A line's fields as written (without ``prev``: :func:`chain` adds it)."""
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
    data = line.model_dump(mode="json")
    data.pop("prev", None)
    return data


def hand_log(
    game: Game,
    *,
    ruleset: str,
    seed: int,
    setup: HandSetup | None = None,
    players: Sequence[str] | None = None,
    stopped: str = "stopped before the end",
    key: LogKey | None = None,
) -> list[dict[str, Any]]:
    """The log of ``game`` as a list of JSON objects, one per line, chained and sealed.

    ``ruleset`` is the spec the rules were loaded from (``"nts-2016+flowers"``
    or a house-rule file's path), ``seed`` the seed of the game's
    :class:`~mahjong_nts.core.seeding.SeedRng` (the header commits to it, the
    result line reveals it); ``setup`` (a match's hand) and ``players`` (a name
    per seat) are recorded too.  A game still in play gets a result line with
    ``over: false`` and ``stopped`` as its reason.  ``key`` signs the log.
    Write the lines with :func:`log_text`: the chain is over exactly that text.
    """
    lines: list[BaseModel] = [
        header_line(game, ruleset=ruleset, seed=seed, setup=setup, players=players)
    ]
    lines.extend(event_line(e, i) for i, e in enumerate(game.events))
    lines.append(result_line(game, seed=seed, stopped=stopped))
    return chain([_dump(line) for line in lines], key)


def hand_log_text(game: Game, **kwargs: Any) -> str:
    """:func:`hand_log` as the text of the file."""
    return log_text(hand_log(game, **kwargs))


def write_hand_log(
    path: str | os.PathLike[str],
    game: Game,
    *,
    ruleset: str,
    seed: int,
    setup: HandSetup | None = None,
    players: Sequence[str] | None = None,
    stopped: str = "stopped before the end",
    key: LogKey | None = None,
) -> Path:
    """Write :func:`hand_log` to ``path`` (atomically: a complete file or none) and
    return the path written.

    An existing file is never replaced: when ``path`` is taken the log goes to the next
    free name with a suffix (``hand.jsonl``, ``hand-2.jsonl``, ``hand-3.jsonl``, ...), at
    most :data:`MAX_NAME_ATTEMPTS` names; past them ``FileExistsError``."""
    text = hand_log_text(
        game,
        ruleset=ruleset,
        seed=seed,
        setup=setup,
        players=players,
        stopped=stopped,
        key=key,
    )
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        return _link_free_name(tmp, target)
    finally:
        Path(tmp).unlink(missing_ok=True)


MAX_NAME_ATTEMPTS: Final = 1000
"""Names tried for a new log (``name.jsonl``, then ``name-2.jsonl`` .. ``name-1000.jsonl``)."""


def _link_free_name(tmp: str, target: Path) -> Path:
    """Give the complete file ``tmp`` the first free name of ``target`` and its suffixed
    variants; a hard link never replaces an existing file (``FileExistsError``), so two
    writers never take the same name.  Where the file system has no hard links the name
    is created exclusively and the text copied."""
    stem, ext = target.stem, target.suffix
    for k in range(1, MAX_NAME_ATTEMPTS + 1):
        name = target if k == 1 else target.with_name(f"{stem}-{k}{ext}")
        try:
            os.link(tmp, name)
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            try:
                with open(name, "x", encoding="utf-8") as out:
                    out.write(Path(tmp).read_text(encoding="utf-8"))
            except FileExistsError:
                continue
        return name
    raise FileExistsError(
        errno.EEXIST,
        f"{target.name} and {stem}-2{ext} .. {stem}-{MAX_NAME_ATTEMPTS}{ext} are all taken",
        str(target),
    )


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class HandLog:
    """A parsed hand log: the header, every later line with its line number, and
    every line's bytes as in the file (for the chain and the signature)."""

    header: HeaderLine
    body: tuple[tuple[int, Line], ...]
    raw: tuple[bytes, ...] = field(default=(), repr=False)
    """Line ``k`` of the file is ``raw[k - 1]``, without its line end."""
    path: str = ""

    @property
    def events(self) -> list[EventLine]:
        return [line for _, line in self.body if isinstance(line, EventLine)]

    @property
    def result(self) -> ResultLine | None:
        return next((line for _, line in self.body if isinstance(line, ResultLine)), None)

    @property
    def seal(self) -> SealLine | None:
        last = self.body[-1][1] if self.body else None
        return last if isinstance(last, SealLine) else None


_MODELS: dict[str, type[BaseModel]] = {
    "header": HeaderLine,
    "event": EventLine,
    "result": ResultLine,
    "seal": SealLine,
}


def _validation_message(kind: str, exc: ValidationError) -> str:
    """The first problem of a line, naming the field; the input quoted as an excerpt."""
    err = exc.errors(include_url=False)[0]
    where = safejson.field_path(err["loc"])
    msg: str
    if err["type"] == "extra_forbidden":
        msg = Text(N_("unknown field"))
    elif err["type"] == "missing":
        msg = Text(N_("required field is missing"))
    else:
        msg = str(err["msg"]).removeprefix("Value error, ")
        if "input" in err and not isinstance(err["input"], dict | list):
            msg = Text(N_("{problem}, got {value}"), problem=msg, value=quote(err["input"]))
    if where:
        return Text(N_("{kind} line: {where}: {problem}"), kind=kind, where=where, problem=msg)
    return Text(N_("{kind} line: {problem}"), kind=kind, problem=msg)


def _parse_line(raw: bytes, lineno: int) -> Line:
    if not raw.strip():
        raise LogFormatError(lineno, Text(N_("empty line")))
    if len(raw) > MAX_LINE_BYTES:
        raise LogFormatError(
            lineno,
            Text(
                N_("the line is {size} bytes long: at most {most} are accepted"),
                size=len(raw),
                most=MAX_LINE_BYTES,
            ),
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogFormatError(
            lineno, Text(N_("not UTF-8 text (byte {byte} of the line)"), byte=exc.start + 1)
        ) from None
    try:
        data = safejson.loads(text, max_bytes=MAX_LINE_BYTES, max_depth=6)
    except safejson.JsonInputError as exc:
        raise LogFormatError(lineno, exc.text) from None
    if not isinstance(data, dict):
        raise LogFormatError(
            lineno, Text(N_("expected a JSON object, got {type}"), type=type(data).__name__)
        )
    kind = data.get("type")
    if lineno == 1 and kind != "header":
        raise LogFormatError(
            1,
            Text(
                N_("not a hand log: the first line should be the header, it is of type {kind}"),
                kind=quote(kind),
            ),
        )
    model = _MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise LogFormatError(
            lineno,
            Text(N_("unknown line type {kind}: header, event, result or seal"), kind=quote(kind)),
        )
    if model is HeaderLine:
        _check_format(data, lineno)
    try:
        return model.model_validate(data)  # type: ignore[return-value]
    except ValidationError as exc:
        raise LogFormatError(lineno, _validation_message(str(kind), exc)) from None


def _check_format(data: dict[str, Any], lineno: int) -> None:
    if data.get("format") != FORMAT:
        raise LogFormatError(
            lineno,
            Text(
                N_("not a hand log: format {value}, expected {format!r}"),
                value=quote(data.get("format")),
                format=FORMAT,
            ),
        )
    version = data.get("version")
    if version == 1:
        raise LogFormatError(
            lineno,
            Text(
                N_(
                    "hand-log version 1 cannot be replayed or verified: its wall was shuffled "
                    "by the old generator (Python's random.Random), which this program no "
                    "longer deals with; it reads version {version}"
                ),
                version=VERSION,
            ),
        )
    if version != VERSION:
        raise LogFormatError(
            lineno,
            Text(
                N_(
                    "hand-log version {value} is not supported "
                    "(this program reads version {version})"
                ),
                value=quote(version),
                version=VERSION,
            ),
        )


def _seat_ok(seat: int | None, seats: int) -> bool:
    return seat is None or 0 <= seat < seats


def _check_shape(header: HeaderLine, lineno: int, line: Line) -> None:
    """Every seat and per-seat list of ``line`` fits the header's table (so that
    nothing later indexes past it); :class:`LogFormatError` otherwise."""
    n = header.seats

    def fail(template: str, **params: object) -> None:
        raise LogFormatError(
            lineno,
            Text(
                N_("{kind} line: {problem} (the header has {n} seats)"),
                kind=line.type,
                problem=Text(template, **params),
                n=n,
            ),
        )

    no_seat = N_("{field}: no seat {seat}")
    entries = N_("{field} has {count} entries")
    if isinstance(line, HeaderLine):
        if len(line.players) != n:
            fail(N_("players has {count} names"), count=len(line.players))
        if not _seat_ok(line.dominant, n):
            fail(no_seat, field="dominant", seat=line.dominant)
        if line.hand is not None and len(line.hand.players) != n:
            fail(entries, field="hand.players", count=len(line.hand.players))
    elif isinstance(line, EventLine):
        if line.seat >= n:
            fail(no_seat, field="seat", seat=line.seat)
    elif isinstance(line, ResultLine):
        for name in ("winner", "discarder"):
            if not _seat_ok(getattr(line, name), n):
                fail(no_seat, field=name, seat=getattr(line, name))
        if len(line.hands) != n:
            fail(entries, field="hands", count=len(line.hands))
        if line.scores and len(line.scores) != n:
            fail(entries, field="scores", count=len(line.scores))
        for i, sc in enumerate(line.scores):
            if sc.seat != i:
                fail(N_("{field} is {seat}"), field=f"scores[{i}].seat", seat=sc.seat)
        st = line.settlement
        if st is not None:
            for name, values in (("scores", st.scores), ("balances", st.balances)):
                if len(values) != n:
                    fail(entries, field=f"settlement.{name}", count=len(values))
            for i, p in enumerate(st.payments):
                if not (_seat_ok(p.payer, n) and _seat_ok(p.payee, n)):
                    fail(no_seat, field=f"settlement.payments[{i}]", seat=max(p.payer, p.payee))


def parse_hand_log(data: bytes | str, path: str = "") -> HandLog:
    """Parse a hand log's bytes (or text); raises :class:`LogFormatError` naming the line."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_LOG_BYTES:
        raise LogFormatError(
            None,
            Text(
                N_("the file is {size} bytes long: a hand log has at most {most}"),
                size=len(data),
                most=MAX_LOG_BYTES,
            ),
        )
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise LogFormatError(None, Text(N_("the file is empty, not a hand log")))
    if len(lines) > MAX_LINES:
        raise LogFormatError(
            MAX_LINES + 1,
            Text(
                N_("a hand log has at most {most} lines, this one {count}"),
                most=MAX_LINES,
                count=len(lines),
            ),
        )
    parsed: list[tuple[int, Line]] = []
    for i, raw in enumerate(lines, start=1):
        parsed.append((i, _parse_line(raw, i)))
    first = parsed[0][1]
    assert isinstance(first, HeaderLine)
    for i, line in parsed:
        _check_shape(first, i, line)
    return HandLog(first, tuple(parsed[1:]), tuple(lines), path)


def read_hand_log(path: str | os.PathLike[str]) -> HandLog:
    """Read and parse a hand log file: a regular file of at most
    :data:`~mahjong_nts.formats.gamelog_schema.MAX_LOG_BYTES` (:class:`LogFormatError`
    when it is no hand log; ``OSError`` when it cannot be read)."""
    # non-blocking open: a FIFO is refused at once instead of waiting for a writer
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LogFormatError(None, Text(N_("not a regular file, not a hand log")))
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(MAX_LOG_BYTES + 1)
    if len(data) > MAX_LOG_BYTES:
        raise LogFormatError(
            None,
            Text(N_("the file is larger than {most} bytes: not a hand log"), most=MAX_LOG_BYTES),
        )
    return parse_hand_log(data, str(path))


# --------------------------------------------------------------------------- verifying


class Signed(enum.Enum):
    """What verifying found out about the log's signature."""

    UNSIGNED = "unsigned"
    """The seal carries no signature: anyone could have written the log."""
    UNCHECKED = "unchecked"
    """Signed, but no key was given to check it with."""
    VALID = "valid"
    """Signed by the key given, and the signature fits every byte before the seal."""


@dataclass
class Verified:
    """A log that holds: its chain, its signature (as far as checked), its seed and
    every line agree with the replay."""

    events: int
    over: bool
    seed: int
    signed: Signed
    signed_by: str | None
    """``ed25519 key 1a2b3c4d5e6f7a8b`` for a signed log, else ``None``."""
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
    return Text(N_("a {kind} line"), kind=line.type)


_EVENT_OR_RESULT: Final = Text(N_("an event or the result line"))
_NOTHING: Final = Text(N_("nothing (it ends)"))
_CUT_SHORT: Final = Text(N_("the log is cut short"))


def _first_difference(expected: Any, found: Any, path: str = "") -> tuple[str, Any, Any] | None:
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(expected.keys() | found.keys()):
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
    """The header's rule set, if it is a shipped one (with overlays): a log never
    makes replay read a file (a path in a log could name ``/dev/zero`` or a FIFO)."""
    head = header.ruleset.split("+", 1)[0].strip()
    if head not in SHIPPED:
        raise LogFormatError(
            1,
            Text(
                N_(
                    "ruleset {value} is no shipped rule set (a house-rule "
                    "file?); a log never makes replay read a file: give the rule set "
                    "(replay --ruleset FILE)"
                ),
                value=quote(header.ruleset),
            ),
        )
    try:
        return load_untrusted(header.ruleset)
    except MahjongError as exc:
        raise LogFormatError(1, Text(N_("ruleset: {problem}"), problem=exc.text)) from None


def _check_chain(log: HandLog) -> None:
    """Every line after the header carries the SHA-256 of the line before it."""
    for lineno, line in log.body:
        want = line_digest(log.raw[lineno - 2])
        got = getattr(line, "prev", None)
        if got != want:
            raise LogMismatch(
                lineno,
                Text(
                    N_("prev {digest}... (the SHA-256 of line {before})"),
                    digest=want[:16],
                    before=lineno - 1,
                ),
                Text(N_("no prev")) if got is None else f"prev {got[:16]}...",
                Text(
                    N_(
                        "the hash chain is broken: line {before} or line {line} was changed, "
                        "or a line was added or removed there"
                    ),
                    before=lineno - 1,
                    line=lineno,
                ),
            )


def _check_order(log: HandLog) -> tuple[int, ResultLine, int, SealLine]:
    """The lines after the header: events, then the result, then the seal, then nothing."""
    body = log.body
    last = body[-1][0] if body else 1
    result: tuple[int, ResultLine] | None = None
    for lineno, line in body:
        if isinstance(line, SealLine):
            if result is None:
                raise LogMismatch(lineno, _EVENT_OR_RESULT, Text(N_("the seal line")))
            if lineno != last:
                raise LogMismatch(
                    lineno + 1,
                    Text(N_("the end of the log (after the seal)")),
                    Text(N_("more lines")),
                )
            return result[0], result[1], lineno, line
        if result is not None:
            raise LogMismatch(
                lineno,
                Text(N_("the seal line (the result is line {line})"), line=result[0]),
                _line_text(line),
            )
        if isinstance(line, ResultLine):
            result = (lineno, line)
        elif not isinstance(line, EventLine):
            raise LogMismatch(lineno, _EVENT_OR_RESULT, _line_text(line))
    if result is None:
        raise LogMismatch(
            last + 1,
            Text(N_("the result line (it reveals the seed) and the seal line")),
            _NOTHING,
            _CUT_SHORT,
        )
    raise LogMismatch(last + 1, Text(N_("the seal line")), _NOTHING, _CUT_SHORT)


def _check_signature(
    log: HandLog, seal_line: int, seal: SealLine, key: LogKey | None
) -> tuple[Signed, str | None]:
    sig = seal.signature
    if sig is None:
        if key is not None:
            raise LogMismatch(
                seal_line,
                Text(N_("a signature by {key}"), key=key.describe()),
                Text(N_("no signature")),
                Text(N_("the log is not signed")),
            )
        return Signed.UNSIGNED, None
    by = f"{sig.alg} key {sig.key_id}"
    if key is None:
        return Signed.UNCHECKED, by
    body = b"".join(raw + b"\n" for raw in log.raw[: seal_line - 1])
    found = logkeys.check(key, SIGNED_PREFIX + body, sig.alg, sig.key_id, sig.value)
    if found is logkeys.Check.OTHER_KEY:
        raise LogMismatch(
            seal_line,
            Text(N_("a signature by {key}"), key=key.describe()),
            Text(N_("a signature by {key}"), key=by),
            Text(N_("signed by another key")),
        )
    if found is logkeys.Check.INVALID:
        raise LogMismatch(
            seal_line,
            Text(N_("a valid signature by {key}"), key=key.describe()),
            Text(N_("a signature that does not fit the log")),
            Text(N_("the log was changed after it was signed")),
        )
    return Signed.VALID, by


def _check_rules(header: HeaderLine, rules: RuleSet) -> None:
    if rules.name != header.ruleset_name:
        raise LogMismatch(1, f"ruleset_name {rules.name!r}", quote(header.ruleset_name))
    digest = rules_digest(rules)
    if digest != header.rules_digest:
        raise LogMismatch(
            1,
            Text(
                N_("rules_digest {digest} (the rule set's values have changed since)"),
                digest=digest,
            ),
            header.rules_digest,
        )
    if rules.table.players != header.seats:
        raise LogMismatch(1, f"seats {rules.table.players}", str(header.seats))


def _check_header(header: HeaderLine, rules: RuleSet) -> None:
    """What a header may say at all: a dominant player only in a green-dragon hand,
    and a match's ``hand`` block that fits the table, the round wind and the seats."""
    green = header.round_wind == "F"
    if header.dominant is not None and not green:
        raise LogMismatch(
            1,
            "dominant null",
            f"dominant {header.dominant}",
            Text(N_("only a green-dragon hand (round wind F) has a dominant player")),
        )
    if green and rules.table.green_dragon == "none":
        raise LogMismatch(
            1,
            Text(N_("a round wind of {winds}"), winds=rules.table.winds),
            "round_wind F",
            Text(N_("{rules} plays no green-dragon hands"), rules=rules.name),
        )
    hand = header.hand
    if hand is not None:
        _check_hand_block(header, hand, rules)


def _check_hand_block(header: HeaderLine, hand: HandInfo, rules: RuleSet) -> None:
    table = rules.table
    total = table.players + (1 if table.dreamer else 0)
    east = hand.players[0]
    seating = [(east + k) % total for k in range(table.players)]
    if east >= total or hand.players != seating:
        raise LogMismatch(
            1,
            f"hand.players {seating}"
            if east < total
            else Text(N_("hand.players of players 0 to {last}"), last=total - 1),
            f"hand.players {hand.players}",
            Text(N_("the players sit in turn from East")),
        )
    dreamer = (east - 1) % total if table.dreamer else None
    if hand.dreamer != dreamer:
        raise LogMismatch(
            1,
            f"hand.dreamer {quote(dreamer)}",
            f"hand.dreamer {quote(hand.dreamer)}",
            Text(N_("the dreamer is the player before East"))
            if table.dreamer
            else Text(N_("no one dreams")),
        )
    dominant = None if header.dominant is None else hand.players[header.dominant]
    if hand.dominant != dominant:
        raise LogMismatch(
            1,
            f"hand.dominant {quote(dominant)}",
            f"hand.dominant {quote(hand.dominant)}",
            Text(N_("the dominant player sits at the header's dominant seat")),
        )
    green = header.round_wind == "F"
    if green and header.dominant is None:
        raise LogMismatch(
            1,
            Text(N_("a dominant seat")),
            "dominant null",
            Text(N_("a match's green-dragon hand has one")),
        )
    rounds = table.rounds + (1 if table.green_dragon == "final_round" else 0)
    if hand.round >= rounds:
        raise LogMismatch(
            1, Text(N_("hand.round below {rounds}"), rounds=rounds), f"hand.round {hand.round}"
        )
    wind = "E" if table.round_wind == "east" else WINDS[hand.round % len(table.winds)].token
    final = hand.round >= table.rounds  # the green-dragon round of a five-player match
    if table.green_dragon == "final_round" and green != final:
        raise LogMismatch(
            1,
            "round_wind F" if final else f"round_wind {wind}",
            f"round_wind {header.round_wind}",
            Text(
                N_("the wind of round {round} of {rules}"), round=hand.round + 1, rules=rules.name
            ),
        )
    if not green and header.round_wind != wind:
        raise LogMismatch(
            1,
            f"round_wind {wind}",
            f"round_wind {header.round_wind}",
            Text(
                N_("the wind of round {round} of {rules}"), round=hand.round + 1, rules=rules.name
            ),
        )


def _action(line: EventLine) -> Action:
    tile = parse_tile(line.tiles) if line.tiles else None
    return action(ActionKind[line.kind.upper()], tile)


def _legal_text(game: Game) -> str:
    legal = ", ".join(str(a) for a in game.legal_actions())
    if len(legal) > 200:
        legal = legal[:197] + "..."
    return Text(N_("an action of seat {seat} ({legal})"), seat=game.current_seat, legal=legal)


def new_game(header: HeaderLine, rules: RuleSet, seed: int) -> Game:
    """The game a header describes, dealt from ``seed`` and ready for its first action."""
    return Game(
        rules,
        SeedRng(seed),
        round_wind=parse_tile(header.round_wind),
        dominant=header.dominant,
    )


def verify_hand_log(
    log: HandLog, *, rules: RuleSet | None = None, key: LogKey | None = None
) -> Verified:
    """Check ``log`` and re-play it; :class:`LogMismatch` at the first line that does not hold.

    In this order: the hash chain (every ``prev``); the order of the lines
    (events, result, seal); the signature, when ``key`` is given (a log that is
    unsigned or signed by another key does not verify then); the revealed seed
    against the header's commitment; the header against the rule set and itself
    (dominant player, the match's ``hand`` block); then the replay: every event
    line and the result line must be what the game dealt from the seed makes of
    the logged actions.  A changed action that is itself legal changes the hand
    from there on; it is reported at the first line that no longer fits.

    ``rules`` is the rule set to replay with; without it the header's spec is
    loaded, but only a shipped name (a log never makes this read a file):
    :class:`LogFormatError` for a spec that names a file or cannot be loaded.
    """
    header = log.header
    _check_chain(log)
    result_no, logged, seal_no, seal = _check_order(log)
    signed, signed_by = _check_signature(log, seal_no, seal, key)
    commitment = seed_commitment(logged.seed)
    if commitment != header.seed_commitment:
        raise LogMismatch(
            result_no,
            Text(
                N_("the seed committed to in line 1 ({digest}...)"),
                digest=header.seed_commitment[:16],
            ),
            Text(
                N_("seed {seed}, whose commitment is {digest}..."),
                seed=quote(logged.seed),
                digest=commitment[:16],
            ),
            Text(N_("the revealed seed is not the one the header committed to")),
        )
    if rules is None:
        rules = _load_rules(header)
    _check_rules(header, rules)
    _check_header(header, rules)
    try:
        game = new_game(header, rules, logged.seed)
    except MahjongError as exc:
        raise LogMismatch(1, Text(N_("a header the game can be dealt from")), exc.text) from None
    events = game.events
    i = 0
    for lineno, line in log.body:
        if lineno >= result_no:
            break
        assert isinstance(line, EventLine)
        if i >= len(events):
            if game.is_over:
                raise LogMismatch(
                    lineno, Text(N_("the result line (the hand is over)")), _line_text(line)
                )
            if not line.decided or line.kind not in DECIDED_KINDS:
                raise LogMismatch(lineno, _legal_text(game), _line_text(line))
            if line.seat != game.current_seat:
                raise LogMismatch(lineno, _legal_text(game), _line_text(line))
            try:
                game.apply(_action(line))
            except MahjongError:  # InvalidTile, InvalidAction, IllegalAction
                raise LogMismatch(lineno, _legal_text(game), _line_text(line)) from None
        expected = event_line(events[i], i, line.prev)
        if expected != line:
            raise LogMismatch(lineno, event_text(expected), _line_text(line))
        i += 1
    if i < len(events):
        raise LogMismatch(
            result_no, event_text(event_line(events[i], i)), Text(N_("the result line"))
        )
    if game.is_over and not logged.over:
        raise LogMismatch(
            result_no,
            Text(
                N_("over true (the hand is over: {reason})"),
                reason=game.result.reason,  # type: ignore[union-attr]
            ),
            "over false",
            Text(N_("a finished hand written as stopped")),
        )
    expected_result = result_line(game, seed=logged.seed, stopped=logged.reason, prev=logged.prev)
    diff = _first_difference(
        expected_result.model_dump(mode="json"), logged.model_dump(mode="json")
    )
    if diff is not None:
        where, want, got = diff
        raise LogMismatch(result_no, f"{where} {quote(want)}", f"{where} {quote(got)}")
    return Verified(
        events=i,
        over=game.is_over,
        seed=logged.seed,
        signed=signed,
        signed_by=signed_by,
        game=game,
    )
