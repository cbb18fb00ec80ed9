"""The pure half of spec §17 (macros/io/_input_log.sql, _delta_log.sql, _iceberg_log.sql): what a Delta log's rows
and an Iceberg table's snapshots say changed between two versions, the candidate units a run fingerprints as of
both, and the units it names. The SQL runs against real Delta and Iceberg tables in
tests/integration/test_format_restated.py."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_inc_join.sql_text import render

D = "2025-03-0{} 00:00:00".format


def test_a_delta_log_gives_its_commits_ranges_and_the_removes_it_cannot_place():
    rows = [
        (7, "commit", "2025-03-09 10:00:00", "DELETE", None, None, None),
        (7, "remove", None, None, "part-1.parquet", None, None),  # no statistics, no arrival partition
        (7, "add", None, None, "part-2.parquet", D(2), D(4)),
        (8, "commit", "2025-03-09 11:00:00", "WRITE", None, None, None),
        (8, "add", None, None, "part-3.parquet", D(9), D(9)),
    ]
    found = render("_delta_changes_of", rows, "6", "8")
    assert found["commits"] == {7: {"version": "7", "at": "2025-03-09 10:00:00", "operation": "DELETE"},
                                8: {"version": "8", "at": "2025-03-09 11:00:00", "operation": "WRITE"}}  # fmt: skip
    assert found["ranges"] == [
        {"lower": D(2), "upper": D(4), "version": 7},
        {"lower": D(9), "upper": D(9), "version": 8},
    ]
    assert found["unknown"] == [{"path": "part-1.parquet", "version": 7}]
    assert found["gone"] == []
    # a commit file no longer kept (log retention): its version is named
    assert render("_delta_changes_of", rows[3:], "6", "8")["gone"] == [7]


def test_the_files_a_delta_version_read_and_the_table_removed_since_are_listed_by_their_names_on_disk():
    """issue 71 item 7: before a run fingerprints an input as of the recorded version, it counts which files that
    version read and the table removed since (data changes and compactions alike) are still there (VACUUM)."""
    rows = [
        (7, "commit", "2025-03-09 10:00:00", "DELETE", None, None, None),
        (7, "remove", None, None, "part-1.parquet", None, None),
        (8, "commit", "2025-03-09 11:00:00", "OPTIMIZE", None, None, None),
        (8, "rewritten", None, None, "RecDate=2025-03-02/part-2.parquet", D(2), D(2)),
        (8, "add", None, None, "part-3.parquet", D(2), D(4)),
    ]
    found = render("_delta_changes_of", rows, "6", "8")
    assert found["removed"] == ["part-1.parquet", "RecDate=2025-03-02/part-2.parquet"]
    assert found["ranges"] == [{"lower": D(2), "upper": D(4), "version": 8}]  # a compaction changes no range
    # the log's paths are URI-encoded (a timestamp partition: Hive's %3A, then the URI's %25 and %20); the listing's
    # pattern has them as on disk, with the pattern's own characters escaped
    glob = render("_delta_path_glob", "RecDate=2025-03-02%2010%253A00%253A00/part-{1,2}.parquet")
    assert glob == "RecDate=2025-03-02 10%3A00%3A00/part-\\{1\\,2\\}.parquet"
    for untold in ("s3://bucket/t/part-1.parquet", "/abs/part-1.parquet", "x=%C3%A9/part-1.parquet", "x=%2"):
        assert render("_delta_path_glob", untold) is None, untold
    query = render("_delta_files_kept_sql", "file:/w/t", ["part-1.parquet", "part-1.parquet", "a=1/part-2.parquet"], 8)
    assert query == ("SELECT count(*) - 1 AS kept FROM binaryFile.`file:/w/t/{part-1.parquet,a=1/part-2.parquet,"
                     "_delta_log/00000000000000000008.json}`")  # fmt: skip
    assert render("_delta_files_kept_sql", "file:/w/t", ["s3://b/part-1.parquet"], 8) is None


def test_without_the_newest_version_the_delta_log_gives_it():
    """A daily run reads the commit files after the recorded version by name: the newest it finds is the version
    it records (no DESCRIBE HISTORY), the recorded version's own file is not a change."""
    rows = [
        (7, "commit", "2025-03-09 10:00:00", "WRITE", None, None, None),
        (7, "add", None, None, "part-2.parquet", D(9), D(9)),
        (9, "commit", "2025-03-09 11:00:00", "WRITE", None, None, None),
    ]
    found = render("_delta_changes_of", rows, "6", None)
    assert found["now"] == 9 and found["gone"] == [8]
    assert render("_delta_changes_of", [], "6", None)["now"] == 6  # nothing since: the recorded version
    assert render("_delta_changes_of", [], "6", "6")["gone"] == []
    # read by pattern: the recorded version's own commit row says the table is still the one recorded
    recorded = [(6, "commit", "2025-03-08 10:00:00", "WRITE", None, None, None), *rows]
    found = render("_delta_changes_of", recorded, "6", None, True)
    assert not found["recorded_gone"] and found["now"] == 9 and 6 not in found["commits"]
    # without it: log retention, or a table created again (version unknown)
    gone = render("_delta_changes_of", rows, "6", None, True)
    assert gone["recorded_gone"] and gone["now"] is None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**7), st.integers(0, 10**7) | st.sampled_from([0, 9, 10, 99, 100, 10**19 - 1]))
