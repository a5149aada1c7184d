# Drive jax.debug.breakpoint() from a test: run the jitted program in a child
# Python, type debugger commands into its stdin, and read back what the
# debugger ("cli" backend, prompt "(jdb)") printed.
import subprocess
import sys


def run_with_debugger(code, commands, timeout=120):
    """Run `code` in a fresh Python, answering its (jdb) prompts with `commands`
    in order. Returns the exit code and a transcript as it would look typed."""
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        input="".join(c + "\n" for c in commands),
    )
    # Piped stdin is not echoed: put each command back after its prompt.
    first, *replies = proc.stdout.split("(jdb) ")
    lines = first.splitlines()
    for command, reply in zip(commands, replies, strict=False):
        lines += [f"(jdb) {command}", *reply.splitlines()]
    return proc.returncode, lines


# Demo: a jitted loop that stops only when x goes negative.
CODE = """
import jax
from jax import lax

def stop(i, x):
    jax.debug.breakpoint()  # i and x are this frame's locals at the prompt

@jax.jit
def f(x):
    def body(i, x):
        x = 2 * x - 3
        lax.cond(x < 0, stop, lambda i, x: None, i, x)
        return x
    return lax.fori_loop(0, 4, body, x)

print("result:", float(f(2.5)))
"""

# Each stop needs its own "c"; running out of commands (EOF) quits the child.
rc, transcript = run_with_debugger(CODE, ["p i, x", "c", "p x * 10", "c"])
for line in transcript:
    print(line)
print(f"child exit code: {rc}")
print(f"breakpoint hits: {transcript.count('Entering jdb:')}")
