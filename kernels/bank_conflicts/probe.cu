// probe: replays every pattern of patterns.txt on the GPU, one warp per launch (kernel
// bank_probe<W>, probe_kernel.cuh), checks the loaded values against the host, and prints one line
// per launch. Launch 0 is a baseline with no loads.
//
//   probe patterns.txt [--reps R] [--warmup]    (R = 1 under Nsight Compute; more for timing)
//   probe patterns.txt --dry                    (parse and list only; no GPU)
//
// Each line: name, width, instructions, predicted and ideal wavefronts (from cute), and the
// clock64() cycles of the load loop divided by R (a rough timing, for use without counters).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef PROBE_HOST_ONLY
#include "probe_kernel.cuh"
#else
// host-only syntax check (g++): the kernels as plain declarations
#define PROBE_MAX_INSTR 32
template <int W>
void bank_probe(const unsigned*, int, int, int, unsigned*, long long*) {}
#endif

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,           \
                         cudaGetErrorString(err_));                                      \
            std::exit(2);                                                                \
        }                                                                                \
    } while (0)

struct Pattern {
    std::string name;
    int width = 4;
    int n_instr = 0;
    long predicted = 0;
    long ideal = 0;
    std::string what;
    std::vector<unsigned> addr;  // [j * 32 + t], bytes
};

static std::vector<Pattern> read_patterns(const char* path)
{
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path);
        std::exit(2);
    }
    std::vector<Pattern> ps;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("P ", 0) != 0) {
            continue;
        }
        Pattern p;
        std::istringstream h(line.substr(2));
        h >> p.name >> p.width >> p.n_instr >> p.predicted >> p.ideal;
        std::getline(h, p.what);
        if (!h.eof() && h.fail()) {
            std::fprintf(stderr, "bad header: %s\n", line.c_str());
            std::exit(2);
        }
        if (p.width != 4 && p.width != 8 && p.width != 16) {
            std::fprintf(stderr, "%s: width %d\n", p.name.c_str(), p.width);
            std::exit(2);
        }
        if (p.n_instr < 1 || p.n_instr > PROBE_MAX_INSTR) {
            std::fprintf(stderr, "%s: %d instructions (1..%d)\n", p.name.c_str(), p.n_instr,
                         PROBE_MAX_INSTR);
            std::exit(2);
        }
        for (int j = 0; j < p.n_instr; ++j) {
            if (!std::getline(in, line)) {
                std::fprintf(stderr, "%s: missing instruction %d\n", p.name.c_str(), j);
                std::exit(2);
            }
            std::istringstream r(line);
            for (int t = 0; t < 32; ++t) {
                long a = -1;
                r >> a;
                if (!r || a < 0 || a % p.width != 0 || a > (1 << 20)) {
                    std::fprintf(stderr, "%s: bad address (instruction %d, thread %d)\n",
                                 p.name.c_str(), j, t);
                    std::exit(2);
                }
                p.addr.push_back((unsigned)a);
            }
        }
        ps.push_back(p);
    }
    return ps;
}

// The word the kernel stores at index i.
static unsigned word(unsigned i) { return 0x9E3779B9u * (i + 1); }

// What thread t of the kernel returns for pattern p and `reps` repetitions.
static unsigned expected(const Pattern& p, int t, int reps)
{
    unsigned acc = 0;
    for (int r = 0; r < reps; ++r) {
        for (int j = 0; j < p.n_instr; ++j) {
            const unsigned w = p.addr[j * 32 + t] / 4;
            if (p.width == 4) {
                acc += word(w);
            } else if (p.width == 8) {
                acc += word(w) ^ (word(w + 1) << 1);
            } else {
                acc += word(w) ^ (word(w + 1) << 1) ^ (word(w + 2) << 2) ^ (word(w + 3) << 3);
            }
        }
    }
    return acc;
}