def test_the_patterns_after_a_version_match_exactly_the_later_commit_files(version, other):
    import re

    def regex(pattern: str) -> str:  # Hadoop's glob: [a-b] a class, every other character itself here
        parts = re.findall(r"\[[^]]*\]|[^[]+", pattern)
        return "".join(part if part.startswith("[") else re.escape(part) for part in parts)

    patterns = render("_delta_versions_after", version)
    name = f"{other:020d}.json"
    assert any(re.fullmatch(regex(p), name) for p in patterns) == (other > version)
    assert not any(re.fullmatch(regex(p), f"{other:020d}.checkpoint.parquet") for p in patterns)


def test_the_delta_log_query_names_each_commit_file_after_the_recorded_version():
    """By name, each with its folder, so that Hadoop's glob looks up each file instead of listing a log that keeps
    every commit of its retention (0.045 s more at 365 daily commits than at 30 on a local disk, 2026-11-30)."""
    text = render("_delta_log_sql", "file:/w/t", "9", "11", "RecDate", "day")
    assert "text.`file:/w/t/{_delta_log/00000000000000000010.json,_delta_log/00000000000000000011.json," in text
    assert ",_delta_log/_last_checkpoint}`" in text and "AS BIGINT) <= 11" in text
    assert "try_element_at(coalesce(action.add, action.remove).partitionValues, 'RecDate')" in text
    assert "dataChange" in text  # OPTIMIZE's dataChange=false actions are left out
    # beyond a few commits: by pattern, up to the version given
    text = render("_delta_log_sql", "file:/w/t", "9", "30", "RecDate", "day")
    assert "/_delta_log/{00000000000000000009.json,000000000000000000[1-9][0-9].json," in text and "<= 30" in text


def test_without_the_newest_version_the_delta_log_names_the_next_commits_then_lists_the_rest():
    """The recorded version's file (its commitInfo: still there?) and the next ones by name; when the last name is
    there too, more may follow: the rest by pattern, after it."""
    reach = render("_delta_named_commits")
    text = render("_delta_log_sql", "file:/w/t", "12", None, "RecDate", "day")
    names = ",".join(f"_delta_log/{v:020d}.json" for v in range(12, 13 + reach))
    assert f"text.`file:/w/t/{{{names},_delta_log/_last_checkpoint}}`" in text
    assert "AS BIGINT) > 12)" in text and "AS BIGINT) = 12)" in text
    text = render("_delta_log_sql", "file:/w/t", "12", None, "RecDate", "day", True)
    assert (
        "/_delta_log/{00000000000000000012.json,0000000000000000001[3-9].json,000000000000000000[2-9][0-9].json,"
        in text
    )
    assert not render("_delta_log_more", "file:/w/t", "12", 12 + reach - 1)
    assert render("_delta_log_more", "file:/w/t", "12", 12 + reach)
    assert not render("_delta_log_more", "file:/w/t", "12", None)


