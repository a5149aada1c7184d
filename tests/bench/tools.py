"""The columns of the ``tools`` suite: other projects' answers, and JAX's own, beside this
site's recipes, timed the way the other suites time theirs.

- ``progress``: a ``STEPS``-step ``lax.scan`` of the loop suite's step, reporting every
  ``EVERY`` steps, through the progress recipe (``docs/recipes/progress.py``, its own
  ``progress(...)``) and through jax-tqdm's ``scan_tqdm`` (its tqdm bar drawn into a
  string, not a terminal), beside the same scan reporting nothing. What a report adds per
  step is the difference, divided by the steps.
- ``checked_sqrt``: ``jnp.sqrt(x)`` after a check that ``x`` is not negative, which passes:
  through ``jax.experimental.checkify`` (``err.throw()`` after every call, as its users
  do) and through equinox's ``error_if`` (under ``jax.jit``), beside the same function
  without a check.
- ``host_copy``: three results of a jitted function read into NumPy, with
  ``copy_to_host_async()`` called on each first and without: on a CPU the results are in
  host memory already, so this measures what the calls change there, not what they can
  buy on an accelerator.

The recipe is the page's own file, run once (its demo's output discarded) for its
``progress`` function; the other projects are the versions the ``compare`` dependency
group pins. Host calls are counted through ``jaxcb_core.probe`` as in the other suites:
the recipe's report function, and every tqdm bar jax-tqdm opens or updates. Where jax-tqdm
or equinox is not installed (an image that cannot install them), its column is left out.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import runpy
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from subjects import EVERY, STEPS, Subject

from jaxcb_core import catalog
from jaxcb_core.probe import Tally, counting

DOCS = Path(__file__).resolve().parents[2] / "docs"
MESSAGE = "negative input"
#: elements per case
SIZES: dict[str, tuple[int, ...]] = {
    "progress": (STEPS,),
    "checked_sqrt": (1, 1_000_000),
    "host_copy": (1, 1_000_000),
}


@functools.cache
def recipe_progress() -> Callable[..., None]:
    """``progress`` from the recipe's file (its demo runs once, its output discarded)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(DOCS / "recipes" / "progress.py"))["progress"]  # type: ignore[no-any-return]


def _scan_native(x0: Any) -> Any:
    return jax.lax.scan(lambda x, i: (catalog.log_step(x), None), x0, jnp.arange(STEPS))[0]


def _recipe(t: Tally) -> Callable[..., Any]:
    progress = recipe_progress()
    report = counting(lambda member, done, x: None, t, "report")

    def body(x: Any, i: Any) -> tuple[Any, None]:
        x = catalog.log_step(x)
        progress(i, STEPS, EVERY, 0, x, report)
        return x, None

    return lambda x0: jax.lax.scan(body, x0, jnp.arange(STEPS))[0]


