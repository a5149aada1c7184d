"""Run one pattern function through the steps a reader tries: eager, `jit`, `vmap`, `grad`.

Imported by ``test_copy_alone.py`` (with the installed package's function) and run as a
script in a fresh Python where no ``jaxcb`` package can be imported (with the function of
a module copied into an empty folder), so that both sides run the same steps. It imports
only JAX, NumPy and the standard library.

As a script: ``python copyrun.py --script FILE`` runs ``FILE`` as ``__main__`` from its
folder, where no jaxcb package can be imported; ``python copyrun.py JOBS RESULTS``, where ``JOBS`` is a pickle of
``[(key, folder, stem, function, spec), ...]`` and ``RESULTS`` receives
``{key: {step: outcome}}``. Each module is imported from its folder under its own name
(``import sin_scale`` as a reader would).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import inspect
import pickle
import runpy
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

# ("ok", leaves as NumPy arrays, host records) or ("error", exception type, first line)
Outcome = tuple[str, Any, Any]


def _outcome(run: Callable[[], Any], records: list[Any]) -> Outcome:
    try:
        out = run()
        leaves = [np.asarray(leaf) for leaf in jax.tree.leaves(jax.block_until_ready(out))]
        jax.effects_barrier()
        return ("ok", leaves, len(records))
    except Exception as e:  # an outcome to compare, whatever it is
        first = (str(e).splitlines() or [""])[0]
        return ("error", type(e).__name__, first)


def run_steps(fn: Callable[..., Any], spec: dict[str, Any]) -> dict[str, Outcome]:
    """`fn` eagerly, under `jit`, `vmap` (batched arguments) and `grad` (where the
    computation has a derivative), on the arguments of `spec`."""
    args, static = spec["args"], set(spec["static"])
    records: list[Any] = []
    kwargs: dict[str, Any] = dict(spec["kw"])  # the options a variant binds (ordered=...)
    takes = inspect.signature(fn).parameters
    if spec["sink"] == "rng":
        kwargs["rng"] = np.random.default_rng(0)
    elif spec["sink"] in takes:  # a host sink: count what reaches it
        kwargs[spec["sink"]] = lambda *a, **k: records.append(a)

    def call(dynamic: tuple[Any, ...], base: tuple[Any, ...] = args) -> Any:
        it = iter(dynamic)
        full = [base[i] if i in static else next(it) for i in range(len(base))]
        return fn(*full, **kwargs)

    def dyn(values: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(a for i, a in enumerate(values) if i not in static)

    out: dict[str, Outcome] = {"eager": _outcome(lambda: call(dyn(args)), records)}
    records.clear()
    out["jit"] = _outcome(lambda: jax.jit(lambda *d: call(d))(*dyn(args)), records)
    if spec["batched"] is not None:
        records.clear()
        batched = spec["batched"]
        axes = [0 if i in spec["batch_argnums"] else None for i in range(len(batched))]
        in_axes = tuple(a for i, a in enumerate(axes) if i not in static)
        out["vmap"] = _outcome(
            lambda: jax.vmap(lambda *d: call(d, batched), in_axes=in_axes)(*dyn(batched)),
            records,
        )
    if spec["diff_argnum"] is not None:
        records.clear()
        k = spec["diff_argnum"]

        def total(t: Any) -> Any:
            full = list(args)
            full[k] = t
            return sum(jnp.sum(leaf) for leaf in jax.tree.leaves(call(dyn(tuple(full)))))

        out["grad"] = _outcome(lambda: jax.grad(total)(jnp.asarray(args[k])), records)
    return out


class _NoJaxcb(importlib.abc.MetaPathFinder):
    """No `jaxcb` package can be imported: a copied module must not need one."""

    def find_spec(self, name: str, *args: Any, **kwargs: Any) -> None:
        if name.split(".")[0].startswith("jaxcb"):
            raise ModuleNotFoundError(f"No module named {name!r} (jaxcb is not installed here)")
        return None


def _import(folder: str, stem: str) -> Any:
    """`import <stem>` from `folder`, as a reader's script beside the copied file does."""
    sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location(stem, Path(folder) / f"{stem}.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[stem] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(folder)


def main(jobs_path: str, results_path: str) -> None:
    sys.meta_path.insert(0, _NoJaxcb())
    jobs = pickle.loads(Path(jobs_path).read_bytes())
    results: dict[str, dict[str, Outcome]] = {}
    modules: dict[str, Any] = {}  # each copied folder is imported once
    for key, folder, stem, function, spec in jobs:
        try:
            if folder not in modules:
                modules[folder] = _import(folder, stem)
            fn = getattr(modules[folder], function)
        except Exception as e:  # reported per module
            tail = traceback.format_exc().strip().splitlines()[-3:]
            results[key] = {"import": ("error", type(e).__name__, " | ".join(tail))}
            continue
        finally:
            for name, mod in list(sys.modules.items()):  # the next copy imports its own files
                if str(getattr(mod, "__file__", None) or "").startswith(folder + "/"):
                    del sys.modules[name]
        results[key] = run_steps(fn, spec)
    Path(results_path).write_bytes(pickle.dumps(results))


if __name__ == "__main__":
    if sys.argv[1] == "--script":
        sys.meta_path.insert(0, _NoJaxcb())
        sys.path.insert(0, str(Path(sys.argv[2]).resolve().parent))
        runpy.run_path(sys.argv[2], run_name="__main__")
    else:
        main(sys.argv[1], sys.argv[2])
