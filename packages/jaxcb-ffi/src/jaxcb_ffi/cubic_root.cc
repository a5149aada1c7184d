// The real root of x**3 + a*x - b as an XLA FFI handler: safeguarded Newton in a bracket.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// --8<-- [start:kernel]
// Newton's method kept inside a bracket [lo, hi] with f(lo) <= 0 <= f(hi): a step that leaves
// the bracket is replaced by bisection. It stops on a *relative* step, so a root of 1e-30 is as
// accurate as a root of 1e30. Works in double for either dtype. Returns false on no convergence.
bool CubicRoot(double a, double b, double* root) {
  if (b == 0.0) {  // f(0) = 0: the root itself, for a > 0
    *root = b;
    return true;
  }
  const double sign = b < 0 ? -1.0 : 1.0;  // the cubic is odd: root(a, -b) = -root(a, b)
  b = std::fabs(b);
  const double c = std::cbrt(b);
  // For b > 0, f(0) = -b < 0 and f(hi) >= 0: with a > 0 at b/a and at cbrt(b); for any a at
  // cbrt(b) + sqrt(|a|).
  double lo = 0.0, hi = a > 0 ? std::min(b / a, c) : c + std::sqrt(-a);
  double x = hi;  // f is convex on x > 0: Newton from the right never overshoots the root
  const double eps = std::numeric_limits<double>::epsilon();
  for (int it = 0; it < 200; ++it) {
    const double f = (x * x + a) * x - b;
    if (f == 0.0) break;
    (f > 0 ? hi : lo) = x;
    double next = x - f / (3.0 * x * x + a);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);  // NaN fails the test too
    const bool done = std::fabs(next - x) <= 2.0 * eps * std::fabs(next) || hi - lo <= eps * hi;
    x = next;
    if (done) {
      *root = sign * x;
      return true;
    }
  }
  *root = sign * x;
  return std::fabs((x * x + a) * x - b) <= 4.0 * eps * std::max(b, std::fabs(a * x));
}

// A NaN or infinite a or b gives NaN, as in every jaxcb package.
template <typename T>
ffi::Error CubicRoots(const T* a, const T* b, T* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const double ai = a[i], bi = b[i];
    double x = std::numeric_limits<double>::quiet_NaN();
    if (std::isfinite(ai) && std::isfinite(bi) && !CubicRoot(ai, bi, &x)) {
      std::ostringstream msg;  // an error message instead of a wrong number
      msg.precision(17);
      msg << "cubic_root kernel: no root found for a=" << ai << ", b=" << bi;
      return ffi::Error::Internal(msg.str());
    }
    out[i] = static_cast<T>(x);
  }
  return ffi::Error::Success();
}

// a and b arrive with the same number of elements (the wrapper broadcasts them): elementwise.
ffi::Error CubicRootImpl(ffi::AnyBuffer a, ffi::AnyBuffer b, ffi::Result<ffi::AnyBuffer> out) {
  const std::size_t n = a.element_count();
  if (b.element_type() != a.element_type()) {
    return ffi::Error::InvalidArgument("cubic_root kernel: a and b must have the same dtype");
  }
  if (b.element_count() != n || out->element_count() != n) {
    return ffi::Error::InvalidArgument(
        "cubic_root kernel: a, b and the result must have as many elements, got " +
        std::to_string(n) + ", " + std::to_string(b.element_count()) + " and " +
        std::to_string(out->element_count()) +
        " (an unbatched argument under vmap needs vmap_method='broadcast_all')");
  }
  switch (a.element_type()) {
    case ffi::F32:
      return CubicRoots(a.typed_data<float>(), b.typed_data<float>(), out->typed_data<float>(), n);
    case ffi::F64:
      return CubicRoots(a.typed_data<double>(), b.typed_data<double>(),
                        out->typed_data<double>(), n);
    default:
      return ffi::Error::InvalidArgument(
          "cubic_root kernel: float32 or float64 only, got XLA element type " +
          std::to_string(static_cast<int>(a.element_type())));
  }
}
// --8<-- [end:kernel]

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbCubicRoot, CubicRootImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()  // a
                                  .Arg<ffi::AnyBuffer>()  // b
                                  .Ret<ffi::AnyBuffer>());
