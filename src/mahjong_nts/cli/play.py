"""``mahjong-nts play``: you against bots in the terminal.

Each prompt shows the table as your seat sees it and your legal actions by
number; type a number, or an action in notation (``d b3``, ``discard b3``,
``pung``, ``c b2``, ``m``, ``x`` to pass); ``?`` for help, ``q`` to quit.  Every
hand is logged (``mahjong-nts replay --verify`` checks the log); quitting, end of
input and Ctrl-C save the log of the hand in play too.  Input is read line by
line, so a pipe can drive a session.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from mahjong_nts.bots import BOTS, Player, make_bot
from mahjong_nts.cli.render import print_score, print_settlement
from mahjong_nts.cli.tableview import (
    action_text,
    event_text,
    render_table,
    seat_label,
    visible_to,
)
from mahjong_nts.core.actions import Action, ActionKind, parse_action
from mahjong_nts.core.errors import InvalidAction, InvalidTile, MahjongError
from mahjong_nts.core.game import Event, Game, Phase
from mahjong_nts.core.match import HandSetup, Match
from mahjong_nts.core.notation import format_hand, glyphs
from mahjong_nts.core.observation import observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import DEFAULT_SEED_BITS, SeedRng, derive_seed
from mahjong_nts.core.tiles import WINDS, parse_tile
from mahjong_nts.formats import gamelog, wire
from mahjong_nts.formats.rulefiles import load_ruleset

__all__ = ["parse_choice", "play_cmd"]

HELP = (
    "Type the number of an action, or the action itself: 'd b3' or 'discard b3' "
    "(or just 'b3') to discard, 'p' pung, 'k b3' kong, 'c b2' chow (by its lowest tile), "
    "'m' mahjong, 'x' or 'pass' to let a discard go.  'q' quits (the log is saved)."
)

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

QUIT = "quit"
_WORDS = frozenset({*_SHORT, *(k.word for k in ActionKind), "q", "quit", "exit", "?", "h", "help"})


class Choice(ValueError):
    """Input that is no legal action now; the message is the hint to show."""


def parse_choice(text: str, legal: Sequence[Action]) -> Action | str:
    """The legal action ``text`` names (a number, notation or a short form), or
    ``QUIT``; raises :class:`Choice` with a hint otherwise."""
    words = text.split()
    if not words:
        raise Choice("type the number of an action (? for help)")
    words[0] = words[0].lower() if words[0].lower() in _WORDS else words[0]
    if words[0] in ("q", "quit", "exit"):
        return QUIT
    if words[0] in ("?", "h", "help"):
        raise Choice(HELP)
    if len(words) == 1 and words[0].isdigit():
        k = int(words[0])
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise Choice(f"there is no action {k}: choose 1 to {len(legal)}")
    words[0] = _SHORT.get(words[0], words[0])
    if len(words) == 1 and words[0] not in {k.word for k in ActionKind}:
        try:  # a bare tile: discard it
            tile = parse_tile(text.strip())
        except InvalidTile:
            raise Choice(f"{text.strip()!r} is no action or tile (? for help)") from None
        words = ["discard", tile.token]
    if len(words) == 1 and words[0] in ("pung", "kong", "chow", "discard", "announce"):
        kind = ActionKind[words[0].upper()]
        matching = [a for a in legal if a.kind is kind]
        if len(matching) == 1:
            return matching[0]
        if not matching:
            raise Choice(f"you cannot {words[0]} now")
        raise Choice(f"which tile? e.g. '{words[0]} {matching[0].tile.token}'")  # type: ignore[union-attr]
    try:
        act = parse_action(" ".join(words))
    except InvalidAction as exc:
        raise Choice(f"{exc} (? for help)") from None
    if act in legal:
        return act
    same = [str(a) for a in legal if a.kind is act.kind]
    if same:
        raise Choice(f"'{act}' is not possible now; you may: {', '.join(same)}")
    raise Choice(f"you cannot {act.kind.word} now (? for help)")


class Feed:
    """The events of a hand as the player at seat ``me`` sees them (``None``: a
    spectator, who sees everything): another seat's draws and loose tiles
    without the tile, its decisions on a discard not at all (the claim that
    wins shows as its meld), its concealed kong without the tile."""

    def __init__(self, me: int | None, names: Sequence[str]) -> None:
        self.me = me
        self.names = names
        self.shown = 0
        self.claims: set[int] = set()
        """Indices of decided events made in a claim or rob window."""
        self.secret: set[int] = set()
        """Indices of concealed kongs."""

    def before_apply(self, game: Game, act: Action) -> None:
        """Note how the action about to be applied will show."""
        index = len(game.events)
        if game.phase in (Phase.CLAIM, Phase.ROB):
            self.claims.add(index)
        elif (
            act.kind is ActionKind.KONG
            and act.tile is not None
            and game.hands[game.current_seat][act.tile] == 4
        ):
            self.secret.add(index)

    def lines(self, game: Game) -> list[str]:
        """The events since the last call, as lines."""
        me, out = self.me, []
        for i in range(self.shown, len(game.events)):
            e: Event = game.events[i]
            if me is not None and not visible_to(e.kind, e.seat, e.decided, me, i in self.claims):
                continue
            hide = me is not None and e.seat != me
            tiles = () if hide and i in self.secret else e.tiles
            text = event_text(e.kind, e.seat, tiles, e.note, self.names, hide_tiles=hide)
            if not tiles and e.tiles:
                text += " (concealed)"
            out.append(text)
        self.shown = len(game.events)
        return out


class _Stop(Exception):
    """The player ends the session (``q``, end of input, Ctrl-C)."""

    def __init__(self, reason: str, code: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


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
    ) -> None:
        self.console = console
        self.rules = rules
        self.spec = spec
        self.seed = seed
        self.human = human
        self.log_dir = log_dir
        self.lang = lang
        self.match = Match(rules, SeedRng(seed, "match"), SeedRng)
        self.players: dict[int, Player] = {}
        self.names: list[str] = []
        others = iter(bot_names)
        for p in range(self.match.players):
            if p == human:
                self.names.append("you")
                continue
            name = next(others)
            self.players[p] = make_bot(name, derive_seed(seed, "bot", p), rules)
            self.names.append(f"{name}-{p}")
        self.logs: list[Path] = []
        self.echo = not sys.stdin.isatty()

    # ------------------------------------------------------------------ one hand

    def play_hand(self) -> None:
        setup, game = self.match.next_hand()
        seat_names = [self.names[p] for p in setup.players]
        me = setup.players.index(self.human) if self.human in setup.players else None
        self._header(setup, me, seat_names)
        actions: list[Action] = []
        feed = Feed(me, seat_names)
        try:
            while not game.is_over:
                seat = game.current_seat
                player = setup.players[seat]
                if player == self.human:
                    self._print_feed(feed.lines(game))
                    act = self._ask(game, seat, seat_names)
                else:
                    act = self.players[player].act(observe(game, seat))
                feed.before_apply(game, act)
                game.apply(act)
                actions.append(act)
        except (_Stop, KeyboardInterrupt, EOFError) as exc:
            stop = exc if isinstance(exc, _Stop) else _stop_of(exc)
            self.console.print()
            # a fresh replay of the actions applied so far: exactly what happened
            replayed = self._replay(setup, actions)
            path = self._write(setup, replayed, seat_names, stop.reason)
            self.console.print(
                f"Stopped ({stop.reason}). Log of the unfinished hand: {path}",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
            raise stop from None
        self._print_feed(feed.lines(game))
        self._show_result(game, seat_names)
        self.match.record(game)
        path = self._write(setup, game, seat_names, "")
        self.console.print(f"Log saved: {path}", markup=False, highlight=False, soft_wrap=True)

    def _header(self, setup: HandSetup, me: int | None, seat_names: list[str]) -> None:
        wind = "green dragon" if setup.round_wind.token == "F" else setup.round_wind.token
        where = f"you are {seat_label(me)}" if me is not None else "you sit this hand out"
        self.console.rule(
            f"Hand {setup.number + 1} · round wind {wind} · {where}",
            style="bold",
        )
        self.console.print(
            "Seats: " + ", ".join(seat_label(s, seat_names) for s in range(len(seat_names))),
            markup=False,
            highlight=False,
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
                text = console.input("> ")
            except EOFError:
                raise _Stop("end of input", 0) from None
            if self.echo:  # input from a pipe: show it, as a terminal would
                console.print(text, markup=False, highlight=False)
            try:
                choice = parse_choice(text, legal)
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
        console.rule("Hand over", style="bold")
        for seat in range(game.n):
            winning = result.winning_tile if seat == result.winner else None
            hand = game.hand_of(seat, winning)
            console.print(
                f"  {seat_label(seat, names)}: {glyphs(hand)}   {format_hand(hand)}",
                markup=False,
                highlight=False,
            )
        if result.winner is None:
            console.print(f"Remise: {result.reason}.", markup=False)
        else:
            for seat, res in enumerate(result.scores):
                winning = result.winning_tile if seat == result.winner else None
                console.rule(seat_label(seat, names), style="dim")
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

    def _replay(self, setup: HandSetup, actions: Sequence[Action]) -> Game:
        game = Game(
            self.rules,
            SeedRng(setup.seed),
            round_wind=setup.round_wind,
            dominant=None if setup.dominant is None else setup.players.index(setup.dominant),
        )
        for act in actions:
            game.apply(act)
        return game

    def _write(self, setup: HandSetup, game: Game, names: list[str], stopped: str) -> Path:
        path = self.log_dir / f"play-{self.seed}-hand{setup.number + 1:02d}.jsonl"
        written = gamelog.write_hand_log(
            path,
            game,
            ruleset=self.spec,
            seed=setup.seed,
            setup=setup,
            players=names,
            stopped=stopped or "stopped before the end",
        )
        self.logs.append(written)
        return written

    def show_balances(self) -> None:
        console = self.console
        console.rule("Balances", style="bold")
        for p, balance in enumerate(self.match.balances):
            console.print(f"  {self.names[p]:<16} {balance:+d}", markup=False, highlight=False)


def _stop_of(exc: BaseException) -> _Stop:
    if isinstance(exc, EOFError):
        return _Stop("end of input", 0)
    return _Stop("interrupted", 130)


def _bot_names(text: str | None, count: int) -> list[str]:
    default = "heuristic" if "heuristic" in BOTS else "random"
    names = [n.strip() for n in (text or default).split(",") if n.strip()]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise ValueError(f"--bots: give one bot name or {count} (one per other player)")
    for name in names:
        if name not in BOTS:
            raise ValueError(f"--bots: unknown bot {name!r}: one of {', '.join(sorted(BOTS))}")
    return names


def play_cmd(
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset", "-r", help="A shipped rule set or the path of a house-rule TOML file."
        ),
    ] = wire.DEFAULT_RULESET_NAME,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the match (default: a random one, shown).", min=0),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="The bots, comma-separated, one per other player (or one name for all); "
            "default heuristic (random when there is none).",
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        str, typer.Option("--seat", help="Your seat wind in the first hand: E S W N.")
    ] = "E",
    hands: Annotated[
        int | None,
        typer.Option("--hands", help="Hands to play (default 1).", min=1, show_default=False),
    ] = None,
    whole_match: Annotated[
        bool, typer.Option("--match", help="Play a whole match (every round).")
    ] = False,
    log_dir: Annotated[
        Path | None,
        typer.Option(
            "--log",
            help="Folder for the hand logs (default: the current folder); one file per hand, "
            "play-SEED-handNN.jsonl.",
            show_default=False,
        ),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help="Labels of the score: en or nl.")] = "en",
) -> None:
    """Play against bots in the terminal: you and three bots (or two at a 3-player table)."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        if hands is not None and whole_match:
            raise ValueError("give --hands N or --match, not both")
        if lang not in ("en", "nl"):
            raise ValueError(f"--lang: {lang!r} is not en or nl")
        try:
            rules = load_ruleset(ruleset)
        except OSError as exc:
            raise ValueError(f"--ruleset: cannot read {ruleset!r}: {exc.strerror or exc}") from None
        wind = wire.parse_wind(seat, "--seat")
        human = WINDS.index(wind)
        if human >= rules.table.players:
            raise ValueError(f"--seat: a {rules.table.players}-player table has no {wind.token}")
        players = rules.table.players + (1 if rules.table.dreamer else 0)
        names = _bot_names(bots, players - 1)
    except (ValueError, MahjongError) as exc:
        err.print(f"error: {wire.error_message(exc)}", markup=False)
        raise typer.Exit(2) from None
    if seed is None:
        seed = secrets.randbits(DEFAULT_SEED_BITS)
    console = Console(highlight=False)
    session = Session(console, rules, ruleset, seed, human, names, log_dir or Path(), lang)
    console.print(
        f"mahjong-nts play: rule set {ruleset}, seed {seed}. {HELP}", markup=False, highlight=False
    )
    limit = None if whole_match else (hands or 1)
    played = 0
    try:
        while not session.match.is_over and (limit is None or played < limit):
            session.play_hand()
            played += 1
    except _Stop as stop:
        if played:
            session.show_balances()
        raise typer.Exit(stop.code) from None
    except OSError as exc:
        err.print(f"error: cannot write the log: {exc.strerror or exc}", markup=False)
        raise typer.Exit(2) from None
    if played > 1:
        session.show_balances()
