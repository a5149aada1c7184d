// Heavy per-element work, y[i] = sum_k sin(x[i] * k) / k, on one thread or on
// XLA's intra-op thread pool.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

static std::atomic<int64_t> threads{0};  // the pool's size, as the last call saw it

static void Work(const double* x, double* y, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    double acc = 0.0;
    for (int k = 1; k <= 200; ++k) acc += std::sin(x[i] * k) / k;
    y[i] = acc;
  }
}

static ffi::Error OneThreadImpl(ffi::Buffer<ffi::F64> x, ffi::ResultBuffer<ffi::F64> y) {
  Work(x.typed_data(), y->typed_data(), 0, x.element_count());
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(OneThread, OneThreadImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::F64>>()
                                  .Ret<ffi::Buffer<ffi::F64>>());

// The work in chunks. Helpers from the pool and the calling thread take chunks
// from one counter; the caller then waits only for chunks already taken, which are
// running. It never waits for a helper to start: if the caller is itself a pool
// thread and the pool is busy, it does every chunk alone instead of deadlocking.
static ffi::Error PoolImpl(ffi::ThreadPool pool, ffi::Buffer<ffi::F64> x,
                           ffi::ResultBuffer<ffi::F64> y) {
  const int64_t n = x.element_count(), chunk = 4096;
  const int64_t chunks = (n + chunk - 1) / chunk;
  struct Shared {
    std::atomic<int64_t> next{0};
    int64_t done = 0;
    std::mutex mutex;
    std::condition_variable finished;
  };
  auto shared = std::make_shared<Shared>();  // outlives this call if a helper starts late
  auto take_chunks = [=, in = x.typed_data(), out = y->typed_data()] {
    for (int64_t c; (c = shared->next.fetch_add(1)) < chunks;) {
      Work(in, out, c * chunk, std::min(n, (c + 1) * chunk));
      std::lock_guard<std::mutex> lock(shared->mutex);
      if (++shared->done == chunks) shared->finished.notify_all();
    }
  };
  threads = pool.num_threads();
  const int64_t helpers = std::min<int64_t>(threads, chunks - 1);
  for (int64_t h = 0; h < helpers; ++h) pool.Schedule(decltype(take_chunks)(take_chunks));
  take_chunks();
  std::unique_lock<std::mutex> lock(shared->mutex);
  shared->finished.wait(lock, [&] { return shared->done == chunks; });
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(Pool, PoolImpl,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::ThreadPool>()
                                  .Arg<ffi::Buffer<ffi::F64>>()
                                  .Ret<ffi::Buffer<ffi::F64>>());

// For Python (ctypes): how many threads the pool had at the last call.
extern "C" int64_t PoolThreads() { return threads.load(); }
