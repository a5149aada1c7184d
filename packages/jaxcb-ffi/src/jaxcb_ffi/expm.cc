// The matrix exponential as XLA FFI handlers: scaling and squaring with a Pade approximant,
// batched over leading axes, and the Frechet derivative its reverse-mode rule needs.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

using Matrix = std::vector<double>;  // n x n, row-major

// The two loops that take the time, MatMulInto and Solve, are compiled once per instruction
// set and the loader picks the widest the CPU has (as in sin_scale.cc): each innermost loop runs
// along a row, 8 doubles at a time with AVX-512, 4 with AVX2, 2 otherwise.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SIMD_CLONES
#endif

// c += a * b, row by row: c's row i gains a[i][k] times b's row k (contiguous, so vectorised).
SIMD_CLONES void MatMulInto(const double* __restrict a, const double* __restrict b,
                            double* __restrict c, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      const double aik = a[i * n + k];
      for (std::size_t j = 0; j < n; ++j) c[i * n + j] += aik * b[k * n + j];
    }
}

Matrix MatMul(const Matrix& a, const Matrix& b, std::size_t n) {
  Matrix c(n * n, 0.0);
  MatMulInto(a.data(), b.data(), c.data(), n);
  return c;
}

// Solves d * x = r in place (r becomes x) by Gaussian elimination with partial pivoting.
SIMD_CLONES void Solve(Matrix d, Matrix& r, std::size_t n) {
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t p = col;
    for (std::size_t i = col + 1; i < n; ++i)
      if (std::fabs(d[i * n + col]) > std::fabs(d[p * n + col])) p = i;
    for (std::size_t j = 0; j < n; ++j) {
      std::swap(d[col * n + j], d[p * n + j]);
      std::swap(r[col * n + j], r[p * n + j]);
    }
    for (std::size_t i = col + 1; i < n; ++i) {
      const double m = d[i * n + col] / d[col * n + col];
      for (std::size_t j = 0; j < n; ++j) {
        d[i * n + j] -= m * d[col * n + j];
        r[i * n + j] -= m * r[col * n + j];
      }
    }
  }
  for (std::size_t col = n; col-- > 0;) {  // back substitution, a whole row of r at a time
    for (std::size_t k = col + 1; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j) r[col * n + j] -= d[col * n + k] * r[k * n + j];
    for (std::size_t j = 0; j < n; ++j) r[col * n + j] /= d[col * n + col];
  }
}

// --8<-- [start:kernel]
// exp(a) = (exp(a / 2^s))^(2^s), with the [6/6] Pade approximant N/D of exp on a / 2^s, whose
// infinity norm is <= 1/2: a backward error of about 3e-16 (Golub & Van Loan, Algorithm 11.3.1).
// In place; false for a non-finite matrix.
bool Expm(Matrix& a, std::size_t n) {
  double norm = 0.0;  // the infinity norm: the largest absolute row sum
  for (std::size_t i = 0; i < n; ++i) {
    double row = 0.0;
    for (std::size_t j = 0; j < n; ++j) row += std::fabs(a[i * n + j]);
    norm = std::max(norm, row);
  }
  if (!std::isfinite(norm)) return false;
  const int s = norm > 0.5 ? static_cast<int>(std::ceil(std::log2(norm / 0.5))) : 0;
  for (double& x : a) x = std::ldexp(x, -s);
  constexpr int q = 6;
  Matrix num(n * n, 0.0), den(n * n, 0.0), power = a;
  for (std::size_t i = 0; i < n; ++i) num[i * n + i] = den[i * n + i] = 1.0;
  double c = 1.0;
  for (int k = 1; k <= q; ++k) {
    c *= static_cast<double>(q - k + 1) / (k * (2 * q - k + 1));
    if (k > 1) power = MatMul(a, power, n);
    for (std::size_t i = 0; i < n * n; ++i) {
      num[i] += c * power[i];
      den[i] += (k % 2 ? -c : c) * power[i];
    }
  }
  Solve(den, num, n);  // num = D^-1 N
  for (int i = 0; i < s; ++i) num = MatMul(num, num, n);
  a.swap(num);
  return true;
}

// The cotangent of expm at a for the output cotangent g is the Frechet derivative L(a^T, g):
// the upper-right block of exp([[a^T, g], [0, a^T]]). So the same Expm serves the backward pass.
bool ExpmVjp(const Matrix& a, const Matrix& g, Matrix& out, std::size_t n) {
  const std::size_t m = 2 * n;
  Matrix block(m * m, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      block[i * m + j] = block[(n + i) * m + n + j] = a[j * n + i];
      block[i * m + n + j] = g[i * n + j];
    }
  if (!Expm(block, m)) return false;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) out[i * n + j] = block[i * m + n + j];
  return true;
}
// --8<-- [end:kernel]

