"""The JoinType codes and names the suites compare by (the package's JoinType table), and the peer's name for a B
row without partner (how = full)."""

from __future__ import annotations

from dbt_inc_join import JoinType

LABELS = {int(join_type): join_type.label for join_type in JoinType}
CODES = {join_type.name: int(join_type) for join_type in JoinType}  # for the hand-written SQL (bench/sql/)
PEER_B_ONLY = "not_matched"


def join_type_values(variant: str) -> dict[str, str]:
    """JoinType name -> its condition on ``variant``'s JoinType column (the peer writes names, the others codes)."""
    if variant == "peer":
        return {name: f"JoinType = '{name}'" for name in (*LABELS.values(), PEER_B_ONLY)}
    return {name: f"JoinType = {code}" for code, name in LABELS.items()}
