"""The SQL text layer: every SQL text is written once, as a macro in the package's macros/, and the core renders
it here (``render``) instead of building its own copy (issue 41, docs/architecture.md)."""

from .macros import MacroError, macro_root, render

__all__ = ["MacroError", "macro_root", "render"]
