"""The benchmark data file: ``docs/data/bench/<device>.json``.

The benchmarks in ``tests/bench`` write one file per device; the site's
performance page is generated from it. Only summary statistics are stored:
median, quartiles, rounds and the number of host calls, never raw rounds.

Like the catalog, this module is mechanism-free and imports no JAX::

    {
      "schema": 1,
      "device": "cpu-intel-xeon-processor",          # the file name, without .json
      "environment": {"jax": ..., "jaxlib": ..., "python": ..., "numpy": ..., "scipy": ...,
                      "backend": "cpu", "device_kind": "cpu", "device_count": 1,
                      "processor": "<cpu model>", "cores": 2, "machine": "x86_64",
                      "x64": false, "blas": "OpenBLAS on 1 thread (its default here: 2)",
                      "date": "2026-01-31", "duration_s": 412.0,
                      "load": "1.2 at the start, 2.0 at the end (1-minute load average)"},
      "variants": [{"id": "pure_callback/default", "label": "...", "role": "pattern",
                    "mechanism": "pure_callback", "doc": "...", "order": 20}, ...],
      "results": [{"suite": "calls", "computation": "sin_scale", "variant": "floor/numpy",
                   "n": 1000000, "median_s": ..., "q1_s": ..., "q3_s": ..., "iqr_s": ...,
                   "min_s": ..., "rounds": 50, "iterations": 1, "host_calls": null,
                   "bytes": 8000000}, ...]
    }

``role`` says what a column is: ``floor`` (NumPy called directly), ``native``,
``pattern`` (a discovered jaxcb variant), ``minimal`` (the bare mechanism call),
``reference`` (another form the page compares with) or ``seed`` (a seed's own code);
``order`` sorts the columns (discovered variants bring their registry order).

``n`` is the size parameter of the suite: elements per argument for ``calls`` and
``grad``, the batch size for ``vmap``, the number of ``lax.scan`` steps for
``loops``. ``host_calls`` is how many times the host function ran for *one*
timed call (``null`` where there is no host function, e.g. native code and the
NumPy floor). ``bytes`` is what one call reads and writes (arguments plus
results), for the effective bandwidth.
"""

from __future__ import annotations

import math
import os
import platform
import re
from collections.abc import Mapping
from typing import Any

__all__ = [
    "ROLES",
    "SCHEMA",
    "SUITES",
    "cpu_model",
    "device_stem",
    "machine_info",
    "slug",
    "validate",
]

SCHEMA = 1
SUITES = ("calls", "vmap", "loops", "grad")
ROLES = ("floor", "native", "pattern", "minimal", "seed", "reference")

_ENVIRONMENT_KEYS = {
    "jax": str,
    "jaxlib": str,
    "python": str,
    "numpy": str,
    "scipy": str,
    "backend": str,
    "device_kind": str,
    "device_count": int,
    "processor": str,
    "cores": int,
    "machine": str,
    "x64": bool,
    "blas": str,
    "date": str,
    "duration_s": (int, float),
    "load": str,
}
_VARIANT_KEYS = {"id": str, "label": str, "role": str, "mechanism": str, "doc": str, "order": int}
_RESULT_KEYS = {
    "suite": str,
    "computation": str,
    "variant": str,
    "n": int,
    "median_s": float,
    "q1_s": float,
    "q3_s": float,
    "iqr_s": float,
    "min_s": float,
    "rounds": int,
    "iterations": int,
    "host_calls": (int, type(None)),
    "bytes": (int, type(None)),
}


