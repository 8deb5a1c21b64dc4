"""Keys that sign hand logs: Ed25519 (public verification) or HMAC-SHA256 (a shared secret).

A hash chain shows that a log was not edited line by line, but anyone can
recompute it.  A signature cannot be recomputed without the key:

* **Ed25519** (the default): the server keeps a private key and publishes the
  public one; anyone with the public key checks a log, nobody without the
  private key can sign one.  Keys are PEM files, as ``openssl genpkey -algorithm
  ed25519`` writes them (PKCS#8 ``PRIVATE KEY``) and ``openssl pkey -pubout``
  (``PUBLIC KEY``); :func:`new_ed25519_key` makes a pair without openssl.
* **HMAC-SHA256**: one secret shared by the signer and the checkers (a club's own
  server and its referee); whoever can check can also sign.  The key is a PEM
  block ``MAHJONG-NTS HMAC KEY`` holding 32 to 64 random bytes
  (:func:`new_hmac_key`).

:func:`load_key` reads a key file (bounded, a regular file only) and raises
:class:`InvalidKeyFile` with a clear message for anything else; :func:`sign` and
:func:`check` work on the exact bytes given.  ``key_id`` names a key in a log
without giving anything away: the first 16 hex digits of the SHA-256 of the raw
public key (Ed25519) or of the tagged secret (HMAC).
"""

from __future__ import annotations

import base64
import binascii
import enum
import hashlib
import hmac
import os
import secrets
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.text import N_, Text

__all__ = [
    "ALGORITHMS",
    "HMAC_LABEL",
    "MAX_KEY_FILE_BYTES",
    "Check",
    "InvalidKeyFile",
    "LogKey",
    "check",
    "load_key",
    "new_ed25519_key",
    "new_hmac_key",
    "parse_key",
    "sign",
    "write_new_file",
]

Algorithm = Literal["ed25519", "hmac-sha256"]
ALGORITHMS: Final = ("ed25519", "hmac-sha256")

MAX_KEY_FILE_BYTES: Final = 16 * 1024
"""A key file is read only this far (an Ed25519 PEM file is about 120 bytes)."""

HMAC_LABEL: Final = "MAHJONG-NTS HMAC KEY"
HMAC_BYTES: Final = 32
"""Random bytes in a new HMAC key; a key file may hold 32 to 64."""
_HMAC_ID_TAG: Final = b"mahjong-nts/hmac-key-id/v1/"


class InvalidKeyFile(MahjongError):
    """A key file that cannot be used: unreadable, not PEM, not an Ed25519 or HMAC
    key, encrypted, or a public key where signing needs the private one."""


def _kind(key: object, suffix: str) -> str:
    """The kind of a key that is not Ed25519, from its class name (``RSA``)."""
    kind = type(key).__name__.removesuffix(suffix).lstrip("_")
    return kind or Text(N_("another kind"))


@dataclass(frozen=True, slots=True)
class LogKey:
    """A key as the log code uses it: plain bytes, so it travels to worker processes.

    ``public`` is the raw 32-byte Ed25519 public key (empty for HMAC); ``secret``
    the raw private key (Ed25519) or the shared secret (HMAC), ``b""`` for a
    public key, which can check but not sign."""

    alg: Algorithm
    key_id: str
    public: bytes = field(repr=False)
    secret: bytes = field(repr=False)

    @property
    def can_sign(self) -> bool:
        return bool(self.secret)

    def describe(self) -> str:
        """``ed25519 key 1a2b3c4d5e6f7a8b``."""
        return f"{self.alg} key {self.key_id}"


def _ed25519_id(public: bytes) -> str:
    return hashlib.sha256(public).hexdigest()[:16]


def _hmac_id(secret: bytes) -> str:
    return hashlib.sha256(_HMAC_ID_TAG + secret).hexdigest()[:16]


