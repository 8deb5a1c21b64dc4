"""``mahjong-nts play``: you against bots in the terminal.

Each prompt shows the table as your seat sees it and your legal actions by
number; type a number, or an action in notation (``d b3``, ``discard b3``,
``pung``, ``c b2``, ``m``, ``x`` to pass); ``?`` for help, ``q`` to quit.  The
one-letter shortcuts are lowercase; capital letters are tiles (``P`` the white
dragon, ``C`` the red one).  A hand's report stays on screen until Enter.  Every
hand is logged (``mahjong-nts replay --verify`` checks the log); quitting, end of
input (Ctrl-D) and Ctrl-C, at any prompt, end the session cleanly and save the
log of the hand in play too.  Input is read line by line, so a pipe can drive a
session.  Every text is in the language of the run (``--lang nl``: Dutch); the
words typed are the same in both (the Dutch ``weggooien``, ``passen``, ``stop``
are understood too).
"""

from __future__ import annotations

import contextlib
import re
import secrets
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from mahjong_nts.bots import BOTS, Player
from mahjong_nts.bots.loader import make_named_bot
from mahjong_nts.cli.i18n import N_, _, current
from mahjong_nts.cli.options import (
    LangOpt,
    UsageProblem,
    bots_option,
    check_bot_option,
    check_lang,
    check_log_folder,
    error,
    fail,
    os_reason,
    rules_option,
    said,
    signing_key,
)
from mahjong_nts.cli.render import print_score, print_settlement
from mahjong_nts.cli.tableview import (
    YOU,
    action_text,
    action_word,
    event_text,
    player_name,
    render_table,
    seat_label,
    stop_reason_text,
    wind_text,
)
from mahjong_nts.core.actions import Action, ActionKind, parse_action
from mahjong_nts.core.errors import InvalidAction, InvalidTile, MahjongError, quote
from mahjong_nts.core.game import Event, Game
from mahjong_nts.core.match import HandSetup, Match
from mahjong_nts.core.notation import format_hand, glyphs
from mahjong_nts.core.observation import observe, visible_events
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import (
    DEFAULT_SEED_BITS,
    SeedRng,
    check_seed,
    derive_seed,
    seed_commitment,
)
from mahjong_nts.core.tiles import WINDS, parse_tile
from mahjong_nts.formats import gamelog, wire
from mahjong_nts.formats.logkeys import LogKey
from mahjong_nts.formats.safejson import printable

__all__ = ["HELP", "KEYS", "parse_choice", "play_cmd"]

KEYS = N_(
    "Type the number of an action, or the action itself: 'd b3' or 'discard b3' "
    "(or just 'b3') to discard, 'p' pung, 'k b3' kong, 'c b2' chow (by its lowest tile), "
    "'m' mahjong, 'x' or 'pass' to let a discard go.  The one-letter shortcuts are "
    "lowercase (d p k c m x q); capital letters are tiles as in the notation: 'P' is the "
    "white dragon, 'C' the red one ('d P', or just 'P', discards it).  'q' quits (the log "
    "is saved).  Under rode-draak, 'announce b3' announces the lucky thirteen (waiting since "
    "the deal) and discards b3."
)
"""How to type a move: shown when a session starts and at ``?``."""

HELP = (
    N_(
        "Play against bots in the terminal: you and three bots (two at a three-player "
        "table).  Every hand is logged; 'mahjong-nts replay --verify' checks a log."
    )
    + "\n\n"
    + KEYS
)
"""The command's help: what it does, then :data:`KEYS` (translated paragraph by paragraph)."""

_SHORT = {
    "d": "discard",
    "p": "pung",
    "k": "kong",
    "c": "chow",
    "m": "mahjong",
    "mj": "mahjong",
    "x": "pass",
    "-": "pass",
}
"""Shortcuts, lowercase only: ``P`` and ``C`` are tiles (the white and red dragon)."""

