"""The report folder (``mahjong_nts.sim.report_page``): its files, byte for byte the same
for the same seed whatever the number of processes, PNGs without a date, a page that
needs nothing from outside, two rule sets side by side."""

from __future__ import annotations

import json
import re
import struct
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.report import (
    CSV_FILES,
    PLOT_FILES,
    REPORT_FILES,
    REPORT_FORMAT,
    RunStats,
    shown_spec,
)
from mahjong_nts.sim.report_page import (
    PLOTS,
    ReportUnavailable,
    require_matplotlib,
    write_report,
)
from mahjong_nts.sim.simulate import SimulationSpec, run_simulation

pytest.importorskip("matplotlib")  # the [report] extra (in [dev], so CI runs these)
pytestmark = pytest.mark.filterwarnings("error")  # a plot matplotlib could not lay out

MIXED = ("heuristic", "random", "random", "random")


def played(ruleset: str, hands: int, seed: int = 2, jobs: int = 1) -> RunStats:
    rules = load_ruleset(ruleset)
    spec = SimulationSpec(ruleset, MIXED, seed=seed)
    stats = RunStats(ruleset, spec, rules)
    for o in run_simulation(spec, hands, jobs=jobs, rules=rules):
        stats.add(o)
    return stats


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        out.append((kind, data[at + 8 : at + 8 + length]))
        at += 12 + length
    return out


class Page(HTMLParser):
    """Every tag with its attributes, and the text of the table heads and cells."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.text.append(data.strip())


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text("utf-8"))
    return page


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "one"
    write_report(out, [played("nts-2016", 40)])
    return out


def test_the_files_of_a_report(single: Path) -> None:
    assert sorted(p.name for p in single.iterdir()) == sorted(REPORT_FILES)
    manifest = json.loads((single / "report.json").read_text("utf-8"))
    assert manifest["format"] == REPORT_FORMAT
    assert manifest["files"] == sorted(REPORT_FILES)
    (run,) = manifest["runs"]
    assert (run["ruleset"], run["hands"], run["seed"], run["bots"]) == (
        "nts-2016",
        40,
        "2",
        list(MIXED),
    )
    assert set(PLOT_FILES) == {name for name, _title, _draw in PLOTS}
    for name in CSV_FILES:
        header = (single / name).read_text("utf-8").splitlines()[0]
        assert header.startswith("ruleset,")


def test_pngs_carry_no_date_and_no_version(single: Path) -> None:
    for name in PLOT_FILES:
        chunks = png_chunks((single / name).read_bytes())
        kinds = {kind for kind, _ in chunks}
        assert b"tIME" not in kinds
        texts = [body for kind, body in chunks if kind in (b"tEXt", b"iTXt", b"zTXt")]
        assert not any(b"Software" in t or b"Date" in t for t in texts), texts
        ihdr = chunks[0][1]
        width, _height = struct.unpack(">II", ihdr[:8])
        assert width == 800  # 6.4 inches at 125 dpi


def test_the_page_needs_nothing_from_outside(single: Path) -> None:
    page = parse(single / "index.html")
    tags = [tag for tag, _ in page.tags]
    assert "script" not in tags and "link" not in tags and "iframe" not in tags
    images = [attrs for tag, attrs in page.tags if tag == "img"]
    assert len(images) == len(PLOT_FILES)
    for attrs in images:
        assert (attrs["src"] or "").startswith("data:image/png;base64,")
        assert attrs.get("alt")
    for tag, attrs in page.tags:
        for key in ("src", "href"):
            value = attrs.get(key) or ""
            assert not re.match(r"[a-z]+://|//", value), (tag, key, value)
    links = sorted(attrs["href"] or "" for tag, attrs in page.tags if tag == "a")
    assert links == sorted(CSV_FILES)  # the tables, beside the page
    text = " ".join(page.text)
    for title in ("How the hands ended", "Per bot", "Win rate per seat", "Limit hands won"):
        assert title in text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in (
        single / "index.html"
    ).read_text("utf-8")


def test_the_same_bytes_for_one_and_two_jobs(tmp_path: Path) -> None:
    for jobs in (1, 2):
        write_report(tmp_path / f"jobs{jobs}", [played("nts-2016", 30, seed=9, jobs=jobs)])
    for name in REPORT_FILES:
        assert (tmp_path / "jobs1" / name).read_bytes() == (
            tmp_path / "jobs2" / name
        ).read_bytes(), name


def test_two_rule_sets_side_by_side(tmp_path: Path) -> None:
    out = tmp_path / "both"
    write_report(out, [played("nts-2016", 30), played("nts-2016+flowers", 30)])
    summary = (out / "summary.csv").read_text("utf-8").splitlines()
    assert [line.split(",")[0] for line in summary[1:]] == ["nts-2016", "nts-2016+flowers"]
    page = parse(out / "index.html")
    heads = [attrs for tag, attrs in page.tags if tag == "th" and attrs.get("colspan") == "2"]
    assert heads  # each statistic spans a column per rule set
    text = " ".join(page.text)
    assert "What nts-2016+flowers does to the game" in text
    # flowers are scored only under the overlay: its items table shows them
    items = (out / "items.csv").read_text("utf-8")
    assert "nts-2016+flowers,bonus_tile," in items and "nts-2016,bonus_tile," not in items
    # a report of one rule set written over it leaves nothing of the second behind
    write_report(out, [played("nts-2016", 30)])
    summary = (out / "summary.csv").read_text("utf-8").splitlines()
    assert len(summary) == 2
    assert sorted(p.name for p in out.iterdir()) == sorted(REPORT_FILES)


HOUSE = """\
base = "nts-2016"
name = "no-minimum"
title = "NTS 2016, mahjong without doublings"

