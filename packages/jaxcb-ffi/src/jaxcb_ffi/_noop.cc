// The fixed cost of one ffi_call: a handler that does no work at all. It reads nothing and
// writes nothing: the result has the shape and dtype of x, and its values are unspecified.
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// --8<-- [start:kernel]
ffi::Error NoopImpl(ffi::AnyBuffer /*x*/, ffi::Result<ffi::AnyBuffer> /*out*/) {
  return ffi::Error::Success();
}
// --8<-- [end:kernel]

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbNoop, NoopImpl,
                              ffi::Ffi::Bind().Arg<ffi::AnyBuffer>().Ret<ffi::AnyBuffer>());
