// A C++ logger as an XLA FFI handler: one line per call on the process's standard error.
#include <cstddef>
#include <cstdio>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// --8<-- [start:kernel]
// "step 3 (2,4): 1.5 1.75 ..." : the step, the state's shape, then every value, with enough
// digits to read the value back exactly (9 for float32, 17 for float64).
template <typename T>
void AppendValues(std::string& line, const T* x, std::size_t n, int digits) {
  char number[32];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(number, sizeof number, " %.*g", digits, static_cast<double>(x[i]));
    line += number;
  }
}

ffi::Error LogStepImpl(ffi::Buffer<ffi::S32> k, ffi::AnyBuffer x) {
  if (k.element_count() != 1) {
    return ffi::Error::InvalidArgument("log_steps kernel: k must be one int32 step number");
  }
  std::string line = "step " + std::to_string(k.typed_data()[0]) + " (";
  const auto dims = x.dimensions();
  for (std::size_t d = 0; d < dims.size(); ++d) {
    line += (d ? "," : "") + std::to_string(dims[d]);
  }
  line += "):";
  switch (x.element_type()) {
    case ffi::F32:
      AppendValues(line, x.typed_data<float>(), x.element_count(), 9);
      break;
    case ffi::F64:
      AppendValues(line, x.typed_data<double>(), x.element_count(), 17);
      break;
    default:
      return ffi::Error::InvalidArgument(
          "log_steps kernel: float32 or float64 only, got XLA element type " +
          std::to_string(static_cast<int>(x.element_type())));
  }
  line += '\n';
  // One write per line: lines from calls on several threads never interleave.
  if (std::fwrite(line.data(), 1, line.size(), stderr) != line.size()) {
    return ffi::Error::Internal("log_steps kernel: writing to standard error failed");
  }
  std::fflush(stderr);
  return ffi::Error::Success();
}
// --8<-- [end:kernel]

}  // namespace

// No result: the call exists for its effect, which ffi_call is told with has_side_effect=True.
XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbLogStep, LogStepImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::S32>>()  // k, the step
                                  .Arg<ffi::AnyBuffer>());       // x, the state
