"""Chance from a seed: a game's wall is a deterministic function of its seed.

A hand is its rule set, its seed and its actions.  For that to be fair between
people, two things must hold:

* nobody can guess the wall: default seeds are 128 random bits from the
  operating system (chosen outside the core, with :mod:`secrets`);
* nobody can work the wall out from a few tiles seen: the tiles are shuffled
  with a stream from a cryptographic hash of the seed (SHAKE-256), not with a
  generator like the Mersenne Twister, whose state a few hundred outputs give away.

The stream (:class:`SeedRng`) is defined byte for byte, so that anyone can
re-implement it and check a shuffle::

    stream(seed, purpose) = SHAKE-256("mahjong-nts/rng/v1/" + purpose + "/" + seed as
                                      32 bytes big-endian), read from its start
    getrandbits(k)  = the next ceil(k/8) bytes as a big-endian integer, shifted right
                      to k bits
    randbelow(n)    = getrandbits(bit_length(n)) drawn again until it is below n
    randint(a, b)   = a + randbelow(b - a + 1)
    shuffle(x)      = Fisher-Yates from the end: for i = len(x)-1 .. 1, swap x[i]
                      with x[randbelow(i + 1)]

A published :func:`seed_commitment` (SHA-256) binds a table to a seed before the
hand is dealt; revealing the seed afterwards lets anyone re-deal it.

A part of a larger whole (hand ``i`` of a run, a bot's seed) gets a seed of its own
(:func:`derive_seed`), each part of its name preceded by its length, so that no two
lists of parts (``("ab", "c")`` and ``("a", "bc")``) give the same seed::

    derive_seed(seed, p1, .., pn) = SHA-256("mahjong-nts/derive/v2/" + seed as 32 bytes
                                    big-endian + for each part: len(b) as 8 bytes
                                    big-endian + b, where b = str(part) in UTF-8)
                                    as a big-endian integer
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from mahjong_nts.core.errors import InvalidSeed
from mahjong_nts.core.text import N_

__all__ = [
    "DEFAULT_SEED_BITS",
    "MAX_SEED",
    "SeedRng",
    "check_seed",
    "derive_seed",
    "seed_commitment",
]

DEFAULT_SEED_BITS: Final = 128
"""Bits of a seed chosen at random (by the caller, from :mod:`secrets`)."""

SEED_BYTES: Final = 32
MAX_SEED: Final = (1 << (8 * SEED_BYTES)) - 1
"""Seeds are whole numbers 0 .. 2**256 - 1."""

_DOMAIN: Final = b"mahjong-nts/rng/v1/"
_COMMIT: Final = b"mahjong-nts/seed/v1/"
_DERIVE: Final = b"mahjong-nts/derive/v2/"
"""v2: every part length-prefixed (v1 joined the parts with "/", so that
``("ab", "c")`` and ``("a", "bc")`` could meet)."""
_PART_LENGTH_BYTES: Final = 8
_FIRST_READ: Final = 1024
"""Bytes of the stream taken at once; a 144-tile shuffle needs about 290."""


def check_seed(seed: object, where: str = "seed") -> int:
    """``seed`` if it is a whole number 0 .. :data:`MAX_SEED`, else :class:`InvalidSeed`."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidSeed(
            N_("{where}: a seed is a whole number, not {type}"),
            where=where,
            type=type(seed).__name__,
        )
    if not 0 <= seed <= MAX_SEED:
        raise InvalidSeed(N_("{where}: a seed is a whole number from 0 to 2**256 - 1"), where=where)
    return seed


def _seed_bytes(seed: int) -> bytes:
    return check_seed(seed).to_bytes(SEED_BYTES, "big")


def seed_commitment(seed: int) -> str:
    """The SHA-256 commitment of a seed (64 hex digits), published before the deal."""
    return hashlib.sha256(_COMMIT + _seed_bytes(seed)).hexdigest()


def derive_seed(seed: int, *parts: str | int) -> int:
    """A seed for a part of a larger whole (hand ``i`` of a match or a run), from
    the whole's seed: 256 bits of SHA-256 over the seed and the parts, each part's
    text (``str(part)``, UTF-8) preceded by its length (see the module doc)."""
    h = hashlib.sha256(_DERIVE + _seed_bytes(seed))
    for part in parts:
        data = str(part).encode("utf-8")
        h.update(len(data).to_bytes(_PART_LENGTH_BYTES, "big") + data)
    return int.from_bytes(h.digest(), "big")


class SeedRng:
    """The chance of one game: a SHAKE-256 stream of its seed (see the module doc).

    It has the methods the core draws with (:class:`mahjong_nts.core.wall.Rng`):
    ``shuffle``, ``randint``, ``getrandbits``, plus ``randbelow``.
    """

    __slots__ = ("_buf", "_key", "_pos", "seed")

    def __init__(self, seed: object, purpose: str = "wall") -> None:
        self.seed = check_seed(seed)
        self._key = _DOMAIN + purpose.encode("utf-8") + b"/" + _seed_bytes(self.seed)
        self._buf = hashlib.shake_256(self._key).digest(_FIRST_READ)
        self._pos = 0

    def __repr__(self) -> str:
        return f"SeedRng({self.seed})"

    def _take(self, n: int) -> bytes:
        pos = self._pos
        end = pos + n
        if end > len(self._buf):
            self._take_more(end)
        self._pos = end
        return self._buf[pos:end]

    def _take_more(self, end: int = 0) -> None:
        """Read further: an extendable-output hash's longer read starts with the same bytes."""
        self._buf = hashlib.shake_256(self._key).digest(max(2 * len(self._buf), end))

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        nbytes = (k + 7) // 8
        return int.from_bytes(self._take(nbytes), "big") >> (8 * nbytes - k)

    def randbelow(self, n: int, /) -> int:
        """A whole number ``0 <= r < n``, uniform (by rejection)."""
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        k = n.bit_length()
        while True:
            r = self.getrandbits(k)
            if r < n:
                return r

    def randint(self, a: int, b: int, /) -> int:
        if b < a:
            raise ValueError(f"empty range for randint({a}, {b})")
        return a + self.randbelow(b - a + 1)

    def shuffle(self, x: list[Any], /) -> None:
        below = self.randbelow
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            if n < 256:  # randbelow(n) inlined for one-byte draws (the same bytes, faster)
                shift = 8 - n.bit_length()
                while True:
                    if self._pos >= len(self._buf):
                        self._take_more()
                    j = self._buf[self._pos] >> shift
                    self._pos += 1
                    if j < n:
                        break
            else:
                j = below(n)
            x[i], x[j] = x[j], x[i]
