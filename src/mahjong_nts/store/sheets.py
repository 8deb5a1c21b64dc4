"""The evening score sheets in the store: create one, add a hand, correct a hand,
read a sheet back with its rows computed by :mod:`mahjong_nts.sheet`.

Each function is one transaction.  Bad input raises
:class:`~mahjong_nts.sheet.SheetError` (naming the field) and stores nothing;
an unknown token :class:`~mahjong_nts.store.db.NotFound`; a correction made
against an old version of a hand, or a hand added at the same moment by
someone else, :class:`~mahjong_nts.store.db.Conflict`.  Answers are frozen
values, never table rows.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Final

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.formats import wire
from mahjong_nts.sheet import (
    MAX_HANDS,
    Entry,
    Row,
    Sheet,
    SheetError,
    check_chip,
    check_entry,
    check_names,
    compute,
)
from mahjong_nts.store.db import Conflict, NotFound, Store, StoreError
from mahjong_nts.store.entries import entry_from_json, entry_to_json, score_hands
from mahjong_nts.store.models import TOKEN_CHARS, SheetChange, SheetHand, SheetSession

__all__ = [
    "Change",
    "HandView",
    "SessionInfo",
    "SheetView",
    "add_hand",
    "changes",
    "correct_hand",
    "create_session",
    "get_sheet",
    "new_token",
    "sheet_version",
]

TOKEN_BYTES: Final = 24
"""Random bytes in a share token (``secrets.token_urlsafe``: 32 characters)."""

_TOKEN_ALPHABET: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)


@dataclass(frozen=True, slots=True)
class SessionInfo:
    token: str
    """The share link's secret: whoever has it reads and writes the sheet."""
    names: tuple[str, ...]
    ruleset_name: str
    chip: Decimal | None
    """Cents per point, or ``None``."""
    created: datetime


@dataclass(frozen=True, slots=True)
class HandView:
    number: int
    """0-based position on the sheet."""
    version: int
    """1 when entered, one more with each correction: a correction names it."""
    entry: dict[str, Any]
    """The current entry as JSON (see :mod:`mahjong_nts.store.entries`)."""
    row: Row
    created: datetime
    updated: datetime


@dataclass(frozen=True, slots=True)
class SheetView:
    session: SessionInfo
    sheet: Sheet
    hands: tuple[HandView, ...]

    @property
    def rows(self) -> tuple[Row, ...]:
        return tuple(h.row for h in self.hands)

    @property
    def version(self) -> int:
        """How often the sheet was written (:func:`sheet_version`) when it was read."""
        return sum(h.version for h in self.hands)


@dataclass(frozen=True, slots=True)
class Change:
    number: int
    version: int
    """The version of the hand this change made."""
    old_entry: dict[str, Any]
    new_entry: dict[str, Any]
    changed: datetime


def new_token() -> str:
    """An unguessable share token (192 random bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime) -> datetime:
    """SQLite gives back naive times: they are UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _chip_milli(chip: Decimal | None) -> int | None:
    return None if chip is None else int(chip * 1000)


def _chip(milli: int | None) -> Decimal | None:
    return None if milli is None else (Decimal(milli) / 1000).normalize()


def create_session(
    store: Store,
    *,
    names: Sequence[object],
    ruleset: object = wire.DEFAULT_RULESET_NAME,
    chip: object = None,
) -> SessionInfo:
    """Start a sheet: the players' names (player 0 is East first), the rule set as
    a shipped name with overlays or house rules inline (never a file), and the
    chip value in cents per point (``None``: no money)."""
    try:
        rules = wire.load_rules(ruleset)
    except MahjongError as exc:
        raise SheetError("ruleset", wire.short_text(exc.text)) from None
    checked = check_names(names, rules)
    cents = check_chip(chip)
    now = _now()
    row = SheetSession(
        token=new_token(),
        names=list(checked),
        ruleset_name=rules.name,
        ruleset=rules.to_mapping(),
        chip_milli=_chip_milli(cents),
        created=now,
    )
    with store.transaction() as session:
        session.add(row)
    return _info(row)


def _info(row: SheetSession) -> SessionInfo:
    return SessionInfo(
        token=row.token,
        names=tuple(row.names),
        ruleset_name=row.ruleset_name,
        chip=_chip(row.chip_milli),
        created=_aware(row.created),
    )


def _check_token(token: object) -> str:
    if (
        not isinstance(token, str)
        or not 0 < len(token) <= TOKEN_CHARS
        or not set(token) <= _TOKEN_ALPHABET
    ):
        raise NotFound("no sheet has this link")
    return token


def _load(session: Session, token: object, *, lock: bool = False) -> SheetSession:
    query = select(SheetSession).where(SheetSession.token == _check_token(token))
    if lock:
        query = query.with_for_update()
    row = session.scalars(query).one_or_none()
    if row is None:
        raise NotFound("no sheet has this link")
    return row


def _sheet(row: SheetSession) -> Sheet:
    try:
        rules = RuleSet.from_mapping(row.ruleset, f"the rule set of sheet {row.ruleset_name!r}")
        return Sheet(tuple(row.names), rules, _chip(row.chip_milli))
    except MahjongError as exc:
        raise StoreError(f"this sheet's stored rule set is no longer valid: {exc}") from None


def _hands(session: Session, row: SheetSession) -> list[SheetHand]:
    query = select(SheetHand).where(SheetHand.session_id == row.id).order_by(SheetHand.position)
    return list(session.scalars(query))


