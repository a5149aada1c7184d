"""Recipes: standalone programs for real tasks, each run on the installed JAX.

A recipe is ``docs/recipes/<id>.py``, a script a reader copies (JAX, NumPy, SciPy and the
standard library only). The session runs it and compares everything it printed with
``docs/data/behaviour/`` (group ``recipe``, the whole output as one fact); the recipes page
shows the script and that output per JAX version.
"""

from __future__ import annotations

from harness import DOCS, script

RECIPES: tuple[tuple[str, str], ...] = (
    ("progress", "Progress reports from a jitted loop, one per batch member"),
    ("training-metrics", "Every step's metrics from a jitted training loop"),
    ("per-host", "Per-host logging and per-shard writes in a 2-process job"),
    ("breakpoint", "jax.debug.breakpoint driven from a test"),
)

for _id, _title in RECIPES:
    script("recipe", _id, _title, DOCS / "recipes" / f"{_id}.py", raw=True)
