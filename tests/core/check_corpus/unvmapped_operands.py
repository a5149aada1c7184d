"""Host calls from inside jitted, possibly vmapped code whose operands carry no batch axis:
reduced out of the batch first (the "unvmap" helpers error-checking libraries define, a
collective over the vmapped axis) or built from static data. And two that only look so."""

import equinox.internal as eqxi
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import batching, mlir

_MESSAGES = ("non-finite value in the state", "step size underflow", "max_steps reached")
_NODES = 16
TOTAL_STEPS = 1000


def _raise(index):
    raise RuntimeError(_MESSAGES[int(index)])  # expect: JXC010


def branched_error_if(x, pred, index):
    """x, after raising _MESSAGES[index] on the host if pred holds anywhere in the batch."""
    pred = eqxi.unvmap_any(pred)
    index = eqxi.unvmap_max(index)

    def handle_error():
        flag = jax.pure_callback(_raise, jax.ShapeDtypeStruct((), jnp.bool_), index)
        return lax.cond(flag, lambda: x, lambda: x)

    return lax.cond(pred, handle_error, lambda: x)


def _print_progress(done):
    print(f"\r{int(done)}/{TOTAL_STEPS}", end="")
    return np.int32(done)


def report_progress(step):
    """Called under jax.vmap(..., axis_name="batch"): one line for the whole batch."""
    done = lax.pmax(step, "batch")
    return jax.pure_callback(_print_progress, jax.ShapeDtypeStruct((), jnp.int32), done)


def _gauss_legendre(n):
    nodes, weights = np.polynomial.legendre.leggauss(int(n.shape[0]))
    return np.stack([nodes, weights]).astype(np.float32)


def integrate(f, a, b):
    grid = jnp.zeros(_NODES, jnp.float32)
    rule = jax.pure_callback(_gauss_legendre, jax.ShapeDtypeStruct((2, _NODES), jnp.float32), grid)
    nodes, weights = rule[0], rule[1]
    mid, half = (a + b) / 2, (b - a) / 2
    return half * jnp.sum(weights * f(mid + half * nodes))


def _band(offsets):
    n = offsets.shape[0]
    return np.eye(n, k=1, dtype=np.float32) - np.eye(n, k=-1, dtype=np.float32)


def difference_matrix(x):
    n = x.shape[-1]
    offsets = jnp.arange(n)
    band = jax.pure_callback(_band, jax.ShapeDtypeStruct((n, n), jnp.float32), offsets)
    return band @ x


def _host_log(x):
    return np.log(x).astype(x.dtype)


def clipped_log(x):
    # stop_gradient keeps the batch axis: a vmap still batches this operand
    return jax.pure_callback(  # expect: JXC007
        _host_log, jax.ShapeDtypeStruct(x.shape, x.dtype), lax.stop_gradient(x)
    )


def _describe(i):
    print("worst sample:", int(i))
    return np.int32(i)


def worst_index(losses):
    # a max inside the function runs per element under vmap, not over the batch
    worst = jnp.argmax(losses)
    return jax.pure_callback(  # expect: JXC007
        _describe, jax.ShapeDtypeStruct((), jnp.int32), jnp.max(worst)
    )


# The same check as a primitive, the way error libraries wrote it before unvmap helpers: the
# batching rule reduces pred and index over the batch, and the impl never sees a batch axis.


def _error_impl(pred, index, x, *, msgs):
    def raises(i):
        raise RuntimeError(msgs[int(i)])  # expect: JXC010

    struct = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return lax.cond(pred, lambda: jax.pure_callback(raises, struct, index), lambda: x)


def _error_batching(args, dims, *, msgs):
    pred, index, x = args
    pred_dim, index_dim, x_dim = dims
    if pred_dim is not None:
        pred = jnp.any(pred, axis=pred_dim)
    if index_dim is not None:
        index = jnp.max(index, axis=index_dim)
    return error_p.bind(pred, index, x, msgs=msgs), x_dim


error_p = Primitive("error_if")
error_p.def_impl(_error_impl)
error_p.def_abstract_eval(lambda pred, index, x, *, msgs: x)
batching.primitive_batchers[error_p] = _error_batching
mlir.register_lowering(error_p, mlir.lower_fun(_error_impl, multiple_results=False))
