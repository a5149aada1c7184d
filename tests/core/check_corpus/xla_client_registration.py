"""C++ kernels registered as XLA custom calls the way kernel packages did before jax.ffi:
capsules from a compiled extension, handed to xla_client, then lowered by hand."""

import jax
import jax.numpy as jnp
from jax.interpreters import mlir
from jax.lib import xla_client  # expect: JXC016

from . import _kernels

for _name, _capsule in _kernels.cpu_custom_call_targets().items():
    xla_client.register_custom_call_target(_name, _capsule, platform="cpu")

if _kernels.has_gpu():
    for _name, _capsule in _kernels.gpu_custom_call_targets().items():
        jax.lib.xla_client.register_custom_call_target(  # expect: JXC016
            _name, _capsule, platform="CUDA"
        )


def _allreduce_lowering(ctx, x):
    (aval,) = ctx.avals_in
    out_type = mlir.aval_to_ir_type(aval)
    return mlir.custom_call("mpi_allreduce", result_types=[out_type], operands=[x]).results


def allreduce(x):
    return jnp.asarray(x)


# The package's newer module registers the same kernels through a version check.
try:
    from jax.lib import xla_client as _xc
except ImportError:  # JAX 0.9 and later
    _xc = None


def register(targets, platform="cpu"):
    for name, capsule in targets.items():
        if _xc is not None and hasattr(_xc, "register_custom_call_target"):
            _xc.register_custom_call_target(name, capsule, platform=platform)
        else:
            jax.ffi.register_ffi_target(name, capsule, platform=platform, api_version=0)


# A later release switches on the JAX version, but its new branch uses jax.extend.ffi,
# which JAX 0.7 removed in turn: the version check does not cover that branch.
if jax.__version_info__ >= (0, 4, 35):
    import jax.extend as jex

    def register_target(name, capsule, *, platform):
        return jex.ffi.register_ffi_target(  # expect: JXC013
            name, capsule, platform=platform, api_version=0
        )

else:
    from jax.lib import xla_client as _legacy_client

    def register_target(name, capsule, *, platform):
        return _legacy_client.register_custom_call_target(name, capsule, platform=platform)