def test_on_an_object_store_the_delta_log_is_listed_by_pattern():
    """There a name that is not there costs a request or two, and a listing one per 1,000 names."""
    for location in ("s3://bucket/t", "abfss://c@a.dfs.core.windows.net/t", "hdfs://nn:8020/w/t", "dbfs:/w/t"):
        assert not render("_delta_log_by_name", location)
        text = render("_delta_log_sql", location, "12", None, "RecDate", "day")
        assert f"text.`{location}/_delta_log/{{00000000000000000012.json,0000000000000000001[3-9].json," in text
        assert "<=" not in text and "AS BIGINT) = 12)" in text and ".json,_last_checkpoint}`" in text
        text = render("_delta_log_sql", location, "9", "11", "RecDate", "day")
        assert f"text.`{location}/_delta_log/{{00000000000000000009.json,000000000000000000[1-9][0-9].json," in text
        assert "AS BIGINT) <= 11" in text
        assert not render("_delta_log_more", location, "12", 12 + render("_delta_named_commits"))
    assert render("_delta_log_by_name", "file:/w/t") and render("_delta_log_by_name", "/w/t")


def test_the_iceberg_entries_are_read_from_the_manifests_of_each_changed_snapshot_only():
    """Not all_entries: it reads every manifest of the table's history (5.3 s at 365 daily snapshots against 0.9 s
    at 30 in the log benchmark, load 7)."""
    text = render("_iceberg_entries_sql", "s.t", ["11", "12"], "RecDate", "day")
    assert "all_entries" not in text
    assert "FROM s.t.entries VERSION AS OF 11 WHERE snapshot_id = 11 AND status IN (1, 2) UNION ALL" in text
    assert text.endswith("FROM s.t.entries VERSION AS OF 12 WHERE snapshot_id = 12 AND status IN (1, 2)")


def snapshots(*rows: tuple[str, str | None, str]) -> list[tuple]:
    return [(id_, parent, f"2025-03-09 0{i}:00:00", operation) for i, (id_, parent, operation) in enumerate(rows)]


def test_an_iceberg_lineage_gives_the_snapshots_between_two_versions_less_compactions():
    rows = snapshots(("1", None, "append"), ("2", "1", "append"), ("3", "2", "overwrite"), ("4", "3", "replace"),
                     ("5", "4", "append"))  # fmt: skip
    found = render("_iceberg_path_of", rows, "2", "5")
    assert [s["version"] for s in found["snapshots"]] == ["5", "3"] and not found["gone"]
    assert found["snapshots"][1] == {
        "version": "3",
        "at": "2025-03-09 02:00:00",
        "operation": "overwrite",
        "named": "snapshot",
    }
    # a rollback to 2 after 5 was read: 3 and 5 are undone (the compaction changed no rows)
    assert [s["version"] for s in render("_iceberg_path_of", rows, "5", "2")["snapshots"]] == ["5", "3"]
    # a snapshot on the way expired: the log is gone
    assert render("_iceberg_path_of", rows[2:], "2", "5")["gone"]
    assert render("_iceberg_path_of", rows[:2] + rows[3:], "2", "5")["gone"]


@settings(deadline=None)  # the first example compiles the macros
@given(st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=12), st.data())
def test_the_iceberg_snapshots_between_two_versions_are_those_either_has_and_the_other_not(parents, data):
    """Brute force: on any tree of snapshots, the changed snapshots are the symmetric difference of the two
    versions' ancestors (each one's own included), less replace snapshots."""
    rows = [("s0", None, "append")]
    for i, parent in enumerate(parents, start=1):
        operation = data.draw(st.sampled_from(["append", "overwrite", "delete", "replace"]))
        rows.append((f"s{i}", f"s{parent % i}", operation))
    then, now = (f"s{data.draw(st.integers(0, len(parents)))}" for _ in range(2))
    parent_of = {id_: parent for id_, parent, _ in rows}

    def ancestors(node: str | None) -> set[str]:
        found = set()
        while node is not None:
            found.add(node)
            node = parent_of[node]
        return found

    operation_of = {id_: operation for id_, _, operation in rows}
    expected = {s for s in ancestors(then) ^ ancestors(now) if operation_of[s] != "replace"}
    found = render("_iceberg_path_of", snapshots(*rows), then, now)
    assert not found["gone"]
    assert sorted(s["version"] for s in found["snapshots"]) == sorted(expected)


# dbt's relation cache text of an Iceberg table partitioned by its arrival column (its table properties, shortened)
INFORMATION = (
    'Table Properties: [current-schema={"type":"struct","schema-id":0,"fields":[{"id":1,"name":"k","required":false,'
    '"type":"int"},{"id":2,"name":"RecDate","required":false,"type":"date"}]}, default-partition-spec={"spec-id":3,'
    '"fields":[{"name":"k_bucket","transform":"bucket[4]","source-id":1,"field-id":1000},{"name":"RecDate",'
    '"transform":"identity","source-id":2,"field-id":1001}]}, format=iceberg/parquet]'
)