// A stack of `count` matrices of n x n (the leading axes, batch axes included, flattened).
// Each matrix is copied into double precision, exponentiated, and copied out; a matrix with a
// non-finite entry comes out as NaN (as in every jaxcb package), the others are unaffected.
template <typename T>
ffi::Error ExpmStack(const T* a, T* out, std::size_t count, std::size_t n) {
  Matrix m(n * n);
  for (std::size_t b = 0; b < count; ++b) {
    std::copy(a + b * n * n, a + (b + 1) * n * n, m.begin());
    if (!Expm(m, n)) std::fill(m.begin(), m.end(), std::nan(""));
    std::copy(m.begin(), m.end(), out + b * n * n);
  }
  return ffi::Error::Success();
}

template <typename T>
ffi::Error ExpmVjpStack(const T* a, const T* g, T* out, std::size_t count, std::size_t n) {
  Matrix am(n * n), gm(n * n), om(n * n);
  for (std::size_t b = 0; b < count; ++b) {
    std::copy(a + b * n * n, a + (b + 1) * n * n, am.begin());
    std::copy(g + b * n * n, g + (b + 1) * n * n, gm.begin());
    if (!ExpmVjp(am, gm, om, n)) std::fill(om.begin(), om.end(), std::nan(""));
    std::copy(om.begin(), om.end(), out + b * n * n);
  }
  return ffi::Error::Success();
}

// The checks both handlers share: a stack of square matrices, float32 or float64.
ffi::Error CheckStack(const ffi::AnyBuffer& a, std::size_t* count, std::size_t* n) {
  const auto dims = a.dimensions();
  if (dims.size() < 2 || dims[dims.size() - 1] != dims[dims.size() - 2]) {
    return ffi::Error::InvalidArgument("expm kernel: a must have shape (..., n, n)");
  }
  if (a.element_type() != ffi::F32 && a.element_type() != ffi::F64) {
    return ffi::Error::InvalidArgument(
        "expm kernel: float32 or float64 only, got XLA element type " +
        std::to_string(static_cast<int>(a.element_type())));
  }
  *n = static_cast<std::size_t>(dims.back());
  *count = *n == 0 ? 0 : a.element_count() / (*n * *n);
  return ffi::Error::Success();
}

ffi::Error ExpmImpl(ffi::AnyBuffer a, ffi::Result<ffi::AnyBuffer> out) {
  std::size_t count = 0, n = 0;
  if (ffi::Error e = CheckStack(a, &count, &n); e.failure()) return e;
  if (a.element_type() == ffi::F32) {
    return ExpmStack(a.typed_data<float>(), out->typed_data<float>(), count, n);
  }
  return ExpmStack(a.typed_data<double>(), out->typed_data<double>(), count, n);
}

ffi::Error ExpmVjpImpl(ffi::AnyBuffer a, ffi::AnyBuffer g, ffi::Result<ffi::AnyBuffer> out) {
  std::size_t count = 0, n = 0;
  if (ffi::Error e = CheckStack(a, &count, &n); e.failure()) return e;
  if (g.element_type() != a.element_type()) {
    return ffi::Error::InvalidArgument("expm kernel: a and the cotangent g must have one dtype");
  }
  if (g.element_count() != a.element_count() || out->element_count() != a.element_count()) {
    return ffi::Error::InvalidArgument(
        "expm kernel: a, the cotangent g and the result must have as many elements, got " +
        std::to_string(a.element_count()) + ", " + std::to_string(g.element_count()) + " and " +
        std::to_string(out->element_count()) +
        " (an unbatched argument under vmap needs vmap_method='broadcast_all')");
  }
  if (a.element_type() == ffi::F32) {
    return ExpmVjpStack(a.typed_data<float>(), g.typed_data<float>(), out->typed_data<float>(),
                        count, n);
  }
  return ExpmVjpStack(a.typed_data<double>(), g.typed_data<double>(), out->typed_data<double>(),
                      count, n);
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbExpm, ExpmImpl,
                              ffi::Ffi::Bind().Arg<ffi::AnyBuffer>().Ret<ffi::AnyBuffer>());
XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbExpmVjp, ExpmVjpImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()  // a, the saved primal
                                  .Arg<ffi::AnyBuffer>()  // g, the output cotangent
                                  .Ret<ffi::AnyBuffer>());