def _entries(hands: Sequence[SheetHand]) -> list[Entry]:
    out: list[Entry] = []
    for h in hands:
        try:
            out.append(entry_from_json(h.entry))
        except MahjongError as exc:
            raise StoreError(f"hand {h.position + 1} is stored wrong: {exc}") from None
    return out


def _view(row: SheetSession, hands: Sequence[SheetHand]) -> SheetView:
    sheet = _sheet(row)
    rows = compute(sheet, _entries(hands), score_hands)
    return SheetView(
        session=_info(row),
        sheet=sheet,
        hands=tuple(
            HandView(
                number=h.position,
                version=h.version,
                entry=h.entry,
                row=r,
                created=_aware(h.created),
                updated=_aware(h.updated),
            )
            for h, r in zip(hands, rows, strict=True)
        ),
    )


def get_sheet(store: Store, token: str) -> SheetView:
    """A sheet with every hand and its computed row."""
    with store.transaction() as session:
        row = _load(session, token)
        return _view(row, _hands(session, row))


def sheet_version(store: Store, token: str) -> int:
    """How often the sheet was written: one for each hand added and one for each
    correction (the sum of its hands' versions; 0 for a new sheet).  It only grows,
    so a page showing the sheet at version ``v`` is up to date while this is ``v``:
    two small queries, for the live sheet's polling (its ETag)."""
    with store.transaction() as session:
        found = session.scalar(
            select(SheetSession.id).where(SheetSession.token == _check_token(token))
        )
        if found is None:
            raise NotFound("no sheet has this link")
        total = session.scalar(
            select(func.coalesce(func.sum(SheetHand.version), 0)).where(
                SheetHand.session_id == found
            )
        )
        return int(total or 0)


def add_hand(store: Store, token: str, entry: Mapping[str, Any]) -> HandView:
    """Add the next hand (checked in its place first: nothing is stored when it
    is wrong).  A sheet holds at most :data:`~mahjong_nts.sheet.MAX_HANDS` hands."""
    new = entry_from_json(entry)
    try:
        with store.transaction() as session:
            row = _load(session, token, lock=True)
            count = session.scalar(
                select(func.count()).select_from(SheetHand).where(SheetHand.session_id == row.id)
            )
            assert count is not None
            if count >= MAX_HANDS:
                raise SheetError("hands", f"a sheet holds at most {MAX_HANDS} hands")
            hands = _hands(session, row)
            entries = [*_entries(hands), new]
            result = check_entry(_sheet(row), entries, count, score_hands)
            now = _now()
            hand = SheetHand(
                session_id=row.id,
                position=count,
                entry=entry_to_json(new),
                version=1,
                created=now,
                updated=now,
            )
            session.add(hand)
            session.flush()
    except IntegrityError:
        raise Conflict(
            "another hand was added to this sheet at the same moment: reload the sheet"
        ) from None
    return HandView(count, 1, hand.entry, result, now, now)


def correct_hand(
    store: Store, token: str, number: int, entry: Mapping[str, Any], *, version: int
) -> HandView:
    """Correct hand ``number`` (0-based), whose version the corrector saw is
    ``version``: the new entry and a history row in one transaction.  The
    corrected hand must fit in its place; the hands after it are computed again
    (one that fits no longer shows its problem on the sheet).  A stale
    ``version`` is a :class:`Conflict`: someone corrected the hand first."""
    new = entry_from_json(entry)
    if isinstance(number, bool) or not isinstance(number, int):
        raise SheetError("hand", "a hand is a number")
    if isinstance(version, bool) or not isinstance(version, int):
        raise SheetError("version", "a version is a number")
    with store.transaction() as session:
        row = _load(session, token, lock=True)
        hands = _hands(session, row)
        if not 0 <= number < len(hands):
            raise NotFound(f"this sheet has no hand {number + 1}")
        hand = hands[number]
        if hand.version != version:
            raise Conflict(_stale(number, version, hand.version))
        entries = _entries(hands)
        entries[number] = new
        result = check_entry(_sheet(row), entries, number, score_hands)
        old_json, new_json = hand.entry, entry_to_json(new)
        now = _now()
        done = session.execute(
            update(SheetHand)
            .where(SheetHand.id == hand.id, SheetHand.version == version)
            .values(entry=new_json, version=version + 1, updated=now)
            .execution_options(synchronize_session=False)
        )
        if getattr(done, "rowcount", 0) != 1:
            raise Conflict(_stale(number, version, None))
        session.add(
            SheetChange(
                hand_id=hand.id,
                version=version + 1,
                old_entry=old_json,
                new_entry=new_json,
                changed=now,
            )
        )
        created = _aware(hand.created)
    return HandView(number, version + 1, new_json, result, created, now)


def _stale(number: int, seen: int, current: int | None) -> str:
    now = f" (it is at version {current})" if current is not None else ""
    return (
        f"hand {number + 1} was corrected by someone else since version {seen}{now}: "
        "reload the sheet and correct it again"
    )


def changes(store: Store, token: str, number: int | None = None) -> tuple[Change, ...]:
    """The history of corrections, oldest first: of one hand, or of the sheet."""
    with store.transaction() as session:
        row = _load(session, token)
        query = (
            select(SheetChange, SheetHand.position)
            .join(SheetHand, SheetChange.hand_id == SheetHand.id)
            .where(SheetHand.session_id == row.id)
            .order_by(SheetChange.id)
        )
        if number is not None:
            query = query.where(SheetHand.position == number)
        return tuple(
            Change(pos, ch.version, ch.old_entry, ch.new_entry, _aware(ch.changed))
            for ch, pos in session.execute(query).all()
        )
