"""A table's settings, as a client asks for them (``POST /api/online/tables``) and as
the table keeps them: checked here, once, before anything is stored.

The rule set is a shipped name with overlays (``nmb-2009+three-players``) or house rules
given inline as an object (as in a JSON request: ``{"base": "nts-2016", "scoring":
{...}}``), never a file.  Its number of players (3, 4, or 5 with a dreamer) is the
number of seats.  The hand logs of a table of house rules name the rule set as the file
the table offers them in (:func:`house_file_name`), which ``replay --verify --ruleset
FILE`` checks them with (``replay`` loads shipped sets only by itself).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mahjong_nts.bots import BOTS
from mahjong_nts.core.errors import MahjongError, quote
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.formats import wire
from mahjong_nts.formats.rulefiles import MAX_REQUEST_SPEC_CHARS, SHIPPED, load_untrusted
from mahjong_nts.online.limits import CLAIM_SECONDS, MAX_HANDS, TURN_SECONDS

__all__ = [
    "BOT_LEVELS",
    "SeatSpec",
    "SettingsError",
    "TableSettings",
    "check_settings",
    "house_file_name",
    "rules_of",
    "ruleset_label",
]

BotLevel = Literal["strong", "normal", "easy", "heuristic", "random"]
BOT_LEVELS: tuple[str, ...] = ("strong", "normal", "easy", "heuristic", "random")
"""The bots a table offers, strongest first (the levels of :mod:`mahjong_nts.bots.strong`,
then the heuristic and the random bot)."""
assert set(BOT_LEVELS) <= set(BOTS)


class SettingsError(ValueError):
    """Settings a table cannot be made with; the message names the field."""


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    kind: Literal["human", "bot"]
    bot: BotLevel | None = None
    """The bot of a bot seat (default ``heuristic``); a human seat has none."""


class TableSettings(BaseModel):
    """What a table is played with (docs/online.md has each field)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    ruleset: (
        Annotated[str, Field(min_length=1, max_length=MAX_REQUEST_SPEC_CHARS)] | dict[str, Any]
    ) = wire.DEFAULT_RULESET_NAME
    """A shipped name with overlays, or house rules inline (bounded by
    :func:`~mahjong_nts.formats.rulefiles.load_untrusted`)."""
    seats: tuple[SeatSpec, ...] | None = None
    """One per player of the rule set; ``None``: every seat human."""
    bot: BotLevel = "heuristic"
    """The bot that plays for a human who timed out."""
    turn_seconds: Annotated[int, Field(ge=TURN_SECONDS[0], le=TURN_SECONDS[1])] | None = 30
    claim_seconds: Annotated[int, Field(ge=CLAIM_SECONDS[0], le=CLAIM_SECONDS[1])] | None = 10
    hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] | None = None
    """Hands to play; ``None``: the whole match."""
    public: bool = False
    hints: bool = False

    def data(self) -> dict[str, Any]:
        """As stored (and as :func:`check_settings` reads it back)."""
        return self.model_dump(mode="json")


def rules_of(spec: str | dict[str, Any]) -> RuleSet:
    """The rule set of a table's ``ruleset`` setting (:class:`SettingsError` if bad)."""
    if isinstance(spec, dict):
        try:
            return load_untrusted(spec, "ruleset")
        except MahjongError as exc:
            raise SettingsError(wire.short_message(str(exc))) from None
    head = spec.split("+", 1)[0].strip()
    if head not in SHIPPED:
        raise SettingsError(
            f"ruleset: {quote(spec)} is not a shipped rule set (one of {', '.join(SHIPPED)}, "
            "with overlays such as +flowers, +three-players, +five-players)"
        )
    try:
        return wire.load_rules(spec)
    except MahjongError as exc:
        raise SettingsError(f"ruleset: {wire.short_message(str(exc))}") from None


def check_settings(data: object) -> tuple[TableSettings, RuleSet]:
    """The settings of a new table (a JSON object), checked, with their rule set; every
    seat filled in (``bot`` of a bot seat made explicit).  :class:`SettingsError`
    naming the field when they cannot be played."""
    if not isinstance(data, dict):
        raise SettingsError("the settings are a JSON object")
    if isinstance(data.get("seats"), list):
        data = {**data, "seats": tuple(data["seats"])}
    try:
        settings = TableSettings.model_validate(data)
    except ValidationError as exc:
        raise SettingsError(wire.error_message(exc)) from None
    rules = rules_of(settings.ruleset)
    players = rules.table.players + (1 if rules.table.dreamer else 0)
    seats = settings.seats
    if seats is None:
        seats = tuple(SeatSpec(kind="human") for _ in range(players))
    if len(seats) != players:
        raise SettingsError(
            f"seats: {rules.name} is played by {players}, so give {players} seats, not "
            f"{len(seats)} (three players: +three-players, five: +five-players)"
        )
    filled = []
    for i, seat in enumerate(seats):
        if seat.kind == "human" and seat.bot is not None:
            raise SettingsError(f"seats[{i}].bot: a human seat has no bot")
        filled.append(
            seat if seat.kind == "human" else SeatSpec(kind="bot", bot=seat.bot or "heuristic")
        )
    return settings.model_copy(update={"seats": tuple(filled)}), rules


def house_file_name(rules: RuleSet) -> str:
    """The file name a table's house rules are offered in (and its logs name):
    the rule set's name in letters, digits, ``.``, ``_`` and ``-``, with ``.toml``."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", rules.name).strip("-.")[:60]
    return f"{stem or 'house-rules'}.toml"


def ruleset_label(ruleset: str | dict[str, Any], rules: RuleSet) -> str:
    """How a table names its rule set (the lobby, its state, its hand logs): the
    shipped spec as given, or for house rules the file they are offered in."""
    return ruleset if isinstance(ruleset, str) else house_file_name(rules)
