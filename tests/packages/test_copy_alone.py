"""Every pattern module runs when it is copied alone, as a reader copies it.

For every function the registries list (each computation of each variant), its module
file is copied into an empty temporary folder, alone or, for an FFI kernel, with its
``<name>.cc`` and the ``CMakeLists.txt`` that builds it (built there with CMake). A fresh
Python in which no ``jaxcb`` package can be imported then
imports each copy and runs its function eagerly, under ``jit``, under ``vmap`` and under
``grad`` (``copyrun.py``); the installed package runs the same steps here. Each step must
end the same way on both sides: the same values (within the computation's tolerance), or
the same exception type where the installed package raises too (its contract says that
transform does not work). A failure names the module and the step.

The README's example is run the same way, beside a copy of the module it names, and must
print what the README shows on the JAX version the README names.

A last test reads every pattern module's imports: JAX, NumPy, SciPy and the standard
library only: never a sibling file, ``jaxcb_core``, a registry, a probe or another jaxcb
package.
"""

from __future__ import annotations

import ast
import functools
import pickle
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import copyrun
import jax
import numpy as np
import pytest

from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import discover

ROOT = Path(__file__).resolve().parents[2]
#: every module a reader may copy: the public modules of the pattern packages
MODULES = sorted(
    p
    for p in ROOT.glob("packages/jaxcb-*/src/jaxcb_*/[a-z]*.py")
    if p.parent.name not in ("jaxcb_core", "jaxcb_check")
)
ALLOWED = {"jax", "jaxlib", "numpy", "scipy"} | set(sys.stdlib_module_names)


def _kernel(path: Path) -> list[Path]:
    """The files copied with a module: a C++ kernel of its name with the folder's
    ``CMakeLists.txt`` (no other file: a Python module runs alone)."""
    kernel = path.with_suffix(".cc")
    return [kernel, path.parent / "CMakeLists.txt"] if kernel.is_file() else []


# --- what a pattern module imports -----------------------------------------------------------


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_pattern_imports_only_jax_numpy_scipy_and_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            bad.append(f"line {node.lineno}: from {'.' * node.level}{node.module or ''}")
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names = (
                [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            )
            for name in names:
                top = (name or "").split(".")[0]
                if top not in ALLOWED:
                    bad.append(f"line {node.lineno}: {name}")
    assert not bad, (
        f"{path.relative_to(ROOT)} imports what a reader who copies it does not have: "
        + "; ".join(bad)
    )


def test_every_pattern_module_is_checked() -> None:
    assert len(MODULES) >= 40  # pure, io, debug, buffer, pyffi, ffi, colocated, compute_on, ...


# --- copied alone, run in a Python without jaxcb ----------------------------------------------


def _jobs() -> list[tuple[str, Path, str, Any, dict[str, Any]]]:
    """``(key, module file, function name, installed function, steps spec)``, one per
    public function a registry lists (the first of its options where several variants
    bind it differently)."""
    out, seen = [], set()
    for v in discover():
        for name, fn in v.implementations.items():
            module = v.modules.get(name)
            base = fn.func if isinstance(fn, functools.partial) else fn
            if module is None or module.__file__ is None:
                continue
            path = Path(module.__file__).resolve()
            key = f"{path.parent.name}/{path.stem}.{base.__name__}"
            if key in seen:
                continue
            seen.add(key)
            c = by_name(name)
            args = c.make_args(np.dtype(np.float32))
            spec = {
                "args": args,
                "static": c.static_argnums,
                "batched": c.batched_args(np.float32, 3) if c.kind == "pure" else None,
                "batch_argnums": c.batch_argnums,
                "diff_argnum": c.diff_argnum if c.differentiable else None,
                "sink": c.sink,
                "kw": dict(fn.keywords) if isinstance(fn, functools.partial) else {},
                "computation": name,
            }
            out.append((key, path, base.__name__, fn, spec))
    return out


JOBS = _jobs()


def _build(folder: Path) -> str | None:
    """Build a copied FFI kernel with CMake, as its README says; the error, or None."""
    for cmd in (
        ["cmake", "-S", ".", "-B", "build", f"-DPython_EXECUTABLE={sys.executable}"],
        ["cmake", "--build", "build", "-j", "2"],
    ):
        done = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, check=False)
        if done.returncode:
            return f"`{' '.join(cmd[:2])}` failed:\n{(done.stdout + done.stderr)[-2000:]}"
    return None


