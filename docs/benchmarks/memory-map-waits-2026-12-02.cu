// Experiment: which host calls wait for which (mmap lock vs the CUDA driver), on the GPU machine.
#include <cuda_runtime_api.h>
#include <sys/mman.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>
#include <algorithm>
#include <string>
using clk = std::chrono::steady_clock;
static double us(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }
static void* map_bytes(size_t n) { void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); return p; }
static void* written(size_t n) { void* p = map_bytes(n); memset(p, 1, n); return p; }
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)
constexpr size_t kBig = size_t{512} << 20, kSmall = size_t{4} << 20;
struct Op { std::string name; std::function<void()> prep, run, undo; };
static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main() {
  CK(cudaSetDevice(0)); CK(cudaFree(nullptr));
  void *bigp = nullptr, *smallp = nullptr, *dev = nullptr;
  CK(cudaMalloc(&dev, kBig));
  std::vector<Op> holders = {
    {"register512", [&]{ bigp = written(kBig); }, [&]{ CK(cudaHostRegister(bigp, kBig, 0)); }, [&]{ CK(cudaHostUnregister(bigp)); munmap(bigp, kBig); }},
    {"unregister512", [&]{ bigp = written(kBig); CK(cudaHostRegister(bigp, kBig, 0)); }, [&]{ CK(cudaHostUnregister(bigp)); }, [&]{ munmap(bigp, kBig); }},
    {"munmap512", [&]{ bigp = written(kBig); }, [&]{ munmap(bigp, kBig); }, []{}},
    {"h2d-pageable512", [&]{ bigp = written(kBig); }, [&]{ CK(cudaMemcpy(dev, bigp, kBig, cudaMemcpyHostToDevice)); }, [&]{ munmap(bigp, kBig); }},
    {"firsttouch512", [&]{ bigp = map_bytes(kBig); }, [&]{ memset(bigp, 1, kBig); }, [&]{ munmap(bigp, kBig); }},
  };
  std::vector<Op> waiters = {
    {"munmap4", [&]{ smallp = written(kSmall); }, [&]{ munmap(smallp, kSmall); }, []{}},
    {"register4", [&]{ smallp = written(kSmall); }, [&]{ CK(cudaHostRegister(smallp, kSmall, 0)); }, [&]{ CK(cudaHostUnregister(smallp)); munmap(smallp, kSmall); }},
    {"unregister4", [&]{ smallp = written(kSmall); CK(cudaHostRegister(smallp, kSmall, 0)); }, [&]{ CK(cudaHostUnregister(smallp)); }, [&]{ munmap(smallp, kSmall); }},
    {"mmap+touch4", []{}, [&]{ smallp = written(kSmall); }, [&]{ munmap(smallp, kSmall); }},
    {"mmap4", []{}, [&]{ smallp = map_bytes(kSmall); }, [&]{ munmap(smallp, kSmall); }},
    {"touch-mapped4", [&]{ smallp = map_bytes(kSmall); }, [&]{ memset(smallp, 1, kSmall); }, [&]{ munmap(smallp, kSmall); }},
    {"touch-mapped4-b", [&]{ smallp = map_bytes(kSmall); }, [&]{ memset(smallp, 1, kSmall); }, [&]{ munmap(smallp, kSmall); }},
    {"touch-resident4", [&]{ smallp = written(kSmall); }, [&]{ memset(smallp, 2, kSmall); }, [&]{ munmap(smallp, kSmall); }},
  };
  for (auto& w : waiters) {
    std::vector<double> alone;
    for (int i = 0; i < 7; ++i) { w.prep(); auto a = clk::now(); w.run(); alone.push_back(us(a, clk::now())); w.undo(); }
    printf("alone %-16s %9.1f us\n", w.name.c_str(), median(alone));
  }
  for (auto& h : holders) {
    for (auto& w : waiters) {
      if (w.name.rfind("touch", 0) != 0 && w.name != "mmap4" && w.name != "munmap4") continue;
      std::vector<double> waited, held, left;
      for (int i = 0; i < 5; ++i) {
        h.prep(); w.prep();
        std::atomic<bool> in{false}; clk::time_point hs, he;
        std::thread t([&]{ CK(cudaSetDevice(0)); in = true; hs = clk::now(); h.run(); he = clk::now(); });
        while (!in) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::microseconds(2000));
        auto a = clk::now(); w.run(); auto b = clk::now();
        t.join();
        waited.push_back(us(a, b)); held.push_back(us(hs, he)); left.push_back(us(a, he));
        w.undo(); h.undo();
      }
      printf("during %-14s %-16s took %9.1f us (holder %9.1f, left when asked %9.1f)\n", h.name.c_str(), w.name.c_str(), median(waited), median(held), median(left));
    }
  }
}
