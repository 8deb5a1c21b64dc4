"""Reading rule sets: the shipped sets, overlays, house-rule files and inline house rules.

The rules core (:mod:`mahjong_nts.core.rules`) validates plain mappings; this
module does the reading around it.  A *spec* names what to load:

``"nts-2016"``
    a shipped rule set (:data:`SHIPPED`), each complete on its own;
``"nmb-2009+flowers+three-players"``
    a shipped set with overlays (:data:`OVERLAYS`) laid over it, left to right,
    each overlay at most once;
``"club.toml"`` (any path to an existing file, or a name ending in ``.toml``)
    a house-rule file.  Its top-level ``base = "<spec>"`` names what it starts
    from (a relative path is taken from the house file's folder); its values
    are merged over that with :func:`mahjong_nts.core.rules.merge`.  A house
    file may also be complete and name no base.  Overlays may follow a path
    too: ``"club.toml+flowers"``.

Two doors, one for each kind of caller:

* :func:`load_ruleset` is for the local command line and the Python API on the
  user's own machine: it takes every spec above, file paths included.
* :func:`load_untrusted` is for input from outside (a JSON request, the
  network): a string is a shipped spec only, never a path; an object is house
  rules given inline, whose optional ``base`` is again a shipped spec.  It never
  touches the file system.

Bounds (``docs/house-rules.md`` lists them): a rule file is at most
:data:`MAX_FILE_BYTES` and only a regular file is read (never a device, a pipe
or a folder); tables and arrays nest at most :data:`MAX_NESTING` deep; a spec is
at most :data:`MAX_SPEC_CHARS` characters (:data:`MAX_REQUEST_SPEC_CHARS` from
outside); house files chain by ``base`` at most :data:`MAX_BASE_CHAIN` deep; an
inline rule set holds at most :data:`MAX_INLINE_VALUES` values.

Caching: shipped sets with overlays are cached (there are only
``len(SHIPPED) * 16`` of them); inline rule sets in a small LRU keyed by their
canonical JSON; house-rule files never, so an edited file is seen at once.

Every problem raises :class:`~mahjong_nts.core.errors.InvalidRuleSet` with a
message naming the file (or the spec) and the key or line.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import stat
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final

from mahjong_nts.core.errors import InvalidRuleSet, quote
from mahjong_nts.core.rules import RuleSet, merge
from mahjong_nts.core.text import N_, Text
from mahjong_nts.formats.safejson import printable

__all__ = [
    "DEFAULT_RULESET",
    "MAX_BASE_CHAIN",
    "MAX_FILE_BYTES",
    "MAX_INLINE_VALUES",
    "MAX_NESTING",
    "MAX_REQUEST_SPEC_CHARS",
    "MAX_SPEC_CHARS",
    "OVERLAYS",
    "SHIPPED",
    "InvalidRuleSet",
    "load_mapping",
    "load_ruleset",
    "load_untrusted",
    "overlay_info",
    "parse_toml_text",
    "ruleset_diff",
    "shipped_mapping",
]

SHIPPED: Final[tuple[str, ...]] = ("nts-2016", "nts-2002", "nmb-2009", "rode-draak")
"""Complete rule sets shipped with the package; the first is the default."""

OVERLAYS: Final[tuple[str, ...]] = ("flowers", "three-players", "five-players")
"""Partial rule files laid over any rule set with ``+``."""

DEFAULT_RULESET: Final = "nts-2016"

MAX_FILE_BYTES: Final = 64 * 1024
"""Size of a rule file (the largest shipped one is about 11 KB)."""

MAX_NESTING: Final = 8
"""Tables and arrays inside each other, in a file or an inline rule set (a rule set
needs 3: ``[limit_hands]``, a hand, its values)."""

MAX_SPEC_CHARS: Final = 1024
"""Length of a spec on the command line (a path with overlays)."""

MAX_REQUEST_SPEC_CHARS: Final = 128
"""Length of a spec from outside (a shipped name with every overlay is 43)."""

MAX_BASE_CHAIN: Final = 8
"""House-rule files built on one another by ``base``."""

MAX_INLINE_VALUES: Final = 2000
"""Keys and values in an inline rule set (a complete one has about 250)."""

_INLINE_CACHE_SIZE: Final = 32
_INLINE_CACHE_KEY_CHARS: Final = MAX_FILE_BYTES

_DATA: Final = "data/rulesets"
_META_KEYS: Final = ("name", "title", "source", "notes")


# --------------------------------------------------------------------------- reading


def _parse(raw: bytes, where: str) -> dict[str, Any]:
    """A rule file's bytes as a mapping, within the bounds."""
    if len(raw) > MAX_FILE_BYTES:
        raise InvalidRuleSet(
            N_("{where}: a rule file is at most {most} bytes, this one is larger"),
            where=where,
            most=MAX_FILE_BYTES,
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRuleSet(
            N_("{where}: not UTF-8 text (byte {byte})"), where=where, byte=exc.start
        ) from None
    _check_toml_nesting(text, where)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message ends with "(at line L, column C)"; it quotes no content.
        raise InvalidRuleSet(
            N_("{where}: TOML syntax error: {error}"), where=where, error=str(exc)
        ) from None
    except RecursionError:  # not reached past _check_toml_nesting; kept as a last guard
        raise InvalidRuleSet(
            N_("{where}: nested too deeply (at most {most})"), where=where, most=MAX_NESTING
        ) from None
    _check_structure(data, where)
    return data


def parse_toml_text(text: str, where: str) -> dict[str, Any]:
    """House rules given as TOML text (a form's), as a mapping: the bounds of a rule
    file (:data:`MAX_FILE_BYTES`, :data:`MAX_NESTING`), messages beginning with
    ``where``.  Nothing is loaded: pass the mapping to :func:`load_untrusted`."""
    return _parse(text.encode("utf-8", "surrogatepass"), where)


def _check_toml_nesting(text: str, where: str) -> None:
    """Refuse arrays and inline tables nested more than :data:`MAX_NESTING` deep
    before ``tomllib`` parses them (it recurses once per level).

    Brackets inside strings and comments do not count, so the scanner follows
    TOML's four kinds of string; on malformed text it may misjudge, which only
    moves the error to ``tomllib``'s syntax check.
    """
    depth = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "\"'":
            if text.startswith(ch * 3, i):
                i = _skip_multiline(text, i + 3, ch)
            else:
                i = _skip_string(text, i + 1, ch)
            continue
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, i) + 1
                raise InvalidRuleSet(
                    N_("{where}: line {line}: arrays and tables nested more than {most} deep"),
                    where=where,
                    line=line,
                    most=MAX_NESTING,
                )
        elif ch in "]}":
            depth = max(depth - 1, 0)
        i += 1