static void launch(const Pattern& p, int reps, const unsigned* d_addr, unsigned* d_out,
                   long long* d_cycles)
{
    unsigned top = 0;
    for (unsigned a : p.addr) {
        top = a + 16 > top ? a + 16 : top;
    }
    int fill_words = (int)((top + 15) / 16 * 4);
    size_t smem = (size_t)fill_words * 4;
    int n = p.n_instr;
    void* args[] = {(void*)&d_addr, (void*)&n, (void*)&reps, (void*)&fill_words, (void*)&d_out,
                    (void*)&d_cycles};
    const void* fn = p.width == 4   ? (const void*)bank_probe<4>
                     : p.width == 8 ? (const void*)bank_probe<8>
                                    : (const void*)bank_probe<16>;
    CHECK(cudaLaunchKernel(fn, dim3(1), dim3(32), args, smem, 0));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: probe patterns.txt [--reps R] [--warmup] [--dry]\n");
        return 2;
    }
    int reps = 1;
    bool warmup = false, dry = false;
    for (int i = 2; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--warmup")) {
            warmup = true;
        } else if (!std::strcmp(argv[i], "--dry")) {
            dry = true;
        } else {
            std::fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (reps < 1) {
        std::fprintf(stderr, "--reps must be positive\n");
        return 2;
    }
    std::vector<Pattern> ps = read_patterns(argv[1]);
    // launch 0: a baseline without loads (the fill and the bookkeeping only)
    Pattern baseline;
    baseline.name = "baseline";
    baseline.n_instr = 0;
    baseline.addr.assign(32, 0);
    ps.insert(ps.begin(), baseline);
    std::printf("%-3s %-18s %5s %5s %9s %6s %12s  %s\n", "id", "pattern", "width", "instr",
                "predicted", "ideal", "cycles/instr", "values");
    if (dry) {
        for (size_t k = 0; k < ps.size(); ++k) {
            const Pattern& p = ps[k];
            std::printf("%-3zu %-18s %5d %5d %9ld %6ld %12s  %08x\n", k, p.name.c_str(), p.width,
                        p.n_instr, p.predicted, p.ideal, "-", expected(p, 0, reps));
        }
        return 0;
    }
    unsigned *d_addr = nullptr, *d_out = nullptr;
    long long* d_cycles = nullptr;
    CHECK(cudaMalloc((void**)&d_addr, 32 * PROBE_MAX_INSTR * sizeof(unsigned)));
    CHECK(cudaMalloc((void**)&d_out, 32 * sizeof(unsigned)));
    CHECK(cudaMalloc((void**)&d_cycles, sizeof(long long)));
    int bad = 0;
    for (size_t k = 0; k < ps.size(); ++k) {
        const Pattern& p = ps[k];
        CHECK(cudaMemcpy(d_addr, p.addr.data(), p.addr.size() * sizeof(unsigned),
                         cudaMemcpyHostToDevice));
        CHECK(cudaMemset(d_out, 0xAB, 32 * sizeof(unsigned)));  // poison
        if (warmup) {
            launch(p, reps, d_addr, d_out, d_cycles);
        }
        launch(p, reps, d_addr, d_out, d_cycles);
        unsigned out[32];
        long long cycles = 0;
        CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int t = 0; t < 32; ++t) {
            ok = ok && out[t] == expected(p, t, reps);
        }
        bad += !ok;
        double per = p.n_instr ? (double)cycles / ((double)reps * p.n_instr) : 0.0;
        std::printf("%-3zu %-18s %5d %5d %9ld %6ld %12.2f  %s\n", k, p.name.c_str(), p.width,
                    p.n_instr, p.predicted, p.ideal, per, ok ? "ok" : "WRONG");
    }
    CHECK(cudaFree(d_addr));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_cycles));
    if (bad) {
        std::fprintf(stderr, "%d pattern(s) read wrong values\n", bad);
        return 1;
    }
    return 0;
}
