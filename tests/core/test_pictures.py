"""pictures: what the figures contain (bars, colours, window lines, legend), read back from the matplotlib
objects, and that save_png writes a PNG. The data are small hand-made tables on real Spark."""

from __future__ import annotations

from math import radians, sin

import pytest

pytest.importorskip("matplotlib")

from matplotlib.colors import to_hex  # noqa: E402

from dbt_inc_join import inc_join, suggest_windows  # noqa: E402
from dbt_inc_join.pictures import join_type_figure, lateness_figure, save_png  # noqa: E402

pytestmark = pytest.mark.one_engine  # engine-independent: `make test` runs it on Spark 4 only

HISTOGRAM = {-4: 1, -3: 1, -1: 1, 0: 2, 1: 1, 2: 1, 10: 1}


def bars(axes):
    """(x centre, height, bottom, colour) of every bar, per bar container."""
    return [
        [
            (round(p.get_x() + p.get_width() / 2, 6), p.get_height(), p.get_y(), to_hex(p.get_facecolor()))
            for p in container
        ]
        for container in axes.containers
    ]


def window_lines(axes):
    return sorted(line.get_xdata()[0] for line in axes.lines)


def legend_labels(axes):
    return [text.get_text() for text in axes.get_legend().get_texts()]


def test_lateness_figure_of_a_histogram_with_a_given_window():
    figure = lateness_figure(HISTOGRAM, look_back_time=1, max_waiting_time=2)
    axes = figure.axes[0]
    inside, outside = bars(axes)
    assert [(x, h) for x, h, _, _ in inside] == [(-1, 1), (0, 2), (1, 1), (2, 1)]
    assert [(x, h) for x, h, _, _ in outside] == [(-4, 1), (-3, 1), (10, 1)]
    assert len({c for *_, c in inside}) == 1 and len({c for *_, c in outside}) == 1
    assert inside[0][3] != outside[0][3]
    assert window_lines(axes) == [-1, 2]
    assert legend_labels(axes) == ["inside the window\n5 pairs", "outside (lost)\n3 pairs", "window [−1, +2]"]
    assert axes.get_title() == "Arrival distance of partner pairs: window [−1, +2] keeps 62.5% of 8 pairs"
    assert "(days)" in axes.get_xlabel() and axes.get_ylabel() == "partner pairs"
    assert tuple(figure.get_size_inches()) == (9.0, 4.5)


def test_lateness_figure_marks_the_late_match_band():
    """spec §10: late_match_time shades (mw, mw + L] and counts its pairs: (2, 10] holds HISTOGRAM's Δ = 10."""
    axes = lateness_figure(HISTOGRAM, look_back_time=1, max_waiting_time=2, late_match_time=8).axes[0]
    assert legend_labels(axes)[-1] == "late matches (2, 10]\n1 pairs"
    spans = [p for p in axes.patches if p.get_facecolor()[:3] != (0, 0, 0) and p.get_width() >= 8]
    assert any(round(p.get_x(), 1) == 2.5 for p in spans), "the band starts right after +mw"
    assert axes.get_xlim()[1] >= 11


def test_lateness_figure_of_a_suggestion_uses_its_window(spark):
    # Δ per key: 0, 0, 1, −2, 5. Coverage 0.8 needs 4 of 5: (2, 1) keeps {0, 0, 1, −2} (sum 3); (0, 5) sums 5.
    df_a = spark.sql(
        "SELECT * FROM VALUES (1, DATE'2025-01-05'), (2, DATE'2025-01-05'), (3, DATE'2025-01-05'), "
        "(4, DATE'2025-01-05'), (5, DATE'2025-01-05') AS t(k, RecDate)"
    )
    df_b = spark.sql(
        "SELECT * FROM VALUES (1, DATE'2025-01-05'), (2, DATE'2025-01-05'), (3, DATE'2025-01-06'), "
        "(4, DATE'2025-01-03'), (5, DATE'2025-01-10') AS t(k, RecDate)"
    )
    suggestion = suggest_windows(df_a, df_b, join_cols="k", coverage=0.8, complete_history=True)
    axes = lateness_figure(suggestion).axes[0]
    assert window_lines(axes) == [-2, 1]
    inside, outside = bars(axes)
    assert [(x, h) for x, h, _, _ in inside] == [(-2, 1), (0, 2), (1, 1)]
    assert [(x, h) for x, h, _, _ in outside] == [(5, 1)]
    assert "keeps 80% (target 80%) of 5 pairs" in axes.get_title()
    # an override wins over the suggestion's window
    assert window_lines(lateness_figure(suggestion, max_waiting_time=5).axes[0]) == [-2, 5]


def test_lateness_figure_without_pairs():
    axes = lateness_figure({}).axes[0]
    assert sum(len(c) for c in axes.containers) == 0
    assert "no partner pairs" in [t.get_text() for t in axes.texts]
    assert window_lines(axes) == [0, 0]


@pytest.fixture(scope="module")
def output(spark):
    # 2025-01-01: 2 × same_time, 1 × a_timed_out; 2025-01-02: nothing; 2025-01-03: 1 × a_late, 2 × b_timed_out.
    return spark.sql(
        "SELECT k, CAST(d AS DATE) AS RecDate, JoinType FROM VALUES "
        "(1, '2025-01-01', 1), (2, '2025-01-01', 1), (3, '2025-01-01', 4), (4, '2025-01-03', 2), "
        "(5, '2025-01-03', 6), (6, '2025-01-03', 6), (7, NULL, 1) AS t(k, d, JoinType)"
    )


