"""docs/security.md states the bounds the code has (each one, with its number)."""

from __future__ import annotations

import importlib
import pathlib

import pytest

DOC = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "security.md").read_text("utf-8")
ROWS = {line.split("|")[1].strip(): line for line in DOC.splitlines() if line.startswith("| ")}

SETTLE_ROW = "the settle page's address (`/settle?...`)"
RULES_ROW = "rule sets compared on the rules page (`/rules?set=...`)"
SCORE_ROW = "a score given to `settle` or a score sheet (JSON, the settle page, the sheet's form)"
NOTATION_ROW = (
    "words the notation reader remembers (their tiles, to read them again without a scan)"
)
RECORDS_ROW = (
    "the core's shanten records of a group's counts (a suit's 9, the honours' 7) "
    "and the fronts they are built from"
)
PENDING_ROW = (
    "observations a hand in play keeps to work out (their seat views, tiles and history, "
    "left until first read)"
)
COSTS_ROW = (
    "a heuristic (or strong) bot's plan costs, by its plans, its declared melds' value,"
    " concealment and held value tiles"
)
WAITS_ROW = "the core's wait records of a group's counts, and the group statuses behind them"
ARRANGE_ROW = "the core's arrangements of a group's counts, and the splits they are built from"
FACTS_ROW = (
    "the scorer's whole-hand facts: a group's facts by its counts, "
    "a hand's profile by its groups' facts"
)
EXPLAIN_ROW = (
    "the scorer's explanations: items with their details; the explainer's details and notes; "
    "the explained pungs of the hands scored; the explainer's items without details and the "
    "interned scored items"
)
RULE_TABLES_ROW = (
    "the scorer's tables of a rule set: values of whole-hand items by which items a hand has, "
    "of set-count items by the summary of its sets, each with the items that count"
)
JSON_ROW = "a JSON request line (`score --json`, `settle --json`, the handlers)"

WS_ROW = "a message on an online table's socket"
RATE_ROW = "messages of one socket"
CHAT_ROW = "a nickname; a chat line; chat lines of one table"
TIMER_ROW = "an online table's turn and claim timers"
ONLINE_FORM_ROW = "a form of the online pages (`POST /online`, `POST /online/{table}/join`)"

TOURNEY_ROW = "players and rounds of a tournament (`tournament seat --players` / `--rounds`)"
POINTS_ROW = (
    "table points for one place; mahjongs or deal-ins of a player at a table; a penalty's reason"
)

PLAYERS_FILE_ROW = "a players file (`tournament add --csv`, the store's `import_players`)"
TOURNEY_FORM_ROW = "a form of the tournament pages (`POST /tournaments...`)"
SCREEN_ROW = "the big screen's question whether the tournament changed (`GET /t/PUBLIC/version`)"
PENALTIES_ROW = "penalties of one tournament; the name of an official entering a result"
SOURCE_ROW = (
    "the link of an online table or a score sheet a table's result is taken from "
    "(`tournament result --from-online` / `--from-sheet`, the organiser's page)"
)

REPORT_ROW = "`simulate --report DIR`"
ENV_ROW = "the RL environment (`mahjong_nts.env`): a seed; an action; discards in an observation"

ADDRESS_ROW = "a Ray cluster's address (`simulate`, `duel --address`)"
BOT_NAME_ROW = "a bot's name (`duel A B`, `simulate --bots`)"