def test_the_partition_field_of_the_arrival_is_found_when_it_is_its_identity_and_a_day():
    assert render("_iceberg_arrival_field", INFORMATION, "recdate", "day") == {"spec": 3, "index": 1}
    assert render("_iceberg_arrival_field", INFORMATION, "RecDate", "hour") is None
    assert render("_iceberg_arrival_field", INFORMATION, "k", "day") is None  # not a date, not its identity
    assert render("_iceberg_arrival_field", INFORMATION.replace('"identity"', '"day"'), "RecDate", "day") is None
    assert render("_iceberg_arrival_field", "", "RecDate", "day") is None  # nothing cached: the entries tell


def test_the_iceberg_snapshot_dbt_listed_spares_the_read_of_the_refs():
    """A daily run's version of an Iceberg input: the catalog's current-snapshot-id in dbt's listing of the schema,
    taken before the run's queries (never later than what it reads); only where the listing lacks it are the refs
    read. The snapshot list then carries it as a literal on every row."""
    shown = ('current-snapshot-id=8350013209339878069, current-snapshot-summary={"added-data-files":"1"}, '
             "current-snapshot-timestamp-ms=1796463496699, format=")  # fmt: skip
    listed = INFORMATION.replace("format=", shown)
    assert render("_iceberg_cached_snapshot", listed) == "8350013209339878069"
    assert render("_iceberg_cached_snapshot", listed, "timestamp-ms") == "1796463496699"
    other = listed.replace("current-snapshot-id=", "previous-current-snapshot-id=")
    for without in (INFORMATION, "", None, listed.replace("=8350013209339878069", "=none"), other):
        assert render("_iceberg_cached_snapshot", without) is None
    known = render("_iceberg_snapshots_sql", "s.t", "8350013209339878069",
                   render("_iceberg_read_from", None, None, "1796463496699"))  # fmt: skip
    assert " '8350013209339878069' AS main, " in known and ".refs" not in known
    # no log to read: main's row and any later one (a listing that lags behind main shows there)
    assert known.endswith(" FROM s.t.snapshots WHERE committed_at >= timestamp_millis(1796463496699)")
    everything = render("_iceberg_snapshots_sql", "s.t")
    assert "FROM s.t.refs WHERE name = 'main') AS main" in everything and everything.endswith(" FROM s.t.snapshots")
    # a daily run's log: the snapshots from the earlier commit time of the recorded version and main's on
    since = render("_iceberg_snapshots_sql", "s.t", "8350013209339878069",
                   render("_iceberg_read_from", "12", "1796463000000", "1796463496699"))  # fmt: skip
    assert since.endswith(" FROM s.t.snapshots WHERE committed_at >= timestamp_millis(1796463000000)")
    # a time unknown (a version recorded without it): every snapshot
    assert render("_iceberg_read_from", "12", None, "1796463496699") is None
    assert render("_iceberg_snapshots_sql", "s.t", "8350013209339878069", None).endswith(" FROM s.t.snapshots")


def test_the_listing_s_snapshot_is_main_only_when_no_snapshot_read_is_its_child():
    """The snapshot dbt's listing showed is the version unless the snapshots read hold a child of it: the metastore's
    property lags behind main (Trino, for one, commits without updating it) and the refs tell; so do they when
    the rows do not hold main at all."""

    def rows(*pairs: tuple[str, str | None], main: str = "7") -> list[list]:
        return [[id_, parent, "2025-03-09 00:00:00", "append", main] for id_, parent in pairs]

    assert render("_iceberg_main_of", rows(("6", "5"), ("7", "6")), "7") == "7"
    assert render("_iceberg_main_of", rows(("7", "6"), ("8", "7")), "7") is None  # 8 came after the listing
    assert render("_iceberg_main_of", rows(("7", "6"), ("8", "7"), main="8"), None) == "8"  # main from the refs
    assert render("_iceberg_main_of", rows(("5", "4"), ("6", "5")), "7") is None  # not in the list read
    assert render("_iceberg_main_of", [], None) is None  # a table without snapshots