def _skip_string(text: str, i: int, quote: str) -> int:
    """Past a one-line string whose opening quote was just before ``i``."""
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == quote:
            return i + 1
        if ch == "\n":
            return i  # unterminated: tomllib reports it
        if ch == "\\" and quote == '"':
            i += 1
        i += 1
    return n


def _skip_multiline(text: str, i: int, quote: str) -> int:
    """Past a multi-line string whose opening delimiter ended just before ``i``."""
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and quote == '"':
            i += 2
            continue
        if text.startswith(quote * 3, i):
            i += 3
            extra = 0
            while extra < 2 and i < n and text[i] == quote:  # '"""a""""' ends with a quote
                i += 1
                extra += 1
            return i
        i += 1
    return n


def _check_structure(data: Any, where: str, *, max_values: int | None = None) -> None:
    """Refuse tables and arrays nested more than :data:`MAX_NESTING` deep (dotted
    keys nest without brackets) and, with ``max_values``, more values than that.
    Iterative, so no depth of input can exhaust the stack."""
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    count = 1
    while stack:
        value, depth, key = stack.pop()
        if isinstance(value, Mapping | list):
            count += len(value)
            if max_values is not None and count > max_values:
                raise InvalidRuleSet(
                    N_("{where}: more than {most} values in one rule set"),
                    where=where,
                    most=max_values,
                )
        if isinstance(value, Mapping):
            children: list[tuple[str, Any]] = [
                (f"{key}.{k}" if key else str(k), v) for k, v in value.items()
            ]
        elif isinstance(value, list):
            children = [(f"{key}[{i}]", v) for i, v in enumerate(value)]
        else:
            continue
        if depth >= MAX_NESTING and children:
            raise InvalidRuleSet(
                N_("{where}: {key}: tables and arrays nested more than {most} deep"),
                where=where,
                key=quote(key),
                most=MAX_NESTING,
            )
        stack.extend((v, depth + 1, k) for k, v in children)


