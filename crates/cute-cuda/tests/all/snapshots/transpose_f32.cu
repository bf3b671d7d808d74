copy (1000,4096):(4096,1) -> (1000,4096):(1,1000) (f32)
  joint modes [1000:4096/1, 4096:1/1000]
  kernel transpose of modes 0 and 1, tile 64x64, vector 4
  smem Sw<3,2,6> o 0 o (64,64):(1,64)
  smem writes TV ((16,2),(4,4)):((256,4),(1,64))
  smem reads TV ((16,2),4):((4,64),1)
  launch 1024 blocks x 256 threads, src offsets 0..=4095999, dst offsets 0..=4095999
---
// COPY (1000,4096):(4096,1) -> (1000,4096):(1,1000) (f32): transpose of joint modes 0 and 1 in 64x64 tiles, vector 4, smem Sw<3,2,6> o (64,64):(1,64)
// joint modes [1000:4096/1, 4096:1/1000]
// tile rows: joint modes [0], source layout (1000):(4096)
// smem writes ((16,2),(4,4)):((256,4),(1,64)), reads ((16,2),4):((4,64),1)
extern "C" __global__ void __launch_bounds__(256) cute_copy(const unsigned int* __restrict__ src, unsigned int* __restrict__ dst) {
  typedef int idx;
  __shared__ __align__(16) unsigned int sm[4096];
  const int t = threadIdx.x;
  idx b = blockIdx.x;
  idx so = 0, dof = 0, g0 = 0, gk = 0;
  g0 = (b % 16) * 64; b /= 16;
  gk = (b % 64) * 64; b /= 64;
  so += gk; dof += g0 + gk * (1000);
  const int bs = t % 16, bd = t / 16;
  __align__(16) unsigned int w[4][4];
  const bool okk = gk + bs * 4 < 4096;  // identity-tensor predicate, mode 1
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const int i0 = bd * 4 + r;
    uint4 x = {};
    if (okk && g0 + i0 < 1000) x = *(const uint4*)(src + so + ((((g0 + i0))) * 4096) + bs * 4);
    const unsigned int* xe = (const unsigned int*)&x;
#pragma unroll
    for (int cc = 0; cc < 4; ++cc) w[cc][r] = xe[cc];
  }
#pragma unroll
  for (int cc = 0; cc < 4; ++cc) {
    const int o = bd * 4 + (bs * 4 + cc) * 64;
    *(uint4*)(sm + ((o) ^ (((o) & 1792) >> 6))) = *(const uint4*)w[cc];
  }
  __syncthreads();
  const int c0 = (t % 16) * 4;
  const bool ok0 = g0 + c0 < 1000;  // identity-tensor predicate, mode 0
#pragma unroll
  for (int p = 0; p < 4; ++p) {
    const int ik = t / 16 + p * 16;
    const int o = c0 + ik * 64;
    if (ok0 && gk + ik < 4096) *(uint4*)(dst + dof + c0 + (idx)ik * (1000)) = *(const uint4*)(sm + ((o) ^ (((o) & 1792) >> 6)));
  }
}
