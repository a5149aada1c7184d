"""Code annotations: short notes attached to the lines of the package files that matter.

A rule names a package (or ``"*"``), a computation (or ``"*"``) and a *needle*,
a piece of source text; the note goes on the first line of a snippet section
that contains the needle. Rules for every computation (``"*"``) apply where the
needle occurs; a rule for one named computation must match, or the build fails,
so a note never silently drifts away from the code it explains.
"""

from __future__ import annotations

from collections.abc import Sequence

# (package, computation, needle, note)
RULES: Sequence[tuple[str, str, str, str]] = (
    # --- pure_callback -------------------------------------------------------------------
    (
        "jaxcb_pure",
        "*",
        "np.asarray(",
        "On current JAX the host function receives `jax.Array`s; `np.asarray` is a view "
        "on CPU (no copy). Do this first, then use plain NumPy/SciPy.",
    ),
    (
        "jaxcb_pure",
        "*",
        "jax.ShapeDtypeStruct(",
        "The promise JAX compiles against: the host function must return exactly this "
        "shape and dtype (cast it; with x64 off a Python float would be float64).",
    ),
    (
        "jaxcb_pure",
        "*",
        "vmap_method=vmap_method",
        "How `jax.vmap` calls the host. Without it, `vmap` raises on current JAX; the "
        "[pure_callback page](../mechanisms/pure_callback.md#vmap_method) compares the methods.",
    ),
    (
        "jaxcb_pure",
        "*",
        "jax.custom_jvp",
        "The derivative rule. A bare `pure_callback` has none: `grad` raises (the "
        "*no rule* row of the matrix below).",
    ),
    (
        "jaxcb_pure",
        "*",
        "jax.custom_vjp",
        "A reverse-mode rule whose backward pass may itself call the host: `grad`, `vjp` "
        "and `jacrev` work, forward mode (`jvp`, `jacfwd`) does not.",
    ),
    # --- io_callback ---------------------------------------------------------------------
    (
        "jaxcb_io",
        "*",
        "np.asarray(",
        "Callbacks receive `jax.Array`s on current JAX; `np.asarray` is a view on CPU.",
    ),
    (
        "jaxcb_io",
        "*",
        "io_callback(",
        # jaxcb:expect io_callback sin_scale jit_unused status=ok host_calls=1
        # jaxcb:expect io_callback * jit_unused status=ok effects.verdict=exact
        # jaxcb:expect io_callback sin_scale grad_scan_const effects.verdict=missing
        # jaxcb:expect io_callback/ordered * vmap status=error
        "Not removed when the result is unused: under `jit` one host call per call. Inside "
        "a loop that `grad` differentiates it may run fewer times than the loop has steps. "
        "`ordered=True` also keeps program order, and then `vmap` raises.",
    ),
    # --- jax.debug -----------------------------------------------------------------------
    (
        "jaxcb_debug",
        "*",
        "jax.debug.callback(",
        # jaxcb:expect debug.callback sin_scale grad status=ok host_calls=1
        "Returns nothing to the computation: the result comes from the native code; the "
        "host only observes. Under `grad` it sees the forward pass.",
    ),
    (
        "jaxcb_debug",
        "*",
        "jax.debug.print(",
        "Formatting happens on the host with the runtime values: pass values as "
        "arguments, never through an f-string (that would format tracers).",
    ),
    # --- one computation ----------------------------------------------------------------
    (
        "jaxcb_pure",
        "bessel_jv",
        "slope = (_differentiable(v - 1",
        "The rule calls the differentiable function itself (orders `v - 1` and `v + 1`), so "
        "the rule can be differentiated again: `hessian` works, at the price of more host "
        "calls (see the `hessian` column's count).",
    ),
    (
        "jaxcb_pure",
        "cubic_root",
        "return x, (db - x * da) / (3 * x * x + a)",
        "Implicit function theorem: the tangent is `jax.numpy` around the root `x`. The host "
        "only solves; JAX differentiates.",
    ),
    (
        "jaxcb_pure",
        "cubic_root",
        "for i in np.ndindex(a.shape):",
        "`brentq` solves one scalar problem: the loop runs on the host inside one callback, "
        "so a whole batch still costs one host call.",
    ),
    (
        "jaxcb_pure",
        "expm",
        "jax.pure_callback(on_host_vjp",
        "The backward pass is a second host call (`scipy.linalg.expm_frechet`). A `custom_vjp` "
        "gives reverse mode only: `jvp` and `jacfwd` raise.",
    ),
    (
        "jaxcb_pure",
        "log_steps",
        "jax.pure_callback(host, dummy",
        "Wrong on purpose: nothing uses the result, so JAX is free to remove the call and the "
        "host may receive nothing. The matrix below shows what arrived.",
    ),
    (
        "jaxcb_pure",
        "host_draw",
        "jax.pure_callback(host, out_type",
        "Wrong on purpose: the call has no arguments, so two draws look identical to JAX and "
        "may be merged or removed. The matrix below shows how many draws happened.",
    ),
    (
        "jaxcb_io",
        "host_draw",
        "functools.partial(on_host, rng, shape)",
        "The generator is bound into the host function, never passed through JAX; "
        "`io_callback` runs it once per execution, so every call advances `rng`.",
    ),
    # --- every callback ------------------------------------------------------------------
    (
        "*",
        "*",
        "lax.cond(",
        "The gate: the host is reached only on the steps where the predicate holds; "
        "under `vmap` with a batched predicate both branches run.",
    ),
)


def for_section(package: str, computation: str, body: Sequence[str]) -> list[tuple[str, str]]:
    """``(needle, note)`` for one snippet section, in line order (one note per line)."""
    found: list[tuple[int, str, str]] = []
    used_lines: set[int] = set()
    # rules for this computation first: they win a line over the general ones
    for pkg, comp, needle, note in sorted(RULES, key=lambda r: r[1] == "*"):
        if pkg not in ("*", package) or comp not in ("*", computation):
            continue
        line = next((i for i, text in enumerate(body) if needle in text), None)
        if line is None or line in used_lines:
            continue
        used_lines.add(line)
        found.append((line, needle, note))
    return [(needle, note) for _, needle, note in sorted(found)]


def check_specific(package: str, computation: str, text: str) -> None:
    """Fail when a rule written for this computation no longer matches its file."""
    for pkg, comp, needle, _ in RULES:
        if comp == computation and pkg in ("*", package) and needle not in text:
            raise ValueError(
                f"annotation for {package}.{computation} expects {needle!r} in the file; "
                "update docs/hooks/jaxcb_site/annotations.py"
            )
