"""Spark analysis errors the core expects and reports in its own words (aggregates.py, validation.py)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def quiet_spark_errors() -> Iterator[None]:
    """Silence pyspark's ERROR log line for the analysis error raised inside this block."""
    # pyspark logs every analysis error at ERROR level before raising it; here the error is expected and
    # reported as our own message, so the log line would only confuse.
    logger = logging.getLogger("SQLQueryContextLogger")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)
