"""jaxcb-check: find JAX host-callback code that a JAX upgrade breaks, without running it.

The checker is one file, :mod:`jaxcb_check.checker`, that needs only the standard library:
no JAX, no jaxcb package. Run it as ``jaxcb-check PATH ...``, ``python -m jaxcb_check``, or
the file itself (the pre-commit hook does); ``jaxcb check`` runs the same code.
"""

from .checker import (
    RULES,
    Config,
    Fact,
    Finding,
    Report,
    Rule,
    check_paths,
    check_source,
    load_config,
    main,
)

__all__ = [
    "RULES",
    "Config",
    "Fact",
    "Finding",
    "Report",
    "Rule",
    "check_paths",
    "check_source",
    "load_config",
    "main",
]
