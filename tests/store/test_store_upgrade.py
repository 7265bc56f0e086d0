"""A database made by koloda 0.1.0 opens in the one store with its data intact, and a database that
cannot be opened or upgraded is refused in one line with nothing changed."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from starlette.testclient import TestClient

from koloda.cli import main
from koloda.errors import RecordError
from koloda.game import GameRecord
from koloda.records import bank_options_v2, banki_options_v2
from koloda.registry import get
from koloda.store import migrate
from koloda.store.schema import metadata
from koloda.store.sql import SqlStore
from koloda.thousand.options import ThousandOptions
from koloda.thousand.sheet.terminal import Sheet
from koloda.web.app import create_app

BANKI_TABLES = ("banki_events", "banki_games")
REVISION_0002 = Path(__file__).parent / "fixtures" / "revision-0002"


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def sqlite_tables(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return sorted(name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))


def version(path: Path) -> str:
    with sqlite3.connect(path) as db:
        (found,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
    return str(found)


@pytest.fixture
def upgraded(release_db: Path) -> Iterator[SqlStore]:
    assert "alembic_version" not in sqlite_tables(release_db)  # as 0.1.0 left it
    with SqlStore(url(release_db)) as store:
        yield store


def test_the_release_database_is_stamped_and_upgraded_to_head(upgraded: SqlStore, release_db: Path) -> None:
    assert version(release_db) == migrate.head() == migrate.revisions()[-1]
    assert migrate.revisions()[0] == "0001"
    assert set(sqlite_tables(release_db)) == {"alembic_version", *metadata.tables}
    with upgraded.reading() as db:  # what the migrations made is what the store's queries expect
        assert compare_metadata(MigrationContext.configure(db), metadata) == []


def test_every_table_replays_to_the_same_state(upgraded: SqlStore, expected: dict[str, Any]) -> None:
    tables = expected["web"]["tables"]
    assert upgraded.table_ids() == [int(key) for key in tables]
    with TestClient(create_app(upgraded, bot_delay=60)) as client:
        for key, was in tables.items():
            record = upgraded.load_table(int(key))
            if record.game == "bank":  # revision 0003: Bank's options in record version 2's terms
                options = bank_options_v2(was["record"]["options"])
                was = {**was, "record": {**was["record"], "options": options}}
                was["info"] = {**was["info"], "options": options}
                spectator = was["spectator"]
                was["spectator"] = {**spectator, "table": {**spectator["table"], "options": options}}
            was = not_open(was)
            assert {
                "game": record.game,
                "players": record.players,
                "options": record.options,
                "seed": record.seed,
                "seats": [seat.to_json() for seat in record.seats],
                "actions": list(record.actions),
                "created": record.created,
            } == was["record"]
            state = get(record.game).replay(
                GameRecord(record.game, record.players, record.options, record.actions, seed=record.seed)
            )
            assert state.current_player == was["to_move"]
            assert sorted(state.action_text(action) for action in state.legal_actions()) == was["legal"]
            info = client.get(f"/api/tables/{key}").json()
            assert {name: info[name] for name in was["info"]} == was["info"]  # what 0.1.0 said, unchanged
            # and what was added since (issue 28): an old table's number seed, not shown until it is over
            assert info["fair"] == {"kind": "number", "seed": record.seed if info["over"] else None}
            with client.websocket_connect(f"/ws/{key}") as ws:
                ws.send_json({"type": "hello"})
                frame = ws.receive_json()
            table = {name: frame["table"][name] for name in was["spectator"]["table"]}
            assert {**{name: frame[name] for name in was["spectator"]}, "table": table} == was["spectator"]


def not_open(was: dict[str, Any]) -> dict[str, Any]:
    """What 0.1.0 said of a table, with each seat not open to the lobby: a seat stored before the host had
    the choice is taken with its link only (issue 15)."""

    def seats(part: dict[str, Any]) -> dict[str, Any]:
        return {**part, "seats": [{**seat, "open": False} for seat in part["seats"]]}

    spectator = was["spectator"]
    if "table" in spectator:
        spectator = {**spectator, "table": seats(spectator["table"])}
    return {**was, "record": seats(was["record"]), "info": seats(was["info"]), "spectator": spectator}


def test_bank_tables_kept_at_revision_0002_keep_their_meaning(tmp_path: Path) -> None:
    """Revision 0003 writes the readings a Bank table was played by into its options (record version 2
    changed two defaults and a reading, and renamed the penalties): every table made at revision 0002 (by
    ``fixtures/make_revision_0002.py`` on the code of 72595d5) replays to the same position and scores."""
    path = tmp_path / "koloda-web.sqlite3"
    shutil.copyfile(REVISION_0002 / "koloda-web.sqlite3", path)
    assert version(path) == "0002"
    expected = json.loads((REVISION_0002 / "expected.json").read_text(encoding="utf-8"))
    with SqlStore(url(path)) as store:
        assert version(path) == migrate.head()
        for key, was in expected.items():
            record = store.load_table(int(key))
            assert record.options == bank_options_v2(was["options"])
            game = GameRecord("bank", record.players, record.options, record.actions, seed=record.seed)
            state = get("bank").replay(game)
            assert state.returns() == was["returns"] and state.current_player == was["to_move"], was["what"]
            assert sorted(state.action_text(a) for a in state.legal_actions()) == was["legal"], was["what"]
            assert [r.to_json() for r in state.results] == was["results"], was["what"]  # type: ignore[attr-defined]
            new = ("eight_follow", "trump_king_alone", "eight_opening")
            plain = {k: v for k, v in record.options.items() if k not in new}
            assert _replays_otherwise(
                GameRecord("bank", record.players, plain, record.actions, seed=record.seed), was
            )


def test_a_bank_table_that_fined_nobody_after_a_stuck_end_still_does_after_revision_0008(
    tmp_path: Path,
) -> None:
    """Record version 3 split stuck_loser in two (who pays, who deals next): a table kept with version 2's
    stuck_loser=nobody under penalty_who=loser gets stuck_payer=nobody, so no fine appears in its deals."""
    path = tmp_path / "koloda-web.sqlite3"
    v2 = {"penalty_who": "loser", "stuck_loser": "nobody", "loser": "last-holder"}
    with SqlStore(url(path)) as store:
        table_id = store.create_table("bank", 3, v2, 5, [])
        untouched = store.create_table("bank", 3, {"penalty_who": "loser"}, 6, [])
    with sqlite3.connect(path) as db:  # as the table was before revision 0008 ran
        db.execute("UPDATE alembic_version SET version_num = '0007'")
        db.execute("DROP TABLE hints")  # made by a revision after 0008 (issue 31), so not there yet
    with SqlStore(url(path)) as store:
        assert version(path) == migrate.head()
        assert store.load_table(table_id).options == {**v2, "stuck_payer": "nobody"}
        assert store.load_table(untouched).options == {"penalty_who": "loser"}


def _replays_otherwise(record: GameRecord, was: dict[str, Any]) -> bool:
    """Whether a record read with the new defaults does not replay, or ends elsewhere than it did."""
    try:
        state = get("bank").replay(record)
    except RecordError:
        return True
    legal = sorted(state.action_text(a) for a in state.legal_actions())
    return state.returns() != was["returns"] or legal != was["legal"]


def test_every_sheet_scores_the_same_in_the_browser_and_the_terminal(
    upgraded: SqlStore, expected: dict[str, Any]
) -> None:
    sheets = expected["web"]["sheets"]
    assert upgraded.sheet_ids() == [int(key) for key in sheets]
    with TestClient(create_app(upgraded)) as client:
        for key, was in sheets.items():
            got, want = client.get(f"/api/sheets/{key}").json(), dict(was["sheet"])
            source = got.pop("source")  # since issue 18: what the page scores offline from
            options, old = got.pop("options"), want.pop("options")
            assert got == want
            assert options == ThousandOptions().to_dict() | old  # an option added since: its default
            assert source["lines"] == [json.loads(line) for line in was["jsonl"].splitlines()[1:]]
            assert client.get(f"/api/sheets/{key}/export/jsonl").text == was["jsonl"]
            sheet = Sheet.load(upgraded, int(key))
            assert sheet.export("jsonl") == was["jsonl"]
            assert [row[-1] for row in was["sheet"]["chart"]["series"]] == list(sheet.book.totals)


def test_every_banki_game_replays_the_same(upgraded: SqlStore, expected: dict[str, Any]) -> None:
    games = expected["web"]["banki"]
    assert upgraded.banki_ids() == [int(key) for key in games]
    with TestClient(create_app(upgraded)) as client:
        for key, was in games.items():
            names, options, seed, events = was["stored"]
            options = banki_options_v2(options)  # revision 0003: in record version 2's terms
            assert list(upgraded.load_banki(int(key))) == [names, options, seed, events]
            game = client.get(f"/api/banki/{key}").json()
            view = {**was["view"], "options": options, "present": [True] * len(names)}
            assert game["view"] == view and game["over"] == was["over"]


def test_the_upgraded_database_goes_on_like_a_new_one(upgraded: SqlStore, expected: dict[str, Any]) -> None:
    with TestClient(create_app(upgraded)) as client:
        deal = {"declarer": "Вера", "bid": 100, "points": {"Аня": 10, "Боря": 10, "Вера": 100}}
        answer = client.post(
            "/api/sheets/1/deals", json=deal, headers={"koloda-edit-key": upgraded.sheet_key(1)}
        )
        assert answer.status_code == 200 and answer.json()["deals"] == 4
        assert client.post("/api/banki", json={"names": ["A", "B", "C", "D"]}).json()["id"] == 3
    assert upgraded.table_ids() == [1, 2]


def test_a_database_from_before_the_banki_referee_gets_its_tables(release_db: Path) -> None:
    with sqlite3.connect(release_db) as db:  # what the release before issue 8 made: four tables
        for name in BANKI_TABLES:
            db.execute(f"DROP TABLE {name}")
    with SqlStore(url(release_db)) as store:
        assert store.banki_ids() == [] and store.sheet_ids() == [1, 2]
        assert len(store.load_table(2).actions) == 28
        game_id = store.create_banki(["A", "B", "C", "D"], {}, 1)
        store.add_banki_event(game_id, 1, "count")
        assert store.load_banki(game_id)[3] == ["count"]
    assert version(release_db) == migrate.head()


def test_opening_again_changes_nothing(upgraded: SqlStore, release_db: Path) -> None:
    upgraded.close()
    before = release_db.read_bytes()
    SqlStore(url(release_db)).close()
    assert release_db.read_bytes() == before


def test_a_new_database_gets_every_revision_and_they_go_down_and_up(tmp_path: Path) -> None:
    from alembic import command

    path = tmp_path / "new.sqlite3"
    SqlStore(url(path)).close()
    assert version(path) == migrate.head()
    engine = sa.create_engine(url(path))
    with engine.begin() as db:
        command.downgrade(migrate._config(db), "0001")
    assert "imports" not in sqlite_tables(path) and version(path) == "0001"
    SqlStore(url(path)).close()
    assert "imports" in sqlite_tables(path) and version(path) == migrate.head()
    engine.dispose()


# -- refused, and left as it was ------------------------------------------------------------------------


def refused(path: Path, match: str) -> None:
    """Opening ``path`` raises RecordError matching ``match``, in one line, and leaves it as it was."""
    before = path.read_bytes()
    with pytest.raises(RecordError, match=match) as caught:
        SqlStore(url(path))
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == before


def test_a_database_of_a_newer_koloda_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    SqlStore(url(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = '0099'")
    refused(
        path, rf"made by a newer koloda \(schema revision '0099'; this one knows up to '{migrate.head()}'\)"
    )


def test_a_file_that_is_no_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, but somebody's notes\n" * 100, encoding="utf-8")
    refused(path, "cannot open the database .*notes.txt: file is not a database")


def test_a_database_with_a_table_of_the_same_name_but_not_koloda_s_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE tables (name TEXT, legs INTEGER)")
        db.execute("INSERT INTO tables VALUES ('kitchen', 4)")
    refused(path, "not koloda's: its table 'tables' has no column 'id', 'game'")
    assert sqlite_tables(path) == ["tables"]


def test_an_upgrade_that_fails_half_way_leaves_the_database_as_it_was(release_db: Path) -> None:
    with sqlite3.connect(release_db) as db:  # revision 0002 will fail to create its table
        db.execute("CREATE TABLE imports (x INTEGER)")
    tables = sqlite_tables(release_db)
    refused(release_db, "table imports already exists")
    assert sqlite_tables(release_db) == tables  # no alembic_version: the baseline was not kept either


@pytest.mark.parametrize(
    "command",
    [
        ["serve", "--port", "0"],
        ["thousand", "sheet", "--resume"],
        ["banki", "new", "Ann", "Bob", "Cat", "Dan"],
        ["banki", "resume"],
    ],
)
def test_every_storing_command_refuses_a_bad_database_in_one_line(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n" * 300, encoding="utf-8")
    assert main([*command, "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("koloda: error: cannot open the database ") and err.count("\n") == 1
    assert path.read_text(encoding="utf-8") == "not a database\n" * 300


def test_a_bad_database_in_a_new_process_gives_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    SqlStore(url(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = '0099'")
    result = subprocess.run(
        [sys.executable, "-m", "koloda", "thousand", "sheet", "--db", str(path)],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("koloda: error: the database") and "upgrade koloda" in result.stderr


def test_two_programs_opening_a_new_database_at_once_both_succeed(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    program = f"from koloda.store.sql import SqlStore; SqlStore({url(path)!r}).close()"
    processes = [subprocess.Popen([sys.executable, "-c", program], stderr=subprocess.PIPE) for _ in range(3)]
    for process in processes:
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode()
    assert version(path) == migrate.head()


REVISION_0005 = Path(__file__).parent / "fixtures" / "revision-0005"


def test_sheets_and_banki_games_kept_at_revision_0005_get_edit_keys_and_their_summaries(
    tmp_path: Path,
) -> None:
    """Revision 0006 (issue 28) gives every sheet and banki game kept before an edit key of its own and every
    sheet its summary, scored once: the list shows what the sheet said at 0005, the sheets and games read
    the same, and each key lets its sheet or game be changed (``fixtures/make_revision_0005.py``, run on the
    code of 9cb23a5)."""
    path = tmp_path / "koloda-web.sqlite3"
    shutil.copyfile(REVISION_0005 / "koloda-web.sqlite3", path)
    assert version(path) == "0005"
    expected = json.loads((REVISION_0005 / "expected.json").read_text(encoding="utf-8"))
    with SqlStore(url(path)) as store:
        assert version(path) == migrate.head()
        sheet_keys = {key: store.sheet_key(int(key)) for key in expected["sheets"]}
        banki_keys = {key: store.banki_key(int(key)) for key in expected["banki"]}
        keys = [*sheet_keys.values(), *banki_keys.values()]
        assert len(set(keys)) == len(keys) and all(re.fullmatch(r"[A-Za-z0-9_-]{32}", key) for key in keys)
        rows = {row.id: row for row in store.sheet_page(None, 50)}
        for key, was in expected["sheets"].items():
            if "error" in was:  # a line this koloda does not score: its lines counted, the rest unknown
                assert rows[int(key)].summary == {"deals": 1, "totals": None, "over": None}
                continue
            totals = [series[-1] for series in was["chart"]["series"]]
            assert rows[int(key)].summary == {"deals": was["deals"], "totals": totals, "over": was["over"]}
        with TestClient(
            create_app(store, bot_delay=3600), headers={"content-type": "application/json"}
        ) as client:
            listed = {sheet["id"]: sheet for sheet in client.get("/api/sheets").json()}
            for key, was in expected["sheets"].items():
                if "error" not in was:
                    assert client.get(f"/api/sheets/{key}").json() == was
                    assert (
                        listed[int(key)]["players"] == was["players"]
                        and listed[int(key)]["deals"] == was["deals"]
                    )
            for key, was in expected["banki"].items():
                answer = client.get(f"/api/banki/{key}").json()
                assert {name: answer[name] for name in was} == was  # what the web said at 0005, unchanged
                # and since (revision 0007): its counting-out's seed, an old game's number, shown once counted
                counted = any(line.startswith("count") for line in answer["source"]["events"])
                assert answer["fair"]["kind"] == "number" and (answer["fair"]["seed"] is not None) == counted
            deal = {"declarer": "Аня", "bid": 100, "bomb": True}
            refused = client.post("/api/sheets/1/deals", json=deal)
            assert refused.status_code == 403 and refused.json()["error"] == "bad_edit_key"
            answer = client.post(
                "/api/sheets/1/deals", json=deal, headers={"koloda-edit-key": sheet_keys["1"]}
            )
            assert answer.status_code == 200 and answer.json()["deals"] == 4
            undo = client.post("/api/banki/1/undo", headers={"koloda-edit-key": banki_keys["1"]})
            assert undo.status_code == 200 and len(undo.json()["view"]["history"]) == 3


def test_a_damaged_file_is_refused_at_start_and_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A page of the file damaged (here: a page of the deals' table overwritten): SQLite's quick_check finds
    it when the store opens, before anything is written; every command says so in one line and exits 2."""
    path = tmp_path / "damaged.sqlite3"
    with SqlStore(url(path)) as store:
        sheet_id = store.create_sheet(["Аня", "Боря", "Вера"], {})
        for seq in range(1, 400):
            store.add_sheet_deal(sheet_id, seq, {"declarer": "Аня", "bid": 100, "bomb": True, "n": "x" * 40})
    with sqlite3.connect(path) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sheet_deals'").fetchone()
    data = bytearray(path.read_bytes())
    leaf = (root + 3) * page_size  # a page of the table's tree past its root
    data[leaf : leaf + 64] = b"\xee" * 64
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    refused(path, "is damaged: SQLite's quick_check says")
    for command in (["serve", "--port", "0"], ["thousand", "sheet", "--resume"], ["banki", "resume"]):
        assert main([*command, "--db", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("koloda: error: the database ") and "damaged" in err and err.count("\n") == 1
    assert path.read_bytes() == before
