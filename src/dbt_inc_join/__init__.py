"""inc_join: join two incrementally loaded tables whose rows arrive late, in either order, or never.

``from dbt_inc_join import inc_join`` is the PySpark core; the dbt package around it lives in the same
repository (macros/). See the README.
"""
from .join import inc_join
from .join_types import JoinType
from .validation import OUTPUT_SELECT_DEFAULT

__all__ = ["inc_join", "JoinType", "OUTPUT_SELECT_DEFAULT"]
__version__ = "0.1.0"

# dbt-core imports every installed top-level module named dbt_* as a possible plugin and reads this list.
plugins: list = []
