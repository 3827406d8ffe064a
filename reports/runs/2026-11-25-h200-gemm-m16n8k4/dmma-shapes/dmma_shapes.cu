// Throughput of the FP64 mma.sync shapes on one GPU: m8n8k4 (sm_80) against m16n8k{4,8,16} (sm_90).
// Each warp runs R independent accumulator chains for `iters` steps; flops = 2 m n k per mma.
#include <cstdio>
#include <cuda_runtime.h>
template <int Shape> __device__ __forceinline__ void mma(double* c, const double* a, const double* b);
template <> __device__ __forceinline__ void mma<0>(double* c, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(c[0]), "+d"(c[1]) : "d"(a[0]), "d"(b[0]));
}
template <> __device__ __forceinline__ void mma<1>(double* c, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]));
}
template <> __device__ __forceinline__ void mma<2>(double* c, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}
template <> __device__ __forceinline__ void mma<3>(double* c, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};"
               : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                 "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}
template <int Shape, int R>
__global__ void bench(double* out, int iters, double seed) {
  double a[8], b[4], c[R][4];
  for (int i = 0; i < 8; ++i) a[i] = seed * (threadIdx.x + i);
  for (int i = 0; i < 4; ++i) b[i] = seed * (i + 1);
  for (int r = 0; r < R; ++r) for (int i = 0; i < 4; ++i) c[r][i] = 0;
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int r = 0; r < R; ++r) mma<Shape>(c[r], a, b);
  double s = 0;
  for (int r = 0; r < R; ++r) for (int i = 0; i < 4; ++i) s += c[r][i];
  if (s == 1.2345) out[0] = s;  // keeps the work
}
template <int Shape, int R>
void run(const char* name, double flops_per_mma, int sms, int warps) {
  double* out; cudaMalloc(&out, 8);
  const int iters = 4096, blocks = sms * 4;
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  bench<Shape, R><<<blocks, 32 * warps>>>(out, 16, 1e-3);  // warm-up
  float best = 1e30f;
  for (int rep = 0; rep < 5; ++rep) {
    cudaEventRecord(a);
    bench<Shape, R><<<blocks, 32 * warps>>>(out, iters, 1e-3);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); if (ms < best) best = ms;
  }
  const double f = double(blocks) * warps * iters * R * flops_per_mma;
  printf("%-10s chains %d  warps/block %2d  blocks %4d  best %.3f ms  %.2f TFLOP/s  (%s)\n", name, R, warps, blocks, best,
         f / best / 1e9, cudaGetErrorString(cudaGetLastError()));
  cudaFree(out);
}
int main() {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  const int sms = p.multiProcessorCount;
  for (int w : {4, 8, 16}) {
    run<0, 4>("m8n8k4", 2.0 * 8 * 8 * 4, sms, w);
    run<0, 8>("m8n8k4", 2.0 * 8 * 8 * 4, sms, w);
    run<1, 4>("m16n8k4", 2.0 * 16 * 8 * 4, sms, w);
    run<2, 4>("m16n8k8", 2.0 * 16 * 8 * 8, sms, w);
    run<3, 2>("m16n8k16", 2.0 * 16 * 8 * 16, sms, w);
    run<3, 4>("m16n8k16", 2.0 * 16 * 8 * 16, sms, w);
  }
}