def slug(text: str) -> str:
    """``"Intel(R) Xeon(R) Processor"`` -> ``"intel-xeon-processor"``."""
    text = re.sub(r"\((r|tm|c)\)", "", text.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "unknown"


def cpu_model() -> str:
    """The CPU model name (``/proc/cpuinfo`` on Linux), else what `platform` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def device_stem(backend: str, device_kind: str, processor: str | None = None) -> str:
    """File name (no extension) for one device: ``cpu-<cpu model>`` or ``gpu-<kind>``."""
    if backend == "cpu":
        return f"cpu-{slug(processor or cpu_model())}"
    return f"{'gpu' if backend in ('gpu', 'cuda', 'rocm') else backend}-{slug(device_kind)}"


def _check_keys(where: str, obj: Any, spec: Mapping[str, Any], errors: list[str]) -> None:
    if not isinstance(obj, dict):
        errors.append(f"{where}: must be an object, got {type(obj).__name__}")
        return
    missing = spec.keys() - obj.keys()
    extra = obj.keys() - spec.keys()
    if missing:
        errors.append(f"{where}: missing keys {sorted(missing)}")
    if extra:
        errors.append(f"{where}: unknown keys {sorted(extra)}")
    for key, types in spec.items():
        if key not in obj:
            continue
        value = obj[key]
        ok = isinstance(value, types) and not (types is int and isinstance(value, bool))
        if not ok:
            errors.append(f"{where}.{key}: wrong type {type(value).__name__}")


def validate(doc: Any) -> list[str]:
    """Every way ``doc`` departs from the schema (an empty list: valid)."""
    errors: list[str] = []
    _check_keys(
        "file",
        doc,
        {"schema": int, "device": str, "environment": dict, "variants": list, "results": list},
        errors,
    )
    if errors:
        return errors
    if doc["schema"] != SCHEMA:
        errors.append(f"schema: expected {SCHEMA}, got {doc['schema']}")
    _check_keys("environment", doc["environment"], _ENVIRONMENT_KEYS, errors)
    ids = set()
    for i, v in enumerate(doc["variants"]):
        _check_keys(f"variants[{i}]", v, _VARIANT_KEYS, errors)
        if isinstance(v, dict):
            if v.get("role") not in ROLES:
                errors.append(f"variants[{i}].role: {v.get('role')!r} not in {ROLES}")
            if v.get("id") in ids:
                errors.append(f"variants[{i}].id: duplicate {v.get('id')!r}")
            ids.add(v.get("id"))
    seen = set()
    for i, r in enumerate(doc["results"]):
        where = f"results[{i}]"
        _check_keys(where, r, _RESULT_KEYS, errors)
        if not isinstance(r, dict) or any(k not in r for k in _RESULT_KEYS):
            continue
        if r["suite"] not in SUITES:
            errors.append(f"{where}.suite: {r['suite']!r} not in {SUITES}")
        if r["variant"] not in ids:
            errors.append(f"{where}.variant: {r['variant']!r} is not listed in variants")
        key = (r["suite"], r["computation"], r["variant"], r["n"])
        if key in seen:
            errors.append(f"{where}: duplicate result {key}")
        seen.add(key)
        times = [r[k] for k in ("min_s", "q1_s", "median_s", "q3_s")]
        if not all(isinstance(t, float) and math.isfinite(t) and t > 0 for t in times):
            errors.append(f"{where}: times must be finite and positive, got {times}")
        elif times != sorted(times):
            errors.append(f"{where}: expected min <= q1 <= median <= q3, got {times}")
        elif not math.isclose(r["iqr_s"], r["q3_s"] - r["q1_s"], rel_tol=1e-6, abs_tol=1e-12):
            errors.append(f"{where}.iqr_s: is not q3_s - q1_s")
        if isinstance(r["rounds"], int) and r["rounds"] < 3:
            errors.append(f"{where}.rounds: at least 3 rounds, got {r['rounds']}")
        if r["host_calls"] is not None and r["host_calls"] < 0:
            errors.append(f"{where}.host_calls: negative")
    if "device" in doc and "environment" in doc and isinstance(doc["environment"], dict):
        env = doc["environment"]
        if {"backend", "device_kind", "processor"} <= env.keys():
            stem = device_stem(env["backend"], env["device_kind"], env["processor"])
            if doc["device"] != stem:
                errors.append(
                    f"device: expected {stem!r} for this environment, got {doc['device']!r}"
                )
    return errors


def machine_info() -> dict[str, Any]:
    """What the data file records about the machine (no JAX involved)."""
    return {
        "processor": cpu_model(),
        "cores": os.cpu_count() or 1,
        "machine": platform.machine(),
    }
