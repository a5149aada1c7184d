// Attributes beyond a scalar: an array of coefficients, and a dictionary of them all.
#include <cstddef>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

// y = c[0] + c[1] x + c[2] x^2 + ...  (the coefficients: a float64 array attribute)
static ffi::Error PolyImpl(ffi::Span<const double> c, ffi::Buffer<ffi::F64> x,
                           ffi::ResultBuffer<ffi::F64> y) {
  for (size_t i = 0; i < x.element_count(); ++i) {
    double acc = 0.0;  // Horner: from the highest coefficient down
    for (size_t k = c.size(); k-- > 0;) acc = acc * x.typed_data()[i] + c[k];
    y->typed_data()[i] = acc;
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(Poly, PolyImpl,
                              ffi::Ffi::Bind()
                                  .Attr<ffi::Span<const double>>("coeffs")
                                  .Arg<ffi::Buffer<ffi::F64>>()
                                  .Ret<ffi::Buffer<ffi::F64>>());

// y = x * scale + shift, both read by name from every attribute the call passed.
static ffi::Error AffineImpl(ffi::Dictionary attrs, ffi::Buffer<ffi::F64> x,
                             ffi::ResultBuffer<ffi::F64> y) {
  ffi::ErrorOr<double> scale = attrs.get<double>("scale");
  ffi::ErrorOr<double> shift = attrs.get<double>("shift");
  if (scale.has_error()) return scale.error();
  if (shift.has_error()) return shift.error();
  for (size_t i = 0; i < x.element_count(); ++i) {
    y->typed_data()[i] = x.typed_data()[i] * *scale + *shift;
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(Affine, AffineImpl,
                              ffi::Ffi::Bind()
                                  .Attrs()
                                  .Arg<ffi::Buffer<ffi::F64>>()
                                  .Ret<ffi::Buffer<ffi::F64>>());
