"""Reading rule sets from TOML: the shipped sets, overlays and house-rule files.

The rules core (:mod:`mahjong_nts.core.rules`) validates plain mappings; this
module does the I/O around it.  A *spec* names what to load:

``"nts-2016"``
    a shipped rule set (:data:`SHIPPED`), each complete on its own;
``"nmb-2009+flowers+three-players"``
    a shipped set with overlays (:data:`OVERLAYS`) laid over it, left to right;
``"club.toml"`` (any path to an existing file, or a name ending in ``.toml``)
    a house-rule file.  Its top-level ``base = "<spec>"`` names what it starts
    from (a relative path is taken from the house file's folder); its values
    are merged over that with :func:`mahjong_nts.core.rules.merge`.  A house
    file may also be complete and name no base.  Overlays may follow a path
    too: ``"club.toml+flowers"``.

Every problem raises :class:`~mahjong_nts.core.errors.InvalidRuleSet` with a
message naming the file (or the spec) and the key or line.
"""

from __future__ import annotations

import difflib
import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final

from mahjong_nts.core.errors import InvalidRuleSet
from mahjong_nts.core.rules import RuleSet, merge

__all__ = [
    "DEFAULT_RULESET",
    "OVERLAYS",
    "SHIPPED",
    "InvalidRuleSet",
    "load_mapping",
    "load_ruleset",
    "overlay_info",
    "ruleset_diff",
    "shipped_mapping",
]

SHIPPED: Final[tuple[str, ...]] = ("nts-2016", "nts-2002", "nmb-2009", "rode-draak")
"""Complete rule sets shipped with the package; the first is the default."""

OVERLAYS: Final[tuple[str, ...]] = ("flowers", "three-players", "five-players")
"""Partial rule files laid over any rule set with ``+``."""

DEFAULT_RULESET: Final = "nts-2016"

_DATA: Final = "data/rulesets"
_META_KEYS: Final = ("name", "title", "source", "notes")
_MAX_DEPTH: Final = 32


# --------------------------------------------------------------------------- reading