def manifest(snapshot: str, lower: str, upper: str, added=1, deleted=0, existing=0, content=0, spec=3, deletes=0):
    """A row of _iceberg_manifests_sql: partition summaries of the bucket field, then the arrival's."""
    summaries = json.dumps([{"lower_bound": "0", "upper_bound": "3"}, {"lower_bound": lower, "upper_bound": upper}])
    return [snapshot, content, spec, added, existing, deleted, deletes, summaries]


def test_a_snapshot_s_own_manifests_give_its_units_only_when_they_hold_exactly_its_files():
    field = {"spec": 3, "index": 1}
    snapshot = {"version": "7", "files": ["2", "1", None, None]}  # its summary: 2 files added, 1 deleted
    own = [manifest("7", "2025-03-09", "2025-03-09", added=2), manifest("7", "2025-03-01", "2025-03-02", 0, 1)]
    others = [manifest("6", "2025-03-08", "2025-03-08")]
    assert render("_iceberg_manifest_ranges", snapshot, own + others, field) == [
        {"lower": "2025-03-09 00:00:00", "upper": "2025-03-09 00:00:00", "version": "7"},
        {"lower": "2025-03-01 00:00:00", "upper": "2025-03-02 00:00:00", "version": "7"},
    ]
    # else its entries tell: a file missing (its manifest merged into a later one), existing entries, a delete
    # manifest or delete files in its summary, another spec, no bounds, no summary counts, no field
    unbounded = [*own[1][:7], json.dumps([{}, {"lower_bound": None, "upper_bound": None}])]
    for second in ([], [manifest("7", "2025-03-01", "2025-03-02", 0, 1, existing=4)],
                   [manifest("7", "2025-03-01", "2025-03-02", 0, 1, content=1)],
                   [manifest("7", "2025-03-01", "2025-03-02", 0, 1, spec=2)],
                   [manifest("7", "2025-03-01", "2025-03-02", 0, 1, deletes=1)], [unbounded]):  # fmt: skip
        assert render("_iceberg_manifest_ranges", snapshot, [own[0], *second], field) is None, second
    with_deletes = {"version": "7", "files": ["2", "1", "1", None]}
    assert render("_iceberg_manifest_ranges", with_deletes, own, field) is None
    assert render("_iceberg_manifest_ranges", {"version": "7"}, own, field) is None
    assert render("_iceberg_manifest_ranges", snapshot, own, None) is None
    # a snapshot that added and deleted nothing (its summary says so) has no range
    assert render("_iceberg_manifest_ranges", {"version": "8", "files": ["0", None, None, None]}, own, field) == []


def test_a_file_of_null_arrivals_only_changes_no_unit_and_leaves_the_log_whole():
    """A row whose arrival is NULL is in no unit (spec §2): a file holding only such rows, added or removed, names
    no range, and the log stays whole, so a restatement in the same interval is still found. A file whose range
    cannot be told (a delete file, a data file without the column's metrics) still makes the log unusable."""
    rows = [
        (7, "commit", "2025-03-09 10:00:00", "WRITE", None, None, None, False),
        (7, "add", None, None, "RecDate=__HIVE_DEFAULT_PARTITION__/part-1.parquet", None, None, True),
        (8, "commit", "2025-03-09 11:00:00", "DELETE", None, None, None, False),
        (8, "remove", None, None, "part-2.parquet", None, None, False),  # its range from the add that wrote it
        (8, "add", None, None, "part-3.parquet", D(1), D(2), False),
    ]
    found = render("_delta_changes_of", rows, "6", "8")
    assert found["ranges"] == [{"lower": D(1), "upper": D(2), "version": 8}]
    assert found["unknown"] == [{"path": "part-2.parquet", "version": 8}]
    text = render("_delta_log_sql", "file:/w/t", "6", "8", "RecDate", "day")
    assert "$.nullCount[\\'RecDate\\']') = get_json_object(" in text and text.count(" AS nulls") == 1
    assert " AS nulls" in render("_delta_adds_sql", "file:/w/t", ["part-2.parquet"], "RecDate", "day")

    entries = [("11", D(3), D(3), 0, False), ("11", None, None, 0, True), ("12", D(1), D(1), 0, False)]
    assert render("_iceberg_entry_ranges", entries) == {
        "ranges": [{"lower": D(3), "upper": D(3), "version": "11"}, {"lower": D(1), "upper": D(1), "version": "12"}],
        "unknown": None,
    }
    for content, why in ((1, "a delete file"), (0, "a data file without the column's bounds")):
        found = render("_iceberg_entry_ranges", [entries[0], ("12", None, None, content, False)])
        assert found["unknown"].startswith(f"does not give the arrival range of a file of snapshot 12 ({why}"), found
    text = render("_iceberg_entries_sql", "s.t", ["11"], "RecDate", "day")
    assert "readable_metrics.`RecDate`.null_value_count = data_file.record_count" in text

    # a snapshot's own manifest of the NULL arrival partition only: Iceberg shows its bounds as 'null' (to_json
    # would leave a null out)
    field = {"spec": 3, "index": 1}
    dated = manifest("7", "2025-03-01", "2025-03-01", 0, 1)
    snapshot = {"version": "7", "files": ["1", "1", None, None]}
    for summary in ({"contains_null": True, "lower_bound": "null", "upper_bound": "null"}, {"contains_null": True}):
        nulls = [*manifest("7", "", "")[:7], json.dumps([{"lower_bound": "0", "upper_bound": "3"}, summary])]
        assert render("_iceberg_manifest_ranges", snapshot, [nulls, dated], field) == [
            {"lower": "2025-03-01 00:00:00", "upper": "2025-03-01 00:00:00", "version": "7"}
        ]
    # a bound left out without NULLs is not told: its entries tell
    unbounded = [*nulls[:7], json.dumps([{}, {"contains_null": False}])]
    assert render("_iceberg_manifest_ranges", snapshot, [unbounded, dated], field) is None


