// Lesson 7's handler for an NVIDIA GPU: y = sin(x) * scale + 1 over float32, as a
// CUDA kernel launched on the stream XLA gives the handler.
#include <algorithm>
#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

__global__ void SinScaleKernel(float scale, const float* x, float* y, int64_t n) {
  for (int64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    y[i] = sinf(x[i]) * scale + 1.0f;
  }
}

// The buffers live on the GPU; the handler only queues work on XLA's stream and
// returns: XLA orders what follows on the same stream.
static ffi::Error SinScaleCudaImpl(cudaStream_t stream, float scale,
                                   ffi::Buffer<ffi::F32> x,
                                   ffi::ResultBuffer<ffi::F32> y) {
  const int64_t n = x.element_count();
  const int block = 256;
  const int grid = static_cast<int>(std::min<int64_t>((n + block - 1) / block, 1024));
  SinScaleKernel<<<grid, block, 0, stream>>>(scale, x.typed_data(), y->typed_data(), n);
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    return ffi::Error::Internal(std::string("sin_scale_cuda: ") + cudaGetErrorString(status));
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(SinScaleCuda, SinScaleCudaImpl,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<cudaStream_t>>()
                                  .Attr<float>("scale")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());
