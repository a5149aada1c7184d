"""Other projects' answers to the site's questions, measured beside its own (group
``compare``): equinox's ``error_if`` beside ``jax.experimental.checkify``, a check that
fails inside compiled code, in five places; jax-tqdm's progress bars beside the progress
recipe, in a scan, a fori_loop and under vmap.

They run where the ``compare`` dependency group is installed (the py312 and py313 envs,
JAX 0.12.0.1, pinned versions): the observations exist for that JAX only, and a fact names
the package and version each one measured.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import io
import itertools
import runpy
from collections.abc import Callable, Iterator
from typing import Any

from harness import DOCS, Outcome, scenario

MESSAGE = "jaxcb: negative input"
CONTEXTS = ("eager", "jit", "filter_jit", "vmap", "grad")


def _caught(run: Callable[[str, Any], Any], context: str, x: Any) -> tuple[str, bool]:
    """What the caller of ``run(context, x)`` catches (its type, or ``nothing raised``),
    and whether the check's message is in it."""
    import jax

    try:
        jax.block_until_ready(run(context, x))
    except Exception as e:  # what the caller sees is the result
        return type(e).__name__, MESSAGE in str(e)
    return "nothing raised", False


def _wrap(context: str, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    import equinox as eqx
    import jax

    return {
        "eager": lambda: f,
        "jit": lambda: jax.jit(f),
        "filter_jit": lambda: eqx.filter_jit(f),
        "vmap": lambda: jax.vmap(f),
        "grad": lambda: jax.grad(lambda x: f(x).sum()),
    }[context]()


def _inputs(context: str) -> tuple[Any, Any]:
    """(failing, passing) arguments; under vmap one batch member fails."""
    import jax.numpy as jnp

    bad, good = jnp.array([-1.0, 4.0]), jnp.array([1.0, 4.0])
    if context == "vmap":
        return jnp.stack([good, bad]), jnp.stack([good, good])
    return bad, good


def _measure(run: Callable[[str, Any], Any], package: str) -> Outcome:
    """Per context, what the caller catches when the check fails; whether the message
    reached the caller everywhere; whether a passing input raised nowhere."""
    out: Outcome = {"package": f"{package} {importlib.metadata.version(package)}"}
    kept, passes = [], []
    for context in CONTEXTS:
        bad, good = _inputs(context)
        out[context], message = _caught(run, context, bad)
        kept.append(message)
        passes.append(_caught(run, context, good)[0] == "nothing raised")
    out["message_kept_everywhere"] = all(kept)
    out["good_input_passes_everywhere"] = all(passes)
    return out


def equinox_error_if() -> Outcome:
    import equinox as eqx
    import jax.numpy as jnp

    def f(x: Any) -> Any:
        x = eqx.error_if(x, x < 0, MESSAGE)
        return jnp.sqrt(x)

    return _measure(lambda context, x: _wrap(context, f)(x), "equinox")


def checkify_check() -> Outcome:
    import jax.numpy as jnp
    from jax.experimental import checkify

    def f(x: Any) -> Any:
        checkify.check(jnp.all(x >= 0), MESSAGE)
        return jnp.sqrt(x)

    def run(context: str, x: Any) -> Any:
        err, out = checkify.checkify(_wrap(context, f))(x)
        err.throw()
        return out

    return _measure(run, "jax")


if importlib.util.find_spec("equinox") is not None:
    scenario("compare", "error_if/equinox", "equinox.error_if(x, x < 0, msg)")(equinox_error_if)
    scenario("compare", "error_if/checkify", "checkify.check(all(x >= 0), msg)")(checkify_check)


# --- progress from a jitted loop: jax-tqdm beside the recipe (docs/recipes/progress.py) ---

STEPS, EVERY = 600, 200


@contextlib.contextmanager
def _bars() -> Iterator[list[list[int]]]:
    """Every tqdm bar jax-tqdm opens meanwhile, as the list of its updates (nothing drawn)."""
    import tqdm.std

    bars: list[list[int]] = []
    base = tqdm.std.tqdm

    class Recorded(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **{**kwargs, "file": io.StringIO()})
            self.jaxcb_updates: list[int] = []
            bars.append(self.jaxcb_updates)

        def update(self, n: float | None = 1) -> bool | None:
            self.jaxcb_updates.append(int(n or 0))
            return super().update(n)

    tqdm.std.tqdm = Recorded
    try:
        yield bars
    finally:
        tqdm.std.tqdm = base


def _bar_facts(prefix: str, bars: list[list[int]]) -> Outcome:
    """How many bars (one per reporter), reports per bar, steps each counted (the largest)."""
    return {
        f"{prefix}_reporters": len(bars),
        f"{prefix}_reports_each": len(bars[0]) if bars else 0,
        f"{prefix}_steps_counted_each": max((sum(b) for b in bars), default=0),
    }


def jax_tqdm_progress() -> Outcome:
    import jax
    import jax.numpy as jnp
    import jax_tqdm
    from jax import lax

    out: Outcome = {"package": f"jax-tqdm {importlib.metadata.version('jax-tqdm')}"}

    def step(c: Any, i: Any) -> Any:
        return c + 1.0, None

    def pbar() -> Callable[..., Any]:
        return jax_tqdm.scan_tqdm(STEPS, print_rate=EVERY, tqdm_type="std")(step)

    with _bars() as bars:
        scan_step = pbar()
        jax.jit(lambda: lax.scan(scan_step, 0.0, jnp.arange(STEPS)))()
        jax.effects_barrier()
    out |= _bar_facts("scan", bars)
    with _bars() as bars:
        body = jax_tqdm.loop_tqdm(STEPS, print_rate=EVERY, tqdm_type="std")(lambda i, c: c + 1.0)
        jax.jit(lambda: lax.fori_loop(0, STEPS, body, 0.0))()
        jax.effects_barrier()
    out |= _bar_facts("fori_loop", bars)
    with _bars() as bars:
        scan_step = pbar()

        def member(k: Any) -> Any:
            carry = jax_tqdm.PBar(id=k, carry=0.0)
            return lax.scan(scan_step, carry, jnp.arange(STEPS))[0].carry

        jax.jit(jax.vmap(member))(jnp.arange(2))
        jax.effects_barrier()
    out |= _bar_facts("vmap_of_2_with_ids", bars)
    with _bars() as bars:
        scan_step = pbar()
        jax.jit(jax.vmap(lambda x: lax.scan(scan_step, x, jnp.arange(STEPS))[0]))(jnp.zeros(2))
        jax.effects_barrier()
    out |= _bar_facts("vmap_of_2_without_ids", bars)
    return out


def recipe_progress() -> Outcome:
    import jax
    import jax.numpy as jnp
    from jax import lax

    with contextlib.redirect_stdout(io.StringIO()):  # the recipe's own demo, not measured here
        progress = runpy.run_path(str(DOCS / "recipes" / "progress.py"))["progress"]
    out: Outcome = {"package": "this site's recipe"}

    def reported(prefix: str, run: Callable[[Callable[..., None]], Any]) -> Outcome:
        """The reports as bars: per member, the steps each report adds to the last."""
        seen: dict[int, list[int]] = {}
        run(lambda m, done, value: seen.setdefault(int(m), []).append(int(done)))
        jax.effects_barrier()
        bars = [[b - a for a, b in itertools.pairwise([0, *sorted(d)])] for d in seen.values()]
        return _bar_facts(prefix, bars)

    def loop(kind: str, m: Any, report: Callable[..., None]) -> Any:
        def body(i: Any, x: Any) -> Any:
            progress(i, STEPS, EVERY, m, x, report)
            return x + 1.0

        if kind == "scan":
            return lax.scan(lambda x, i: (body(i, x), None), 0.0, jnp.arange(STEPS))[0]
        return lax.fori_loop(0, STEPS, body, 0.0)

    out |= reported("scan", lambda r: jax.jit(lambda: loop("scan", 0, r))())
    out |= reported("fori_loop", lambda r: jax.jit(lambda: loop("fori", 0, r))())
    out |= reported(
        "vmap_of_2_with_ids",
        lambda r: jax.jit(jax.vmap(lambda m: loop("fori", m, r)))(jnp.arange(2)),
    )
    return out


if importlib.util.find_spec("jax_tqdm") is not None:
    scenario("compare", "progress/jax-tqdm", "jax_tqdm.scan_tqdm / loop_tqdm")(jax_tqdm_progress)
    scenario("compare", "progress/recipe", "the recipe's progress(...)")(recipe_progress)