@contextlib.contextmanager
def _counted_bars(t: Tally) -> Iterator[None]:
    """Every tqdm bar jax-tqdm opens while the block runs draws into a string, and each
    opening and update is one host call in ``t`` (while ``t`` is open)."""
    import tqdm.std

    base = tqdm.std.tqdm

    class Counted(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            if t.open:
                t.add("tqdm", ())
            super().__init__(*args, **{**kwargs, "file": io.StringIO()})

        def update(self, n: float | None = 1) -> bool | None:
            if t.open:
                t.add("tqdm", ())
            return super().update(n)

    tqdm.std.tqdm = Counted
    try:
        yield
    finally:
        tqdm.std.tqdm = base


def _jax_tqdm(t: Tally) -> Callable[..., Any]:
    import jax_tqdm

    with _counted_bars(t):  # build_tqdm looks the class up when the decorator is applied
        step = jax_tqdm.scan_tqdm(STEPS, print_rate=EVERY, tqdm_type="std")(
            lambda x, i: (catalog.log_step(x), None)
        )
    return lambda x0: jax.lax.scan(step, x0, jnp.arange(STEPS))[0]


def _checkify(t: Tally) -> Callable[..., Any]:
    from jax.experimental import checkify

    def f(x: Any) -> Any:
        checkify.check(jnp.all(x >= 0), MESSAGE)
        return jnp.sqrt(x)

    return checkify.checkify(f)


def _thrown(err_out: Any) -> Any:
    err, out = err_out
    err.throw()
    return out


def _error_if(t: Tally) -> Callable[..., Any]:
    import equinox as eqx

    def f(x: Any) -> Any:
        return jnp.sqrt(eqx.error_if(x, x < 0, MESSAGE))

    return f


@jax.jit
def _three(x: Any) -> tuple[Any, Any, Any]:
    return jnp.sin(x), jnp.cos(x), x * 2


def _read(t: Tally) -> Callable[..., Any]:
    def read(x: Any) -> tuple[np.ndarray, ...]:
        return tuple(np.asarray(o) for o in _three(x))

    return read


def _read_after_async_copies(t: Tally) -> Callable[..., Any]:
    def read(x: Any) -> tuple[np.ndarray, ...]:
        outs = _three(x)
        for o in outs:
            o.copy_to_host_async()  # start every copy, then read
        return tuple(np.asarray(o) for o in outs)

    return read


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{package} {version(package)}"
    except PackageNotFoundError:
        return f"{package} (not installed)"


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def subjects(name: str) -> list[Subject]:
    out = _subjects(name)
    missing = {"jax-tqdm": not _installed("jax_tqdm"), "error_if": not _installed("equinox")}
    return [s for s in out if not missing.get(s.form, False)]


def _subjects(name: str) -> list[Subject]:
    if name == "progress":
        return [
            Subject(
                id="native/scan-indexed",
                label="native lax.scan, no report",
                role="native",
                mechanism="native",
                form="scan",
                doc=(
                    "The same lax.scan over the step indices (as jax-tqdm needs them), with "
                    "nothing sent to the host."
                ),
                build=lambda t: _scan_native,
                order=10,
                host=False,
            ),
            Subject(
                id="recipe/progress",
                label="the progress recipe",
                role="tool",
                mechanism="debug.callback",
                form="recipe",
                doc=(
                    f"The recipe's progress(...) in the scan body, reporting every {EVERY} "
                    "steps to a Python function that does nothing."
                ),
                build=_recipe,
                order=90,
            ),
            Subject(
                id="jax-tqdm/scan_tqdm",
                label=_version("jax-tqdm"),
                role="tool",
                mechanism="debug.callback",
                form="jax-tqdm",
                doc=(
                    f"jax_tqdm.scan_tqdm({STEPS}, print_rate={EVERY}) on the scan body: a tqdm "
                    "bar opened, updated and closed in every call, drawn into a string."
                ),
                build=_jax_tqdm,
                order=91,
            ),
        ]
    if name == "host_copy":
        return [
            Subject(
                id="native/read",
                label="np.asarray of each result",
                role="native",
                mechanism="native",
                form="read",
                doc="A jitted function's three results, each read with np.asarray.",
                build=_read,
                order=10,
                host=False,
                jit=False,
            ),
            Subject(
                id="copy_to_host_async/read",
                label="copy_to_host_async, then np.asarray",
                role="tool",
                mechanism="copy_to_host_async",
                form="copy_to_host_async",
                doc=(
                    "The same three results, copy_to_host_async() called on each as soon as "
                    "the jitted call returns, then each read with np.asarray."
                ),
                build=_read_after_async_copies,
                order=94,
                host=False,
                jit=False,
            ),
        ]
    assert name == "checked_sqrt", name
    return [
        Subject(
            id="native/unchecked",
            label="no check",
            role="native",
            mechanism="native",
            form="unchecked",
            doc="jnp.sqrt(x) under jax.jit, with no check.",
            build=lambda t: jnp.sqrt,
            order=10,
            host=False,
        ),
        Subject(
            id="checkify/check",
            label="checkify",
            role="tool",
            mechanism="checkify",
            form="checkify",
            doc=(
                "checkify.check(jnp.all(x >= 0), msg) before jnp.sqrt, the function "
                "checkify.checkify'd under jax.jit, err.throw() after every call."
            ),
            build=_checkify,
            order=92,
            host=False,
            finish=_thrown,
        ),
        Subject(
            id="equinox/error_if",
            label=_version("equinox"),
            role="tool",
            mechanism="equinox",
            form="error_if",
            doc="jnp.sqrt(equinox.error_if(x, x < 0, msg)) under jax.jit.",
            build=_error_if,
            order=93,
            host=False,
        ),
    ]


def inputs(name: str, n: int) -> tuple[np.ndarray, ...]:
    if name == "progress":
        return (np.linspace(-1.0, 1.0, 8, dtype=np.float32),)
    return (np.linspace(0.5, 2.0, n, dtype=np.float32),)


def expected(name: str, args: tuple[np.ndarray, ...]) -> Any:
    if name == "progress":
        return catalog.by_name("log_steps").reference(args[0], STEPS)
    x = args[0].astype(np.float64)
    if name == "host_copy":
        return np.sin(x), np.cos(x), x * 2
    return np.sqrt(x)