_DUTCH = {
    "weggooien": "discard",
    "gooi": "discard",
    "passen": "pass",
    "pas": "pass",
    "aankondigen": "announce",
    "stop": "quit",
    "stoppen": "quit",
    "hulp": "help",
}
"""Dutch words for an action (the names the Dutch menu shows), read in any language."""

QUIT = "quit"
_ACTION_WORDS = frozenset(k.word for k in ActionKind)
_QUIT_WORDS = frozenset({"quit", "exit"})
_HELP_WORDS = frozenset({"help", "?"})
_WORDS = _ACTION_WORDS | _QUIT_WORDS | _HELP_WORDS
"""Whole words, read in any case (``PUNG``, ``Discard``; the Dutch ones of :data:`_DUTCH`)."""
_NUMBER = re.compile(r"[0-9]+")
"""An action's number: ASCII digits only (``str.isdigit`` also takes ``²``)."""
MAX_HANDS = 1000
"""``--hands`` at most (a whole match, whatever its length, is ``--match``)."""
MAX_INPUT = 200
"""Longest line read as a choice: at most one character more is read, the rest of a
longer line is skipped unread into memory, and the line gets one short hint."""
_SKIP_CHUNK = 1 << 16
"""Characters read at a time while skipping the rest of a line that is too long."""


class TooLong(ValueError):
    """A line longer than :data:`MAX_INPUT`; ``start`` is its first characters."""

    def __init__(self, start: str) -> None:
        super().__init__(start)
        self.start = start


def read_line(console: Console, prompt: str, stream: Any = None) -> str:
    """A line from ``stream`` (stdin) after ``prompt``, without its line end.

    At most ``MAX_INPUT + 1`` characters of a line are kept: the rest of a longer line
    is read in bounded chunks and dropped, then :class:`TooLong` is raised, so a line of
    any length takes bounded memory and the next line is read as usual.  End of input
    raises :class:`EOFError`."""
    console.print(prompt, end="", markup=False, highlight=False)
    console.file.flush()
    stream = sys.stdin if stream is None else stream
    line: str = stream.readline(MAX_INPUT + 1)
    if not line:
        raise EOFError
    if line.endswith("\n"):
        return line[:-1].removesuffix("\r")
    if len(line) <= MAX_INPUT:  # the last line, without a line end
        return line
    while True:  # the rest of a line that is too long: skipped
        rest = stream.readline(_SKIP_CHUNK)
        if not rest or rest.endswith("\n"):
            break
    raise TooLong(line[:MAX_INPUT])


class Choice(ValueError):
    """Input that is no legal action now; the message is the hint to show."""


def _word(text: str) -> str:
    """A command word as read: a whole word in lowercase, a shortcut spelled out; a
    capital letter or anything else as typed (a tile, perhaps)."""
    low = text.lower()
    if low in _WORDS:
        return low
    if low in _DUTCH:
        return _DUTCH[low]
    if text in ("q", "h"):
        return "quit" if text == "q" else "help"
    return _SHORT.get(text, text)