[scoring]
min_doublings = 0
"""


@pytest.mark.parametrize(
    ("label", "shown"),
    [
        ("nts-2016", "nts-2016"),
        ("nmb-2009+flowers", "nmb-2009+flowers"),
        ("house.toml", "house.toml"),
        ("/home/an/club/house.toml", "house.toml"),
        ("club/house.toml+flowers", "house.toml+flowers"),
        ("C:\\Users\\an\\house.toml", "house.toml"),
        ("/tmp/a+b/house.toml", "house.toml"),  # a '+' in a folder's name goes with it
    ],
)
def test_shown_spec(label: str, shown: str) -> None:
    assert shown_spec(label) == shown


def test_a_house_file_is_shown_by_its_name_not_its_folder(tmp_path: Path) -> None:
    """``--compare /some/folder/no-minimum.toml``: the page says the file's name and the
    house rule's own name and title, never the folder the file is in."""
    folder = tmp_path / "secret-folder"
    folder.mkdir()
    house = folder / "no-minimum.toml"
    house.write_text(HOUSE, encoding="utf-8")
    out = tmp_path / "report"
    write_report(out, [played("nts-2016", 20), played(str(house), 20)])
    html = (out / "index.html").read_text("utf-8")
    for written in sorted(out.iterdir()):  # the page, every table and report.json
        if written.suffix in (".html", ".csv", ".json"):
            text = written.read_text("utf-8")
            assert "secret-folder" not in text and str(tmp_path) not in text, written.name
    manifest = json.loads((out / "report.json").read_text("utf-8"))
    assert [run["ruleset"] for run in manifest["runs"]] == ["nts-2016", "no-minimum.toml"]
    text = " ".join(parse(out / "index.html").text)
    assert "What no-minimum does to the game" in text
    assert "<code>no-minimum.toml</code>" in html
    assert "NTS 2016, mahjong without doublings" in html


def test_a_report_shows_one_or_two_runs(tmp_path: Path) -> None:
    run = played("nts-2016", 10)
    with pytest.raises(ValueError, match="one run or two"):
        write_report(tmp_path / "x", [run, run, run])
    assert not (tmp_path / "x").exists()


def test_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    require_matplotlib()
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    with pytest.raises(ReportUnavailable, match=r"mahjong-nts\[report\]"):
        require_matplotlib()


def test_the_page_in_dutch_and_the_same_tables(tmp_path: Path, single: Path) -> None:
    write_report(tmp_path / "nl", [played("nts-2016", 40)], lang="nl")
    page = (tmp_path / "nl" / "index.html").read_text("utf-8")
    assert '<html lang="nl">' in page
    for words in ("Hoe de spellen afliepen", "Winpercentage per plaats", "Oost", "Noord"):
        assert words in page
    assert "Zelf gepakt van de muur" in page  # a scoring item by its Dutch name
    assert "How the hands ended" not in page
    for name in CSV_FILES:  # the tables are the same in every language
        assert (tmp_path / "nl" / name).read_bytes() == (single / name).read_bytes(), name
