// The Bessel function J_v(z) of integer order as an XLA FFI handler, by std::cyl_bessel_j (C++17).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// --8<-- [start:kernel]
// std::cyl_bessel_j takes order >= 0 and z >= 0 only; integer orders extend by symmetry:
// J_{-n}(z) = (-1)^n J_n(z) and J_n(-z) = (-1)^n J_n(z).
double BesselJ(std::int64_t n, double z) {
  bool negate = false;
  if (n < 0) {
    n = -n;
    negate = (n % 2 == 1);
  }
  if (z < 0) {
    z = -z;
    negate = negate != (n % 2 == 1);
  }
  const double j = std::cyl_bessel_j(static_cast<double>(n), z);  // NaN in, NaN out
  return negate ? -j : j;
}

// v and z arrive with the same number of elements (the wrapper broadcasts them): elementwise.
template <typename T>
void BesselJv(const std::int32_t* v, const T* z, T* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<T>(BesselJ(v[i], z[i]));
}

ffi::Error BesselJvImpl(ffi::Buffer<ffi::S32> v, ffi::AnyBuffer z,
                        ffi::Result<ffi::AnyBuffer> out) {
  const std::size_t n = z.element_count();
  if (v.element_count() != n || out->element_count() != n) {
    return ffi::Error::InvalidArgument(
        "bessel_jv kernel: v, z and the result must have as many elements, got " +
        std::to_string(v.element_count()) + ", " + std::to_string(n) + " and " +
        std::to_string(out->element_count()) +
        " (an unbatched argument under vmap needs vmap_method='broadcast_all')");
  }
  try {  // an exception must never cross into XLA: it becomes an ffi::Error
    switch (z.element_type()) {
      case ffi::F32:
        BesselJv(v.typed_data(), z.typed_data<float>(), out->typed_data<float>(), n);
        return ffi::Error::Success();
      case ffi::F64:
        BesselJv(v.typed_data(), z.typed_data<double>(), out->typed_data<double>(), n);
        return ffi::Error::Success();
      default:
        return ffi::Error::InvalidArgument(
            "bessel_jv kernel: z must be float32 or float64, got XLA element type " +
            std::to_string(static_cast<int>(z.element_type())));
    }
  } catch (const std::exception& e) {
    return ffi::Error::Internal(std::string("bessel_jv kernel: ") + e.what());
  }
}
// --8<-- [end:kernel]

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbBesselJv, BesselJvImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::S32>>()  // v: checked by XLA FFI
                                  .Arg<ffi::AnyBuffer>()         // z: float32 or float64
                                  .Ret<ffi::AnyBuffer>());