def _read(path: str | os.PathLike[str]) -> bytes:
    """At most :data:`MAX_KEY_FILE_BYTES` of a regular file (no FIFO, no device)."""
    where = str(path)
    try:
        # non-blocking open: a FIFO is refused at once instead of waiting for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise InvalidKeyFile(N_("{where}: not a regular file"), where=where)
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(MAX_KEY_FILE_BYTES + 1)
    except OSError as exc:
        raise InvalidKeyFile(
            N_("{where}: {why}"), where=where, why=exc.strerror or str(exc)
        ) from None
    if len(data) > MAX_KEY_FILE_BYTES:
        raise InvalidKeyFile(
            N_("{where}: larger than {most} bytes, not a key file"),
            where=where,
            most=MAX_KEY_FILE_BYTES,
        )
    return data


def _pem_blocks(text: str) -> list[str]:
    return [line[len("-----BEGIN ") : -5] for line in text.splitlines() if _is_begin(line)]


def _is_begin(line: str) -> bool:
    return line.startswith("-----BEGIN ") and line.endswith("-----")


def _hmac_key(text: str, where: str) -> LogKey:
    lines = [line.strip() for line in text.strip().splitlines()]
    if (
        len(lines) < 3
        or lines[0] != f"-----BEGIN {HMAC_LABEL}-----"
        or lines[-1] != f"-----END {HMAC_LABEL}-----"
    ):
        raise InvalidKeyFile(
            N_("{where}: a {label} file holds one PEM block and nothing else"),
            where=where,
            label=HMAC_LABEL,
        )
    try:
        secret = base64.b64decode("".join(lines[1:-1]), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidKeyFile(
            N_("{where}: the {label} is not valid base64"), where=where, label=HMAC_LABEL
        ) from None
    if not HMAC_BYTES <= len(secret) <= 64:
        raise InvalidKeyFile(
            N_("{where}: an HMAC key holds {least} to 64 bytes, this one {count}"),
            where=where,
            least=HMAC_BYTES,
            count=len(secret),
        )
    return LogKey("hmac-sha256", _hmac_id(secret), b"", secret)


def _ed25519_key(data: bytes, label: str, where: str) -> LogKey:
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

    try:
        if label == "PUBLIC KEY":
            public = ser.load_pem_public_key(data)
            if not isinstance(public, Ed25519PublicKey):
                raise InvalidKeyFile(
                    N_(
                        "{where}: the public key is {kind}, not Ed25519; hand logs are signed "
                        "with Ed25519 keys"
                    ),
                    where=where,
                    kind=_kind(public, "PublicKey"),
                )
            raw = public.public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
            return LogKey("ed25519", _ed25519_id(raw), raw, b"")
        private = ser.load_pem_private_key(data, password=None)
    except TypeError:
        raise InvalidKeyFile(
            N_(
                "{where}: the key is encrypted; store it without a password "
                "(openssl genpkey -algorithm ed25519 does)"
            ),
            where=where,
        ) from None
    except (ValueError, UnsupportedAlgorithm):
        raise InvalidKeyFile(
            N_("{where}: not a readable PEM private key")
            if label == "PRIVATE KEY"
            else N_("{where}: not a readable PEM public key"),
            where=where,
        ) from None
    if not isinstance(private, Ed25519PrivateKey):
        raise InvalidKeyFile(
            N_(
                "{where}: the private key is {kind}, not Ed25519; hand logs are signed with "
                "Ed25519 keys (mahjong-nts keygen, or openssl genpkey -algorithm ed25519)"
            ),
            where=where,
            kind=_kind(private, "PrivateKey"),
        )
    secret = private.private_bytes(ser.Encoding.Raw, ser.PrivateFormat.Raw, ser.NoEncryption())
    raw = private.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    return LogKey("ed25519", _ed25519_id(raw), raw, secret)


def parse_key(data: bytes, where: str = "key") -> LogKey:
    """The key in a key file's bytes; :class:`InvalidKeyFile` names ``where``."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise InvalidKeyFile(
            N_("{where}: not a PEM key file (not ASCII text)"), where=where
        ) from None
    labels = _pem_blocks(text)
    if not labels:
        raise InvalidKeyFile(
            N_(
                "{where}: not a PEM key file (no -----BEGIN ...----- line); make a key with "
                "mahjong-nts keygen or openssl genpkey -algorithm ed25519"
            ),
            where=where,
        )
    if len(labels) > 1:
        raise InvalidKeyFile(
            N_("{where}: {count} PEM blocks; a key file holds one key"),
            where=where,
            count=len(labels),
        )
    label = labels[0]
    if label == HMAC_LABEL:
        return _hmac_key(text, where)
    if label == "ENCRYPTED PRIVATE KEY":
        raise InvalidKeyFile(
            N_("{where}: the key is encrypted; store it without a password"), where=where
        )
    if label in ("PRIVATE KEY", "PUBLIC KEY"):
        return _ed25519_key(data, label, where)
    raise InvalidKeyFile(
        N_(
            "{where}: a PEM {block!r} block; expected an Ed25519 PRIVATE KEY or PUBLIC KEY "
            "(PKCS#8 / SubjectPublicKeyInfo) or a {label}"
        ),
        where=where,
        block=label[:40],
        label=HMAC_LABEL,
    )


def load_key(path: str | os.PathLike[str]) -> LogKey:
    """Read a key file: an Ed25519 private or public key (PEM) or an HMAC key."""
    return parse_key(_read(path), str(path))


# --------------------------------------------------------------------------- new keys


def new_ed25519_key() -> tuple[bytes, bytes]:
    """A new Ed25519 key pair as PEM: (private key, public key)."""
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    private_pem = private.private_bytes(
        ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption()
    )
    public_pem = private.public_key().public_bytes(
        ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo
    )
    return private_pem, public_pem


def new_hmac_key() -> bytes:
    """A new HMAC key (32 random bytes from :mod:`secrets`) as a PEM block."""
    body = base64.b64encode(secrets.token_bytes(HMAC_BYTES)).decode("ascii")
    return f"-----BEGIN {HMAC_LABEL}-----\n{body}\n-----END {HMAC_LABEL}-----\n".encode("ascii")


# --------------------------------------------------------------------------- signing


def sign(key: LogKey, message: bytes) -> str:
    """The signature (Ed25519) or MAC (HMAC-SHA256) of ``message``, base64."""
    if not key.can_sign:
        raise InvalidKeyFile(
            N_("a public key ({key}) cannot sign: give the private key"), key=key.describe()
        )
    if key.alg == "hmac-sha256":
        value = hmac.new(key.secret, message, hashlib.sha256).digest()
    else:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        value = Ed25519PrivateKey.from_private_bytes(key.secret).sign(message)
    return base64.b64encode(value).decode("ascii")


class Check(enum.Enum):
    """What checking a signature with a key found."""

    VALID = "valid"
    INVALID = "invalid"
    """Signed with this key's id, but the signature does not fit the bytes: the log
    was changed after signing (or the signature was)."""
    OTHER_KEY = "other key"


def check(key: LogKey, message: bytes, alg: str, key_id: str, value: str) -> Check:
    """Check a signature (``alg``, ``key_id``, base64 ``value``) of ``message`` with ``key``."""
    if alg != key.alg or key_id != key.key_id:
        return Check.OTHER_KEY
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return Check.INVALID
    if key.alg == "hmac-sha256":
        want = hmac.new(key.secret, message, hashlib.sha256).digest()
        return Check.VALID if hmac.compare_digest(want, raw) else Check.INVALID
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(key.public).verify(raw, message)
    except InvalidSignature:
        return Check.INVALID
    return Check.VALID


def write_new_file(path: Path, data: bytes, mode: int) -> None:
    """Create ``path`` with ``data`` (never overwriting: ``FileExistsError``)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
