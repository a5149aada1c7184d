"""The autodiff columns of the matrix: derivatives through each implementation.

Each function takes a :class:`~jaxcb_core.matrix.case.Case` and returns a
:class:`~jaxcb_core.matrix.case.Trial`; expected derivatives come from
:mod:`jaxcb_core.references` (float64, NumPy), never from JAX.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from .case import Case, NotApplicable, Trial, tangent


def grad(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    return Trial(jax.grad(case.scalar(dyn))(d), case.grad_ref(dyn), [dyn], derivative=True)


def checkpoint_grad(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    h = jax.checkpoint(case.scalar(dyn))
    return Trial(jax.grad(h)(d), case.grad_ref(dyn), [dyn], derivative=True)


def jvp(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    t = tangent(d)
    primal, out = jax.jvp(case.partial(dyn), (d,), (t,))
    expected = (case.ref(*dyn), case.jvp_ref(dyn, t))
    return Trial((primal, out), expected, [dyn], derivative=True)


def vjp(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    primal, pullback = jax.vjp(case.partial(dyn), d)
    leaves, tree = jax.tree_util.tree_flatten(primal)
    cots = [tangent(np.asarray(leaf), seed=11 + i) for i, leaf in enumerate(leaves)]
    (out,) = pullback(jax.tree_util.tree_unflatten(tree, cots))
    expected = case.vjp_ref(dyn, tuple(cots) if len(cots) > 1 else cots[0])
    return Trial(out, expected, [dyn], derivative=True)


def jac(which: Callable[..., Any]) -> Callable[[Case], Trial]:
    def run(case: Case) -> Trial:
        dyn = case.dyn
        d = dyn[case.diff_index]
        out = which(case.partial(dyn))(d)
        return Trial(out, case.jacobian_ref(dyn), [dyn], derivative=True)

    return run


def hessian(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    return Trial(jax.hessian(case.scalar(dyn))(d), case.hessian_ref(dyn), [dyn], derivative=True)


def vmap_grad(case: Case) -> Trial:
    idx = case.diff_index
    if case.comp.diff_argnum not in case.comp.batch_argnums:
        raise NotApplicable("the differentiable argument is not batched")
    dyn, elems = case.batched()
    base = case.dyn

    def per(d: Any) -> Any:
        return jax.grad(case.scalar(base))(d)

    out = jax.vmap(per)(dyn[idx])
    expected = np.stack([case.grad_ref(case.with_diff(base, e[idx])) for e in elems])
    calls = [case.with_diff(base, e[idx]) for e in elems]
    return Trial(out, expected, calls, derivative=True)


# --- derivative machinery around the implementation -------------------------------------------
# The implementation runs where a user's own derivative code would put a host call: in the
# forward or the backward pass of a custom_vjp (the host-offload pattern), in a custom_jvp
# rule, or in a loop beside the differentiated carry. The differentiated value is a scalar
# ``d`` of the case's dtype; what the implementation returns reaches the gradient through
# ``_total`` (the sum of every output), so a wrong host result shows as a wrong gradient.


def _total(out: Any) -> Any:
    return sum(jax.numpy.sum(leaf) for leaf in jax.tree_util.tree_leaves(out))


def _ref_total(case: Case, dyn: tuple[Any, ...]) -> float:
    return float(sum(np.sum(np.asarray(leaf, np.float64)) for leaf in _leaves(case.ref(*dyn))))


def _leaves(tree: Any) -> list[Any]:
    return list(tree) if isinstance(tree, tuple) else [tree]


def _d(case: Case) -> np.ndarray:
    return np.asarray(1.0, case.dtype)


def custom_vjp_fwd(case: Case) -> Trial:
    """grad through a custom_vjp whose forward pass calls the implementation, whose
    backward pass reuses what it returned (saved as the residual)."""
    dyn = case.dyn

    @jax.custom_vjp
    def f(d: Any) -> Any:
        return d * _total(case.g(*dyn))

    def fwd(d: Any) -> tuple[Any, Any]:
        out = case.g(*dyn)
        return d * _total(out), (out,)

    def bwd(res: Any, ct: Any) -> tuple[Any]:
        return (ct * _total(res[0]),)

    f.defvjp(fwd, bwd)
    out = jax.grad(f)(_d(case))
    return Trial(out, np.asarray(_ref_total(case, dyn)), [dyn], derivative=True)


def custom_vjp_bwd(case: Case) -> Trial:
    """grad through a custom_vjp whose backward pass calls the implementation."""
    dyn = case.dyn
    scale = _ref_total(case, dyn)  # the primal uses the reference value, not the host

    @jax.custom_vjp
    def f(d: Any) -> Any:
        return d * scale

    def fwd(d: Any) -> tuple[Any, Any]:
        return d * scale, None

    def bwd(res: Any, ct: Any) -> tuple[Any]:
        return (ct * _total(case.g(*dyn)),)

    f.defvjp(fwd, bwd)
    out = jax.grad(f)(_d(case))
    return Trial(out, np.asarray(scale), [dyn], derivative=True)


def custom_jvp_rule(case: Case) -> Trial:
    """grad through a custom_jvp whose rule calls the implementation for the slope."""
    dyn = case.dyn
    scale = _ref_total(case, dyn)

    @jax.custom_jvp
    def f(d: Any) -> Any:
        return d * scale

    @f.defjvp
    def f_jvp(primals: Any, tangents: Any) -> Any:
        (d,), (t,) = primals, tangents
        return d * scale, t * _total(case.g(*dyn))

    out = jax.grad(f)(_d(case))
    return Trial(out, np.asarray(scale), [dyn], derivative=True)


def linearize(case: Case) -> Trial:
    """jax.linearize, then the linear map applied to a random tangent."""
    dyn = case.dyn
    d = dyn[case.diff_index]
    t = tangent(d)
    primal, f_jvp = jax.linearize(case.partial(dyn), d)
    expected = (case.ref(*dyn), case.jvp_ref(dyn, t))
    return Trial((primal, f_jvp(t)), expected, [dyn], derivative=True)


def linear_transpose(case: Case) -> Trial:
    """jax.linear_transpose of the linearized map, applied to a random cotangent."""
    dyn = case.dyn
    d = dyn[case.diff_index]
    primal, f_jvp = jax.linearize(case.partial(dyn), d)
    leaves, tree = jax.tree_util.tree_flatten(primal)
    cots = [tangent(np.asarray(leaf), seed=11 + i) for i, leaf in enumerate(leaves)]
    (out,) = jax.linear_transpose(f_jvp, d)(jax.tree_util.tree_unflatten(tree, cots))
    expected = case.vjp_ref(dyn, tuple(cots) if len(cots) > 1 else cots[0])
    return Trial(out, expected, [dyn], derivative=True)


def checkpoint_nothing_grad(case: Case) -> Trial:
    """grad of jax.checkpoint with the policy that saves nothing (everything is recomputed)."""
    dyn = case.dyn
    d = dyn[case.diff_index]
    policy = jax.checkpoint_policies.nothing_saveable
    h = jax.checkpoint(case.scalar(dyn), policy=policy)
    return Trial(jax.grad(h)(d), case.grad_ref(dyn), [dyn], derivative=True)


def grad_aside(loop: str, args: bool, jit: bool = False) -> Callable[[Case], Trial]:
    """grad of a loop over a differentiated carry ``c -> 1.5 c``, with the implementation
    called on every step on values *off* the differentiated path: passed in (``args``: the
    case's inputs through the loop, as ``xs`` of a scan or as carry of a fori_loop) or
    closed over as constants (the call then has no traced arguments at all). What the
    implementation returns is the loop's auxiliary output (``has_aux``), checked too."""
    from .case import LOOP, stack

    def run(case: Case) -> Trial:
        dyn = case.dyn

        def h(d: Any) -> tuple[Any, Any]:
            if loop == "scan":
                if args:
                    xs = tuple(np.stack([np.asarray(a)] * LOOP) for a in dyn)

                    def step(c: Any, x: Any) -> tuple[Any, Any]:
                        return c * 1.5, case.g(*x)

                    c, ys = jax.lax.scan(step, d, xs, length=LOOP)
                else:
                    c, ys = jax.lax.scan(lambda c, _: (c * 1.5, case.g(*dyn)), d, None, length=LOOP)
                return c, ys
            init = jax.tree_util.tree_map(
                lambda s: jax.numpy.zeros(s.shape, s.dtype), jax.eval_shape(case.g, *dyn)
            )
            if args:

                def body(i: Any, s: Any) -> Any:
                    c, a, _ = s
                    return c * 1.5, a, case.g(*a)

                c, _, last = jax.lax.fori_loop(0, LOOP, body, (d, tuple(dyn), init))
            else:
                c, last = jax.lax.fori_loop(
                    0, LOOP, lambda i, s: (s[0] * 1.5, case.g(*dyn)), (d, init)
                )
            return c, last

        f = jax.grad(h, has_aux=True)
        out, aux = (jax.jit(f) if jit else f)(_d(case))
        refs = [case.ref(*dyn) for _ in range(LOOP)]
        aux_ref = stack(refs) if loop == "scan" else refs[-1]
        return Trial((out, aux), (np.asarray(1.5**LOOP), aux_ref), [dyn] * LOOP, derivative=True)

    return run