def parse_choice(text: str, legal: Sequence[Action]) -> Action | str:
    """The legal action ``text`` names (a number, notation or a short form), or
    ``QUIT``; raises :class:`Choice` with a hint otherwise.

    Shortcuts are lowercase letters; a capital letter is a tile (``P`` the white
    dragon, ``C`` the red one), so ``P`` discards the white dragon and ``p`` pungs."""
    if len(text) > MAX_INPUT:
        raise Choice(
            _("that is {n} characters; type the number of an action (? for help)").format(
                n=len(text)
            )
        )
    words = text.split()
    if not words:
        raise Choice(_("type the number of an action (? for help)"))
    words[0] = _word(words[0])
    if words[0] in _QUIT_WORDS:
        return QUIT
    if words[0] in _HELP_WORDS:
        raise Choice(_(KEYS))
    if len(words) == 1 and _NUMBER.fullmatch(words[0]):
        digits = words[0].lstrip("0") or "0"
        if len(digits) <= 3 and 1 <= int(digits) <= len(legal):
            return legal[int(digits) - 1]
        shown = digits if len(digits) <= 12 else digits[:9] + "..."
        raise Choice(
            _("there is no action {number}: choose 1 to {last}").format(
                number=shown, last=len(legal)
            )
        )
    if len(words) == 1 and words[0] not in _ACTION_WORDS:
        try:  # a bare tile: discard it
            tile = parse_tile(words[0])
        except InvalidTile:
            raise Choice(_not_a_tile(words[0])) from None
        words = ["discard", tile.token]
    if words[0] not in _ACTION_WORDS:
        raise Choice(_not_a_tile(words[0]) if len(words) == 1 else _no_word(words[0]))
    if len(words) == 1 and words[0] in ("pung", "kong", "chow", "discard", "announce"):
        kind = ActionKind[words[0].upper()]
        matching = [a for a in legal if a.kind is kind]
        if len(matching) == 1:
            return matching[0]
        if not matching:
            raise Choice(_cannot(words[0]))
        raise Choice(
            _("which tile? e.g. {example}").format(
                example=f"'{words[0]} {matching[0].tile.token}'"  # type: ignore[union-attr]
            )
        )
    try:
        act = parse_action(" ".join(words))
    except InvalidAction as exc:
        raise Choice(f"{wire.short_message(said(exc))} " + _("(? for help)")) from None
    if act in legal:
        return act
    same = [str(a) for a in legal if a.kind is act.kind]
    if same:
        raise Choice(
            _("{action} is not possible now; you may: {actions}").format(
                action=f"'{act}'", actions=", ".join(same)
            )
        )
    raise Choice(_cannot(act.kind.word) + " " + _("(? for help)"))


def _cannot(word: str) -> str:
    """The hint for an action that is no choice now (``you cannot pung now``)."""
    return _("you cannot {action} now").format(action=action_word(word))


def _not_a_tile(word: str) -> str:
    if word.lower() in _SHORT or word.lower() in ("q", "h"):
        return _(
            "{word} is no tile; the shortcuts are lowercase ({short}), capital letters "
            "are tiles (? for help)"
        ).format(word=quote(word), short=f"'{word.lower()}'")
    return _("{word} is no action or tile (? for help)").format(word=quote(word))


def _no_word(word: str) -> str:
    if word.lower() in _SHORT or word.lower() in ("q", "h"):
        return _("{word}: the shortcuts are lowercase ({short}) (? for help)").format(
            word=quote(word), short=f"'{word.lower()}'"
        )
    return _("{word} is no action: one of {words} (? for help)").format(
        word=quote(word), words=", ".join(sorted(_ACTION_WORDS))
    )


class Feed:
    """The events of a hand as the player at seat ``me`` sees them (``None``: a
    player who sits this hand out, who sees everything).  What a seat may see is
    decided in the core, by :func:`mahjong_nts.core.observation.visible_events`."""

    def __init__(self, me: int | None, names: Sequence[str]) -> None:
        self.me = me
        self.names = names
        self.shown = 0

    def lines(self, game: Game) -> list[str]:
        """The events since the last call, as lines."""
        me = self.me
        if me is None:
            events: Sequence[Event] = game.events[self.shown :]
        else:
            events = visible_events(game, me, self.shown)
        out = []
        for e in events:
            hide = me is not None and e.seat != me
            out.append(event_text(e.kind, e.seat, e.tiles, e.note, self.names, hide_tiles=hide))
        self.shown = len(game.events)
        return out


