// sin(x) * y + 1 as an XLA FFI handler, for float32 and float64.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// --8<-- [start:kernel]
// One build for any x86-64 CPU: GCC compiles each function marked SIMD_CLONES once per
// instruction set listed and picks, when the library is loaded, the widest the CPU has. With
// -ffast-math (CMakeLists.txt) each copy calls glibc's vector sin of its width (libmvec):
// 16 floats at a time with AVX-512, 8 with AVX2, 4 otherwise.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SIMD_CLONES
#endif

// y holds one value per contiguous block of x: one block when nothing is batched, one per
// batch element under vmap (vmap_method="broadcast_all" puts the batch axes first). The
// kernel fills out[lo, hi), so that several threads can each take a range.
template <typename T>
inline __attribute__((always_inline)) void SinScale(const T* x, const T* y, T* out,
                                                    std::size_t block, std::size_t lo,
                                                    std::size_t hi) {
  for (std::size_t b = lo / block; b * block < hi; ++b) {
    const T yb = y[b];
    const std::size_t end = std::min(hi, (b + 1) * block);
    for (std::size_t i = std::max(lo, b * block); i < end; ++i) out[i] = std::sin(x[i]) * yb + T(1);
  }
}

// The template is inlined into each copy, so every copy's loop is compiled for its own width.
SIMD_CLONES void SinScaleF32(const float* x, const float* y, float* out, std::size_t block,
                             std::size_t lo, std::size_t hi) {
  SinScale(x, y, out, block, lo, hi);
}
SIMD_CLONES void SinScaleF64(const double* x, const double* y, double* out, std::size_t block,
                             std::size_t lo, std::size_t hi) {
  SinScale(x, y, out, block, lo, hi);
}

// Runs run(lo, hi) over [0, n) in chunks, on this thread and on XLA's intra-op thread pool
// (the CPU's cores; the handler asks for it with .Ctx<ffi::ThreadPool>()). Each thread takes
// the next chunk until none is left, and this thread takes chunks too, so the call finishes
// even when no pool thread is free; a task that starts after the call has returned finds no
// chunk left and touches no buffer. Small inputs stay on this thread: a task costs more
// than it saves.
template <typename Run>
void OnThePool(ffi::ThreadPool& pool, std::size_t n, Run run) {
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  const std::int64_t helpers =
      std::min<std::int64_t>(pool.num_threads(), static_cast<std::int64_t>(chunks)) - 1;
  if (helpers <= 0) {
    run(std::size_t{0}, n);
    return;
  }
  struct Progress {
    std::atomic<std::size_t> next{0}, done{0};
  };
  auto progress = std::make_shared<Progress>();
  auto take = [progress, run, n, chunks] {
    for (std::size_t c; (c = progress->next.fetch_add(1, std::memory_order_relaxed)) < chunks;) {
      run(c * kChunk, std::min(n, (c + 1) * kChunk));
      progress->done.fetch_add(1, std::memory_order_release);
    }
  };
  for (std::int64_t t = 0; t < helpers; ++t) pool.Schedule([take] { take(); });
  take();
  while (progress->done.load(std::memory_order_acquire) < chunks) std::this_thread::yield();
}

ffi::Error SinScaleImpl(ffi::ThreadPool pool, ffi::AnyBuffer x, ffi::AnyBuffer y,
                        ffi::Result<ffi::AnyBuffer> out) {
  const std::size_t n = x.element_count(), blocks = y.element_count();
  if (y.element_type() != x.element_type()) {
    return ffi::Error::InvalidArgument("sin_scale kernel: y must have the dtype of x");
  }
  if (out->element_count() != n) {  // vmap_method="expand_dims" with x unbatched, say
    return ffi::Error::InvalidArgument(
        "sin_scale kernel: x must have as many elements as the result, got " +
        std::to_string(n) + " for " + std::to_string(out->element_count()) +
        " (an unbatched x under vmap needs vmap_method='broadcast_all')");
  }
  if (blocks == 0 || n % blocks != 0) {
    return ffi::Error::InvalidArgument(
        "sin_scale kernel: y must hold one value per block of x, got " +
        std::to_string(blocks) + " values for " + std::to_string(n) + " elements");
  }
  if (n == 0) return ffi::Error::Success();  // nothing to compute (and no block length)
  switch (x.element_type()) {  // dtype dispatch: one handler, one instantiation per dtype
    case ffi::F32: {
      const float *xs = x.typed_data<float>(), *ys = y.typed_data<float>();
      float* os = out->typed_data<float>();
      OnThePool(pool, n, [=](std::size_t lo, std::size_t hi) {
        SinScaleF32(xs, ys, os, n / blocks, lo, hi);
      });
      return ffi::Error::Success();
    }
    case ffi::F64: {
      const double *xs = x.typed_data<double>(), *ys = y.typed_data<double>();
      double* os = out->typed_data<double>();
      OnThePool(pool, n, [=](std::size_t lo, std::size_t hi) {
        SinScaleF64(xs, ys, os, n / blocks, lo, hi);
      });
      return ffi::Error::Success();
    }
    default:
      return ffi::Error::InvalidArgument(
          "sin_scale kernel: float32 or float64 only, got XLA element type " +
          std::to_string(static_cast<int>(x.element_type())));
  }
}
// --8<-- [end:kernel]

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbSinScale, SinScaleImpl,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::ThreadPool>()  // XLA's intra-op threads
                                  .Arg<ffi::AnyBuffer>()  // x
                                  .Arg<ffi::AnyBuffer>()  // y
                                  .Ret<ffi::AnyBuffer>());
