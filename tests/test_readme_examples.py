"""The README's Python example runs as printed and gives the worked example's seven rows (docs/spec.md §9).

The code is taken from README.md itself: the fenced ```python block right after the marker comment
``<!-- readme-example: python -->``, executed on the suite's SparkSession as ``spark``. The table printed
under it in the README is checked against the same rows, so neither can drift from the other.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from dbt_inc_join import inc_join

README = Path(__file__).resolve().parent.parent / "README.md"
MARKER = "<!-- readme-example: python -->"

COLUMNS = ["TrxId", "RecDate", "JoinType", "JoinTypeName", "DiffArrivalTime", "WaitingTime"]
SEVEN_ROWS = [
    (1, date(2025, 3, 6), 2, "a_late", -1, None),
    (2, date(2025, 3, 6), 2, "a_late", -2, None),
    (3, date(2025, 3, 6), 1, "same_time", 0, None),
    (4, date(2025, 3, 7), 1, "same_time", 0, None),
    (7, date(2025, 3, 8), 2, "a_late", -2, None),
    (5, date(2025, 3, 12), 3, "b_late", 5, None),
    (6, date(2025, 3, 17), 4, "a_timed_out", None, 10),
]


def _after_marker() -> str:
    text = README.read_text(encoding="utf-8")
    assert text.count(MARKER) == 1, f"README.md must contain the marker {MARKER!r} exactly once"
    return text.split(MARKER, 1)[1]


def readme_python_example() -> str:
    match = re.match(r"\s*```python\n(.*?)\n```", _after_marker(), re.S)
    assert match, f"no ```python block directly after {MARKER!r} in README.md"
    return match.group(1)


def readme_output_table() -> list:
    """The rows of the first Markdown table after the example, as Python values."""
    rest = _after_marker().split("\n```", 2)[-1]  # skip the code block
    lines = [line for line in rest.splitlines() if line.startswith("|")]
    table = []
    for line in lines[2:]:  # header and separator first
        cells = [c.strip().replace("\u2212", "-") for c in line.strip("|").split("|")]
        if not cells[0].isdigit():
            break
        trx, day, code, name, diff, waiting = cells
        value = lambda cell: None if cell == "null" else int(cell)  # noqa: E731
        table.append((int(trx), date.fromisoformat(day), int(code), name, value(diff), value(waiting)))
        if len(table) == len(SEVEN_ROWS):
            break
    return table


def test_readme_python_example_gives_the_worked_example(spark, capsys):
    namespace = {"spark": spark, "__name__": "readme_example"}
    exec(compile(readme_python_example(), "README.md (python example)", "exec"), namespace)
    result = namespace["result"]

    assert result.columns == COLUMNS
    assert [tuple(row) for row in result.orderBy("RecDate", "TrxId").collect()] == SEVEN_ROWS
    shown = capsys.readouterr().out
    assert "a_timed_out" in shown and "2025-03-17" in shown, "the example's show() printed something else"


def test_readme_output_table_is_the_worked_example():
    assert readme_output_table() == SEVEN_ROWS


# --- spec §11: the README's one-row-per-A tables -----------------------------------------------------------

ONE_ROW_A = [(1, 6), (2, 6), (3, 6), (4, 7), (5, 7), (6, 7), (7, 8)]
# the worked example's B with a second payment of TrxId 1 and TrxId 5's payment split in two (README text)
ONE_ROW_B = [(1, 5, 10.0), (1, 7, 12.5), (2, 4, 20.0), (3, 6, 30.0), (4, 7, 40.0), (5, 9, 25.0), (5, 12, 25.0)]
ONE_ROW_B += [(6, 18, 60.0), (7, 6, 70.0)]


def readme_table_after(lead: str) -> list[list[str]]:
    """The cells of the first Markdown table after the paragraph starting with ``lead``."""
    text = README.read_text(encoding="utf-8")
    assert text.count(lead) == 1, lead
    lines = text.split(lead, 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        table.append([c.strip().replace("\u2212", "-") for c in line.strip("|").split("|")])
    return table


def readme_join(spark, b_rows, b_schema, **options):
    """The worked example's A (ONE_ROW_A) joined as in the README (lb 2, mw 10, window 03-05..03-20) with
    B rows of March 2025: (TrxId, day, ...) in ``b_schema``."""
    df_a = spark.createDataFrame([(t, date(2025, 3, d)) for t, d in ONE_ROW_A], "TrxId int, RecDate date")
    df_b = spark.createDataFrame([(t, date(2025, 3, d), *rest) for t, d, *rest in b_rows], b_schema)
    return inc_join(
        df_a,
        df_b,
        join_cols=["TrxId"],
        look_back_time=2,
        max_waiting_time=10,
        output_window_start="2025-03-05",
        output_window_end="2025-03-20",
        **options,
    )


def _cell(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


@pytest.mark.parametrize(
    "lead, options, columns",
    [
        (
            "**The first partner**",
            dict(partner="first"),
            "join_cols, inc_col, inc_col_b, Amount, JoinType, DiffArrivalTime",
        ),
        (
            "**The last partner**",
            dict(partner="last"),
            "join_cols, inc_col, inc_col_b, Amount, JoinType, DiffArrivalTime",
        ),
        (
            "**Window aggregates**",
            dict(aggregate={"payments": "count(*)", "paid": "sum(Amount)"}, null_fill={"paid": 0}),
            "join_cols, inc_col, payments, paid, JoinType, WaitingTime",
        ),
    ],
)
def test_readme_one_row_per_a_tables_are_what_the_join_gives(spark, lead, options, columns):
    result = readme_join(spark, ONE_ROW_B, "TrxId int, RecDate date, Amount double", output_select=columns, **options)
    got = [[_cell(v) for v in row] for row in result.orderBy("RecDate", "TrxId").collect()]
    assert readme_table_after(lead) == got


# --- spec §10: the README's late-partner table ---------------------------------------------------------------

WORKED_B = [(1, 5), (2, 4), (3, 6), (4, 7), (5, 12), (6, 18), (7, 6)]


def test_readme_late_match_table_is_what_the_join_gives(spark):
    """TrxId 6 twice with late_match_time=3: timed out on 03-17, its late payment on 03-18."""
    result = readme_join(
        spark,
        WORKED_B,
        "TrxId int, RecDate date",
        late_match_time=3,
        output_select=", ".join(COLUMNS).replace("RecDate", "inc_col"),
    )
    rows = result.where("TrxId = 6").orderBy("RecDate").collect()
    got = [[_cell(v.isoformat() if isinstance(v, date) else v) for v in row] for row in rows]
    assert readme_table_after("The worked example then has TrxId 6 twice:") == got
    assert [row[2] for row in got] == ["4", "7"]


MANY_MARKER = "<!-- readme-example: many"


def readme_many_table() -> list[tuple]:
    """The table under the marker: each row's cells, the JoinType cells reduced to their code."""
    text = README.read_text(encoding="utf-8").split(MANY_MARKER, 1)[1]
    table = text.split("\n")[1:]
    lines = table[: next(i for i, line in enumerate(table) if not line.startswith("|"))]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    return [tuple(c.split(" ")[0] for c in row) for row in cells]


