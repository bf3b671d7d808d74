copy (64,96,128):(1,8192,64) -> (64,96,128):(12288,128,1) (bf16)
  joint modes [12288:64/1, 64:1/12288]
  kernel transpose of modes 0 and 1, tile 256x64, vector 8
  smem Sw<3,3,8> o 0 o (256,64):(1,256)
  smem writes TV ((8,4),(8,8)):((2048,8),(1,256))
  smem reads TV (32,8):(8,1)
  launch 48 blocks x 256 threads, src offsets 0..=786431, dst offsets 0..=786431
---
// COPY (64,96,128):(1,8192,64) -> (64,96,128):(12288,128,1) (bf16): transpose of joint modes 0 and 1 in 256x64 tiles, vector 8, smem Sw<3,3,8> o (256,64):(1,256)
// joint modes [12288:64/1, 64:1/12288]
// tile rows: joint modes [0], source layout (12288):(64)
// smem writes ((8,4),(8,8)):((2048,8),(1,256)), reads (32,8):(8,1)
extern "C" __global__ void __launch_bounds__(256) cute_copy(const unsigned short* __restrict__ src, unsigned short* __restrict__ dst) {
  typedef int idx;
  __shared__ __align__(16) unsigned short sm[16384];
  const int t = threadIdx.x;
  idx b = blockIdx.x;
  idx so = 0, dof = 0, g0 = 0, gk = 0;
  g0 = (b % 48) * 256; b /= 48;
  gk = (b % 1) * 64; b /= 1;
  so += gk; dof += g0 + gk * (12288);
  const int bs = t % 8, bd = t / 8;
  __align__(16) unsigned short w[8][8];
  const bool okk = gk + bs * 8 < 64;  // identity-tensor predicate, mode 1
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int i0 = bd * 8 + r;
    uint4 x = {};
    if (okk && g0 + i0 < 12288) x = *(const uint4*)(src + so + ((((g0 + i0))) * 64) + bs * 8);
    const unsigned short* xe = (const unsigned short*)&x;
#pragma unroll
    for (int cc = 0; cc < 8; ++cc) w[cc][r] = xe[cc];
  }
#pragma unroll
  for (int cc = 0; cc < 8; ++cc) {
    const int o = bd * 8 + (bs * 8 + cc) * 256;
    *(uint4*)(sm + ((o) ^ (((o) & 14336) >> 8))) = *(const uint4*)w[cc];
  }
  __syncthreads();
  const int c0 = (t % 32) * 8;
  const bool ok0 = g0 + c0 < 12288;  // identity-tensor predicate, mode 0
#pragma unroll
  for (int p = 0; p < 8; ++p) {
    const int ik = t / 32 + p * 8;
    const int o = c0 + ik * 256;
    if (ok0 && gk + ik < 64) *(uint4*)(dst + dof + c0 + (idx)ik * (12288)) = *(const uint4*)(sm + ((o) ^ (((o) & 14336) >> 8)));
  }
}
