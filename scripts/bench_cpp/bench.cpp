// CuTe C++ with run-time integers on the operands of `cute bench`'s algebra set.
// Built by scripts/bench_cpp.py (host-only, g++ -O2); prints one line per operation:
// KEY <median ns per call> <result in CuTe notation>.
// Operands are made from integers the compiler cannot see (read through an empty asm), so every
// shape and stride is a run-time `int`, and each call's result is kept alive the same way.
#include <cute/layout.hpp>
#include <cute/tensor.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <time.h>
#include <vector>

using namespace cute;

static constexpr int kSamples = 41;               // as `cute bench`
static constexpr uint64_t kSampleNs = 500'000;    // minimum length of one sample

static uint64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return uint64_t(t.tv_sec) * 1'000'000'000u + uint64_t(t.tv_nsec);
}

// An integer the optimiser cannot constant-fold.
static int rt(int v) {
  asm volatile("" : "+r"(v));
  return v;
}

// Keeps `x` (and the work that made it) alive without storing it.
template <class T>
static void keep(T const& x) {
  asm volatile("" : : "r"(&x) : "memory");
}

template <class F>
static double median_ns(F&& f) {
  auto run = [&](uint64_t iters) {
    uint64_t t = now_ns();
    for (uint64_t i = 0; i < iters; ++i) {
      auto r = f();
      keep(r);
    }
    return now_ns() - t;
  };
  uint64_t iters = 1;
  while (run(iters) < kSampleNs) iters *= 2;
  std::vector<double> v;
  for (int s = 0; s < kSamples; ++s) v.push_back(double(run(iters)) / double(iters));
  std::sort(v.begin(), v.end());
  return v[kSamples / 2];
}

template <class L>
static std::string text(L const& l) {
  std::ostringstream os;
  os << l;
  return os.str();
}

template <class F>
static void report(char const* key, F&& f) {
  double ns = median_ns(f);
  std::printf("%s %.2f %s\n", key, ns, text(f()).c_str());
}

int main() {
  // composition_tv: (8,8):(8,1) o ((4,8),2):((16,1),8)
  auto tv_a = make_layout(make_shape(rt(8), rt(8)), make_stride(rt(8), rt(1)));
  auto tv_b = make_layout(make_shape(make_shape(rt(4), rt(8)), rt(2)),
                          make_stride(make_stride(rt(16), rt(1)), rt(8)));
  report("composition_tv", [&] { return composition(tv_a, tv_b); });

  // composition_6_12: (4,6,8,10):(2,3,5,7) o 6:12
  auto c_a = make_layout(make_shape(rt(4), rt(6), rt(8), rt(10)),
                         make_stride(rt(2), rt(3), rt(5), rt(7)));
  auto c_b = make_layout(rt(6), rt(12));
  report("composition_6_12", [&] { return composition(c_a, c_b); });

  // logical_divide: (8,16):(20,1) / <4:1,8:2>
  auto ld_a = make_layout(make_shape(rt(8), rt(16)), make_stride(rt(20), rt(1)));
  auto ld_t = make_tile(make_layout(rt(4), rt(1)), make_layout(rt(8), rt(2)));
  report("logical_divide", [&] { return logical_divide(ld_a, ld_t); });

  // right_inverse: ((2,2),(4,2)):((1,8),(2,16))
  auto ri_a = make_layout(make_shape(make_shape(rt(2), rt(2)), make_shape(rt(4), rt(2))),
                          make_stride(make_stride(rt(1), rt(8)), make_stride(rt(2), rt(16))));
  report("right_inverse", [&] { return right_inverse(ri_a); });

  // complement: (4,8):(1,8) with cotarget 64
  // (CuTe C++ refuses a dynamic-stride complement of rank > 1 at compile time: the strides are
  // static here, the shapes and the cotarget run-time.)
  auto cmp_a = make_layout(make_shape(rt(4), rt(8)), make_stride(Int<1>{}, Int<8>{}));
  int cmp_m = rt(64);
  report("complement", [&] { return complement(cmp_a, cmp_m); });

  // logical_product and blocked_product: (3,4):(4,1) and (2,5):(1,2)
  // (A product takes the complement of A: A's strides are static, as for complement.)
  auto lp_a = make_layout(make_shape(rt(3), rt(4)), make_stride(Int<4>{}, Int<1>{}));
  auto lp_b = make_layout(make_shape(rt(2), rt(5)), make_stride(rt(1), rt(2)));
  report("logical_product", [&] { return logical_product(lp_a, lp_b); });
  report("blocked_product", [&] { return blocked_product(lp_a, lp_b); });

  // coalesce: ((2,(1,4)),(3,1)):((1,(7,2)),(8,0))
  auto co_a = make_layout(make_shape(make_shape(rt(2), make_shape(rt(1), rt(4))), make_shape(rt(3), rt(1))),
                          make_stride(make_stride(rt(1), make_stride(rt(7), rt(2))), make_stride(rt(8), rt(0))));
  report("coalesce", [&] { return coalesce(co_a); });
  return 0;
}
