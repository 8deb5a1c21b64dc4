"""Seeds and signatures from the command line: ``play`` shows a hand's seed commitment
when it begins and the seed only when it is over; log file names give no seed away;
``keygen`` makes keys; ``play --sign`` and ``simulate --sign`` write signed logs that
``replay --verify --key`` checks."""

from __future__ import annotations

import hashlib
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_nts.cli import app
from mahjong_nts.formats import gamelog, logkeys

runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> Any:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def commitment(seed: int) -> str:
    return hashlib.sha256(b"mahjong-nts/seed/v1/" + seed.to_bytes(32, "big")).hexdigest()


# --------------------------------------------------------------------------- play's seeds


def test_play_shows_the_commitment_first_and_the_seed_at_the_end(tmp_path: Path) -> None:
    res = invoke("play", "--bots", "random", "--log", str(tmp_path), input="1\n" * 500)
    assert res.exit_code == 0, res.output
    out = res.output
    match_seed = int(re.search(r"^Match seed: (\d+) ", out, re.M).group(1))  # type: ignore[union-attr]
    (path,) = tmp_path.iterdir()
    assert path.name == f"play-{commitment(match_seed)[:12]}-hand01.jsonl"
    log = gamelog.read_hand_log(path)
    assert log.result is not None and log.result.over
    seed = log.result.seed
    shown_at = re.search(rf"^Seed of the hand: {seed}$", out, re.M)
    assert shown_at is not None, out[-2000:]
    shown = shown_at.start()
    assert out.index(f"Seed commitment: {commitment(seed)}") < out.index("Hand over") < shown
    before = out[:shown]
    assert str(seed) not in before and str(match_seed) not in before
    assert f"match seed commitment {commitment(match_seed)[:16]}..." in out
    assert gamelog.verify_hand_log(log).seed == seed


def test_play_stopped_hand_reveals_its_seed(tmp_path: Path) -> None:
    res = invoke("play", "--seed", "8", "--bots", "random", "--log", str(tmp_path), input="q\n")
    assert res.exit_code == 0, res.output
    (path,) = tmp_path.iterdir()
    log = gamelog.read_hand_log(path)
    assert log.result is not None and not log.result.over
    out = res.output
    assert out.index("Stopped (quit by the player)") < out.index(
        f"Seed of the hand: {log.result.seed}"
    )
    assert str(log.result.seed) not in out[: out.index("Stopped (")]
    assert "Match seed: 8 " in out


# --------------------------------------------------------------------------- keygen


def test_keygen_ed25519_pair(tmp_path: Path) -> None:
    private, public = tmp_path / "k.pem", tmp_path / "k.pub.pem"
    res = invoke("keygen", str(private), str(public))
    assert res.exit_code == 0, res.output
    key, pub = logkeys.load_key(private), logkeys.load_key(public)
    assert key.can_sign and not pub.can_sign and key.key_id == pub.key_id
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert f"ed25519 key {key.key_id}" in res.output
    # never overwrites
    before = private.read_bytes()
    res = invoke("keygen", str(private), str(tmp_path / "other.pem"))
    assert res.exit_code == 2 and "exists" in res.stderr
    assert private.read_bytes() == before and not (tmp_path / "other.pem").exists()


def test_keygen_hmac(tmp_path: Path) -> None:
    path = tmp_path / "club.key"
    res = invoke("keygen", "--hmac", str(path))
    assert res.exit_code == 0, res.output
    assert logkeys.load_key(path).alg == "hmac-sha256"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["a.pem"], "give two files"),
        (["--hmac", "a.pem", "b.pem"], "one file"),
        (["a.pem", "a.pem"], "same file"),
        (["missing-dir/a.pem", "b.pem"], "No such file"),
    ],
)
def test_keygen_bad_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    res = invoke("keygen", *args)
    assert res.exit_code == 2 and res.stderr.startswith("error: ") and words in res.stderr
    assert list(tmp_path.iterdir()) == []  # nothing half-written


# --------------------------------------------------------------------------- signing logs


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    private, public = tmp_path / "k.pem", tmp_path / "k.pub.pem"
    assert invoke("keygen", str(private), str(public)).exit_code == 0
    return private, public


def test_play_sign(tmp_path: Path, pair: tuple[Path, Path]) -> None:
    private, public = pair
    logs = tmp_path / "logs"
    res = invoke(
        "play", "--seed", "3", "--bots", "random", "--log", str(logs), "--sign", str(private),
        input="1\n1\nq\n",
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    (path,) = logs.iterdir()
    check = invoke("replay", "--verify", "--key", str(public), str(path))
    assert check.exit_code == 0, check.output
    assert "signature: valid, ed25519 key" in check.output


def test_simulate_sign(tmp_path: Path, pair: tuple[Path, Path]) -> None:
    private, public = pair
    logs = tmp_path / "logs"
    args = ["simulate", "--hands", "3", "--seed", "2", "--json", "--log", str(logs)]
    res = invoke(*args, "--sign", str(private))
    assert res.exit_code == 0, res.output
    files = sorted(logs.iterdir())
    assert len(files) == 3
    for path in files:
        check = invoke("replay", "--verify", "--key", str(public), str(path))
        assert check.exit_code == 0, check.output


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_sign_with_a_bad_key_exits_2(tmp_path: Path, pair: tuple[Path, Path], command: str) -> None:
    public = pair[1]
    bad = tmp_path / "bad.pem"
    bad.write_text("nope\n")
    extra = ["--log", str(tmp_path / "logs")]
    for key, words in ((bad, "not a PEM key file"), (public, "is a public key")):
        res = invoke(command, *extra, "--sign", str(key), input="q\n")
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith("error: --sign: ") and words in res.stderr
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


def test_simulate_sign_needs_log(pair: tuple[Path, Path]) -> None:
    res = invoke("simulate", "--hands", "2", "--sign", str(pair[0]))
    assert res.exit_code == 2 and "--log" in res.stderr
