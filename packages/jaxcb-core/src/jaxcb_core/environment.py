"""Where a result came from: JAX version, platform, devices, machine."""

from __future__ import annotations

import contextlib
import os
import platform
import sys
from typing import Any

__all__ = ["cpu_model", "cpu_simd", "describe", "use_cpu_devices"]


def use_cpu_devices(n: int = 4) -> None:
    """Ask for ``n`` CPU devices; call before the first JAX computation.

    Uses ``jax_num_cpu_devices`` where the installed JAX has it, and the
    ``--xla_force_host_platform_device_count`` XLA flag on older JAX.
    """
    import jax

    try:
        jax.config.update("jax_num_cpu_devices", n)
    except AttributeError:
        flags = os.environ.get("XLA_FLAGS", "")
        if "xla_force_host_platform_device_count" not in flags:
            os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={n}".strip()
    except RuntimeError:
        pass  # the backend is already initialised: keep the device count it has


def share_compilations(directory: str) -> None:
    """Keep every program XLA compiles in ``directory`` (JAX's persistent compilation
    cache, however small or quick the program), so that other processes given the same
    directory load it instead of compiling it again. Call before the first compilation.

    Only the compile is shared: each process still traces, lowers and runs its programs.
    A program JAX declines to cache (one with host callbacks, on JAX versions that
    cannot serialise them) is compiled as usual.
    """
    import jax

    jax.config.update("jax_compilation_cache_dir", directory)
    for name, value in (
        ("jax_persistent_cache_min_compile_time_secs", 0.0),
        ("jax_persistent_cache_min_entry_size_bytes", 0),  # not in every JAX version
    ):
        with contextlib.suppress(AttributeError):
            jax.config.update(name, value)


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, or ``platform.processor()``."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# The widest vector instructions first, as /proc/cpuinfo flags, and the name a reader knows.
# The FFI kernels' target_clones pick the same way (jaxcb-ffi's README).
_SIMD = (("avx512f", "AVX-512"), ("avx2", "AVX2"), ("sse2", "SSE2"))


def cpu_simd(cpuinfo: str = "/proc/cpuinfo") -> str | None:
    """The widest x86 vector instruction set this CPU has ("AVX-512", "AVX2", "SSE2"), from
    /proc/cpuinfo's flags; ``None`` where there is no such file or no x86 flag in it.

    Two machines that share a model name can differ here (an AMD EPYC of one generation has
    AVX-512, of another only AVX2), and NumPy's floors and the FFI kernels run at that width.
    """
    try:
        with open(cpuinfo, encoding="utf-8") as f:
            flags = next(
                (line.split(":", 1)[1].split() for line in f if line.startswith("flags")), []
            )
    except OSError:
        return None
    return next((name for flag, name in _SIMD if flag in flags), None)


def describe() -> dict[str, Any]:
    """Versions, platform and devices of the running JAX, for tagging results."""
    import jax
    import jaxlib.version
    import numpy as np
    import scipy

    devices = jax.devices()
    return {
        "jax": jax.__version__,
        "jaxlib": jaxlib.version.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "platform": devices[0].platform,
        "device_kind": devices[0].device_kind,
        "device_count": len(devices),
        "process_count": jax.process_count(),
        "x64": bool(jax.config.jax_enable_x64),
        "machine": platform.machine(),
        "processor": cpu_model(),
        "os": sys.platform,
    }