def test_the_several_inputs_example_gives_its_table(spark):
    """The README's inc_join_many example (orders, payments within a day, shipments within two days after)."""
    from dbt_inc_join import inc_join_many

    orders = spark.sql(
        "select * from values (1, 'acme', date'2025-03-06'), (2, 'bolt', date'2025-03-06'), "
        "(3, 'acme', date'2025-03-07') as t(OrderId, Customer, RecDate)"
    )
    payments = spark.sql(
        "select * from values (1, 90.0, date'2025-03-05'), (2, 15.5, date'2025-03-08'), (3, 42.0, date'2025-03-07') "
        "as t(OrderId, Amount, RecDate)"
    )
    shipments = spark.sql(
        "select * from values (1, 'DHL', date'2025-03-08'), (2, 'UPS', date'2025-03-07') "
        "as t(OrderId, Carrier, RecDate)"
    )
    inputs = [
        dict(df=payments, name="payment", join_cols="OrderId", look_back_time=1, max_waiting_time=1),
        dict(df=shipments, name="shipment", join_cols="OrderId", look_back_time=0, max_waiting_time=2),
    ]
    result = inc_join_many(orders, inputs, output_window_start="2025-03-01", output_window_end="2025-03-09")

    def shown(value) -> str:
        return "NULL" if value is None else (value.strftime("%m-%d") if isinstance(value, date) else str(value))

    got = [tuple(shown(v) for v in row) for row in result.collect()]
    assert sorted(got, key=lambda row: int(row[1])) == readme_many_table()


# --- the README as a user guide (issue 41, item 5) ---------------------------------------------------------

README_MAX_BYTES = 40_000


def test_the_readme_is_a_guide_of_at_most_40_kb():
    """At most 40 KB; its first block of commands is the two set-up commands; then, in this order, the user's
    quickstart (packages.yml, a profile, one model, `dbt run`), the concepts and the reference."""
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= README_MAX_BYTES, "README.md is over 40 KB: move detail to docs/"
    setup = text.split("## Set-up: two commands", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in setup.splitlines() if line.split("#")[0].strip()]
    assert commands == ["make demo", "make test"]
    order = ["## Set-up: two commands", "## Quickstart", "packages:", "### 3. A profile", "### 4. A SQL model"]
    order += ["### 5. `dbt run`", "## Concepts", "## Reference", "## Further documentation"]
    positions = [text.index(heading) for heading in order]
    assert positions == sorted(positions), order


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings (outside code blocks)."""
    anchors, in_code = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and re.match(r"#+ ", line):
            heading = re.sub(r"^#+ ", "", line).strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", heading).replace(" ", "-"))
    return anchors


def test_every_link_of_the_readme_reaches_its_file_and_heading():
    """What left the README for docs/ stays reachable: each relative link names a file that exists and, for a
    Markdown file, a heading it has."""
    text = re.sub(r"```.*?```", "", README.read_text(encoding="utf-8"), flags=re.S)
    broken = []
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if link.startswith(("http://", "https://")):
            continue
        path, _, anchor = link.partition("#")
        target = README.parent / path if path else README
        if not target.exists() or (anchor and target.suffix == ".md" and anchor not in _anchors(target)):
            broken.append(link)
    assert broken == []
