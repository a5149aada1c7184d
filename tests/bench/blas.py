"""OpenBLAS threads during the benchmarks: one for the session, the default on request.

OpenBLAS (NumPy's and SciPy's copies) starts its own threads. Inside a callback they
compete with XLA's CPU thread pool for the same cores, and on a small machine the time
of a BLAS-heavy host function (expm) becomes erratic. The benchmarks therefore run
OpenBLAS on one thread (``limit`` for the session); the ``blas-default`` columns are
measured with its default number of threads (set around the whole measurement of the
case, not around each call: changing it costs time of its own).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any

_BLAS_SYMBOLS = (
    ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
    ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
    ("openblas_set_num_threads", "openblas_get_num_threads"),
)
_BLAS_DEFAULT: list[int] = []  # thread counts found when the session started


@functools.cache
def _openblas() -> tuple[tuple[Any, Any], ...]:
    """``(set, get)`` thread functions of every OpenBLAS loaded in this process."""
    import ctypes

    try:
        with open("/proc/self/maps", encoding="utf-8") as f:
            paths = {line.split()[-1] for line in f if "openblas" in line.lower()}
    except OSError:
        return ()
    out = []
    for path in sorted(paths):
        lib = ctypes.CDLL(path)
        for set_name, get_name in _BLAS_SYMBOLS:
            if hasattr(lib, set_name) and hasattr(lib, get_name):
                out.append((getattr(lib, set_name), getattr(lib, get_name)))
                break
    return tuple(out)


def limit() -> None:
    """OpenBLAS on one thread from now on (the defaults are kept for `blas_default`)."""
    if not _BLAS_DEFAULT:
        _BLAS_DEFAULT.extend(get() for _, get in _openblas())
    for set_, _ in _openblas():
        set_(1)


def restore() -> None:
    for (set_, _), n in zip(_openblas(), _BLAS_DEFAULT, strict=True):
        set_(n)


def info() -> str:
    """What the data file records about BLAS threads."""
    if not _openblas():
        return "no OpenBLAS found: BLAS threads left as they were"
    default = max(_BLAS_DEFAULT or [get() for _, get in _openblas()])
    return f"OpenBLAS on 1 thread (its default here: {default})"


@contextlib.contextmanager
def default_threads() -> Iterator[None]:
    """OpenBLAS with its default threads while the block runs."""
    for (set_, _), n in zip(_openblas(), _BLAS_DEFAULT, strict=True):
        set_(n)
    try:
        yield
    finally:
        for set_, _ in _openblas():
            set_(1)


def available() -> bool:
    """Whether an OpenBLAS is loaded whose threads can be set."""
    return bool(_openblas())
