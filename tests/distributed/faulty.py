"""A test-only mechanism row whose cells hang or crash one process of a job on purpose.

Not installed as a package: the fault tests hand ``path/to/faulty.py:variants`` to the
launcher, whose workers load it with ``jaxcb_core.mechanisms.from_file``. Under
``local_jit`` (each process alone):

- ``sin_scale``: process 1's host function sleeps for an hour (a hang; process 0 is fine);
- ``sum_mean``: process 1's host function aborts its interpreter (a crash, SIGABRT);
- ``bessel_jv``: an ordinary host call, so the job after the faults can be seen to work.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import jax
import numpy as np
import scipy.special
from jax.experimental import io_callback

from jaxcb_core.catalog import CATALOG

HANG_S = 3600.0


def on_host_hang(x: Any) -> np.ndarray:
    if jax.process_index() == 1:
        time.sleep(HANG_S)
    return np.asarray(x)


def on_host_crash(x: Any) -> np.ndarray:
    if jax.process_index() == 1:
        os.abort()
    return np.asarray(x)


def on_host(v: Any, z: Any) -> np.ndarray:
    return np.asarray(scipy.special.jv(np.asarray(v), np.asarray(z)), np.asarray(z).dtype)


def _like(x: Any) -> jax.ShapeDtypeStruct:
    return jax.ShapeDtypeStruct(np.shape(x), jax.numpy.result_type(x))


def sin_scale(x: Any, y: Any) -> jax.Array:
    return jax.numpy.sin(io_callback(on_host_hang, _like(x), x)) * y + 1


def sum_mean(x: Any) -> tuple[jax.Array, jax.Array]:
    x = io_callback(on_host_crash, _like(x), x)
    return x.sum(axis=-1), x.mean(axis=-1)


def bessel_jv(v: Any, z: Any) -> jax.Array:
    return io_callback(on_host, _like(z), v, z)


def variants() -> list[dict[str, Any]]:
    this = sys.modules[__name__]
    names = ("sin_scale", "sum_mean", "bessel_jv")
    others = [c.name for c in CATALOG if c.name not in names]
    return [
        {
            "id": "faulty/test",
            "mechanism": "faulty",
            "label": "test-only faults",
            "doc": "Hangs or crashes process 1 on purpose (tests/distributed/faulty.py).",
            "package": "tests",
            "order": 999,
            "implementations": {n: getattr(this, n) for n in names},
            "modules": dict.fromkeys(names, this),
            "unsupported": dict.fromkeys(others, "a test-only row"),
            "probe": {
                "sin_scale": ("on_host_hang",),
                "sum_mean": ("on_host_crash",),
                "bessel_jv": ("on_host",),
            },
        }
    ]
