// sin(x) * y + 1 as an XLA FFI handler, for float32 and float64.
#include <cmath>
#include <cstddef>
#include <string>

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
// batch element under vmap (vmap_method="broadcast_all" puts the batch axes first).
template <typename T>
inline __attribute__((always_inline)) void SinScale(const T* x, const T* y, T* out,
                                                    std::size_t blocks, std::size_t block) {
  for (std::size_t b = 0; b < blocks; ++b) {
    const T yb = y[b];
    for (std::size_t i = b * block; i < (b + 1) * block; ++i) out[i] = std::sin(x[i]) * yb + T(1);
  }
}

// The template is inlined into each copy, so every copy's loop is compiled for its own width.
SIMD_CLONES void SinScaleF32(const float* x, const float* y, float* out, std::size_t blocks,
                             std::size_t block) {
  SinScale(x, y, out, blocks, block);
}
SIMD_CLONES void SinScaleF64(const double* x, const double* y, double* out, std::size_t blocks,
                             std::size_t block) {
  SinScale(x, y, out, blocks, block);
}

ffi::Error SinScaleImpl(ffi::AnyBuffer x, ffi::AnyBuffer y, ffi::Result<ffi::AnyBuffer> out) {
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
  switch (x.element_type()) {  // dtype dispatch: one handler, one instantiation per dtype
    case ffi::F32:
      SinScaleF32(x.typed_data<float>(), y.typed_data<float>(), out->typed_data<float>(), blocks,
                  n / blocks);
      return ffi::Error::Success();
    case ffi::F64:
      SinScaleF64(x.typed_data<double>(), y.typed_data<double>(), out->typed_data<double>(),
                  blocks, n / blocks);
      return ffi::Error::Success();
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
                                  .Arg<ffi::AnyBuffer>()  // x
                                  .Arg<ffi::AnyBuffer>()  // y
                                  .Ret<ffi::AnyBuffer>());