def test_join_type_figure_stacks_codes_in_order_with_empty_days(output):
    axes = join_type_figure(output).axes[0]
    containers = bars(axes)
    assert legend_labels(axes) == ["1 same_time", "2 a_late", "4 a_timed_out", "6 b_timed_out"]
    assert [[(x, h, y) for x, h, y, _ in c] for c in containers] == [
        [(0, 2, 0), (1, 0, 0), (2, 0, 0)],  # same_time at the bottom
        [(0, 0, 2), (1, 0, 0), (2, 1, 0)],  # a_late
        [(0, 1, 2), (1, 0, 0), (2, 0, 1)],  # a_timed_out
        [(0, 0, 3), (1, 0, 0), (2, 2, 1)],  # b_timed_out on top
    ]
    assert len({c[0][3] for c in containers}) == 4  # one colour per JoinType
    assert [t.get_text() for t in axes.get_xticklabels()] == ["2025-01-01", "2025-01-02", "2025-01-03"]
    assert axes.get_xlabel() == "output arrival (RecDate), per day" and axes.get_ylabel() == "output rows"
    assert axes.get_legend().get_title().get_text() == "JoinType"
    assert "6 rows" in axes.get_title()


def test_join_type_figure_per_hour(spark):
    df = spark.sql(
        "SELECT * FROM VALUES (TIMESTAMP'2025-01-01 23:10:00', 3), (TIMESTAMP'2025-01-02 01:20:00', 3), "
        "(TIMESTAMP'2025-01-02 01:59:59', 1) AS t(ts, joinType)"
    )
    axes = join_type_figure(df, inc_col="TS", period="hour").axes[0]
    assert [t.get_text() for t in axes.get_xticklabels()] == [
        "2025-01-01 23:00",
        "2025-01-02 00:00",
        "2025-01-02 01:00",
    ]
    assert [[h for _, h, _, _ in c] for c in bars(axes)] == [[0, 0, 1], [1, 0, 1]]
    assert legend_labels(axes) == ["1 same_time", "3 b_late"]


def test_a_month_of_days_has_thinned_labels_that_do_not_overlap(spark):
    df = spark.sql(
        "SELECT date_add(DATE'2025-01-01', CAST(id % 31 AS INT)) AS RecDate, "
        "CAST(1 + id % 3 AS INT) AS JoinType FROM range(93)"
    )
    figure = join_type_figure(df)
    figure.canvas.draw()  # runs the layout, which places the axes and the labels
    axes = figure.axes[0]
    assert sum(len(c) for c in axes.containers) == 3 * 31
    labels = [t for t in axes.get_xticklabels() if t.get_text()]
    assert 8 <= len(labels) <= 16
    assert {t.get_rotation() for t in labels} == {45}
    # Rotated labels are parallel strips one line high: they stay apart when the gap between neighbouring
    # anchors, measured across the strips (dx · sin 45°), exceeds that height.
    anchors = [axes.transData.transform((x, 0))[0] for x in axes.get_xticks()]
    gap = min(b - a for a, b in zip(anchors, anchors[1:], strict=False)) * sin(radians(45))
    assert gap > 1.2 * labels[0].get_fontsize() * figure.dpi / 72
    renderer = figure.canvas.get_renderer()
    figure_box = figure.bbox
    assert all(
        figure_box.contains(*corner) for t in labels for corner in t.get_window_extent(renderer).corners()
    )  # no label is cut off
    legend = axes.get_legend().get_window_extent(renderer)
    assert legend.x0 >= axes.get_window_extent(renderer).x1  # the legend sits beside the bars, not on them


def test_join_type_figure_of_a_real_inc_join_output(spark):
    df_a = spark.sql(
        "SELECT * FROM VALUES (1, DATE'2025-01-01'), (2, DATE'2025-01-01'), (3, DATE'2025-01-02') AS t(k, RecDate)"
    )
    df_b = spark.sql(
        "SELECT * FROM VALUES (1, DATE'2025-01-01'), (2, DATE'2025-01-03'), (9, DATE'2025-01-02') AS t(k, RecDate)"
    )
    joined = inc_join(
        df_a,
        df_b,
        join_cols="k",
        how="full",
        look_back_time=0,
        max_waiting_time=2,
        output_window_start="2025-01-01",
        output_window_end="2025-01-05",
    )
    # k=1 same_time 01-01; k=2 b_late 01-03; k=3 a_timed_out 01-04; k=9 b_timed_out 01-02 (lb = 0)
    axes = join_type_figure(joined).axes[0]
    assert legend_labels(axes) == ["1 same_time", "3 b_late", "4 a_timed_out", "6 b_timed_out"]
    assert [[h for _, h, _, _ in c] for c in bars(axes)] == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 1, 0, 0]]


def test_join_type_figure_arguments(output):
    with pytest.raises(ValueError, match=r"inc_join: period='week' is not supported; accepted values: 'day', 'hour'"):
        join_type_figure(output, period="week")
    with pytest.raises(ValueError, match=r"inc_join: output_df has no column 'JoinType'"):
        join_type_figure(output.drop("JoinType"))
    axes = join_type_figure(output.where("false")).axes[0]
    assert "no output rows" in [t.get_text() for t in axes.texts]


def test_save_png_writes_a_png(tmp_path):
    target = save_png(lateness_figure(HISTOGRAM), tmp_path / "nested" / "lateness.png")
    assert target == tmp_path / "nested" / "lateness.png"
    content = target.read_bytes()
    assert content[:8] == b"\x89PNG\r\n\x1a\n" and len(content) > 10_000
