// The exercise's solution: the same handler over float64, under a second symbol.
#include <cmath>
#include <cstddef>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

static ffi::Error SinScaleF64Impl(double scale, ffi::Buffer<ffi::F64> x,
                                  ffi::ResultBuffer<ffi::F64> y) {
  const size_t n = x.element_count();
  if (y->element_count() != n) {
    return ffi::Error::InvalidArgument(
        "sin_scale_f64: x has " + std::to_string(n) +
        " elements but the result has " + std::to_string(y->element_count()));
  }
  const double* in = x.typed_data();
  double* out = y->typed_data();
  for (size_t i = 0; i < n; ++i) {
    out[i] = std::sin(in[i]) * scale + 1.0;
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(SinScaleF64, SinScaleF64Impl,
                              ffi::Ffi::Bind()
                                  .Attr<double>("scale")
                                  .Arg<ffi::Buffer<ffi::F64>>()
                                  .Ret<ffi::Buffer<ffi::F64>>());