def test_candidate_ranges_are_clipped_to_what_was_read_before_the_read_range_and_merged():
    ranges = [{"lower": D(5), "upper": D(7), "version": 3}, {"lower": D(1), "upper": D(2), "version": 2},
              {"lower": D(2), "upper": D(3), "version": 4}, {"lower": D(9), "upper": D(9), "version": 5}]  # fmt: skip
    assert render("_candidate_ranges", ranges, D(6)) == [[D(1), D(3)], [D(5), D(6)]]
    many = [
        {"lower": f"2025-{m:02d}-01 00:00:00", "upper": f"2025-{m:02d}-01 00:00:00", "version": m} for m in range(1, 13)
    ]
    assert len(render("_candidate_ranges", many * 5, "2026-01-01 00:00:00")) == 12
    spread = [{"lower": f"2025-01-{d:02d} 00:00:00", "upper": f"2025-01-{d:02d} 00:00:00", "version": d}
              for d in range(1, 32)] + [{"lower": f"2025-02-{d:02d} 00:00:00", "upper": f"2025-02-{d:02d} 00:00:00",
                                         "version": d} for d in range(1, 29)]  # fmt: skip
    assert render("_candidate_ranges", spread, "2026-01-01 00:00:00") == [
        ["2025-01-01 00:00:00", "2025-02-28 00:00:00"]
    ]


def test_a_unit_is_named_only_when_its_fingerprints_differ_with_the_first_commit_that_holds_it():
    commits = {
        3: {"version": "3", "at": "t3", "operation": "DELETE"},
        4: {"version": "4", "at": "t4", "operation": "MERGE"},
    }
    ranges = [{"lower": D(1), "upper": D(3), "version": 4}, {"lower": D(2), "upper": D(2), "version": 3}]
    units = {"then": {D(1): "3:10", D(2): "2:7", D(3): "1:4"}, "now": {D(1): "3:10", D(2): "1:5"}}
    found = render("_log_restated_units", "b", units, ranges, commits)
    assert found == [
        {"input": "b", "unit": D(2), "rows_then": 2, "rows_now": 1, "commit": commits[3]},
        {"input": "b", "unit": D(3), "rows_then": 1, "rows_now": 0, "commit": commits[4]},
    ]
    text = render("_restated_text", found, "day")
    assert (
        text == "b 2025-03-02 (rows 2 → 1; DELETE at t3, version 3), b 2025-03-03 (rows 1 → 0; MERGE at t4, version 4)"
    )
    # an Iceberg snapshot (its log's entries are named so) by its id
    snapshot = {"version": "8123", "at": "t5", "operation": "overwrite", "named": "snapshot"}
    assert render("_commit_text", snapshot) == "; overwrite at t5, snapshot 8123"
