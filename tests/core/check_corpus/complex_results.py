"""Spectral helpers computed on the host with NumPy and SciPy FFTs, called from jitted code."""

import jax
import jax.numpy as jnp
import numpy as np
import scipy.fft
from jax.experimental import io_callback


def _power_spectrum(x):
    spectrum = np.fft.rfft(x)
    return np.abs(spectrum) ** 2


def power_spectrum(x):
    n = x.shape[-1] // 2 + 1
    out = jax.ShapeDtypeStruct((*x.shape[:-1], n), jnp.float32)
    return jax.pure_callback(_power_spectrum, out, x, vmap_method="expand_dims")


def _rfft(x):
    return np.fft.rfft(x)


def rfft(x):
    out = jax.ShapeDtypeStruct((*x.shape[:-1], x.shape[-1] // 2 + 1), jnp.float32)
    return jax.pure_callback(_rfft, out, x, vmap_method="expand_dims")  # expect: JXC017


def _plane_wave(k, r):
    phase = k * r
    return np.exp(1j * phase)


def plane_wave(k, r):
    out = jax.ShapeDtypeStruct(r.shape, jnp.float32)
    return jax.pure_callback(_plane_wave, out, k, r, vmap_method="broadcast_all")  # expect: JXC017


def doubled_spectrum(x):
    out = jax.ShapeDtypeStruct(x.shape, "float32")
    return jax.pure_callback(  # expect: JXC017
        lambda a: scipy.fft.ifft(scipy.fft.fft(a) * 2), out, x, vmap_method="sequential"
    )


def _spectrum_and_energy(x):
    z = np.fft.fft(x)
    return z, np.sum(np.abs(z) ** 2)


def spectrum_and_energy(x):
    out = (jax.ShapeDtypeStruct(x.shape, jnp.float32), jax.ShapeDtypeStruct((), jnp.float32))
    return jax.pure_callback(  # expect: JXC017
        _spectrum_and_energy, out, x, vmap_method="sequential"
    )


def _save_and_transform(x):
    np.save("/tmp/signal.npy", x)
    return np.fft.fft(x)


def save_and_transform(x):
    return io_callback(  # expect: JXC017
        _save_and_transform, jax.ShapeDtypeStruct(x.shape, jnp.float32), x
    )


# Nothing to report below: the kinds match.


def fft(x):
    out = jax.ShapeDtypeStruct(x.shape, jnp.complex64)
    return jax.pure_callback(np.fft.fft, out, x, vmap_method="expand_dims")


def _lowpass(x, cutoff):
    spectrum = np.fft.rfft(x)
    spectrum[..., int(cutoff) :] = 0
    return np.fft.irfft(spectrum, n=x.shape[-1]).astype(x.dtype)


def lowpass(x, cutoff):
    out = jax.ShapeDtypeStruct(x.shape, jnp.float32)
    return jax.pure_callback(_lowpass, out, x, cutoff, vmap_method="sequential")


def _magnitude_phase(x):
    z = np.fft.fft(x)
    return np.abs(z).astype(np.float32), np.angle(z).astype(np.float32)


def magnitude_phase(x):
    out = (jax.ShapeDtypeStruct(x.shape, jnp.float32), jax.ShapeDtypeStruct(x.shape, jnp.float32))
    return jax.pure_callback(_magnitude_phase, out, x, vmap_method="sequential")


def _real_part(k, r):
    return (np.exp(1j * k * r)).real


def cosine_wave(k, r):
    out = jax.ShapeDtypeStruct(r.shape, jnp.float32)
    return jax.pure_callback(_real_part, out, k, r, vmap_method="broadcast_all")


def _filter(z, mask):
    return np.fft.ifft(np.fft.fft(z) * mask)


def filtered(z, mask):
    # z is complex here: its dtype is what the host returns (not judged: x.dtype is not visible)
    out = jax.ShapeDtypeStruct(z.shape, z.dtype)
    return jax.pure_callback(_filter, out, z, mask, vmap_method="broadcast_all")
