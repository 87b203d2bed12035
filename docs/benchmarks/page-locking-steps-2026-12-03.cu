// cudaHostAlloc/cudaFreeHost and cudaHostRegister/Unregister cost by size, around the 2 MiB
// multiples, measured as calibrate's probe does (3 blocks held, each memset after alloc).
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>
static double us_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count(); }
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main() {
  cudaFree(0);
  const double mib = 1 << 20;
  const double sizes[] = {1.5, 2.0, 2.01, 2.38, 3.0, 3.5, 3.99, 4.0, 4.01, 5.0, 6.0, 7.15, 8.0, 8.58, 10.0, 12.0, 16.0};
  const int samples = 11, held_n = 3, rounds = 3;
  for (int round = 0; round < rounds; ++round)
    for (double s : sizes) {
      size_t bytes = (size_t)(s * mib) & ~(size_t)4095;
      std::vector<double> a, f, r, u;
      std::deque<void*> held;
      for (int i = 0; i < samples + held_n; ++i) {
        void* p; auto t = std::chrono::steady_clock::now();
        if (cudaHostAlloc(&p, bytes, cudaHostAllocDefault) != cudaSuccess) return 1;
        if (i >= held_n) a.push_back(us_since(t));
        held.push_back(p); memset(p, 1, bytes);
        if ((int)held.size() > held_n) { t = std::chrono::steady_clock::now(); cudaFreeHost(held.front()); f.push_back(us_since(t)); held.pop_front(); }
      }
      for (void* p : held) cudaFreeHost(p);
      for (int i = 0; i < samples; ++i) {
        void* p = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        memset(p, 1, bytes);
        auto t = std::chrono::steady_clock::now();
        if (cudaHostRegister(p, bytes, cudaHostRegisterDefault) != cudaSuccess) return 1;
        r.push_back(us_since(t)); t = std::chrono::steady_clock::now();
        cudaHostUnregister(p); u.push_back(us_since(t)); munmap(p, bytes);
      }
      printf("round %d  %6.2f MiB  alloc %8.1f us  free %8.1f us  register %8.1f us  unregister %8.1f us\n",
             round, s, med(a), med(f), med(r), med(u));
      fflush(stdout);
    }
  return 0;
}
