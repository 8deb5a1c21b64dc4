"""Key files for signing hand logs: Ed25519 PEM (as openssl writes them) and HMAC keys;
every bad key file is an InvalidKeyFile with a clear message."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

from mahjong_nts.formats import logkeys
from mahjong_nts.formats.logkeys import Check, InvalidKeyFile, load_key, parse_key

OPENSSL = shutil.which("openssl")


def pem_pair() -> tuple[bytes, bytes]:
    return logkeys.new_ed25519_key()


def test_new_pair_loads_and_signs() -> None:
    private_pem, public_pem = pem_pair()
    assert private_pem.startswith(b"-----BEGIN PRIVATE KEY-----\n")
    assert public_pem.startswith(b"-----BEGIN PUBLIC KEY-----\n")
    private, public = parse_key(private_pem), parse_key(public_pem)
    assert private.can_sign and not public.can_sign
    assert private.alg == public.alg == "ed25519" and private.key_id == public.key_id
    # key id: the first 16 hex digits of the SHA-256 of the raw 32-byte public key,
    # which ends the DER of a SubjectPublicKeyInfo
    der = base64.b64decode(b"".join(public_pem.splitlines()[1:-1]))
    assert public.key_id == hashlib.sha256(der[-32:]).hexdigest()[:16]
    value = logkeys.sign(private, b"message")
    assert len(base64.b64decode(value)) == 64
    for key in (private, public):
        assert logkeys.check(key, b"message", "ed25519", key.key_id, value) is Check.VALID
        assert logkeys.check(key, b"messagE", "ed25519", key.key_id, value) is Check.INVALID
    other = parse_key(pem_pair()[1])
    assert logkeys.check(other, b"message", "ed25519", private.key_id, value) is Check.OTHER_KEY


def test_hmac_key() -> None:
    pem = logkeys.new_hmac_key()
    lines = pem.decode().splitlines()
    assert lines[0] == "-----BEGIN MAHJONG-NTS HMAC KEY-----"
    secret = base64.b64decode(lines[1])
    assert len(secret) == 32
    key = parse_key(pem)
    assert key.alg == "hmac-sha256" and key.can_sign
    want_id = hashlib.sha256(b"mahjong-nts/hmac-key-id/v1/" + secret).hexdigest()[:16]
    assert key.key_id == want_id
    import hmac as std_hmac

    value = logkeys.sign(key, b"abc")
    assert base64.b64decode(value) == std_hmac.new(secret, b"abc", "sha256").digest()
    assert logkeys.check(key, b"abc", "hmac-sha256", key.key_id, value) is Check.VALID
    assert logkeys.check(key, b"abd", "hmac-sha256", key.key_id, value) is Check.INVALID
    assert logkeys.check(key, b"abc", "ed25519", key.key_id, value) is Check.OTHER_KEY


def test_a_public_key_cannot_sign() -> None:
    public = parse_key(pem_pair()[1])
    with pytest.raises(InvalidKeyFile, match="cannot sign"):
        logkeys.sign(public, b"x")


@pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed")
def test_openssl_keys_and_signatures(tmp_path: Path) -> None:
    """A key from `openssl genpkey -algorithm ed25519` loads; its public key (openssl
    pkey -pubout) has the same id; openssl verifies our signature."""
    private_file, public_file = tmp_path / "k.pem", tmp_path / "k.pub.pem"
    run = [str(OPENSSL)]
    subprocess.run([*run, "genpkey", "-algorithm", "ed25519", "-out", private_file], check=True)
    subprocess.run([*run, "pkey", "-in", private_file, "-pubout", "-out", public_file], check=True)
    private, public = load_key(private_file), load_key(public_file)
    assert private.key_id == public.key_id
    message = b"mahjong-nts/hand-log/v2/signature\n{}\n"
    (tmp_path / "msg").write_bytes(message)
    (tmp_path / "sig").write_bytes(base64.b64decode(logkeys.sign(private, message)))
    done = subprocess.run(
        [
            *run,
            *("pkeyutl", "-verify", "-pubin", "-inkey", public_file, "-rawin"),
            *("-in", tmp_path / "msg", "-sigfile", tmp_path / "sig"),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Signature Verified Successfully" in done.stdout


def write(tmp_path: Path, data: bytes, name: str = "key.pem") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def rsa_like_pem() -> bytes:
    """A private key of another kind (EC P-256: quick to make)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption())


def encrypted_pem() -> bytes:
    key = ed25519.Ed25519PrivateKey.generate()
    return key.private_bytes(
        ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.BestAvailableEncryption(b"pw")
    )


def traditional_encrypted_pem() -> bytes:
    """An encrypted key under the PRIVATE KEY label is refused too (PKCS#8 is not
    encrypted under that label, so a broken body is simply not readable)."""
    good = pem_pair()[0].decode().splitlines()
    return "\n".join([good[0], "AAAA" + good[1][4:], good[2]]).encode() + b"\n"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "no -----BEGIN"),
        (b"hello\n", "no -----BEGIN"),
        (b"\xff\xfe", "not ASCII"),
        (lambda: pem_pair()[0] + pem_pair()[1], "2 PEM blocks"),
        (lambda: rsa_like_pem(), "the private key is EC, not Ed25519"),
        (lambda: encrypted_pem(), "encrypted"),
        (lambda: traditional_encrypted_pem(), "not a readable PEM private key"),
        (b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "CERTIFICATE"),
        (
            b"-----BEGIN MAHJONG-NTS HMAC KEY-----\nAAAA\n-----END MAHJONG-NTS HMAC KEY-----\n",
            "32 to 64 bytes",
        ),
        (
            b"-----BEGIN MAHJONG-NTS HMAC KEY-----\n!!!!\n-----END MAHJONG-NTS HMAC KEY-----\n",
            "base64",
        ),
        (b"-----BEGIN MAHJONG-NTS HMAC KEY-----\n", "one PEM block"),
    ],
)
def test_bad_key_files(tmp_path: Path, data: object, words: str) -> None:
    raw = data() if callable(data) else data
    assert isinstance(raw, bytes)
    path = write(tmp_path, raw)
    with pytest.raises(InvalidKeyFile) as err:
        load_key(path)
    assert str(err.value).startswith(f"{path}: ") and words in str(err.value)
    assert len(str(err.value)) < 300 + len(str(path))


def test_key_files_that_are_no_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidKeyFile, match="No such file"):
        load_key(tmp_path / "missing.pem")
    with pytest.raises(InvalidKeyFile, match="not a regular file"):
        load_key(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InvalidKeyFile, match="not a regular file"):
        load_key(fifo)
    big = write(tmp_path, b"-" * (logkeys.MAX_KEY_FILE_BYTES + 1), "big.pem")
    with pytest.raises(InvalidKeyFile, match="larger than"):
        load_key(big)


def test_write_new_file_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "k"
    logkeys.write_new_file(path, b"one", 0o600)
    assert path.read_bytes() == b"one" and (path.stat().st_mode & 0o777) == 0o600
    with pytest.raises(FileExistsError):
        logkeys.write_new_file(path, b"two", 0o600)
    assert path.read_bytes() == b"one"
