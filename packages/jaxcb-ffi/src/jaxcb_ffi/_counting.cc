// The probe's counting shim, built as its own library (libjaxcb_ffi_counting.so) and never
// part of a pattern: the handlers in the other .cc files carry no counters.
//
// Slot i is an XLA FFI handler that adds one to its counter and hands the call frame, as it
// is, to the handler set for slot i. _probe.py puts a slot in front of every handler the
// package registers (it wraps jax.ffi.register_ffi_target) and reads the counters. XLA also
// calls a handler once with a metadata query when it is registered (its API version and
// traits): that call is passed on without being counted, as it runs no kernel.
#include <array>
#include <atomic>
#include <cstdint>
#include <utility>

#include "xla/ffi/api/c_api.h"

namespace {

constexpr int kSlots = 64;

std::array<std::atomic<XLA_FFI_Handler*>, kSlots> targets{};
std::array<std::atomic<std::int64_t>, kSlots> calls{};

bool IsMetadataQuery(const XLA_FFI_CallFrame* frame) {
  return frame->extension_start != nullptr &&
         frame->extension_start->type == XLA_FFI_Extension_Metadata;
}

template <int I>
XLA_FFI_Error* Counted(XLA_FFI_CallFrame* frame) {
  if (!IsMetadataQuery(frame)) calls[I].fetch_add(1, std::memory_order_relaxed);
  return targets[I].load(std::memory_order_acquire)(frame);
}

template <int... I>
constexpr std::array<XLA_FFI_Handler*, sizeof...(I)> Shims(std::integer_sequence<int, I...>) {
  return {&Counted<I>...};
}

constexpr std::array<XLA_FFI_Handler*, kSlots> kShims =
    Shims(std::make_integer_sequence<int, kSlots>{});

}  // namespace

extern "C" int JaxcbCountingSlots() { return kSlots; }

// Puts slot `slot` in front of `handler`; returns the slot's handler, to register instead.
extern "C" void* JaxcbCountingShim(int slot, void* handler) {
  if (slot < 0 || slot >= kSlots || handler == nullptr) return nullptr;
  targets[slot].store(reinterpret_cast<XLA_FFI_Handler*>(handler), std::memory_order_release);
  return reinterpret_cast<void*>(kShims[slot]);
}

extern "C" std::int64_t JaxcbCountingCalls(int slot) {
  return slot < 0 || slot >= kSlots ? -1 : calls[slot].load(std::memory_order_relaxed);
}
