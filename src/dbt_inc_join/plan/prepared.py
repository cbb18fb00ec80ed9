"""A checked inc_join call, ready to be built for any window: the types join.py produces and render.py (and
many.py, the Python model) consume. A module of their own so that render.py does not import join.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import DataFrame
from pyspark.sql.types import DataType

from .validation import JoinParameters


@dataclass(frozen=True)
class ResolvedInputs:
    """Each side's spelling of the keys and arrival column, and the arrival column types."""

    keys: tuple[tuple[str, str], ...]
    inc_col: tuple[str, str]
    arrival_types: tuple[DataType, DataType]
    partner_order_by: tuple[str, ...] = ()  #: B's spelling of each partner_order_by column


@dataclass(frozen=True)
class PreparedJoin:
    """A checked inc_join call, ready to be built for any window."""

    df_a: DataFrame
    df_b: DataFrame
    params: JoinParameters
    inputs: ResolvedInputs
    plan: dict[str, Any]  #: the output columns, as ``_plan_columns`` gives them (with their aggregate fills)
    session_time_zone: str
    orderable_b_columns: tuple[str, ...] = ()  #: B's columns Spark can order (partner ties are broken by them)
    condition: dict[str, Any] | None = None  #: join_cond over the internal names (``_rewrite_join_cond``)
