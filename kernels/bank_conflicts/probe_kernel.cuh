// One warp replays a table of shared-memory loads: in instruction j, thread t loads W bytes
// (W = 4, 8 or 16: ld.shared.b32 / .v2.b32 / .v4.b32) at byte address addr[j*32 + t] of the
// dynamic shared memory. The table comes from `cute banks --addresses` (see gen_patterns.sh).
//
// Shared memory is first filled with stores only (so the load counters of Nsight Compute see
// nothing but the replayed loads), the loads are inline PTX marked volatile (the compiler keeps
// each one, in order, at its width), and their values are combined into out[t] so that the host
// can check that every load read the word it should.
#pragma once

// The most instructions one pattern may have (the addresses live in registers).
#define PROBE_MAX_INSTR 32

template <int W>
__global__ void bank_probe(const unsigned* __restrict__ addr, int n_instr, int reps, int fill_words,
                           unsigned* __restrict__ out, long long* __restrict__ cycles)
{
    extern __shared__ __align__(16) unsigned smem_words[];
    const int t = threadIdx.x;
    for (int i = t; i < fill_words; i += 32) {
        smem_words[i] = 0x9E3779B9u * (unsigned)(i + 1);
    }
    // the addresses of this thread, in registers (a fully unrolled loop with constant indices)
    const unsigned base = (unsigned)__cvta_generic_to_shared(smem_words);
    unsigned a[PROBE_MAX_INSTR];
#pragma unroll
    for (int j = 0; j < PROBE_MAX_INSTR; ++j) {
        a[j] = j < n_instr ? base + addr[j * 32 + t] : base;
    }
    __syncthreads();
    unsigned acc = 0;
    const long long start = clock64();
    for (int r = 0; r < reps; ++r) {
#pragma unroll
        for (int j = 0; j < PROBE_MAX_INSTR; ++j) {
            if (j < n_instr) {
                if constexpr (W == 4) {
                    unsigned x;
                    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(x) : "r"(a[j]) : "memory");
                    acc += x;
                } else if constexpr (W == 8) {
                    unsigned x, y;
                    asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];"
                                 : "=r"(x), "=r"(y)
                                 : "r"(a[j])
                                 : "memory");
                    acc += x ^ (y << 1);
                } else {
                    unsigned x, y, z, w;
                    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                                 : "r"(a[j])
                                 : "memory");
                    acc += x ^ (y << 1) ^ (z << 2) ^ (w << 3);
                }
            }
        }
    }
    const long long stop = clock64();
    out[t] = acc;
    if (t == 0) {
        cycles[0] = stop - start;
    }
}