def _read_file(path: Path) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES`.

    Opened without blocking (a FIFO would wait for a writer) and checked on the
    open descriptor: a device (``/dev/zero``), a pipe or a folder is refused
    before anything is read; at most one byte more than the bound is read.
    """
    shown = printable(str(path))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InvalidRuleSet(N_("{where}: no such rule file"), where=shown) from None
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise InvalidRuleSet(
            N_("{where}: cannot read rule file ({why})"), where=shown, why=why
        ) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InvalidRuleSet(N_("{where}: is a folder, not a rule file"), where=shown)
        if not stat.S_ISREG(info.st_mode):
            raise InvalidRuleSet(
                N_(
                    "{where}: not a regular file (a device, pipe or socket); "
                    "a rule file is a .toml text file"
                ),
                where=shown,
            )
        if info.st_size > MAX_FILE_BYTES:
            raise InvalidRuleSet(
                N_("{where}: a rule file is at most {most} bytes, this one has {size}"),
                where=shown,
                most=MAX_FILE_BYTES,
                size=info.st_size,
            )
        chunks: list[bytes] = []
        left = MAX_FILE_BYTES + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise InvalidRuleSet(
            N_("{where}: cannot read rule file ({why})"),
            where=shown,
            why=exc.strerror or str(exc),
        ) from None
    finally:
        os.close(fd)


def _file_key(path: Path) -> tuple[int, int] | str:
    """What identifies a file for base-loop detection (device and inode)."""
    try:
        info = path.stat()
    except (OSError, ValueError):
        return str(path)
    return (info.st_dev, info.st_ino)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long, a NUL byte
        return False


@functools.lru_cache(maxsize=len(SHIPPED) + len(OVERLAYS))
def _packaged(name: str) -> dict[str, Any]:
    """A shipped file's mapping (``name`` is one of SHIPPED or OVERLAYS)."""
    where = f"{name}.toml (shipped)"
    ref = resources.files("mahjong_nts").joinpath(f"{_DATA}/{name}.toml")
    return _parse(ref.read_bytes(), where)


def shipped_mapping(name: str) -> dict[str, Any]:
    """The raw mapping of a shipped rule set or overlay (a fresh copy)."""
    if not isinstance(name, str) or (name not in SHIPPED and name not in OVERLAYS):
        raise InvalidRuleSet(_unknown(name, files=False))
    copy: dict[str, Any] = _deep_copy(_packaged(name))
    return copy


def overlay_info(name: str) -> tuple[str, str, tuple[str, ...]]:
    """``(title, source, notes)`` of an overlay."""
    data = shipped_mapping(name)
    return (
        str(data.get("title", name)),
        str(data.get("source", "")),
        tuple(str(n) for n in data.get("notes", [])),
    )


def _deep_copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


# --------------------------------------------------------------------------- names


def _unknown(name: object, *, files: bool) -> Text:
    known = (*SHIPPED, *OVERLAYS)
    close = (
        difflib.get_close_matches(name, known, n=1, cutoff=0.5)
        if isinstance(name, str) and len(name) <= 64
        else []
    )
    hint = Text(N_(" (did you mean {word!r}?)"), word=close[0]) if close else ""
    return Text(
        N_(
            "unknown rule set {name}{hint}; shipped: {shipped}; overlays (add with '+'): "
            "{overlays}; or give a path to a .toml file"
        )
        if files
        else N_(
            "unknown rule set {name}{hint}; shipped: {shipped}; overlays (add with '+'): {overlays}"
        ),
        name=quote(name),
        hint=hint,
        shipped=", ".join(SHIPPED),
        overlays=", ".join(OVERLAYS),
    )


def _looks_like_path(spec: str) -> bool:
    return spec.endswith(".toml") or "/" in spec or "\\" in spec


def _check_spec(spec: object, limit: int) -> str:
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidRuleSet(
            N_("rule set spec must be a non-empty string, got {value}"), value=quote(spec)
        )
    if len(spec) > limit:
        raise InvalidRuleSet(
            N_("rule set spec {value} is {count} characters long; at most {most}"),
            value=quote(spec),
            count=len(spec),
            most=limit,
        )
    return spec.strip()


def _overlays(spec: str, names: list[str]) -> tuple[str, ...]:
    """The overlays after a spec's head, checked: known, each once."""
    seen: list[str] = []
    for name in names:
        if name in seen:
            raise InvalidRuleSet(
                N_("{spec}: overlay {name!r} is given twice"), spec=quote(spec), name=name
            )
        if name not in OVERLAYS:
            if name in SHIPPED:
                raise InvalidRuleSet(
                    N_(
                        "{spec}: {name!r} is a complete rule set, not an overlay; overlays: "
                        "{overlays}"
                    ),
                    spec=quote(spec),
                    name=name,
                    overlays=", ".join(OVERLAYS),
                )
            if not name:
                raise InvalidRuleSet(
                    N_("{spec}: an empty overlay name (a '+' too many)"), spec=quote(spec)
                )
            raise InvalidRuleSet(
                N_("{spec}: {problem}"), spec=quote(spec), problem=_unknown(name, files=False)
            )
        seen.append(name)
    return tuple(seen)


def _split(spec: str) -> tuple[str, list[str]]:
    head, *rest = (part.strip() for part in spec.split("+"))
    if not head:
        raise InvalidRuleSet(N_("{spec}: no rule set before '+'"), spec=quote(spec))
    if head in OVERLAYS:
        raise InvalidRuleSet(
            N_(
                "{spec}: {head!r} is an overlay, not a complete rule set; "
                "put it after one, e.g. '{default}+{head}'"
            ),
            spec=quote(spec),
            head=head,
            default=DEFAULT_RULESET,
        )
    return head, rest


# --------------------------------------------------------------------------- shipped


@functools.lru_cache(maxsize=len(SHIPPED) * 16)
def _load_shipped(head: str, overlays: tuple[str, ...]) -> RuleSet:
    """A shipped set with overlays (checked by the caller: a finite set of keys)."""
    data, where = _shipped_data(head, overlays)
    return _build(data, where)


def _shipped_data(head: str, overlays: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    data = shipped_mapping(head)
    where = f"{head}.toml (shipped)"
    for name in overlays:
        data = _apply_overlay(data, name)
        where = f"{where} + {name}.toml (shipped)"
    return data, where


def _apply_overlay(data: Mapping[str, Any], name: str) -> dict[str, Any]:
    over = shipped_mapping(name)
    meta: dict[str, Any] = {k: over.pop(k) for k in _META_KEYS if k in over}
    out = merge(data, over)
    out["name"] = f"{data.get('name', '?')}+{name}"
    out["title"] = f"{data.get('title', data.get('name', '?'))} + {meta.get('title', name)}"
    out["source"] = "; ".join(s for s in (data.get("source"), meta.get("source")) if s)
    out["notes"] = [*_notes(data), *_notes(meta)]
    return out


def _build(data: Mapping[str, Any], where: str) -> RuleSet:
    try:
        return RuleSet.from_mapping(data, where)
    except InvalidRuleSet:
        raise
    except (TypeError, ValueError, AttributeError) as exc:  # defensive: malformed values
        raise InvalidRuleSet(
            N_("{where}: malformed rule set value ({error})"), where=where, error=quote(str(exc))
        ) from None


def _own_name(rules: RuleSet, where: str) -> RuleSet:
    """``rules`` (house rules, from a file or inline) unless it passes for a shipped
    rule set: a name whose first part is a shipped rule set's or an overlay's (in any
    case: ``nts-2016``, ``NMB-2009+flowers``, ``flowers``) would make a log or an
    output say that rules were played that were not.  Such a name is refused, unless
    the rule set is that shipped one exactly, value for value (a complete copy, as
    ``rules show NAME --json`` prints it)."""
    name = rules.name
    if name.split("+", 1)[0].strip().casefold() not in _SHIPPED_NAMES:
        return rules
    try:
        head, rest = _split(name)
        shipped: RuleSet | None = _load_shipped(head, _overlays(name, rest))
    except InvalidRuleSet:
        shipped = None
    if shipped is not None and shipped.name == name and not ruleset_diff(rules, shipped):
        return rules
    raise InvalidRuleSet(
        N_(
            "{where}: name {name} is taken by a shipped rule set: house rules need a "
            'name of their own (e.g. name = "club"), so that logs and outputs say which rules '
            "were played"
        ),
        where=where,
        name=quote(name),
    )


_SHIPPED_NAMES: Final = frozenset(n.casefold() for n in (*SHIPPED, *OVERLAYS))


# --------------------------------------------------------------------------- local


def load_ruleset(spec: str) -> RuleSet:
    """Load a rule set for the local command line: a shipped name, ``name+overlay+...``,
    or a house-rule file path (with overlays after it).

    Shipped sets are cached; a house-rule file is read and checked on every call.
    Never give this function a spec from outside (a request, the network): use
    :func:`load_untrusted`, which never reads a file.
    """
    spec = _check_spec(spec, MAX_SPEC_CHARS)
    head = spec.split("+", 1)[0].strip()
    if head in SHIPPED:
        head, rest = _split(spec)
        return _load_shipped(head, _overlays(spec, rest))
    data, where = _resolve(spec, Path(), ())
    return _own_name(_build(data, where), where)


def _resolve(
    spec: str, here: Path, chain: tuple[tuple[object, str], ...]
) -> tuple[dict[str, Any], str]:
    """The merged mapping a local spec stands for, and where to say it came from."""
    path = here / spec
    if spec.split("+", 1)[0].strip() not in SHIPPED and (
        _is_file(path) or (_looks_like_path(spec) and "+" not in spec)
    ):
        return _resolve_file(path, chain)
    head, rest = _split(spec)
    overlays = _overlays(spec, rest)
    if head in SHIPPED:
        data, where = _shipped_data(head, ())
    elif _looks_like_path(head) or _is_file(here / head):
        data, where = _resolve_file(here / head, chain)
    else:
        raise InvalidRuleSet(_unknown(head, files=True))
    for name in overlays:
        data = _apply_overlay(data, name)
        where = f"{where} + {name}.toml (shipped)"
    return data, where


def _resolve_file(path: Path, chain: tuple[tuple[object, str], ...]) -> tuple[dict[str, Any], str]:
    where = printable(str(path))
    if len(chain) >= MAX_BASE_CHAIN:
        shown = " -> ".join(w for _, w in chain)
        raise InvalidRuleSet(
            N_("{where}: base chain too deep (at most {most} files): {chain}"),
            where=chain[-1][1],
            most=MAX_BASE_CHAIN,
            chain=shown,
        )
    raw = _read_file(path)
    key = _file_key(path)
    keys = [k for k, _ in chain]
    if key in keys:
        loop = " -> ".join([*(w for _, w in chain[keys.index(key) :]), where])
        raise InvalidRuleSet(N_("{where}: base loop: {loop}"), where=where, loop=loop)
    data = _parse(raw, where)
    name = printable(path.stem)  # the default name: printable, whatever the file is called
    return _resolve_data(data, where, name, _local_base(path.parent, (*chain, (key, where))))


_BaseOf = Callable[[str], tuple[dict[str, Any], str]]
"""How a house-rule mapping's ``base`` is resolved: locally (files allowed, relative
to a folder) or from outside (shipped specs only)."""


def _local_base(here: Path, chain: tuple[tuple[object, str], ...]) -> _BaseOf:
    def base_of(base: str) -> tuple[dict[str, Any], str]:
        return _resolve(_check_spec(base, MAX_SPEC_CHARS), here, chain)

    return base_of


def _shipped_base(base: str) -> tuple[dict[str, Any], str]:
    head, overlays = _untrusted_spec(base)
    return _shipped_data(head, overlays)


def _notes(data: Mapping[str, Any]) -> list[Any]:
    notes = data.get("notes", [])
    return list(notes) if isinstance(notes, list) else [notes]


def _join_notes(base: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
    notes = data.get("notes", [])
    if not isinstance(notes, list):
        return notes  # left for the schema check to report
    return [*_notes(base), *notes]


def _resolve_data(
    data: dict[str, Any], where: str, default_name: str, base_of: _BaseOf
) -> tuple[dict[str, Any], str]:
    """Lay a house-rule mapping over its ``base`` (if it names one)."""
    if "base" not in data:
        data.setdefault("name", default_name)
        return data, where
    base = data.pop("base")
    if not isinstance(base, str) or not base.strip():
        raise InvalidRuleSet(
            N_('{where}: base must name a rule set (e.g. base = "{default}"), got {value}'),
            where=where,
            default=DEFAULT_RULESET,
            value=quote(base),
        )
    try:
        base_data, _ = base_of(base)
    except InvalidRuleSet as exc:
        if str(exc).startswith(where):
            raise
        raise InvalidRuleSet(
            N_("{where}: base = {base}: {problem}"), where=where, base=quote(base), problem=exc.text
        ) from None
    base = base.strip()
    merged = merge(base_data, data)
    merged["name"] = data.get("name", default_name)
    merged["title"] = data.get(
        "title", f"{base_data.get('title', base)} (house rules {default_name})"
    )
    merged["source"] = data.get(
        "source", f"house rules {default_name} over {base_data.get('source', base)}"
    )
    merged["notes"] = _join_notes(base_data, data)
    return merged, f"{where} (base {printable(base)})"


def load_mapping(
    data: Mapping[str, Any],
    where: str = "<rule mapping>",
    name: str = "house-rules",
    here: Path | None = None,
) -> RuleSet:
    """Build a rule set from an in-memory house-rule mapping, locally.

    Like a house-rule file: a top-level ``base`` names a spec to start from
    (relative paths from ``here``, default the working folder); without a base
    the mapping must be complete.  ``name`` is used when the mapping has none.
    The base may be a file: for a mapping from outside use :func:`load_untrusted`.
    """
    copy = _checked_copy(data, where)
    resolved, at = _resolve_data(copy, where, name, _local_base(here or Path(), ()))
    return _own_name(_build(resolved, at), at)


# --------------------------------------------------------------------------- untrusted


def load_untrusted(value: object, where: str = "inline rules") -> RuleSet:
    """A rule set from input that comes from outside (a JSON request, the network).

    ``value`` is either a string, a shipped spec (``"nmb-2009+flowers"``, at most
    :data:`MAX_REQUEST_SPEC_CHARS` characters), or a mapping of house rules given
    inline: the values of a house-rule file, whose optional ``base`` is again a
    shipped spec (without one the mapping must be complete).  A path is never
    read: a string that names a file is refused, so is a ``base`` that does.  An
    inline mapping is checked for size and nesting before anything else; messages
    about it begin with ``where``.
    """
    if isinstance(value, str):
        head, overlays = _untrusted_spec(value)
        return _load_shipped(head, overlays)
    if isinstance(value, Mapping):
        return _load_inline(value, where)
    raise InvalidRuleSet(
        N_(
            "a rule set is a shipped name such as {default!r} (with overlays: "
            "'nmb-2009+flowers') or house rules as an object, not {type}"
        ),
        default=DEFAULT_RULESET,
        type=type(value).__name__,
    )


def _untrusted_spec(spec: object) -> tuple[str, tuple[str, ...]]:
    text = _check_spec(spec, MAX_REQUEST_SPEC_CHARS)
    head, rest = _split(text)
    if head not in SHIPPED:
        if _looks_like_path(head):
            raise InvalidRuleSet(
                N_(
                    "{name} looks like a file, and rule sets from a request never name "
                    "a file: give a shipped rule set ({shipped}, with overlays "
                    "such as 'nmb-2009+flowers') or the house rules inline as an object"
                ),
                name=quote(head),
                shipped=", ".join(SHIPPED),
            )
        raise InvalidRuleSet(_unknown(head, files=False))
    return head, _overlays(text, rest)


_inline_lock = threading.Lock()
_inline_cache: OrderedDict[str, RuleSet] = OrderedDict()


def _load_inline(value: Mapping[str, Any], where: str) -> RuleSet:
    copy = _checked_copy(value, where)
    try:
        key: str | None = json.dumps(copy, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):  # not JSON data (a Python caller): not cached
        key = None
    if key is not None and len(key) > _INLINE_CACHE_KEY_CHARS:
        key = None
    if key is not None:
        with _inline_lock:
            hit = _inline_cache.get(key)
            if hit is not None:
                _inline_cache.move_to_end(key)
                return hit
    resolved, at = _resolve_data(copy, where, "house-rules", _shipped_base)
    rules = _own_name(_build(resolved, at), at)
    if key is not None:
        with _inline_lock:
            _inline_cache[key] = rules
            while len(_inline_cache) > _INLINE_CACHE_SIZE:
                _inline_cache.popitem(last=False)
    return rules


def _checked_copy(data: object, where: str) -> dict[str, Any]:
    """A deep copy of an in-memory rule mapping, after checking its size and nesting."""
    if not isinstance(data, Mapping):
        raise InvalidRuleSet(
            N_("{where}: a rule set must be a table (an object), not {type}"),
            where=where,
            type=type(data).__name__,
        )
    _check_structure(data, where, max_values=MAX_INLINE_VALUES)
    for key in _iter_keys(data):
        if not isinstance(key, str):
            raise InvalidRuleSet(
                N_("{where}: keys must be text, got {key}"), where=where, key=quote(key)
            )
    copy: dict[str, Any] = _deep_copy(data)
    return copy


def _iter_keys(data: Mapping[str, Any]) -> list[object]:
    keys: list[object] = []
    stack: list[Any] = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            keys.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return keys


# --------------------------------------------------------------------------- diff

_SECTION_ORDER: Final = ("scoring", "points", "doublings", "limit_hands", "settlement", "table")


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(value, Mapping):
        for key, sub in value.items():
            _flatten(sub, f"{prefix}.{key}" if prefix else str(key), out)
    else:
        out[prefix] = value


def ruleset_diff(a: RuleSet, b: RuleSet, *, metadata: bool = False) -> list[tuple[str, Any, Any]]:
    """Every rule value that differs: ``(dotted key, value in a, value in b)``.

    A value one set does not have (an item it does not score, a limit hand it
    lacks) is ``None``.  Name, title, source and notes are left out unless
    ``metadata`` is true.
    """
    ma, mb = a.to_mapping(), b.to_mapping()
    fa: dict[str, Any] = {}
    fb: dict[str, Any] = {}
    for section in _SECTION_ORDER:
        _flatten(ma.get(section, {}), section, fa)
        _flatten(mb.get(section, {}), section, fb)
    out: list[tuple[str, Any, Any]] = []
    if metadata:
        out.extend((key, ma[key], mb[key]) for key in _META_KEYS if ma[key] != mb[key])
    keys = list(fa)
    keys.extend(k for k in fb if k not in fa)
    order = {s: i for i, s in enumerate(_SECTION_ORDER)}
    keys.sort(key=lambda k: (order[k.split(".", 1)[0]], k))
    for key in keys:
        va, vb = fa.get(key), fb.get(key)
        if va != vb or type(va) is not type(vb):
            out.append((key, va, vb))
    return out