class _Stop(Exception):
    """The player ends the session (``q``, end of input, Ctrl-C); ``reason`` is English
    (it goes into the hand's log) and shown in the language of the run (:attr:`said`)."""

    def __init__(self, reason: str, code: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code

    @property
    def said(self) -> str:
        return stop_reason_text(self.reason)


@contextlib.contextmanager
def _held_interrupts() -> Iterator[None]:
    """Hold Ctrl-C while a step that must not be cut (applying an action and noting it,
    writing a log) runs; an interrupt that came meanwhile is raised after it.  A process
    that ignores Ctrl-C (started in the background, under ``nohup``) goes on ignoring it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return
    caught: list[bool] = []

    def note(signum: int, frame: FrameType | None) -> None:
        caught.append(True)

    try:
        previous = signal.signal(signal.SIGINT, note)
    except (ValueError, OSError):  # no signals here (an embedded interpreter)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _interactive(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def stdin_problem() -> str | None:
    """Why moves cannot be read from stdin (closed, or none at all); ``None`` if they can."""
    stream = sys.stdin
    if stream is None or getattr(stream, "closed", False):
        return _("stdin is closed: play reads your moves from it (a terminal or a pipe)")
    return None


def tolerate_undecodable_input() -> None:
    """Read stdin with undecodable bytes replaced (shown as U+FFFD and answered like any
    word that is no move), instead of a UnicodeDecodeError that would end the game."""
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if callable(reconfigure):
        with contextlib.suppress(ValueError, OSError, AttributeError):
            reconfigure(errors="replace")


class Session:
    """A play session: a match (or part of one) with one human player."""

    def __init__(
        self,
        console: Console,
        rules: RuleSet,
        spec: str,
        seed: int,
        human: int,
        bot_names: Sequence[str],
        log_dir: Path,
        lang: str,
        key: LogKey | None = None,
    ) -> None:
        self.console = console
        self.rules = rules
        self.spec = spec
        self.seed = seed
        self.human = human
        self.log_dir = log_dir
        self.lang = lang
        self.key = key
        """Signs the hand logs when given."""
        self.match = Match(rules, SeedRng(seed, "match"), SeedRng)
        self.players: dict[int, Player] = {}
        self.names: list[str] = []
        others = iter(bot_names)
        for p in range(self.match.players):
            if p == human:
                self.names.append(YOU)
                continue
            name = next(others)
            self.players[p] = make_named_bot(name, derive_seed(seed, "bot", p), rules)
            self.names.append(f"{name}-{p}")
        self.logs: list[Path] = []
        self.echo = not _interactive(sys.stdin)

    # ------------------------------------------------------------------ input

    def _read(self, prompt: str) -> str:
        """A line typed at ``prompt``; end of input, Ctrl-C and a stdin that cannot be
        read end the session (:class:`_Stop`)."""
        try:
            text = read_line(self.console, prompt)
        except TooLong as long:
            if self.echo:
                self.console.print(printable(long.start[:40]) + "...", markup=False)
            raise
        except EOFError:
            raise _Stop("end of input", 0) from None
        except KeyboardInterrupt:
            raise _Stop("interrupted", 130) from None
        except (OSError, ValueError, RuntimeError, AttributeError, TypeError):
            # stdin closed under us (a closed file, no stdin at all)
            raise _Stop("input closed", 2) from None
        if self.echo:  # input from a pipe: show it, as a terminal would (escapes escaped)
            self.console.print(printable(text), markup=False, highlight=False)
        return text

    def wait_for_next(self) -> None:
        """Keep the hand's report on screen until the player asks for the next hand
        (Enter); ``q``, end of input and Ctrl-C end the session here too."""
        try:
            try:
                text = self._read(_("Press Enter for the next hand (q quits) "))
            except TooLong:
                text = ""
            if text.strip().lower() in ("q", "quit", "exit", "stop", "stoppen"):
                raise _Stop("quit by the player", 0)
        except _Stop as stop:
            self.console.print()
            self.console.print(
                _("Stopped ({reason}).").format(reason=stop.said), markup=False, highlight=False
            )
            raise

    # ------------------------------------------------------------------ one hand

    def _bot_act(self, game: Game, seat: int, player: int, hand: int) -> Action:
        """The bot's action; a bot that raises or answers what is not legal (one named
        ``module:Class`` or by an entry point: its own bug) stops the session, exit 1."""
        obs = observe(game, seat)
        where = f"bot {quote(self.names[player])} (seat {seat}, hand {hand + 1})"
        try:
            act = self.players[player].act(obs)
        except Exception as exc:
            raise _Stop(f"{where} failed: {type(exc).__name__}: {quote(str(exc))}", 1) from None
        if act not in obs.legal:
            raise _Stop(f"{where} chose {quote(str(act))}, not one of its legal actions", 1)
        return act

    def play_hand(self) -> None:
        setup, game = self.match.next_hand()
        seat_names = [self.names[p] for p in setup.players]
        me = setup.players.index(self.human) if self.human in setup.players else None
        feed = Feed(me, seat_names)
        try:
            self._header(setup, me, seat_names)
            while not game.is_over:
                seat = game.current_seat
                player = setup.players[seat]
                if player == self.human:
                    self._print_feed(feed.lines(game))
                    act = self._ask(game, seat, seat_names)
                else:
                    act = self._bot_act(game, seat, player, setup.number)
                with _held_interrupts():
                    game.apply(act)
        except (_Stop, KeyboardInterrupt, EOFError) as exc:
            stop = exc if isinstance(exc, _Stop) else _stop_of(exc)
            with _held_interrupts():
                # the game holds what happened: every action was applied whole (an
                # interrupt waits until apply() returns), a refused one not at all
                path = self._write(setup, game, seat_names, stop.reason)
            self.console.print()
            self.console.print(
                _("Stopped ({reason}). Log of the unfinished hand: {path}").format(
                    reason=stop.said, path=path
                )
                + "\n"
                + _("Seed of the hand: {seed}").format(seed=setup.seed),
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
            raise stop from None
        # the log first: whatever happens while the report is shown, it is kept
        with _held_interrupts():
            self.match.record(game)
            path = self._write(setup, game, seat_names, "")
        try:
            self._print_feed(feed.lines(game))
            self._show_result(game, seat_names)
        except KeyboardInterrupt:
            self.console.print()
            self.console.print(
                _("Stopped ({reason}).").format(reason=stop_reason_text("interrupted"))
                + " "
                + self._saved(path, setup.seed),
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
            raise _Stop("interrupted", 130) from None
        self.console.print(self._saved(path, setup.seed), markup=False, soft_wrap=True)

    @staticmethod
    def _saved(path: Path, seed: int) -> str:
        return (
            _("Log saved: {path}").format(path=path)
            + "\n"
            + _("Seed of the hand: {seed}").format(seed=seed)
        )

    def _header(self, setup: HandSetup, me: int | None, seat_names: list[str]) -> None:
        if me is not None:
            where = _("you are {wind}").format(wind=wind_text(WINDS[me]))
        else:
            where = _("you sit this hand out")
        title = _("Hand {n} · round wind {wind} · {where}").format(
            n=setup.number + 1, wind=wind_text(setup.round_wind), where=where
        )
        self.console.rule(Text(title), style="bold")
        seats = ", ".join(seat_label(s, seat_names) for s in range(len(seat_names)))
        self.console.print(_("Seats: {seats}").format(seats=seats), markup=False, highlight=False)
        # the seed is shown when the hand is over; its commitment binds the deal now
        self.console.print(
            _("Seed commitment: {commitment}").format(commitment=seed_commitment(setup.seed)),
            markup=False,
            highlight=False,
            soft_wrap=True,
        )

    def _print_feed(self, lines: list[str]) -> None:
        for line in lines:
            self.console.print(f"  {line}", markup=False, highlight=False)

    def _ask(self, game: Game, seat: int, names: list[str]) -> Action:
        obs = observe(game, seat)
        console = self.console
        render_table(console, obs, names)
        legal = obs.legal
        console.print(
            Columns([Text(f"{k}) {action_text(a)}") for k, a in enumerate(legal, start=1)])
        )
        while True:
            try:
                text = self._read("> ")
                choice = parse_choice(text, legal)
            except TooLong as long:
                hint = Choice(
                    _(
                        "a line of more than {most} characters, starting {start}: type the "
                        "number of an action (? for help)"
                    ).format(most=MAX_INPUT, start=quote(long.start[:20]))
                )
                console.print(f"  {hint}", markup=False, highlight=False, style="yellow")
                continue
            except Choice as hint:
                console.print(f"  {hint}", markup=False, highlight=False, style="yellow")
                continue
            if isinstance(choice, str):
                raise _Stop("quit by the player", 0)
            return choice

    def _show_result(self, game: Game, names: list[str]) -> None:
        result = game.result
        assert result is not None
        console = self.console
        console.rule(Text(_("Hand over")), style="bold")
        for seat in range(game.n):
            winning = result.winning_tile if seat == result.winner else None
            hand = game.hand_of(seat, winning)
            console.print(
                f"  {seat_label(seat, names)}: {glyphs(hand)}   {format_hand(hand)}",
                markup=False,
                highlight=False,
            )
        if result.winner is None:
            console.print(_("Remise: {reason}.").format(reason=result.reason), markup=False)
        else:
            for seat, res in enumerate(result.scores):
                winning = result.winning_tile if seat == result.winner else None
                console.rule(Text(seat_label(seat, names)), style="dim")
                print_score(
                    console,
                    wire.score_response(res, self.rules),
                    game.hand_of(seat, winning),
                    self.lang,
                )
        st = result.settlement
        resp: dict[str, Any] = {
            "ruleset": self.rules.name,
            "scores": list(st.scores),
            "balances": list(st.balances),
            "payments": [[p.payer, p.payee, p.amount] for p in st.payments],
        }
        console.print()
        print_settlement(console, resp, 0, result.winner, self.lang)

    def _write(self, setup: HandSetup, game: Game, names: list[str], stopped: str) -> Path:
        # named by the match seed's commitment: the name gives no seed away
        tag = seed_commitment(self.seed)[:12]
        path = self.log_dir / f"play-{tag}-hand{setup.number + 1:02d}.jsonl"
        written = gamelog.write_hand_log(
            path,
            game,
            ruleset=self.spec,
            seed=setup.seed,
            setup=setup,
            players=names,
            stopped=stopped or "stopped before the end",
            key=self.key,
        )
        self.logs.append(written)
        return written

    def show_balances(self) -> None:
        console = self.console
        console.rule(Text(_("Balances")), style="bold")
        for p, balance in enumerate(self.match.balances):
            name = player_name(self.names[p])
            console.print(f"  {name:<16} {balance:+d}", markup=False, highlight=False)

    def show_balances_safely(self) -> None:
        """The balances at the end of a session; Ctrl-C here just ends it."""
        try:
            self.show_balances()
        except KeyboardInterrupt:
            self.console.print()


def _stop_of(exc: BaseException) -> _Stop:
    if isinstance(exc, EOFError):
        return _Stop("end of input", 0)
    return _Stop("interrupted", 130)


def _bot_names(text: str | None, count: int, rules: RuleSet) -> list[str]:
    """``--bots``: one name for all the bots or one each; a shipped name, ``module:Class``
    or an entry point, as ``simulate`` and ``duel`` take them (each checked by making one
    bot under ``rules``)."""
    default = "heuristic" if "heuristic" in BOTS else "random"
    names = bots_option(default if text is None else text, count)
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise UsageProblem(
            _("--bots: give one bot name or {count} (one per other player), not {n}").format(
                count=count, n=len(names)
            )
        )
    for name in dict.fromkeys(names):
        check_bot_option(name, rules)
    return names


def play_cmd(
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset",
            "-r",
            help=N_("A shipped rule set or the path of a house-rule TOML file."),
        ),
    ] = wire.DEFAULT_RULESET_NAME,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help=N_("Seed of the match (default: a random one, shown).")),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help=N_(
                "The bots, comma-separated, one per other player (or one name for all): "
                "random, heuristic, ..., module:Class, or an entry point's name; default "
                "heuristic (random when there is none)."
            ),
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        str, typer.Option("--seat", help=N_("Your seat wind in the first hand: E S W N."))
    ] = "E",
    hands: Annotated[
        int | None,
        typer.Option("--hands", help=N_("Hands to play (default 1)."), show_default=False),
    ] = None,
    whole_match: Annotated[
        bool, typer.Option("--match", help=N_("Play a whole match (every round)."))
    ] = False,
    log_dir: Annotated[
        Path | None,
        typer.Option(
            "--log",
            help=N_(
                "Folder for the hand logs (default: the current folder); one file per hand, "
                "play-ID-handNN.jsonl (ID: the start of the match seed's commitment)."
            ),
            show_default=False,
        ),
    ] = None,
    lang: LangOpt = None,
    sign: Annotated[
        Path | None,
        typer.Option(
            "--sign",
            help=N_(
                "Sign the hand logs with this private key (Ed25519 PEM, or an HMAC key; "
                "mahjong-nts keygen makes one)."
            ),
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play against bots in the terminal (:data:`HELP`)."""
    try:
        if hands is not None and whole_match:
            raise UsageProblem(_("give --hands N or --match, not both"))
        if hands is not None and hands < 1:
            raise UsageProblem(
                _("{option} must be at least 1, not {n}").format(option="--hands", n=quote(hands))
            )
        if hands is not None and hands > MAX_HANDS:
            raise UsageProblem(
                _("{option} must be at most {most}, not {n}").format(
                    option="--hands", most=MAX_HANDS, n=quote(hands)
                )
            )
        lang = check_lang(lang or current())
        if seed is not None:
            check_seed(seed, "--seed")
        rules = rules_option(ruleset)
        wind = wire.parse_wind(seat, "--seat")
        human = WINDS.index(wind)
        if human >= rules.table.players:
            raise UsageProblem(
                _("--seat: a {n}-player table has no {wind}").format(
                    n=rules.table.players, wind=wind.token
                )
            )
        players = rules.table.players + (1 if rules.table.dreamer else 0)
        names = _bot_names(bots, players - 1, rules)
        key = signing_key(sign)
        problem = stdin_problem()
        if problem is not None:
            raise UsageProblem(problem)
        check_log_folder(log_dir or Path())
    except (ValueError, MahjongError) as exc:
        fail(wire.error_message(exc))
    tolerate_undecodable_input()
    if seed is None:
        seed = secrets.randbits(DEFAULT_SEED_BITS)
    console = Console(highlight=False)
    session = Session(console, rules, ruleset, seed, human, names, log_dir or Path(), lang, key)
    console.print(
        _(
            "mahjong-nts play: rule set {name}, match seed commitment {commitment}... "
            "(the seed is shown at the end)."
        ).format(name=printable(ruleset), commitment=seed_commitment(seed)[:16])
        + " "
        + _(KEYS),
        markup=False,
        highlight=False,
    )
    limit = None if whole_match else (hands or 1)
    played = 0
    try:
        while not session.match.is_over and (limit is None or played < limit):
            if played:
                session.wait_for_next()
            session.play_hand()
            played += 1
    except _Stop as stop:
        if played:
            session.show_balances_safely()
        _show_match_seed(console, seed)
        if stop.code == 2:
            error(_("stdin could not be read any more; the hand so far is in its log"))
        elif stop.code == 1:
            error(stop.reason)  # a bot failed
        raise typer.Exit(stop.code) from None
    except KeyboardInterrupt:  # between the steps that end cleanly themselves
        console.print()
        console.print(
            _("Stopped ({reason}).").format(reason=stop_reason_text("interrupted")),
            markup=False,
            highlight=False,
        )
        if played:
            session.show_balances_safely()
        _show_match_seed(console, seed)
        raise typer.Exit(130) from None
    except OSError as exc:
        fail(_("cannot write the log: {reason}").format(reason=os_reason(exc)))
    if played > 1:
        session.show_balances_safely()
    _show_match_seed(console, seed)


def _show_match_seed(console: Console, seed: int) -> None:
    console.print(
        _("Match seed: {seed} (--seed {seed} deals the same hands again)").format(seed=seed),
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