def _without_jaxcb(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``copyrun.py`` with ``args`` in a fresh Python, where no jaxcb package imports."""
    command = [sys.executable, str(Path(copyrun.__file__)), *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def copied(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """The outcome of every job this run selected, in one fresh Python without jaxcb, each
    from its copied files."""
    selected = {
        item.callspec.params["job"][0]
        for item in request.session.items
        if hasattr(item, "callspec") and "job" in item.callspec.params
    }
    root = tmp_path_factory.mktemp("copies")
    jobs, failed, folders = [], {}, {}
    for key, path, function, _, spec in JOBS:
        if key not in selected:
            continue
        if path not in folders:  # one folder a module, however many functions it has
            folder = root / f"{path.parent.name}-{path.stem}"
            folder.mkdir()
            files = [path, *_kernel(path)]
            missing = [f.name for f in files if not f.is_file()]
            for f in files:
                if f.is_file():
                    shutil.copy(f, folder / f.name)
            error = f"no {', '.join(missing)} to copy" if missing else None
            if not error and (folder / "CMakeLists.txt").is_file():
                error = _build(folder)
            folders[path] = (folder, error)
        folder, error = folders[path]
        if error:
            failed[key] = {"build": ("error", "build", error)}
            continue
        jobs.append((key, str(folder), path.stem, function, spec))
    (root / "jobs.pkl").write_bytes(pickle.dumps(jobs))
    done = _without_jaxcb(root, "jobs.pkl", "results.pkl")
    assert done.returncode == 0, f"the copies' Python failed:\n{done.stderr[-3000:]}"
    return {**pickle.loads((root / "results.pkl").read_bytes()), **failed}


def _same(key: str, step: str, mine: copyrun.Outcome, theirs: copyrun.Outcome, tol: Any) -> None:
    where = f"{key}, copied alone, {step}"
    if theirs[0] == "error":
        assert mine[0] == "error", f"{where}: ran, but the installed package raises {theirs[1]}"
        assert mine[1] == theirs[1], (
            f"{where}: {mine[1]}: {mine[2]} (the installed package: {theirs[1]}: {theirs[2]})"
        )
        return
    assert mine[0] == "ok", f"{where}: {mine[1]}: {mine[2]}"
    assert len(mine[1]) == len(theirs[1]), f"{where}: {len(mine[1])} results, not {len(theirs[1])}"
    for got, want in zip(mine[1], theirs[1], strict=True):
        assert (got.dtype, got.shape) == (want.dtype, want.shape), where
        np.testing.assert_allclose(got, want, *tol, err_msg=where)
    assert mine[2] == theirs[2], f"{where}: {mine[2]} host records, not {theirs[2]}"


@pytest.mark.parametrize("job", JOBS, ids=[j[0] for j in JOBS])
def test_a_copied_pattern_runs_as_the_installed_one(job: Any, copied: dict[str, Any]) -> None:
    key, _, _, fn, spec = job
    outcome = copied[key]
    for failure in ("build", "import"):
        if failure in outcome:
            pytest.fail(f"{key}, copied alone: {failure} failed: {outcome[failure][2]}")
    with warnings.catch_warnings():  # as in the reader's Python: shown, not raised (the
        warnings.simplefilter("default")  # legacy package's host_callback DeprecationWarning)
        theirs = copyrun.run_steps(fn, {**spec, "kw": {}})
    assert theirs["eager"][0] == "ok", f"{key}: the installed package fails eagerly: {theirs}"
    tol = by_name(spec["computation"]).tolerance(np.float32)
    for step, want in theirs.items():
        _same(key, step, outcome[step], want, tol)


# --- the README's example ---------------------------------------------------------------------


def test_the_readme_example_runs_copied_and_prints_what_the_readme_shows(tmp_path: Path) -> None:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Copy a pattern")[1]
    section = section.split("\n## ")[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    shown = re.search(r"It printed, with JAX ([0-9.]+) .*?```\n(.*?)```", section, re.S)
    copied = re.search(r"with `(packages/[^`]+\.py)` copied next to the script", section)
    assert code, "README.md: the example under 'Copy a pattern' is gone"
    assert shown, "README.md: the example's recorded output is gone"
    assert copied, "README.md: the module the example copies is not named"
    package = Path(copied.group(1)).parent.name
    if not any(v.package == package and v.implementations for v in discover()):
        pytest.skip(f"{package} does not run on JAX {jax.__version__} (its registry says why)")
    shutil.copy(ROOT / copied.group(1), tmp_path)
    (tmp_path / "example.py").write_text(code.group(1), encoding="utf-8")
    done = _without_jaxcb(tmp_path, "--script", "example.py")
    assert done.returncode == 0, f"README.md's example fails when copied:\n{done.stderr[-3000:]}"
    if jax.__version__ == shown.group(1):
        assert done.stdout == shown.group(2), (
            "README.md shows another output than its example prints"
        )
