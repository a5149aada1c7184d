"""The jax.debug rows of the support matrix (entry point ``jaxcb.mechanisms``)."""

from __future__ import annotations

import functools
import importlib
from typing import Any

OBSERVERS = ("sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root")
EFFECTS = ("log_steps", "progress")
UNSUPPORTED = {
    "host_draw": "jax.debug.callback cannot return a value to the computation",
}
PRINT_UNSUPPORTED = {
    **UNSUPPORTED,
    **dict.fromkeys(
        OBSERVERS, "jax.debug.print formats text; observe values with jax.debug.callback"
    ),
}


def variants() -> list[dict[str, Any]]:
    modules = {n: importlib.import_module(f"jaxcb_debug.{n}") for n in OBSERVERS + EFFECTS}
    out = []
    for i, ordered in enumerate((False, True)):
        key = "ordered" if ordered else "unordered"
        out.append(
            {
                "id": f"debug.callback/{key}",
                "mechanism": "debug.callback",
                "label": f"debug.callback, {key}",
                "doc": (
                    "jax.debug.callback(ordered=True): observations keep program order."
                    if ordered
                    else "jax.debug.callback: observes values; returns nothing."
                ),
                "package": "jaxcb_debug",
                "order": 60 + i,
                "implementations": {
                    n: functools.partial(getattr(m, n), ordered=ordered) for n, m in modules.items()
                },
                "modules": modules,
                "unsupported": dict(UNSUPPORTED),
            }
        )
    out.append(
        {
            "id": "debug.print/ordered",
            "mechanism": "debug.print",
            "label": "debug.print",
            "doc": "jax.debug.print(fmt, ordered=True): formatted text on stdout.",
            "package": "jaxcb_debug",
            "order": 70,
            "implementations": {n: getattr(modules[n], f"{n}_print") for n in EFFECTS},
            "modules": {n: modules[n] for n in EFFECTS},
            "unsupported": dict(PRINT_UNSUPPORTED),
        }
    )
    return out
