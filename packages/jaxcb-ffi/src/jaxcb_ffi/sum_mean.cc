// The sum and the mean over the last axis as an XLA FFI handler: one input, two results.
#include <cstddef>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// --8<-- [start:kernel]
// One build for any x86-64 CPU: GCC compiles each function marked SIMD_CLONES once per
// instruction set listed and picks, when the library is loaded, the widest the CPU has.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SIMD_CLONES
#endif

// x is `rows` rows of `n` contiguous values (row-major: the last axis is the fastest); leading
// axes, batch axes included, are only more rows. Accumulates in double for either dtype, in
// kLanes independent partial sums: element i goes to sum i % kLanes, and the partial sums are
// added in a fixed order at the end. The compiler turns the lanes into vector additions of any
// width without reordering them, so every CPU gets the same bits.
constexpr std::size_t kLanes = 16;

template <typename T>
inline __attribute__((always_inline)) void SumMean(const T* x, T* sum, T* mean,
                                                   std::size_t rows, std::size_t n) {
  for (std::size_t r = 0; r < rows; ++r) {
    const T* row = x + r * n;
    double lane[kLanes] = {};
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (std::size_t j = 0; j < kLanes; ++j) lane[j] += row[i + j];
    }
    for (std::size_t j = 0; i + j < n; ++j) lane[j] += row[i + j];  // the last n % kLanes
    double s = 0.0;
    for (std::size_t j = 0; j < kLanes; ++j) s += lane[j];
    sum[r] = static_cast<T>(s);
    mean[r] = static_cast<T>(s / static_cast<double>(n));  // n == 0: 0/0 is NaN, as in NumPy
  }
}

// The template is inlined into each copy, so every copy's loop is compiled for its own width.
SIMD_CLONES void SumMeanF32(const float* x, float* sum, float* mean, std::size_t rows,
                            std::size_t n) {
  SumMean(x, sum, mean, rows, n);
}
SIMD_CLONES void SumMeanF64(const double* x, double* sum, double* mean, std::size_t rows,
                            std::size_t n) {
  SumMean(x, sum, mean, rows, n);
}

ffi::Error SumMeanImpl(ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> sum,
                       ffi::Result<ffi::AnyBuffer> mean) {
  const auto dims = x.dimensions();
  if (dims.size() == 0) {
    return ffi::Error::InvalidArgument("sum_mean kernel: x must have at least one axis");
  }
  const std::size_t n = static_cast<std::size_t>(dims.back()), rows = sum->element_count();
  if (rows * n != x.element_count() || mean->element_count() != rows) {
    return ffi::Error::InvalidArgument("sum_mean kernel: the results must have shape x.shape[:-1]");
  }
  switch (x.element_type()) {
    case ffi::F32:
      SumMeanF32(x.typed_data<float>(), sum->typed_data<float>(), mean->typed_data<float>(),
                 rows, n);
      return ffi::Error::Success();
    case ffi::F64:
      SumMeanF64(x.typed_data<double>(), sum->typed_data<double>(),
                 mean->typed_data<double>(), rows, n);
      return ffi::Error::Success();
    default:
      return ffi::Error::InvalidArgument(
          "sum_mean kernel: float32 or float64 only, got XLA element type " +
          std::to_string(static_cast<int>(x.element_type())));
  }
}
// --8<-- [end:kernel]

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbSumMean, SumMeanImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()   // x
                                  .Ret<ffi::AnyBuffer>()   // sum
                                  .Ret<ffi::AnyBuffer>());  // mean
