"""Window sizing: which look_back_time and max_waiting_time would the history have needed?

One Spark job counts the partner pairs of the history (equal keys, both arrivals known, any distance) per
arrival distance Δ = b − a in whole units. It never forms the pairs: it counts the A rows per (keys, a) and the
B rows per (keys, b), joins those counts on the keys and sums count_a × count_b per Δ, so a hot key (thousands
of rows a day) costs its distinct arrivals, not its rows squared. Everything after that is a pure rule on that
small histogram, written once as a macro of macros/sizing/ that the dbt run-operation calls and this package
renders (issue 41), so both give the same numbers:

* quantiles by nearest rank: the Δ at rank ``max(1, ceil(p · n))`` in ascending order;
* ``covered(lb, mw)``: the share of pairs with ``−lb ≤ Δ ≤ mw``;
* the suggestion for a coverage ``c``: the ``(lb, mw)`` with ``covered ≥ c`` and the smallest ``lb + mw``,
  ties going to the smaller ``mw`` (waiting delays every unmatched row; looking back costs only reads);
* late matches (spec §10) for the window ``(lb, mw)``, given or suggested: per ``late_match_time`` L in
  ``late_match_values(mw)``, the pairs with ``mw < Δ ≤ mw + L``. Each is a late match when its A row has no
  partner in the window (always, for keys with one row a side), so this is what L would bring back at most.

With one row per A (``partner`` = ``first``, ``last`` or ``aggregate``, spec §11) the question is another one:
an A row gets a row with its partner(s) exactly when at least one partner arrives in ``[a − lb, a + mw]``, else
it times out. The Spark job then gives, per (keys, a), the nearest partner at or before ``a`` (``a − b ≥ 0``,
the smallest) and at or after ``a`` (``b − a ≥ 0``, the smallest), weighted by the A rows with that (keys, a):
a histogram over (before, after). An A row is covered by ``(lb, mw)`` iff ``before ≤ lb`` or ``after ≤ mw``;
the shares, the suggestion and its ties are those above, counted in A rows (that have any partner) instead of
pairs.

Products and comparisons with ``p`` and ``c`` are exact on their decimal value as written (``0.999`` means
999/1000), as they are with SQL decimal literals; floating-point rounding never moves a rank or a boundary.

The modules, one step each: results.py (the small types), checks.py (sizing's own arguments), histogram.py
(the rules on pairs), nearest.py (the rules on A rows), report.py (the two suggestions and their text),
suggest.py (a suggestion from a histogram), spark.py (the one job and the public ``suggest_windows``,
``suggest_windows_many``). Every name is importable from ``dbt_inc_join.sizing``.
"""

from __future__ import annotations

from .checks import (
    check_complete_history,
    check_coverage,
    check_partner,
    current_window,
)
from .histogram import (
    covered_pairs,
    covered_share,
    late_match_shares,
    late_match_values,
    minimal_window,
    normalise_histogram,
    quantiles,
)
from .nearest import (
    covered_a_row_share,
    covered_a_rows,
    minimal_a_row_window,
    normalise_nearest,
)
from .report import (
    ARowWindowSuggestion,
    WindowSuggestion,
    format_a_row_report,
    format_report,
    percent_text,
    window_text,
)
from .results import (
    COVERAGE_TARGETS,
    NO_CENSORING,
    QUANTILE_LEVELS,
    Censoring,
    Histogram,
    LateMatchShare,
    NearestHistogram,
    WindowCandidate,
    censoring_text,
)
from .spark import (
    censored_delta_histogram,
    censored_nearest_partners,
    delta_histogram,
    nearest_partners,
    suggest_windows,
    suggest_windows_many,
)
from .suggest import (
    suggest_from_histogram,
    suggest_from_nearest,
)

__all__ = [
    "Histogram",
    "NearestHistogram",
    "QUANTILE_LEVELS",
    "COVERAGE_TARGETS",
    "LateMatchShare",
    "WindowCandidate",
    "Censoring",
    "NO_CENSORING",
    "censoring_text",
    "check_complete_history",
    "censored_delta_histogram",
    "censored_nearest_partners",
    "check_partner",
    "current_window",
    "check_coverage",
    "normalise_histogram",
    "quantiles",
    "covered_pairs",
    "covered_share",
    "minimal_window",
    "late_match_values",
    "late_match_shares",
    "normalise_nearest",
    "covered_a_rows",
    "covered_a_row_share",
    "minimal_a_row_window",
    "WindowSuggestion",
    "ARowWindowSuggestion",
    "percent_text",
    "window_text",
    "format_report",
    "format_a_row_report",
    "suggest_from_histogram",
    "suggest_from_nearest",
    "delta_histogram",
    "nearest_partners",
    "suggest_windows",
    "suggest_windows_many",
]
