// The fixed cost of one ffi_call: a handler that does no work at all. It reads nothing and
// writes nothing: the result has the shape and dtype of x, and its values are unspecified.
#include <atomic>
#include <cstdint>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

std::atomic<std::int64_t> calls{0};  // handler invocations, read by the probe

// --8<-- [start:kernel]
ffi::Error NoopImpl(ffi::AnyBuffer /*x*/, ffi::Result<ffi::AnyBuffer> /*out*/) {
  calls.fetch_add(1, std::memory_order_relaxed);  // the only work: counting the call
  return ffi::Error::Success();
}
// --8<-- [end:kernel]

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(JaxcbNoop, NoopImpl,
                              ffi::Ffi::Bind().Arg<ffi::AnyBuffer>().Ret<ffi::AnyBuffer>());

extern "C" std::int64_t JaxcbNoopCalls() { return calls.load(); }
