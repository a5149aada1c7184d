"""A test-only mechanism row whose cells kill their process on purpose (SIGABRT), as some
XLA check failures do on JAX 0.4.30. Not installed as a package: tests/core/test_pool.py
hands ``path/to/crashing.py:variants`` to the matrix pool, whose workers load it with
``jaxcb_core.mechanisms.from_file``.

- ``sin_scale``: aborts the interpreter when it is traced (every transform);
- ``sum_mean``: the plain computation in ``jax.numpy``, to show the rest of a row survives.
"""

from __future__ import annotations

import os
from typing import Any

from jaxcb_core.catalog import CATALOG


def sin_scale(x: Any, y: Any) -> Any:
    os.abort()


def sum_mean(x: Any) -> tuple[Any, Any]:
    return x.sum(axis=-1), x.mean(axis=-1)


def variants() -> list[dict[str, Any]]:
    import sys

    module = sys.modules[__name__]
    return [
        {
            "id": "crashing/abort",
            "mechanism": "native",
            "label": "aborts",
            "doc": "A row whose sin_scale aborts the interpreter.",
            "package": "crashing",
            "order": 999,
            "implementations": {"sin_scale": sin_scale, "sum_mean": sum_mean},
            "modules": {"sin_scale": module, "sum_mean": module},
            "unsupported": {
                c.name: "not in this test row"
                for c in CATALOG
                if c.name not in ("sin_scale", "sum_mean")
            },
            "probe": None,
        }
    ]