# (row of the table, module, constant, value, how the row writes it)
CALC_ROW = "the calculator's query (`GET /`, `/calc/result`): hand, house rules, rule set"
HOUSE_FORM_ROW = "the new-table form with house rules (`POST /online`)"
BOUNDS = [
    (PLAYERS_FILE_ROW, "tournament.registration", "MAX_PLAYERS_BYTES", 128 * 1024, "128 KiB"),
    (PLAYERS_FILE_ROW, "tournament.registration", "MAX_LINE_CHARS", 1000, "1000 characters"),
    (PENALTIES_ROW, "store.tournaments", "MAX_PENALTIES", 2000, "| 2000;"),
    (TOURNEY_FORM_ROW, "web.tournament", "MAX_FORM_BYTES", 160 * 1024, "160 KiB"),
    (SCREEN_ROW, "web.tournament", "SCREEN_SECONDS", 10, "every 10 seconds"),
    (PENALTIES_ROW, "store.tournaments", "MAX_WHO_CHARS", 60, "60 characters"),
    (SOURCE_ROW, "online.tournament_sources", "MAX_SOURCE_CHARS", 300, "| 300 characters;"),
    (SOURCE_ROW, "online.limits", "MAX_HANDS", 16, "(at most its 16 hands, or a whole match)"),
    (SOURCE_ROW, "sheet.evening", "MAX_HANDS", 500, "(at most 500 hands)"),
    (JSON_ROW, "formats.wire", "MAX_LINE_BYTES", 64 * 1024, "64 KiB"),
    ("whole numbers in JSON", "formats.safejson", "MAX_INT_DIGITS", 80, "80 digits"),
    ("nesting in JSON", "formats.safejson", "MAX_DEPTH", 16, "16 levels"),
    ("an excerpt of input quoted in an error (a value, a key in a field path)", "core.errors",
     "QUOTE_CHARS", 60, "60 char"),
    ("an error message", "formats.wire", "MAX_ERROR_CHARS", 500, "500 characters"),
    ("texts nested in a core text said in Dutch (an error's parameters)", "i18n",
     "MAX_RENDER_DEPTH", 12, "12 levels"),
    (SCORE_ROW, "core.rules", "MAX_SCORE", 2**48, "0 to 2^48"),
    ("`round_to`", "formats.wire", "MAX_ROUND_TO", 1000, "0 to 1000"),
    ("melds in one hand", "formats.wire", "MAX_MELDS", 8, "| 8 |"),
    ("a rule-set file", "formats.rulefiles", "MAX_FILE_BYTES", 64 * 1024, "64 KiB"),
    ("a rule-set file", "formats.rulefiles", "MAX_NESTING", 8, "nesting 8"),
    ("a rule-set file", "formats.rulefiles", "MAX_BASE_CHAIN", 8, "chain of 8"),
    ("a rule-set spec", "formats.rulefiles", "MAX_SPEC_CHARS", 1024, "1024 characters"),
    ("a rule-set spec", "formats.rulefiles", "MAX_REQUEST_SPEC_CHARS", 128, "128 from"),
    ("an inline rule set", "formats.rulefiles", "MAX_INLINE_VALUES", 2000, "2000 keys"),
    ("an inline rule set", "formats.rulefiles", "MAX_NESTING", 8, "nesting 8"),
    ("points of one item / doublings of one item", "core.rules", "MAX_ITEM_POINTS", 1000,
     "0 to 1000 /"),
    ("points of one item / doublings of one item", "core.rules", "MAX_ITEM_DOUBLINGS", 8,
     "/ 0 to 8"),
    ("a limit or a limit hand's value", "core.rules", "MAX_LIMIT", 1_000_000, "1 to 1,000,000"),
    ("the highest score a rule set allows", "core.rules", "MAX_SCORE", 2**48, "below 2^48"),
    ("rounds, hands, kongs in a hand", "core.rules", "MAX_ROUNDS", 8, "| 8, 40, 16 |"),
    ("rounds, hands, kongs in a hand", "core.rules", "MAX_HANDS", 40, "| 8, 40, 16 |"),
    ("rounds, hands, kongs in a hand", "core.rules", "MAX_KONGS", 16, "| 8, 40, 16 |"),
    ("a rule set's name, title, source; notes", "core.rules", "MAX_NAME_CHARS", 64, "64, 300"),
    ("a rule set's name, title, source; notes", "core.rules", "MAX_TITLE_CHARS", 300, "64, 300"),
    ("a rule set's name, title, source; notes", "core.rules", "MAX_SOURCE_CHARS", 1000,
     "300, 1000 characters"),
    ("a rule set's name, title, source; notes", "core.rules", "MAX_NOTES", 100, "100 notes"),
    ("a rule set's name, title, source; notes", "core.rules", "MAX_NOTE_CHARS", 2000, "of 2000"),
    ("a seed", "core.seeding", "MAX_SEED", 2**256 - 1, "0 to 2^256 - 1"),
    ("an action's text", "core.actions", "MAX_ACTION_TEXT", 100, "100 characters"),
    ("a decision number (`seq`)", "core.game", "MAX_SEQ", 2**31 - 1, "0 to 2^31 - 1"),
    ("a hand log", "formats.gamelog_schema", "MAX_LOG_BYTES", 1024 * 1024, "1 MiB"),
    ("a hand log", "formats.gamelog_schema", "MAX_LINES", 2003, "2003 lines"),
    ("a hand log", "formats.gamelog_schema", "MAX_LINE_BYTES", 16 * 1024, "16 KiB"),
    ("a hand log", "formats.gamelog_schema", "MAX_EVENTS", 2000, "2000 events"),
    ("a key file", "formats.logkeys", "MAX_KEY_FILE_BYTES", 16 * 1024, "16 KiB"),
    ("`simulate --hands` / `--matches`", "sim.simulate", "MAX_HANDS", 1_000_000, "1,000,000 /"),
    ("`simulate --hands` / `--matches`", "sim.simulate", "MAX_MATCHES", 100_000, "/ 100,000"),
    ("`simulate --hands` / `--matches`", "sim.simulate", "MATCH_HAND_LIMIT", 500, "500 hands"),
    ("`play --hands`", "cli.play", "MAX_HANDS", 1000, "1 to 1000"),
    ("`duel --hands`, `--jobs`", "sim.duel", "MAX_HANDS", 1_000_000, "1 to 1,000,000 hands"),
    ("`duel --hands`, `--jobs`", "sim.duel", "MIN_WALLS", 2, "at least 2 walls"),
    (ADDRESS_ROW, "sim.raybackend", "MAX_ADDRESS_CHARS", 300, "| 300 characters:"),
    (ADDRESS_ROW, "sim.raybackend", "PROBE_SECONDS", 5.0, "within 5 seconds"),
    (BOT_NAME_ROW, "bots.loader", "MAX_BOT_NAME_CHARS", 200, "| 200 characters;"),
    (ENV_ROW, "core.actions", "NUM_ACTIONS", 172, "an action id 0 to 171"),
    (ENV_ROW, "env.encoding", "MAX_HISTORY", 136, "136 discards"),
    (ENV_ROW, "env.encoding", "MAX_MATCH_HANDS", 500, "at most 500 hands"),
    ("a line typed at the `play` prompt", "cli.play", "MAX_INPUT", 200, "200 characters"),
    (RECORDS_ROW, "core.shanten", "_RECORDS_BOUND", 8192, "8192 records a group"),
    (RECORDS_ROW, "core.shanten", "_SHAPES_BOUND", 8192, "8192 shapes for the suits"),
    (RECORDS_ROW, "core.shanten", "_SUFFIX_BOUND", 8192, "8192 fronts"),
    (PENDING_ROW, "core.observation", "_PENDING_PRUNE", 16,
     "those still held and at most 16 let go"),
    (COSTS_ROW, "bots.heuristic", "COSTS_BOUND", 256, "256 entries a bot"),
    (WAITS_ROW, "core.analysis", "_INFO_BOUND", 8192, "8192 records a group"),
    (WAITS_ROW, "core.analysis", "_STATUS_BOUND", 16384, "16,384 statuses"),
    (ARRANGE_ROW, "core.analysis", "_DECOMPS_BOUND", 8192, "8192 a group"),
    (ARRANGE_ROW, "core.analysis", "_SPLITS_BOUND", 8192, "8192 splits"),
    (FACTS_ROW, "core.scoring_tables", "_GROUP_CODES_BOUND", 8192, "8192 a group"),
    (FACTS_ROW, "core.scoring_tables", "_PROFILES_BOUND", 8192, "8192 profiles"),
    (EXPLAIN_ROW, "core.scoring", "_DETAILED_BOUND", 65536, "65,536 items"),
    (EXPLAIN_ROW, "core.scoring", "_DETAIL_CACHE", 4096, "4096 entries each"),
    (EXPLAIN_ROW, "core.scoring", "_PART_BOUND", 16384, "16,384 a seat and round wind"),
    (EXPLAIN_ROW, "core.scoring", "_EXPLAINER_BOUND", 4096, "above); 4096 entries each"),
    (RULE_TABLES_ROW, "core.scoring_tables", "_TABLE_BOUND", 4096, "| 4096 entries each"),
    (NOTATION_ROW, "core.notation", "MAX_REMEMBERED_WORDS", 4096, "4096 words"),
    (NOTATION_ROW, "core.notation", "MAX_REMEMBERED_WORD_CHARS", 16, "of at most 16 characters"),
    ("an HTTP request body (`POST /api/score`, `/api/settle`)", "web.api.body", "MAX_BODY_BYTES",
     64 * 1024, "64 KiB"),
    (CALC_ROW, "calc.result", "MAX_HAND_CHARS", 300, "300 characters of notation"),
    (CALC_ROW, "calc.result", "MAX_HOUSE_CHARS", 2000, "2000 of house rules"),
    ("the offline calculator's Python bundle (`/offline/bundle.zip`)", "web.offline",
     "MAX_BUNDLE_BYTES", 1024 * 1024, "1 MiB compressed"),
    ("a citation shown beside a scored item", "formats.citations", "MAX_CITATION_CHARS", 200,
     "200 characters"),
    ("an `Accept-Language` header", "i18n", "MAX_ACCEPT_LANGUAGE", 1000, "1000 characters"),
    ("games against the bots held at once (`/play`)", "web.bottable", "MAX_GAMES", 100, "| 100;"),
    ("an idle game against the bots", "web.bottable", "IDLE_SECONDS", 1800, "1800 seconds"),
    ("hands of one game against the bots", "web.bottable", "MAX_HANDS", 16, "1 to 16"),
    ("hands of one game against the bots", "web.bottable", "MAX_KEPT_LOGS", 8, "last 8 hands"),
    ("a form of the play pages", "web.play", "MAX_FORM_BYTES", 4096, "4096 bytes"),
    ("an uploaded hand log (`/replay`)", "web.replay", "MAX_UPLOAD_BYTES", 1024 * 1024 + 16 * 1024,
     "1 MiB and 16 KiB"),
    ("an uploaded hand log (`/replay`)", "web.replay", "MAX_REPLAYS", 50, "viewing: 50"),
    ("an `Accept-Language` header", "i18n", "MAX_ACCEPT_ENTRIES", 20, "20 languages"),
    ("a score sheet's player names", "sheet", "MAX_NAME_CHARS", 40, "each 40 printable"),
    ("hands on a score sheet", "sheet", "MAX_HANDS", 500, "| 500 |"),
    ("a score sheet's chip value", "sheet", "MAX_CHIP_CENTS", 100, "to 100 cents"),
    ("a score sheet's hand entry", "store.entries", "MAX_ENTRY_BYTES", 16 * 1024, "16 KiB"),
    ("a score sheet's form (`POST /sheet...`)", "web.sheetforms", "MAX_FORM_BYTES", 64 * 1024,
     "64 KiB"),
    ("a score sheet's form (`POST /sheet...`)", "web.sheetforms", "MAX_FORM_FIELDS", 64,
     "64 fields"),
    ("a score sheet's form (`POST /sheet...`)", "web.sheetforms", "MAX_HAND_CHARS", 200,
     "200 characters"),
    ("`serve --workers`", "cli.serve", "MAX_WORKERS", 32, "1 to 32 processes"),
    ("a database URL (`serve --db`, `MAHJONG_NTS_DB_URL`)", "store.db", "MAX_URL_CHARS", 2000,
     "2000 characters"),
    ("the live score sheet's polling (`GET /sheet/TOKEN/live`)", "web.sheet", "LIVE_SECONDS", 3,
     "every 3 seconds"),
    (SETTLE_ROW, "web.settle", "MAX_QUERY_CHARS", 4096, "4096 characters"),
    (SETTLE_ROW, "web.settle", "MAX_NAME_CHARS", 40, "a name 40"),
    (SETTLE_ROW, "web.settle", "MAX_HAND_CHARS", 200, "a hand 200"),
    (RULES_ROW, "web.rules", "MAX_SETS", 3, "| 3, each"),
    (RULES_ROW, "web.rules", "MAX_SPEC_CHARS", 100, "at most 100 characters"),
    (WS_ROW, "online.limits", "MAX_MESSAGE_BYTES", 4096, "4096 bytes"),
    (WS_ROW, "cli.serve", "WS_MAX_BYTES", 64 * 1024, "over 64 KiB"),
    (RATE_ROW, "online.limits", "RATE_PER_SECOND", 10.0, "10 a second"),
    (RATE_ROW, "online.limits", "RATE_BURST", 20, "20 at once"),
    (RATE_ROW, "online.table", "MAX_REFUSED", 50, "after 50 refused"),
    ("messages waiting to go out on one socket", "online.limits", "OUTBOX_MESSAGES", 64,
     "| 64;"),
    ("sockets open to one online table", "online.limits", "MAX_CONNECTIONS_PER_TABLE", 40,
     "| 40,"),
    ("online tables one client address may have open", "online.limits",
     "MAX_TABLES_PER_CLIENT", 5, "| 5 (429"),
    ("online tables open on one server", "online.limits", "MAX_OPEN_TABLES", 500, "| 500 (503"),
    (CHAT_ROW, "online.limits", "MAX_NICKNAME_CHARS", 24, "| 24 characters;"),
    (CHAT_ROW, "online.limits", "MAX_CHAT_CHARS", 200, "; 200 characters;"),
    (CHAT_ROW, "online.limits", "MAX_CHAT_LINES", 2000, "; 2000 |"),
    ("an idle online table", "online.limits", "IDLE_SECONDS", 3600, "3600 seconds"),
    ("hands of an online table", "online.limits", "MAX_HANDS", 16, "1 to 16"),
    ("hands of an online table", "online.limits", "MAX_KEPT_LOGS", 8, "last 8 hands"),
    (TIMER_ROW, "online.limits", "TURN_SECONDS", (5, 600), "5 to 600"),
    (TIMER_ROW, "online.limits", "CLAIM_SECONDS", (2, 120), "2 to 120"),
    ("a seat cookie", "web.online", "COOKIE_SECONDS", 30 * 24 * 3600, "30 days"),
    (ONLINE_FORM_ROW, "web.online_pages", "MAX_FORM_BYTES", 4096, "| 4096 bytes"),
    ("a node's address (`serve --node-url`, `MAHJONG_NTS_NODE_URL`)", "online.nodes",
     "MAX_NODE_URL_CHARS", 200, "| 200 characters"),
    ("a node's hold on its online tables (`MAHJONG_NTS_LEASE_SECONDS`)", "online.limits",
     "LEASE_SECONDS", (2.0, 300.0, 15.0), "2 to 300 seconds (15 by default)"),
    ("public tables in the lobby", "online.limits", "MAX_LOBBY_TABLES", 200, "| 200,"),
    ("a notice between server processes (PostgreSQL `NOTIFY`)", "store.notices",
     "MAX_NOTICE_BYTES", 200, "| 200 bytes"),
    (ONLINE_FORM_ROW, "web.online_pages", "MAX_FORM_FIELDS", 24, "and 24 fields"),
    (HOUSE_FORM_ROW, "web.online_pages", "MAX_NEW_TABLE_FORM_BYTES", 32768, "| 32768 bytes;"),
    (HOUSE_FORM_ROW, "web.online_pages", "MAX_HOUSE_RULES_CHARS", 8000, "8000 characters of TOML"),
    ("the moves a table page's socket keeps to show", "web.livetable", "MOVES_SHOWN", 8,
     "the last 8"),
    (TOURNEY_ROW, "tournament.players", "MAX_PLAYERS", 400, "1 to 400 (`seat`: 4 to 400)"),
    (TOURNEY_ROW, "tournament.players", "MAX_ROUNDS", 20, "/ 1 to 20 rounds"),
    (TOURNEY_ROW, "cli.tournament", "MIN_PLAYERS", 4, "(`seat`: 4 to"),
    ("a player's first or last name, club, NMB or EMA number", "tournament.players",
     "MAX_NAME_CHARS", 60, "60 characters each"),
    ("a clubs list (`tournament seat --clubs`)", "tournament.seating", "MAX_CLUBS_BYTES",
     64 * 1024, "64 KiB"),
    ("a fixed schedule, a loopschema (`tournament seat --schedule`)", "tournament.seating",
     "MAX_SCHEDULE_BYTES", 256 * 1024, "256 KiB"),
    ("the seating search", "tournament.seating", "MAX_EFFORT", 10, "1 to 10 times"),
    ("the seating search", "tournament.seating", "DAY_PLANS", 8, "of the last 8 days"),
    (POINTS_ROW, "tournament.results", "MAX_POINTS", 100, "0 to 100, in hundredths"),
    (POINTS_ROW, "tournament.results", "MAX_COUNT", 1000, "; 0 to 1000;"),
    (POINTS_ROW, "tournament.results", "MAX_REASON_CHARS", 200, "; 200 characters"),
    (REPORT_ROW, "sim.report", "BALANCE_BINS", (-8000, 16000, 100),
     "240 bins of 100 from -8000 to 16,000"),
    (REPORT_ROW, "sim.report", "SCORE_BINS", (0, 4000, 100), "40 bins of 100 up to 4000"),
    (REPORT_ROW, "sim.report", "MAX_DISCARDS", 200, "0 to 200 (more counted as 200)"),
    (REPORT_ROW, "sim.report", "REPORT_FILES", frozenset((
        "index.html", "report.json", "summary.csv", "bots.csv", "seats.csv", "remises.csv",
        "balances.csv", "scores.csv", "hand_length.csv", "items.csv", "limit_hands.csv",
        "outcomes.png", "win_rates.png", "balances.png", "scores.png", "hand_length.png",
        "items.png")), "| 17 files a report"),
]  # fmt: skip


@pytest.mark.parametrize(("row", "module", "name", "value", "text"), BOUNDS)
def test_bound(row: str, module: str, name: str, value: object, text: str) -> None:
    assert getattr(importlib.import_module(f"mahjong_nts.{module}"), name) == value
    assert row in ROWS, row
    assert text in ROWS[row], (row, text)


def test_every_row_is_checked() -> None:
    checked = {b[0] for b in BOUNDS}
    unchecked = set(ROWS) - checked - {"what"}
    # rows whose bound is a rule or a function rather than one number
    assert unchecked == {
        "duplicate keys, `NaN`, `Infinity`, numbers past a float",
        "seats of a settlement",
        "`simulate --jobs`",
        "what the service worker stores",  # a list of URLs (tests/web/test_offline.py)
        "seats of an online table",
        # bounded by the tiles (tests/core/test_game_records_bound.py)
        "a hand's records in the game (its events, discards in order and public log)",
    }
