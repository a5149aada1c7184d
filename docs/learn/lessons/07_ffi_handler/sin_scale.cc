// An XLA FFI handler: y = sin(x) * scale + 1, element by element, over float32.
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

static std::atomic<int64_t> calls{0};  // how many times XLA ran the handler

static ffi::Error SinScaleImpl(float scale, ffi::Buffer<ffi::F32> x,
                               ffi::ResultBuffer<ffi::F32> y) {
  ++calls;
  const size_t n = x.element_count();
  if (y->element_count() != n) {
    return ffi::Error::InvalidArgument(
        "sin_scale: x has " + std::to_string(n) +
        " elements but the result has " + std::to_string(y->element_count()));
  }
  const float* in = x.typed_data();
  float* out = y->typed_data();
  for (size_t i = 0; i < n; ++i) {
    out[i] = std::sin(in[i]) * scale + 1.0f;
  }
  return ffi::Error::Success();
}

// The symbol Python loads. Bind() lists what XLA passes, in order: the attribute
// "scale", one float32 buffer in, one float32 buffer out.
XLA_FFI_DEFINE_HANDLER_SYMBOL(SinScale, SinScaleImpl,
                              ffi::Ffi::Bind()
                                  .Attr<float>("scale")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());

// A plain C function, so Python can read the counter through ctypes.
extern "C" int64_t SinScaleCalls() { return calls.load(); }
