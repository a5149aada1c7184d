// One handler, several dtypes: y = x * factor, for whatever dtype x has.
#include <cstddef>
#include <cstdint>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

template <typename T>
static void ScaleAs(const ffi::AnyBuffer& x, ffi::Result<ffi::AnyBuffer>& y,
                    double factor) {
  const T* in = x.typed_data<T>();
  T* out = y->typed_data<T>();
  for (size_t i = 0; i < x.element_count(); ++i) {
    out[i] = static_cast<T>(in[i] * factor);
  }
}

static ffi::Error ScaleImpl(double factor, ffi::AnyBuffer x,
                            ffi::Result<ffi::AnyBuffer> y) {
  // AnyBuffer: XLA checks no dtype, so the handler checks what it reads and writes.
  if (y->element_type() != x.element_type()) {
    return ffi::Error::InvalidArgument("scale: x and y must have the same dtype");
  }
  switch (x.element_type()) {
    case ffi::F32: ScaleAs<float>(x, y, factor); break;
    case ffi::F64: ScaleAs<double>(x, y, factor); break;
    case ffi::S32: ScaleAs<int32_t>(x, y, factor); break;
    default:
      return ffi::Error::InvalidArgument("scale: no float32, float64 or int32 input");
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(Scale, ScaleImpl,
                              ffi::Ffi::Bind()
                                  .Attr<double>("factor")
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>());
