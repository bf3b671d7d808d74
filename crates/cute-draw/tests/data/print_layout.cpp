// The oracle of crates/cute-draw/tests/data/print_layout_cpp.txt: CuTe C++'s `print_layout`
// (CUTLASS 4.2.0.0, the headers of the `nvidia-cutlass` wheel, host-only) on the layouts that
// `tests/draw.rs::print_layout_matches_cpp` checks ours against. Rebuild the data with:
//
//   g++ -std=c++17 -I .../cutlass_library/source/include -I .../nvidia/cu13/include/cccl \
//       -I .../nvidia/cuda_runtime/include -I .../nvidia/cuda_nvcc/include \
//       print_layout.cpp -o print_layout && ./print_layout > print_layout_cpp.txt
#include <cute/tensor.hpp>
#include <cute/util/print_tensor.hpp>
using namespace cute;
int main() {
  print_layout(make_layout(make_shape(4,3), make_stride(3,1)));
  print_layout(make_layout(make_shape(4,8), make_stride(1,4)));
  print_layout(make_layout(make_shape(8,8), make_stride(8,1)));
  print_layout(make_layout(make_shape(make_shape(2,2),make_shape(2,4)), make_stride(make_stride(1,4),make_stride(2,8))));
  print_layout(make_layout(make_shape(2,3), make_stride(0,1)));
  print_layout(make_layout(make_shape(16,16), make_stride(16,1)));
  print_layout(make_layout(make_shape(4,4), make_stride(-1,4)));
  print_layout(make_layout(make_shape(1,1), make_stride(0,0)));
  print_layout(make_layout(make_shape(3,1), make_stride(7,0)));
  print_layout(make_layout(make_shape(make_shape(4,8),2), make_stride(make_stride(16,1),8)));
  print_layout(make_layout(make_shape(5,7), make_stride(7,1)));
  print_layout(make_layout(make_shape(32,4), make_stride(1,32)));
  print_layout(make_layout(make_shape(make_shape(2,5),3), make_stride(make_stride(3,6),1)));
  return 0;
}
