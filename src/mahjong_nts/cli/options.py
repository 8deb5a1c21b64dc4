"""What every command shares: option types, parsing helpers, the error guard.

Every bad input ends with one line ``error: ...`` on stderr and exit code 2,
never a traceback (:func:`guard`, :func:`fail`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from mahjong_nts.cli.i18n import N_, _, current
from mahjong_nts.core.errors import MahjongError, quote
from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.logkeys import InvalidKeyFile, LogKey, load_key
from mahjong_nts.i18n import render

# mahjong_nts.formats.wire (and pydantic with it) is imported where it is used, not here:
# a command that does not need it (simulate) starts faster without it.


class UsageProblem(ValueError):
    """A bad combination of command-line options."""


def input_errors() -> tuple[type[BaseException], ...]:
    """The errors that mean bad input: ours, a :class:`UsageProblem`, and pydantic's
    ``ValidationError`` once pydantic is loaded (only pydantic raises it, so it is not
    imported just to be caught)."""
    pydantic = sys.modules.get("pydantic")
    if pydantic is None:
        return (MahjongError, UsageProblem)
    return (MahjongError, pydantic.ValidationError, UsageProblem)


_OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EEXIST: N_("the file exists"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("not a folder"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ELOOP: N_("too many symbolic links"),
    errno.EADDRINUSE: N_("the address is already in use"),
    errno.EADDRNOTAVAIL: N_("the address is not available here"),
}
"""The operating system's reasons we say in the language of the run when it is not
English (its own texts, ``strerror``, are English: Python leaves the C library's
messages in the C locale)."""


def os_reason(exc: OSError) -> str:
    """Why an operation on a file (or socket) failed: the system's words
    (``strerror``), or ours in the language of the run when it has them (a message of
    our own in an OSError, not the system's, is kept as it is)."""
    code = exc.errno
    reason = _OS_REASONS.get(code) if code is not None else None
    if reason is not None and code is not None and exc.strerror == os.strerror(code):
        said = _(reason)
        if said != reason:  # translated; English keeps the system's own words
            return said
    return str(exc.strerror or exc)


def os_problem(exc: OSError) -> str:
    """``FILE: reason`` for an operation on a file that failed (``input`` without one)."""
    where = exc.filename if exc.filename else _("input")
    return f"{where}: {os_reason(exc)}"


def read_small_text(path: Path, option: str, most: int) -> str:
    """The UTF-8 text of a small file given by ``option`` (at most ``most`` bytes; a BOM
    dropped); exit 2 with the reason when it cannot be read, is larger or is not text."""
    try:
        with path.open("rb") as f:
            data = f.read(most + 1)
    except OSError as exc:
        fail(f"{option}: {os_problem(exc)}")
    if len(data) > most:
        fail(
            _("{option}: {path} is larger than {most} bytes").format(
                option=option, path=quote(str(path)), most=most
            )
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        fail(_("{option}: {path} is not UTF-8 text").format(option=option, path=quote(str(path))))


def check_log_folder(path: Path, option: str = "--log") -> None:
    """Create the folder for hand logs and check that it takes files, before any hand is
    played (so that no game is lost to a folder that cannot be written)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-test-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageProblem(
            _("{option}: cannot write hand logs to {folder}: {reason}").format(
                option=option, folder=quote(str(path)), reason=os_reason(exc)
            )
        ) from None


stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def said(exc: MahjongError) -> str:
    """The message of an error of the package in the language of this run (the rules
    core and the formats word their errors in English, :mod:`mahjong_nts.core.text`)."""
    return render(exc.text, current())


def error(message: str) -> None:
    """Print ``error: message`` on stderr: one line, bounded, quotes cut to excerpts,
    control characters escaped (every command's errors end here).  A core text
    (:class:`~mahjong_nts.core.text.Text`) is said in the language of this run."""
    from mahjong_nts.formats import wire

    message = render(message, current())
    stderr.print(
        f"error: {wire.short_message(message)}", markup=False, highlight=False, emoji=False
    )


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` (see :func:`error`) and exit with ``code`` (2: bad input)."""
    error(message)
    raise typer.Exit(code)


@contextlib.contextmanager
def guard() -> Iterator[None]:
    """Turn every bad-input error into ``error: ...`` on stderr and exit code 2."""
    try:
        yield
    except input_errors() as exc:
        from mahjong_nts.formats import wire

        fail(said(exc) if isinstance(exc, MahjongError) and str(exc) else wire.error_message(exc))
    except OSError as exc:
        fail(os_problem(exc))


# --------------------------------------------------------------------------- options

_SOURCES = {
    "wall": WinSource.WALL,
    "discard": WinSource.DISCARD,
    "loose-tile": WinSource.LOOSE_TILE,
    "robbed-kong": WinSource.ROBBED_KONG,
    # Dutch
    "muur": WinSource.WALL,
    "tafel": WinSource.DISCARD,
    "losse-steen": WinSource.LOOSE_TILE,
    "kongroof": WinSource.ROBBED_KONG,
}


def win_source(text: str) -> WinSource:
    key = text.strip().lower().replace("_", "-")
    if key not in _SOURCES:
        raise UsageProblem(
            _("--from: {value} is not one of wall, discard, loose-tile, robbed-kong").format(
                value=repr(text)
            )
        )
    return _SOURCES[key]


def wind_option(text: str, option: str, *, allow_green: bool = False) -> Tile:
    from mahjong_nts.formats import wire

    try:
        return wire.parse_wind(text, option, allow_green=allow_green)
    except wire.FieldError as exc:
        raise UsageProblem(said(exc)) from exc


def parse_hand_option(text: str, where: str) -> Hand:
    from mahjong_nts.core.notation import parse_hand
    from mahjong_nts.formats import wire

    try:
        return parse_hand(text)
    except MahjongError as exc:
        raise wire.FieldError(where, exc.text) from exc


def rules_option(spec: str, option: str = "--ruleset") -> RuleSet:
    """``--ruleset`` (or the argument ``option`` names; ``""``: none): a shipped name,
    with overlays, or a local house-rule file.  Every command loads its rule set here.

    Bad input raises :class:`wire.FieldError` (a :class:`MahjongError`), and nothing
    else: ``load_ruleset`` turns a file that cannot be opened or read into an
    ``InvalidRuleSet`` (``rulefiles._read_file``), bounds the nesting before
    ``tomllib`` recurses (``_check_toml_nesting``, so no ``RecursionError``) and
    never reads more than ``MAX_FILE_BYTES``."""
    from mahjong_nts.formats import wire
    from mahjong_nts.formats.rulefiles import load_ruleset

    try:
        return load_ruleset(spec)
    except MahjongError as exc:
        raise wire.FieldError(option, exc.text) from exc


LANGS = ("en", "nl")
"""The languages of the labels (``--lang``)."""


def check_lang(lang: str) -> str:
    """``--lang``: one of :data:`LANGS`."""
    if lang not in LANGS:
        raise UsageProblem(_("--lang: {value} is not en or nl").format(value=quote(lang)))
    return lang


MAX_BOTS_CHARS = 1000
"""Characters of ``--bots`` (five names of 200 characters each at the most)."""


def bots_option(text: str, count: int) -> list[str]:
    """``--bots``: bot names separated by commas, none empty (``count``, the bots the
    command needs, only words the message; the caller checks the names and their
    number, which differ by command)."""
    if len(text) > MAX_BOTS_CHARS:
        raise UsageProblem(
            _("--bots: {n} characters is too long for {count} bot names").format(
                n=len(text), count=count
            )
        )
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise UsageProblem(_("--bots: an empty bot name (give names separated by commas)"))
    return names


def check_bot_option(name: str, rules: RuleSet, option: str = "--bots") -> None:
    """A bot named on the command line (a shipped name, ``module:Class`` or an entry
    point of ``mahjong_nts.bots``) that makes a bot under ``rules``; else
    :class:`UsageProblem` saying why."""
    from mahjong_nts.bots import BOTS
    from mahjong_nts.bots.loader import BotLoadError, check_bot

    try:
        check_bot(name, rules)
    except BotLoadError as exc:
        if exc.unknown:
            raise UsageProblem(
                _(
                    "{option}: unknown bot {name}: one of {known}, module:Class, or an entry "
                    "point of the group mahjong_nts.bots"
                ).format(option=option, name=quote(name), known=", ".join(sorted(BOTS)))
            ) from None
        raise UsageProblem(f"{option}: {exc}") from None


def signing_key(path: Path | None) -> LogKey | None:
    """``--sign``: the private (or HMAC) key in the file ``path``, or ``None``."""
    if path is None:
        return None
    try:
        key = load_key(path)  # an unreadable file is an InvalidKeyFile too
    except InvalidKeyFile as exc:
        raise UsageProblem(f"--sign: {said(exc)}") from None
    if not key.can_sign:
        raise UsageProblem(
            _("--sign: {path} is a public key; signing needs the private key").format(path=path)
        )
    return key


_FLAG_WORDS = re.compile(
    r"\b(last_tile|last_discard|kong_on_kong|first_discard|heaven|lucky_thirteen)\b"
)


def as_options(message: str) -> str:
    """Say a core message about win flags in command-line terms."""
    message = _FLAG_WORDS.sub(lambda m: "--" + m.group(1).replace("_", "-"), message)
    message = message.replace("from=", "--from ")
    return message.replace("loose_tile", "loose-tile").replace("robbed_kong", "robbed-kong")


class WinFlags:
    def __init__(
        self,
        source: str | None,
        last_tile: bool,
        last_discard: bool,
        kong_on_kong: bool,
        first_discard: bool,
        heaven: bool,
        lucky_thirteen: bool,
    ) -> None:
        self.source = source
        self.flags = {
            "last_tile": last_tile,
            "last_discard": last_discard,
            "kong_on_kong": kong_on_kong,
            "first_discard": first_discard,
            "heaven": heaven,
            "lucky_thirteen": lucky_thirteen,
        }

    @property
    def given(self) -> list[str]:
        names = [f"--{k.replace('_', '-')}" for k, v in self.flags.items() if v]
        return (["--from"] if self.source is not None else []) + names

    def win(self, default: WinSource = WinSource.WALL) -> Win:
        source = win_source(self.source) if self.source is not None else default
        try:
            return Win(source, **self.flags)
        except MahjongError as exc:
            raise UsageProblem(as_options(said(exc))) from exc


FromOpt = Annotated[
    str | None,
    typer.Option(
        "--from",
        help=N_(
            "Where the winning tile came from: wall, discard, loose-tile, robbed-kong "
            "(default: wall; for settle: discard when --discarder is given)."
        ),
        show_default=False,
    ),
]
LastTileOpt = Annotated[
    bool, typer.Option("--last-tile", help=N_("Won with the last tile of the wall (self-drawn)."))
]
LastDiscardOpt = Annotated[
    bool, typer.Option("--last-discard", help=N_("Won on the last discard before a remise."))
]
KongOnKongOpt = Annotated[
    bool,
    typer.Option(
        "--kong-on-kong", help=N_("Won on the loose tile after a second kong in one turn.")
    ),
]
FirstDiscardOpt = Annotated[
    bool, typer.Option("--first-discard", help=N_("Won on East's very first discard (earth)."))
]
HeavenOpt = Annotated[
    bool, typer.Option("--heaven", help=N_("East won on the 14 dealt tiles (heaven)."))
]
LuckyOpt = Annotated[
    bool,
    typer.Option("--lucky-thirteen", help=N_("Announced waiting after the deal (rode-draak).")),
]
RulesetOpt = Annotated[
    str,
    typer.Option(
        "--ruleset",
        "-r",
        help=N_(
            "A shipped rule set (see 'mahjong-nts rules list') or the path of "
            "a house-rule TOML file."
        ),
    ),
]
LangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help=N_("Language of every text: nl or en (default: as for mahjong-nts --lang)."),
        show_default=False,
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help=N_(
            "Read JSON requests from stdin, one per line; write one JSON response "
            "per line (see docs/json.md)."
        ),
    ),
]


# --------------------------------------------------------------------------- json lines


def json_lines(answer: Callable[[bytes], str]) -> None:
    """The JSON lines loop: each request line of stdin answered by one line of
    stdout, in order.  Lines are read within :data:`wire.MAX_LINE_BYTES`
    (:func:`wire.read_lines`); an over-long one is answered with an error at once
    and the rest of it skipped.  ``answer`` never raises (it is
    :func:`wire.answer_score_line` or :func:`wire.answer_settle_line`)."""
    from mahjong_nts.formats import wire

    stream: Any = getattr(sys.stdin, "buffer", None) or sys.stdin
    try:
        for line in wire.read_lines(stream):
            typer.echo(line.answer if isinstance(line, wire.LineTooLong) else answer(line))
    except BrokenPipeError:
        # the reader went away (``| head -1``): stop quietly with exit code 0, as ``head``'s
        # writers do (docs/json.md: 0 unless stdin itself cannot be read)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise typer.Exit(0) from None
    except OSError as exc:
        fail(_("cannot read stdin: {reason}").format(reason=os_reason(exc)))