def _parse(text: bytes, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InvalidRuleSet(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message ends with "(at line L, column C)".
        raise InvalidRuleSet(f"{where}: TOML syntax error: {exc}") from None


@functools.cache
def _packaged(name: str) -> dict[str, Any]:
    where = f"{name}.toml (shipped)"
    ref = resources.files("mahjong_nts").joinpath(f"{_DATA}/{name}.toml")
    return _parse(ref.read_bytes(), where)


def shipped_mapping(name: str) -> dict[str, Any]:
    """The raw mapping of a shipped rule set or overlay (a fresh copy)."""
    if name not in SHIPPED and name not in OVERLAYS:
        raise InvalidRuleSet(_unknown(name))
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


def _read_file(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InvalidRuleSet(f"{path}: no such rule file") from None
    except OSError as exc:
        raise InvalidRuleSet(f"{path}: cannot read rule file ({exc.strerror or exc})") from None
    return _parse(raw, str(path))


# --------------------------------------------------------------------------- names


def _unknown(name: str) -> str:
    known = (*SHIPPED, *OVERLAYS)
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (
        f"unknown rule set {name!r}{hint}; shipped: {', '.join(SHIPPED)}; "
        f"overlays (add with '+'): {', '.join(OVERLAYS)}; or give a path to a .toml file"
    )


def _looks_like_path(spec: str) -> bool:
    return spec.endswith(".toml") or "/" in spec or "\\" in spec


# --------------------------------------------------------------------------- loading


def load_ruleset(spec: str) -> RuleSet:
    """Load a rule set: a shipped name, ``name+overlay+...``, or a house-rule file path."""
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidRuleSet(f"rule set spec must be a non-empty string, got {spec!r}")
    spec = spec.strip()
    if _looks_like_path(spec) or Path(spec).is_file():
        # Files are read afresh every time (a club edits them); shipped sets are cached.
        return _load(spec, Path(), ())
    return _load_named(spec)


@functools.cache
def _load_named(spec: str) -> RuleSet:
    return _load(spec, Path(), ())


def _load(spec: str, here: Path, chain: tuple[str, ...]) -> RuleSet:
    data, where = _resolve(spec, here, chain)
    return _build(data, where)


def _build(data: Mapping[str, Any], where: str) -> RuleSet:
    try:
        return RuleSet.from_mapping(data, where)
    except InvalidRuleSet:
        raise
    except (TypeError, ValueError, AttributeError) as exc:  # defensive: malformed values
        raise InvalidRuleSet(f"{where}: malformed rule set value ({exc})") from None


def _resolve(spec: str, here: Path, chain: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    """The merged mapping a spec stands for, and where to say it came from."""
    if len(chain) > _MAX_DEPTH:
        raise InvalidRuleSet(f"{chain[-1]}: base chain too deep: {' -> '.join(chain)}")
    path = here / spec
    if path.is_file() or (_looks_like_path(spec) and "+" not in spec):
        return _resolve_file(path, chain)
    head, *overlays = (part.strip() for part in spec.split("+"))
    if not head:
        raise InvalidRuleSet(f"{spec!r}: no rule set before '+'")
    if head in OVERLAYS:
        raise InvalidRuleSet(
            f"{spec!r}: {head!r} is an overlay, not a complete rule set; "
            f"put it after one, e.g. '{DEFAULT_RULESET}+{head}'"
        )
    if head in SHIPPED:
        data = shipped_mapping(head)
        where = f"{head}.toml (shipped)"
    elif _looks_like_path(head) or (here / head).is_file():
        data, where = _resolve_file(here / head, chain)
    else:
        raise InvalidRuleSet(_unknown(head))
    for name in overlays:
        if name not in OVERLAYS:
            if name in SHIPPED:
                raise InvalidRuleSet(
                    f"{spec!r}: {name!r} is a complete rule set, not an "
                    f"overlay; overlays: {', '.join(OVERLAYS)}"
                )
            raise InvalidRuleSet(f"{spec!r}: " + _unknown(name))
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


def _notes(data: Mapping[str, Any]) -> list[Any]:
    notes = data.get("notes", [])
    return list(notes) if isinstance(notes, list) else [notes]


def _join_notes(base: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
    notes = data.get("notes", [])
    if not isinstance(notes, list):
        return notes  # left for the schema check to report
    return [*_notes(base), *notes]


def _resolve_file(path: Path, chain: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    where = str(path)
    key = str(path.resolve()) if path.exists() else where
    if key in chain:
        loop = " -> ".join([*chain[chain.index(key) :], key])
        raise InvalidRuleSet(f"{where}: base loop: {loop}")
    data = _read_file(path)
    return _resolve_data(data, where, path.stem, path.parent, (*chain, key))


def _resolve_data(
    data: dict[str, Any], where: str, default_name: str, here: Path, chain: tuple[str, ...]
) -> tuple[dict[str, Any], str]:
    """Lay a house-rule mapping over its ``base`` (if it names one)."""
    if "base" not in data:
        data.setdefault("name", default_name)
        return data, where
    base = data.pop("base")
    if not isinstance(base, str) or not base.strip():
        raise InvalidRuleSet(
            f"{where}: base must name a rule set (e.g. base = "
            f'"{DEFAULT_RULESET}") or a file, got {base!r}'
        )
    try:
        base_data, _ = _resolve(base.strip(), here, chain)
    except InvalidRuleSet as exc:
        msg = str(exc)
        if msg.startswith(where):
            raise
        raise InvalidRuleSet(f"{where}: base = {base!r}: {msg}") from None
    merged = merge(base_data, data)
    merged["name"] = data.get("name", default_name)
    merged["title"] = data.get(
        "title", f"{base_data.get('title', base)} (house rules {default_name})"
    )
    merged["source"] = data.get(
        "source", f"house rules {default_name} over {base_data.get('source', base)}"
    )
    merged["notes"] = _join_notes(base_data, data)
    return merged, f"{where} (base {base.strip()})"


def load_mapping(
    data: Mapping[str, Any],
    where: str = "<rule mapping>",
    name: str = "house-rules",
    here: Path | None = None,
) -> RuleSet:
    """Build a rule set from an in-memory house-rule mapping (e.g. parsed JSON).

    Like a house-rule file: a top-level ``base`` names a spec to start from
    (relative paths from ``here``, default the working folder); without a base
    the mapping must be complete.  ``name`` is used when the mapping has none.
    """
    if not isinstance(data, Mapping):
        raise InvalidRuleSet(f"{where}: a rule set must be a table, not {type(data).__name__}")
    copy = _deep_copy(data)
    resolved, at = _resolve_data(copy, where, name, here or Path(), (where,))
    return _build(resolved, at)


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
