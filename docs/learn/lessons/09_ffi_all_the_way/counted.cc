// State kept across calls: the calls each device made to the handler, per tag.
// XLA may run handlers on several threads at once, so a mutex guards the map.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

static std::mutex mutex;
struct Seen {
  int64_t calls = 0, elements = 0;
};
static std::map<std::pair<std::string, int32_t>, Seen> seen;  // (tag, device) -> Seen

// y = x * 2, and one more call counted under (tag, device).
static ffi::Error CountedImpl(int32_t device, std::string_view tag,
                              ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    Seen& mine = seen[{std::string(tag), device}];
    mine.calls += 1;
    mine.elements += x.element_count();
  }
  for (size_t i = 0; i < x.element_count(); ++i) {
    y->typed_data()[i] = x.typed_data()[i] * 2.0f;
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(Counted, CountedImpl,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::DeviceOrdinal>()
                                  .Attr<std::string_view>("tag")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());

// For Python (ctypes): the calls, and the elements they were given, under tag on device.
extern "C" int64_t CountedCalls(const char* tag, int32_t device) {
  std::lock_guard<std::mutex> lock(mutex);
  return seen[{tag, device}].calls;
}
extern "C" int64_t CountedElements(const char* tag, int32_t device) {
  std::lock_guard<std::mutex> lock(mutex);
  return seen[{tag, device}].elements;
}
