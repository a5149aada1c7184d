# %% [markdown]
# # Lesson 3 · Gradients through a callback
#
# This notebook shows why `jax.grad` stops at a `pure_callback`, and how to give a callback a
# derivative rule: in `jnp` with `custom_jvp`, or on the host with `custom_vjp`. The explanations
# are on the jaxcb site's page for this lesson.

# %% tags=["setup"]
import jax
import jax.numpy as jnp
import numpy as np
import scipy.special

np.set_printoptions(precision=6, suppress=True)

host_calls = []  # one entry per time the host runs


def host_jv(v, z):
    host_calls.append("jv")
    return scipy.special.jv(v, z).astype(z.dtype)


def jv_callback(v, z):
    """Bessel function J_v(z) of the first kind, computed by SciPy on the host."""
    shape = jnp.broadcast_shapes(jnp.shape(v), jnp.shape(z))
    out = jax.ShapeDtypeStruct(shape, jnp.result_type(z))
    return jax.pure_callback(host_jv, out, v, z, vmap_method="broadcast_all")


z = jnp.arange(5.0)
print("J_1(z) under jit:", jax.jit(jv_callback)(1, z))

# %% tags=["nograd"]
try:
    jax.grad(jv_callback, argnums=1)(1, 2.0)
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")


# %% tags=["jvp"]
@jax.custom_jvp
def jv(v, z):
    return jv_callback(v, z)


@jv.defjvp
def jv_jvp(primals, tangents):
    v, z = primals
    _, z_dot = tangents  # v is an integer order: it has no tangent
    dz = 0.5 * (jv(v - 1, z) - jv(v + 1, z))  # d/dz J_v = (J_{v-1} - J_{v+1}) / 2
    return jv(v, z), dz * z_dot


def j1_host(z):  # J_1 in float64 on the host: the reference
    return scipy.special.jv(1, z)


h = 1e-3  # central finite differences
fd = (j1_host(2.0 + h) - j1_host(2.0 - h)) / (2 * h)
fd2 = (j1_host(2.0 + h) - 2 * j1_host(2.0) + j1_host(2.0 - h)) / h**2
print(f"grad J_1(2.0):      {jax.jit(jax.grad(jv, argnums=1))(1, 2.0):.6f}")
print(f"finite difference:  {fd:.6f}")
# the rule calls jv itself, so the rule has a rule: second derivatives work too
print(f"hessian J_1(2.0):   {jax.jit(jax.hessian(jv, argnums=1))(1, 2.0):.5f}")
print(f"finite difference:  {fd2:.5f}")


# %% tags=["vjp"]
def host_jv_backward(v, z, g):
    host_calls.append("jv_backward")
    dz = 0.5 * (scipy.special.jv(v - 1, z) - scipy.special.jv(v + 1, z))
    return (g * dz).astype(z.dtype)


@jax.custom_vjp
def jv_host_rule(v, z):
    return jv_callback(v, z)


def jv_forward(v, z):
    return jv_callback(v, z), (v, z)  # keep v and z for the backward pass


def jv_backward(saved, g):
    v, z = saved
    out = jax.ShapeDtypeStruct(z.shape, z.dtype)
    z_bar = jax.pure_callback(host_jv_backward, out, v, z, g, vmap_method="broadcast_all")
    return None, z_bar  # no cotangent for the integer order v


jv_host_rule.defvjp(jv_forward, jv_backward)

z64 = np.array([0.5, 2.0, 4.0])
fds = (j1_host(z64 + h) - j1_host(z64 - h)) / (2 * h)
host_calls.clear()
# value and gradient at three points; vmap batches each callback into one host call
value_and_grad_all = jax.vmap(jax.value_and_grad(jv_host_rule, argnums=1), in_axes=(None, 0))
values, grads = jax.jit(value_and_grad_all)(1, jnp.asarray(z64, jnp.float32))
print("grad J_1(z):      ", np.asarray(grads))
print("finite difference:", fds)
print("host calls:", host_calls)

# %% tags=["forward"]
try:
    jax.jacfwd(jv_host_rule, argnums=1)(1, 2.0)
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")

# %% tags=["trap"]
sigmoid_calls = []


def host_expit(x):
    sigmoid_calls.append(1)
    return scipy.special.expit(x).astype(x.dtype)


def expit_callback(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_expit, out, x, vmap_method="broadcast_all")


@jax.custom_jvp
def sigmoid(x):
    return expit_callback(x)


@sigmoid.defjvp
def sigmoid_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    # s'(x) = s(x) * (1 - s(x)), written with the callback where s appears
    return expit_callback(x), expit_callback(x) * (1 - expit_callback(x)) * x_dot


sigmoid_calls.clear()
value, slope = jax.jit(jax.value_and_grad(sigmoid))(0.5)
print(f"value {value:.6f}  slope {slope:.6f}  host calls: {len(sigmoid_calls)}")


# %% tags=["fix"]
@jax.custom_jvp
def sigmoid_once(x):
    return expit_callback(x)


@sigmoid_once.defjvp
def sigmoid_once_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    y = expit_callback(x)  # one trip to the host
    return y, y * (1 - y) * x_dot  # the rule reuses y


sigmoid_calls.clear()
value, slope = jax.jit(jax.value_and_grad(sigmoid_once))(0.5)
print(f"value {value:.6f}  slope {slope:.6f}  host calls: {len(sigmoid_calls)}")


# %% tags=["exercise"]
def host_sin(x):
    return np.sin(x)


def sin_callback(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_sin, out, x, vmap_method="broadcast_all")


xs = jnp.linspace(-3.0, 3.0, 7)
print("sin(xs):", jax.jit(sin_callback)(xs))
# Your turn: give sin_callback a derivative rule, so that
# jax.vmap(jax.grad(...))(xs) works and matches jnp.cos(xs).


# %% tags=["solution"]
@jax.custom_jvp
def sin(x):
    return sin_callback(x)


@sin.defjvp
def sin_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    return sin(x), jnp.cos(x) * x_dot


grads = jax.jit(jax.vmap(jax.grad(sin)))(xs)
print("grad sin(xs):", grads)
print("jnp.cos(xs): ", jnp.cos(xs))
print("matches jnp.cos:", bool(jnp.allclose(grads, jnp.cos(xs), rtol=1e-6, atol=1e-6)))
