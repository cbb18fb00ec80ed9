"""spec §7's bad-input cases, one table for both languages: each case's arguments, exception and exact message in
the core (tests/core/test_validation.py calls inc_join with them), and the integration model that makes the same
mistake in SQL or a Python model (integration_tests/models/error_cases/<model>.sql or .py, run by
tests/integration/test_bad_input.py) with dbt's message. Every message is exact.

A case has a core part (``arguments``, ``error``), a dbt part (``model``), or both, and one ``message``, after
``inc_join: ``, that gives both spellings, as the macros spell a check's values (macros/sql_text/_spelling.sql):
``«python|sql»`` is spelled each language's way; ``«a»``, ``«b»``, ``«True»``, ``«False»``, ``«None»`` are the
words each spells its own way (``df_a`` and ``a``, ``True`` and ``true``); ``«str »`` is the type Python names
before a wrong value and dbt leaves out. A Python model (its name ends in ``_py``) runs the core, so dbt shows
its message in Python's spelling. ``start``: the message is the start of one that ends in Spark's own
words; ``compiled``: a model checked by `dbt compile` (a microbatch model fails batch by batch at run time).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WINDOW_LENGTH = "must be a non-negative whole number of time_uom units"
# the columns of the typed inputs (integration_tests/models/error_cases/inputs/typed_a.sql, typed_b.sql; the core's
# frames in tests/core/test_validation.py)
TYPED_A = "'k', 'RecDate', 'ts', 'text_day', 'amount', 'key_text', 'key_day', 'key_map'"
TYPED_B = "'k', 'RecDate', 'ts', 'text_day', 'status', 'key_text', 'key_day', 'key_map'"
TOKENS = (
    "join_cols, inc_col, df_a_cols, df_b_cols, inc_col_a, inc_col_b, DiffArrivalTime, WaitingTime, JoinType, "
    "JoinTypeName"
)
OUTPUT_COLUMNS = (
    "k, RecDate, RecDate_A, ts_A, text_day_A, amount, key_text_A, key_day_A, key_map_A, RecDate_B, "
    "ts_B, text_day_B, status, key_text_B, key_day_B, key_map_B"
)
WAITING = (
    "include_waiting={flag} in an incremental model would store a_waiting rows, which are provisional (a "
    "later run emits the same A row again as matched or timed out). Use include_waiting only in a view or "
    "table model that shows what is currently waiting; see the README, 'Currently waiting'."
)
MERGE = (
    "incremental_strategy='merge' replaces the output window by a predicate on RecDate on Delta and Iceberg tables "
    "only (file_format='parquet'). Use incremental_strategy='insert_overwrite' with partition_by=['RecDate']; see "
    "the README, 'Incremental strategies'."
)
UNPARTITIONED = (
    "incremental_strategy='insert_overwrite' needs partition_by=['{arrival}'] (the output's arrival column; got "
    "{got}): Spark's INSERT OVERWRITE replaces every partition the window writes, so a table not partitioned by the "
    "arrival column loses its rows outside the window."
)
APPEND_RECORDED = (
    "incremental_strategy='append' in a model that records its runs on delta: a run whose commit landed but whose "
    "ledger record did not (killed between the two) is done again by the next run, and append would add its rows "
    "twice. Use incremental_strategy='insert_overwrite' with partition_by=['RecDate'], or 'merge'."
)
REDO_APPEND = (
    "on_restated_input=redo needs incremental_strategy='insert_overwrite' (or 'merge' on Delta and Iceberg; got "
    "'append'): a redo replaces the table's rows from the restated unit on; any other strategy would keep the rows "
    "it replaces, or write them twice."
)
LATE_NEEDS_ALL = (
    "late_match_time needs partner='all' without aggregate (got {got}): a late partner is a row of its own, and "
    "one row per A row would have to change after it was final."
)
STRING_OR_DATE = "; it must be DATE or TIMESTAMP (cast it, e.g. to_date({c}) or to_timestamp({c}))."
SAME_TYPE = "; cast one side so both have the same type."
INC_COL = (
    "inc_col must be the name of the arrival column present in both inputs, e.g. 'RecDate', or an (A column, B "
    "column) pair (got "
)
NO_WINDOW = "enforce_sliding_join_window=False (the compatibility mode)"

#: the words each language spells its own way (python, sql), as the macros' _word spells them
WORDS = {"a": ("df_a", "a"), "b": ("df_b", "b"), "True": ("True", "true"), "False": ("False", "false")}
WORDS["None"] = ("None", "none")
MARKER = re.compile(r"«([^»]*)»")


def spelled(message: str, language: str) -> str:
    """The message as ``language`` ("python" or "sql") spells it."""

    def word(found: re.Match) -> str:
        text = found.group(1)
        python, sql = text.split("|") if "|" in text else WORDS.get(text, (text, ""))
        return python if language == "python" else sql

    return MARKER.sub(word, message)


@dataclass(frozen=True)
class Case:
    id: str
    arguments: dict | None = None  #: the core's inc_join arguments besides join_cols='k' and the window
    error: type[Exception] | None = None
    message: str = ""  #: after `inc_join: `, both spellings (see the module's doc)
    model: str | None = None  #: the integration model of the same mistake
    start: bool = False
    compiled: bool = False

    @property
    def dbt_message(self) -> str:
        return spelled(self.message, "python" if (self.model or "").endswith("_py") else "sql")


CASES = (
    Case("how-unknown", dict(how="outer"), ValueError, "how='outer' is not supported; accepted values: 'inner', "
         "'left', 'full', 'left_anti'.", "bad_how_unknown"),
    Case("how-none", dict(how=None), ValueError,
         "how=None is not supported; accepted values: 'inner', 'left', 'full', 'left_anti'."),
    Case("time_uom-unknown", dict(time_uom="week"), ValueError,
         "time_uom='week' is not supported; accepted values: 'day', 'hour', 'minute'.", "bad_time_uom"),
    Case("look_back_time-negative", dict(look_back_time=-1), ValueError, f"look_back_time {WINDOW_LENGTH} (got -1).",
         "bad_look_back_negative"),
    Case("max_waiting_time-negative", dict(max_waiting_time=-3), ValueError,
         f"max_waiting_time {WINDOW_LENGTH} (got -3)."),
    Case("look_back_time-string", dict(look_back_time="2"), TypeError,
         f"look_back_time {WINDOW_LENGTH}, e.g. 2 (got «str »'2').", "bad_look_back_string"),
    Case("look_back_time-float", dict(look_back_time=1.5), TypeError,
         f"look_back_time {WINDOW_LENGTH}, e.g. 2 (got «float »1.5).", "bad_look_back_float"),
    Case("max_waiting_time-whole-float", dict(max_waiting_time=2.0), TypeError,
         f"max_waiting_time {WINDOW_LENGTH}, e.g. 2 (got «float »2.0)."),
    Case("max_waiting_time-bool", dict(max_waiting_time=True), TypeError,
         f"max_waiting_time {WINDOW_LENGTH}, e.g. 2 (got «bool »True)."),
    Case("join_cols-missing-a", dict(join_cols="nope"), ValueError,
         f"join_cols column 'nope' is missing from «a»; its columns are {TYPED_A}.", "bad_key_missing_a"),
    Case("join_cols-missing-b", dict(join_cols=["k", "amount"]), ValueError,
         f"join_cols column 'amount' is missing from «b»; its columns are {TYPED_B}."),
    Case("join_cols-empty", dict(join_cols=[]), ValueError,
         "join_cols must name at least one column and no empty names (got []).", "bad_join_cols_empty"),
    Case("join_cols-int", dict(join_cols=5), TypeError,
         "join_cols must be a column name or a list of column names (got «int »5)."),
    Case("join_cols-twice", dict(join_cols=["k", "K"]), ValueError, "join_cols lists «'K', 'k'|'k', 'K'» more than "
         "once.", "bad_join_cols_twice"),
    # a column named alike but for case and underscores is offered
    Case("join_cols-missing-alike", dict(join_cols="keyDay"), ValueError,
         f"join_cols column 'keyDay' is missing from «a»; its columns are {TYPED_A}. Did you mean 'key_day'?"),
    # or the one nearest to a typo (two letters at most); none for a name too far from every column
    Case("join_cols-missing-typo", dict(join_cols="ammount"), ValueError,
         f"join_cols column 'ammount' is missing from «a»; its columns are {TYPED_A}. Did you mean 'amount'?"),
    Case("join_cols-missing-far", dict(join_cols="customer"), ValueError,
         f"join_cols column 'customer' is missing from «a»; its columns are {TYPED_A}."),
    Case("join_cols-arrival", dict(join_cols=["k", "RecDate"]), ValueError,
         "join_cols must not contain the arrival column inc_col='RecDate'.", "bad_join_cols_arrival"),
    Case("join_cols-types-differ", dict(join_cols="key_text"), TypeError,
         f"join_cols column 'key_text' is STRING in «a» but INT in «b»{SAME_TYPE}", "bad_key_types_differ"),
    Case("join_cols-date-vs-timestamp", dict(join_cols=["k", "key_day"]), TypeError,
         f"join_cols column 'key_day' is DATE in «a» but TIMESTAMP in «b»{SAME_TYPE}", "bad_key_date_vs_timestamp"),
    Case("join_cols-map", dict(join_cols="key_map"), TypeError, "join_cols column 'key_map' is MAP<STRING,INT>, "
         "which Spark cannot compare; join on columns of a comparable type (cast or extract a field).", "bad_key_map"),
    Case("inc_col-missing-b", dict(inc_col="amount"), ValueError,
         f"inc_col column 'amount' is missing from «b»; its columns are {TYPED_B}.", "bad_inc_col_missing_b"),
    Case("inc_col-string", dict(inc_col="text_day"), TypeError,
         "inc_col 'text_day' of «a» is STRING" + STRING_OR_DATE.format(c="text_day"), "bad_inc_col_string"),
    Case("inc_col-types-differ", dict(inc_col="ts"), TypeError,
         "inc_col 'ts' of «b» is STRING" + STRING_OR_DATE.format(c="ts"), "bad_inc_col_types_differ"),
    Case("inc_col-date-for-hours", dict(time_uom="hour"), TypeError, "time_uom='hour' needs a TIMESTAMP arrival "
         "column, but inc_col 'RecDate' of «a» is DATE; use time_uom='day' or a TIMESTAMP column.",
         "bad_inc_col_date_for_hours"),
    Case("inc_col-none", dict(inc_col=None), TypeError, INC_COL + "«NoneType »None).", "bad_inc_col_none"),
    Case("output_window_start-text", dict(output_window_start="yesterday"), ValueError,
         "output_window_start='yesterday' is not an ISO-8601 date or timestamp; use e.g. '2025-03-06' or "
         "'2025-03-06 10:00:00'.", "bad_start_text"),
    Case("output_window_start-no-such-day", dict(output_window_start="2025-02-30"), ValueError,
         "output_window_start='2025-02-30' is not a date or timestamp that exists (2025-02 has 28 days); use e.g. "
         "'2025-03-06' or '2025-03-06 10:00:00'.", "bad_start_no_such_day"),
    Case("output_window_end-no-such-month", dict(output_window_end="2025-13-01"), ValueError,
         "output_window_end='2025-13-01' is not a date or timestamp that exists (no month 13); use e.g. "
         "'2025-03-06' or '2025-03-06 10:00:00'."),
    Case("output_window_end-no-such-hour", dict(output_window_end="2025-03-01 24:00"), ValueError,
         "output_window_end='2025-03-01 24:00' is not a date or timestamp that exists (no hour 24); use e.g. "
         "'2025-03-06' or '2025-03-06 10:00:00'."),
    Case("output_window_end-int", dict(output_window_end=20250306), TypeError,
         "output_window_end must be a date, a datetime or an ISO-8601 string such as '2025-03-06' or "
         "'2025-03-06 10:00:00' (got «int »20250306).", "bad_end_number"),
    Case("output_select-unknown", dict(output_select="join_cols, colour"), ValueError,
         f"output_select token 'colour' is neither a token ({TOKENS}) nor an output column ({OUTPUT_COLUMNS}).",
         "bad_output_select_unknown"),
    Case("output_select-typo", dict(output_select="join_cols, JoinTyp"), ValueError,
         f"output_select token 'JoinTyp' is neither a token ({TOKENS}) nor an output column ({OUTPUT_COLUMNS}). "
         "Did you mean 'JoinType'?"),
    Case("output_select-empty", dict(output_select=" , "), ValueError,
         "output_select selects no column; list tokens such as 'join_cols, inc_col, df_a_cols, df_b_cols, "
         "DiffArrivalTime, WaitingTime, JoinType' or column names."),
    Case("output_select-twice", dict(output_select="join_cols, k"), ValueError,
         "output_select selects column 'k' twice; list it once.", "bad_output_select_twice"),
    Case("output_select-token-twice", dict(output_select="df_a_cols, inc_col_a"), ValueError,
         "output_select selects column 'RecDate_A' twice; list it once."),
    Case("suffixes-equal", dict(suffixes=("_x", "_x")), ValueError, "suffixes must differ, or the two sides' columns "
         "would clash (got «('_x', '_x')|['_x', '_x']»).", "bad_suffixes_equal"),
    Case("suffixes-string", dict(suffixes="_A"), TypeError,
         "suffixes must be a pair of strings such as «('_A', '_B')|['_A', '_B']» (got «str »'_A').",
         "bad_suffixes_string"),
    Case("suffixes-clash", dict(suffixes=("", "_B")), ValueError, "output column 'RecDate' would exist twice (the "
         "output arrival inc_col 'RecDate' and «df_a column 'RecDate'|column 'RecDate' of a»); rename one input "
         "column or pass other suffixes (now «('', '_B')|['', '_B']»).", "bad_suffixes_clash"),
    Case("enforce_sliding_join_window-string", dict(enforce_sliding_join_window="yes"), TypeError,
         "enforce_sliding_join_window must be «True» or «False» (got «str »'yes').", "bad_enforce_string"),
    Case("include_waiting-int", dict(include_waiting=1), TypeError,
         "include_waiting must be «True» or «False» (got «int »1).", "bad_include_waiting_int"),
    Case("partner-unknown", dict(partner="latest"), ValueError,
         "partner='latest' is not supported; accepted values: 'all', 'first', 'last'.", "bad_partner_unknown"),
    Case("partner_order_by-without-partner", dict(partner_order_by="status"), ValueError,
         "partner_order_by orders the partners for partner='first' or 'last'; with partner='all' every partner is "
         "a row of its own (set partner, or drop partner_order_by).", "bad_partner_order_by_without_partner"),
    Case("partner_order_by-missing", dict(partner="first", partner_order_by=["status", "seq"]), ValueError,
         f"partner_order_by column 'seq' is missing from «b»; its columns are {TYPED_B}."),
    Case("partner_order_by-map", dict(partner="last", partner_order_by="key_map"), TypeError,
         "partner_order_by column 'key_map' is MAP<STRING,INT>, which Spark cannot order; order by a column of "
         "another type (or a field of it).", "bad_partner_order_by_map"),
    Case("aggregate-with-partner", dict(partner="first", aggregate={"n": "count(*)"}), ValueError,
         "aggregate combines all partners of an A row, so partner must be 'all' (got partner='first'); use one or "
         "the other.", "bad_aggregate_with_partner"),
    Case("aggregate-full", dict(how="full", aggregate={"n": "count(*)"}), ValueError,
         "aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='full').",
         "bad_aggregate_full"),
    Case("aggregate-left_anti", dict(how="left_anti", aggregate={"n": "count(*)"}), ValueError,
         "aggregate gives one row per A row, so how must be 'left' or 'inner' (got how='left_anti')."),
    Case("aggregate-not-an-aggregate", dict(aggregate={"n": "count(*)", "late": "text_day + 1"}), ValueError,
         "aggregate 'late' = 'text_day + 1' is not an aggregate: every B column it uses must be inside an aggregate "
         "function, e.g. sum(Amount), count(*), max_by(Price, Seq).", "bad_aggregate_not_aggregate"),
    Case("aggregate-unknown-column", dict(aggregate={"paid": "sum(amount)"}), ValueError,
         f"aggregate 'paid' = 'sum(amount)' names a column «b» does not have: 'amount'; its columns are {TYPED_B}.",
         "bad_aggregate_unknown_column_py"),
    Case("aggregate-unknown-function", dict(aggregate={"paid": "summ(text_day)"}), ValueError,
         "aggregate 'paid' = 'summ(text_day)' calls a function Spark does not know: 'summ'.",
         "bad_aggregate_unknown_function"),
    Case("aggregate-unbalanced", dict(aggregate={"paid": "sum(text_day"}), ValueError,
         "aggregate['paid'] = 'sum(text_day' has unbalanced parentheses or quotes.", "bad_aggregate_unbalanced"),
    # spec §5: an aggregate is one of the join's own columns, like the derived ones (an input column named like
    # either only gets its side's suffix)
    Case("aggregate-clashes", dict(aggregate={"JoinType": "count(*)"}), ValueError,
         "output column 'JoinType' would exist twice (the aggregate 'JoinType' and the derived column 'JoinType'); "
         "give the aggregate another name.", "bad_aggregate_clash"),
    Case("aggregate-empty", dict(aggregate={}), TypeError, "aggregate must be a non-empty mapping of output column "
         "to Spark SQL aggregate, e.g. {'n': 'count(*)'} (got «dict »{})."),
    Case("null_fill-unknown-key", dict(aggregate={"n": "count(*)"}, null_fill={"n": 0, "total": 0}), ValueError,
         "null_fill key 'total' is not an aggregate name; the aggregates are 'n'.", "bad_null_fill_unknown_key"),
    Case("null_fill-without-aggregate", dict(null_fill={"n": 0}), ValueError,
         "null_fill gives values to aggregate columns; it needs aggregate.", "bad_null_fill_without_aggregate"),
    Case("null_fill-not-a-literal", dict(aggregate={"n": "count(*)"}, null_fill={"n": [0]}), TypeError,
         "null_fill['n'] must be a literal: a number, string, boolean, date, datetime or «None» (got «list »[0])."),
    Case("output_select-b-columns-with-aggregate", dict(aggregate={"n": "count(*)"}, output_select="join_cols, "
         "df_b_cols"), ValueError, "output_select token 'df_b_cols' is not available with aggregate: B's columns "
         "reach the output only through the aggregates ('n').", "bad_output_select_b_with_aggregate"),
    Case("partner-compatibility-mode", dict(partner="last", enforce_sliding_join_window=False), ValueError,
         f"partner needs the sliding join window; {NO_WINDOW} only supports partner='all' without aggregate."),
    Case("many_rows_per_key-string", dict(many_rows_per_key="yes"), TypeError,
         "many_rows_per_key must be «True», «False» or 'auto' (got «str »'yes')."),
    Case("late_match_time-negative", dict(late_match_time=-2), ValueError,
         f"late_match_time {WINDOW_LENGTH} (got -2)."),
    Case("late_match_time-string", dict(late_match_time="3"), TypeError,
         f"late_match_time {WINDOW_LENGTH}, e.g. 2 (got «str »'3')."),
    Case("late_match_time-left_anti", dict(how="left_anti", late_match_time=3), ValueError,
         "late_match_time pairs timed-out A rows with partners that came later, but how='left_anti' outputs no "
         "pairs; use how='left' (or late_match_time=0).", "bad_late_match_left_anti"),
    Case("late_match_time-first", dict(partner="first", late_match_time=3), ValueError,
         LATE_NEEDS_ALL.format(got="partner='first'")),
    Case("late_match_time-aggregate", dict(aggregate={"n": "count(*)"}, late_match_time=1), ValueError,
         LATE_NEEDS_ALL.format(got="aggregate")),
    Case("late_match_time-compatibility-mode", dict(enforce_sliding_join_window=False, late_match_time=1), ValueError,
         f"late_match_time needs the sliding join window; {NO_WINDOW} has no window to be late for."),
    Case("join_cols-mapping-missing-b", dict(join_cols={"k": "kk"}), ValueError,
         f"join_cols column 'kk' is missing from «b»; its columns are {TYPED_B}.", "bad_join_cols_mapping_missing_b"),
    Case("join_cols-mapping-not-names", dict(join_cols={"k": 1}), TypeError, "join_cols must be a column name, a "
         "list of them, or a mapping {A column: B column} of names (got «dict »{'k': 1})."),
    Case("join_cols-mapping-types-differ", dict(join_cols={"key_text": "k"}), TypeError,
         f"join_cols column 'key_text («b»: k)' is STRING in «a» but INT in «b»{SAME_TYPE}"),
    Case("inc_col-pair-missing-b", dict(inc_col=("RecDate", "paid_on")), ValueError,
         f"inc_col column 'paid_on' is missing from «b»; its columns are {TYPED_B}.", "bad_inc_col_pair_missing_b"),
    Case("inc_col-three-names", dict(inc_col=["RecDate", "RecDate", "ts"]), TypeError,
         INC_COL + "«list »['RecDate', 'RecDate', 'ts'])."),
    Case("join_cond-unknown-alias", dict(join_cond="c.amount > 0"), ValueError, "join_cond 'c.amount > 0' names "
         "'c.amount': the side alias 'c' is unknown; write a.<column> for A's columns and b.<column> for B's.",
         "bad_join_cond_unknown_alias"),
    Case("join_cond-unknown-column", dict(join_cond="a.amount > 0 AND b.amount > 0"), ValueError,
         "join_cond 'a.amount > 0 AND b.amount > 0' names b.amount, a column «b» does not have; its columns are "
         f"{TYPED_B}.", "bad_join_cond_unknown_column"),
    Case("join_cond-no-side", dict(join_cond="1 = 1"), ValueError, "join_cond '1 = 1' names no column of either "
         "side; write A's columns as a.<column> and B's as b.<column>, e.g. 'abs(a.Amount - b.Amount) < 0.01'."),
    Case("join_cond-not-boolean", dict(join_cond="a.amount + b.text_day"), TypeError,
         "join_cond 'a.amount + b.text_day' is INT, not a condition; it must be true or false for a pair, e.g. "
         "'abs(a.Amount - b.Amount) < 0.01'.", "bad_join_cond_not_boolean"),
    # dbt's only: models of the SQL macro and of Python models, and the checks of a model's config
    Case("bad_max_waiting_negative", model="bad_max_waiting_negative", message=f"max_waiting_time {WINDOW_LENGTH} "
         "(got -1)."),
    Case("bad_key_missing_b", model="bad_key_missing_b", message="join_cols column 'Account' is missing from b; its "
         "columns are 'PaymentId', 'TrxId', 'Country', 'Status', 'RecDate'."),
    Case("bad_many_same_name", model="bad_many_same_name",
         message="inc_join_many: two inputs are named 'PAY'; each input needs a name of its own."),
    Case("bad_many_no_window", model="bad_many_no_window", message="inc_join_many: input 'pay' has no window (no "
         "max_waiting_time): give its look_back_time and max_waiting_time (0 is allowed), the units a partner may "
         "arrive before and after its A row."),
    Case("bad_many_partner_all", model="bad_many_partner_all", message="inc_join_many: input 'pay': partner='all' "
         "is not one row per A row; inc_join_many gives one row per A row: use partner='first' or 'last', or "
         "aggregate."),
    Case("bad_many_mapping_missing", model="bad_many_mapping_missing",
         message=f"inc_join_many: input 'pay': join_cols column 'kk' is missing from input 'pay'; its columns are "
         f"{TYPED_B}."),
    Case("bad_many_order_by_missing", model="bad_many_order_by_missing", message="inc_join_many: input 'pay': "
         f"partner_order_by column 'nope' is missing from input 'pay'; its columns are {TYPED_B}."),
    Case("bad_many_join_cond_alias", model="bad_many_join_cond_alias", message="inc_join_many: input 'pay': "
         "join_cond 'c.amount > 0 AND "
         "b.amount > 0' names 'c.amount': the side alias 'c' is unknown; write a.<column> for A's columns and "
         "b.<column> for B's."),
    Case("bad_waiting_in_incremental", model="bad_waiting_in_incremental", message=WAITING.format(flag="true")),
    Case("bad_waiting_in_incremental_py", model="bad_waiting_in_incremental_py", message=WAITING.format(flag="True")),
    Case("bad_merge_strategy", model="bad_merge_strategy", message=MERGE),
    Case("bad_inc_col_misspelled_overwrite", model="bad_inc_col_misspelled_overwrite",
         message=f"inc_col column 'RecDt' is missing from a; its columns are {TYPED_A}. Did you mean 'RecDate'?"),
    Case("bad_overwrite_unpartitioned", model="bad_overwrite_unpartitioned",
         message=UNPARTITIONED.format(arrival="RecDate", got="None")),
    Case("bad_overwrite_unpartitioned_py", model="bad_overwrite_unpartitioned_py",
         message=UNPARTITIONED.format(arrival="RecDate", got="['TrxId']")),
    Case("bad_overwrite_transform_parquet", model="bad_overwrite_transform_parquet",
         message="partition_by=['days(RecDate)'] has a partition transform (days(RecDate)), which only Iceberg tables "
                 "take (file_format='parquet'). Use incremental_strategy='insert_overwrite' with "
                 "partition_by=['RecDate']."),  # fmt: skip
    Case("bad_append_recorded", model="bad_append_recorded", message=APPEND_RECORDED),
    Case("bad_many_waiting_in_incremental", model="bad_many_waiting_in_incremental",
         message=WAITING.format(flag="true")),
    Case("bad_many_waiting_in_incremental_py", model="bad_many_waiting_in_incremental_py",
         message=WAITING.format(flag="True")),
    Case("bad_late_match_with_partner", model="bad_late_match_with_partner",
         message=LATE_NEEDS_ALL.format(got="partner='last'")),
    Case("bad_late_match_negative", model="bad_late_match_negative", message=f"late_match_time {WINDOW_LENGTH} "
         "(got -1)."),
    Case("bad_max_window_units_zero", model="bad_max_window_units_zero", message="max_window_units must be a "
         "positive whole number of time_uom units, e.g. 31 (got 0)."),
    Case("bad_max_window_units_text_py", model="bad_max_window_units_text_py", message="max_window_units must be a "
         "positive whole number of time_uom units, e.g. 31 (got '31')."),
    Case("bad_aggregate_unknown_column", model="bad_aggregate_unknown_column", message="aggregate 'paid' = "
         f"'sum(amount)' names a column b does not have: 'amount'; its columns are {TYPED_B}."),
    Case("bad_ephemeral_input", model="bad_ephemeral_input", message="b is the ephemeral model "
         "__dbt__cte__ephemeral_b: inc_join reads the columns and arrivals of its inputs from the warehouse before it "
         "writes the join. Materialize it as a view or table."),
    Case("bad_join_cond_spark_error", model="bad_join_cond_spark_error", start=True, message="join_cond "
         "'no_such_function(a.amount) > b.k' is not a valid Spark SQL condition over a. and b.: [UNRESOLVED_ROUTINE]"),
    Case("bad_batch_finer_than_unit", model="bad_batch_finer_than_unit", compiled=True, message="batch_size='hour' "
         "is finer than time_uom='day'; a batch must cover whole units: use batch_size 'day' or coarser, or a "
         "finer time_uom."),
    # an argument name the table does not know (the Python functions: tests/core/test_validation.py)
    Case("unknown-argument", model="bad_unknown_argument", message="unknown argument 'look_back'; accepted "
         "arguments: a, b, join_cols, inc_col, how, look_back_time, max_waiting_time, output_window_start, "
         "output_window_end, time_uom, enforce_sliding_join_window, include_waiting, output_select, suffixes, "
         "partner, partner_order_by, aggregate, null_fill, many_rows_per_key, late_match_time, max_window_units, "
         "join_cond, on_restated_input, restated_horizon, open_state."),
    # what a run does with restated input units (spec §14)
    Case("bad_on_restated_input", model="bad_on_restated_input",
         message="on_restated_input='repair' is not supported; accepted values: 'warn', 'fail', 'redo'."),
    *(Case(f"bad_redo_with_append{s}", model=f"bad_redo_with_append{s}", message=REDO_APPEND) for s in ("", "_py")),
    Case("bad_restated_horizon", model="bad_restated_horizon",
         message="restated_horizon must be a non-negative whole number of time_uom units (got -24)."),
    Case("bad_redo_unpartitioned", model="bad_redo_unpartitioned",
         message=UNPARTITIONED.format(arrival="RecDate", got="['k']")),
)  # fmt: skip

#: The core's cases: (id, arguments, exception, exact message).
CORE = tuple(
    (c.id, c.arguments, c.error, "inc_join: " + spelled(c.message, "python")) for c in CASES if c.arguments is not None
)
#: dbt's cases by model: the exact message (run or compiled), or the start of one that ends in Spark's words.
DBT_EXACT = {c.model: c.dbt_message for c in CASES if c.model and not c.start and not c.compiled}
DBT_STARTS = {c.model: c.dbt_message for c in CASES if c.model and c.start}
DBT_COMPILED = {c.model: c.dbt_message for c in CASES if c.model and c.compiled}
