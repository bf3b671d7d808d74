copy (64,(8,2)):(1,(128,64)) -> (64,16):(1,64) (f16)
  joint modes [64:1/1, 8:128/64, 2:64/512]
  kernel direct, vector 8 elements
  launch 1 blocks x 256 threads, src offsets 0..=1023, dst offsets 0..=1023
---
// COPY (64,(8,2)):(1,(128,64)) -> (64,16):(1,64) (f16): direct, vector 8, joint modes [64:1/1, 8:128/64, 2:64/512]
extern "C" __global__ void __launch_bounds__(256) cute_copy(const uint4* __restrict__ src_v, uint4* __restrict__ dst_v) {
  typedef int idx;
  const idx j0 = (idx)blockIdx.x * 1024 + threadIdx.x;
  uint4 r[4]; idx so[4], dof[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    idx j = j0 + u * 256;
    so[u] = 0; dof[u] = 0;
    if (j < (idx)128) {
      { idx c = (j) % 8;
        so[u] += c * (8); dof[u] += c * (8); }
      idx q0 = (j) / 8;
      { idx c = (q0) % 8;
        so[u] += c * (128); dof[u] += c * (64); }
      idx q1 = (q0) / 8;
      { idx c = q1;
        so[u] += c * (64); dof[u] += c * (512); }
      r[u] = src_v[(so[u] + (0)) / 8];
    }
  }
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    if (j0 + u * 256 < (idx)128) dst_v[(dof[u] + (0)) / 8] = r[u];
  }
}
