// The sum and the mean over the last axis as an XLA FFI handler: one input, two results.
#include <cstddef>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// --8<-- [start:kernel]
// x is `rows` rows of `n` contiguous values (row-major: the last axis is the fastest); leading
// axes, batch axes included, are only more rows. Accumulates in double for either dtype.
template <typename T>
void SumMean(const T* x, T* sum, T* mean, std::size_t rows, std::size_t n) {
  for (std::size_t r = 0; r < rows; ++r) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += x[r * n + i];
    sum[r] = static_cast<T>(s);
    mean[r] = static_cast<T>(s / static_cast<double>(n));  // n == 0: 0/0 is NaN, as in NumPy
  }
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
      SumMean(x.typed_data<float>(), sum->typed_data<float>(), mean->typed_data<float>(), rows,
              n);
      return ffi::Error::Success();
    case ffi::F64:
      SumMean(x.typed_data<double>(), sum->typed_data<double>(), mean->typed_data<double>(),
              rows, n);
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
