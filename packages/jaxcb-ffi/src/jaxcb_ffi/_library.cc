// What the library was built against, for _library.py to check before anything is registered:
// XLA refuses a handler built with newer FFI headers than its own, and it does so when the CPU
// backend starts, which breaks every JAX computation of the process.
#include "xla/ffi/api/c_api.h"

#ifndef JAXCB_FFI_JAXLIB_VERSION
#error "JAXCB_FFI_JAXLIB_VERSION (the jaxlib the headers came from) is set by CMakeLists.txt"
#endif

extern "C" const char* JaxcbFfiJaxlibVersion() { return JAXCB_FFI_JAXLIB_VERSION; }
extern "C" int JaxcbFfiApiMajor() { return XLA_FFI_API_MAJOR; }
extern "C" int JaxcbFfiApiMinor() { return XLA_FFI_API_MINOR; }
