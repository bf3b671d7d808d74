copy (4,6):(1,4) -> (6,4):(4,1) (f32)
  joint modes []
  kernel generic (no common refinement)
  launch 1 blocks x 256 threads, src offsets 0..=23, dst offsets 0..=23
---
// COPY (4,6):(1,4) -> (6,4):(4,1) (f32): generic, one element per thread
extern "C" __global__ void __launch_bounds__(256) cute_copy(const unsigned int* __restrict__ src, unsigned int* __restrict__ dst) {
  typedef int idx;
  const idx i = (idx)blockIdx.x * 256 + threadIdx.x;
  if (i >= 24) return;
  dst[(((i) % 6) * 4 + ((i) / 6) * 1) + (0)] = src[(((i) % 4) * 1 + ((i) / 4) * 4) + (0)];
}
