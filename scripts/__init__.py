"""Scripts run from the repository root (python -m scripts.<name>)."""
