"""``MAHJONG_NTS_PLAY_SEED`` (tests and screenshots only) deals the online tables too: two
servers started with one seed deal their n-th tables alike (the pictures of docs/online.md
come out the same on every run); without it every table is dealt from ``secrets``."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from mahjong_nts.web import Settings, create_app

BOTS = {"seats": [{"kind": "bot"}] * 4, "hands": 1, "turn_seconds": None}


def _hands(data: Path, seed: int | None) -> list[tuple[str, str, list[int]]]:
    """The commitment, seed and balances of the first two tables' hands."""
    app = create_app(
        Settings(data_dir=data, window_seconds=0.0, bot_delay_seconds=0.0, play_seed=seed)
    )
    out = []
    with TestClient(app) as client:
        for _ in range(2):
            watch = client.post("/api/online/tables", json=BOTS).json()["watch"]
            for _ in range(600):
                state = client.get(f"/api/online/watch/{watch}").json()
                if state["status"] == "finished":
                    break
                time.sleep(0.05)
            hand = state["hand"]
            out.append((hand["seed_commitment"], hand["seed"], state["match"]["balances"]))
    return out


def test_one_seed_deals_the_same_tables_and_plays_them_alike(tmp_path: Path) -> None:
    one = _hands(tmp_path / "a", 20250101)
    two = _hands(tmp_path / "b", 20250101)
    assert one == two
    assert one[0][0] != one[1][0]  # the second table is another deal
    assert _hands(tmp_path / "c", None)[0][0] != one[0][0]
