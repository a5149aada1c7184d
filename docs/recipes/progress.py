# Progress reports from a long lax.scan / lax.fori_loop under jit: the host is
# called only every `every` steps, and under jax.vmap each batch member reports
# on its own line, told apart by a member id that is passed in with the call.
import jax
import jax.numpy as jnp
from jax import lax


def progress(step, total, every, member, value, report):
    """Call inside the loop body. `step` is the loop index (0-based); it must
    not depend on batched data, or vmap turns the cond into a select and the
    host is called on every step."""
    done = step + 1

    def call():
        # ordered=True: reports arrive in program order (member 0, 1, ...).
        jax.debug.callback(report, member, done, value, ordered=True)

    lax.cond((done % every == 0) | (done == total), call, lambda: None)


# Demo: gradient descent towards a different target for each batch member.
STEPS, EVERY = 600, 200
host_calls = []


def report(member, done, x):
    host_calls.append(int(member))
    print(f"member {int(member)} step {int(done)}/{STEPS} x={float(x):.5f}")


def run(member, target):
    def body(i, x):
        x = x - 0.01 * 2 * (x - target)
        progress(i, STEPS, EVERY, member, x, report)
        return x

    return lax.fori_loop(0, STEPS, body, jnp.float32(0.0))


members = jnp.arange(2)
final = jax.jit(jax.vmap(run))(members, jnp.array([1.0, 2.0]))
jax.effects_barrier()  # all reports printed before the summary
print(f"host calls: {len(host_calls)} for {len(members)} members x {STEPS} steps, every {EVERY}")
print(f"calls per member: {[host_calls.count(m) for m in range(len(members))]}")
print(f"final x: {[round(float(v), 4) for v in final]}")
