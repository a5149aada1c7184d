// softplus(x) = log(1 + exp(x)) and its backward pass, as two XLA FFI handlers.
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

// y = softplus(x), written so that exp() does not overflow for large x.
static ffi::Error ForwardImpl(ffi::Buffer<ffi::F64> x, ffi::ResultBuffer<ffi::F64> y) {
  for (size_t i = 0; i < x.element_count(); ++i) {
    const double v = x.typed_data()[i];
    y->typed_data()[i] = std::max(v, 0.0) + std::log1p(std::exp(-std::abs(v)));
  }
  return ffi::Error::Success();
}

// dx = dy * softplus'(x), where softplus'(x) = 1 / (1 + exp(-x)).
static ffi::Error BackwardImpl(ffi::Buffer<ffi::F64> x, ffi::Buffer<ffi::F64> dy,
                               ffi::ResultBuffer<ffi::F64> dx) {
  for (size_t i = 0; i < x.element_count(); ++i) {
    dx->typed_data()[i] = dy.typed_data()[i] / (1.0 + std::exp(-x.typed_data()[i]));
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(SoftplusForward, ForwardImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::F64>>()
                                  .Ret<ffi::Buffer<ffi::F64>>());
XLA_FFI_DEFINE_HANDLER_SYMBOL(SoftplusBackward, BackwardImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::F64>>()
                                  .Arg<ffi::Buffer<ffi::F64>>()
                                  .Ret<ffi::Buffer<ffi::F64>>());
