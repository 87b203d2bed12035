"""How long cudaHostAlloc takes by what came before it: the same size just freed, a block of the
same size still held, or another size just freed. Median of 9 per size and pattern, microseconds."""
import ctypes, ctypes.util, glob, statistics, time, sys
lib = None
for name in ['libcudart.so', 'libcudart.so.13', 'libcudart.so.12'] + glob.glob('/usr/local/cuda*/lib64/libcudart.so*') + glob.glob('/usr/local/lib/python3*/dist-packages/nvidia/cu*/lib/libcudart.so*'):
    try:
        lib = ctypes.CDLL(name); break
    except OSError:
        pass
if lib is None: sys.exit('no libcudart')
def alloc(n):
    p = ctypes.c_void_p(); t = time.perf_counter()
    rc = lib.cudaHostAlloc(ctypes.byref(p), ctypes.c_size_t(n), 0); dt = (time.perf_counter() - t) * 1e6
    assert rc == 0, rc
    return p, dt
def free(p):
    t = time.perf_counter(); rc = lib.cudaFreeHost(p); assert rc == 0, rc
    return (time.perf_counter() - t) * 1e6
lib.cudaFree(ctypes.c_void_p(0))  # context
MiB = 1 << 20
sizes = [MiB, MiB + 64 * 1024, 1114240, 3 * MiB // 2, 2 * MiB, 2 * MiB + 4096, 2400000, 4 * MiB, 8 * MiB, 16 * MiB, 64 * MiB]
print('bytes,after_same_size_freed_us,with_one_same_size_held_us,after_other_size_freed_us,free_us')
for s in sizes:
    a, b, c, f = [], [], [], []
    for _ in range(9):
        p, _ = alloc(s); f.append(free(p)); q, dt = alloc(s); a.append(dt); free(q)
        h, _ = alloc(s); q, dt = alloc(s); b.append(dt); free(q); free(h)
        o, _ = alloc(2 * s + 12288); free(o); q, dt = alloc(s); c.append(dt); free(q)
    m = statistics.median
    print(f'{s},{m(a):.1f},{m(b):.1f},{m(c):.1f},{m(f):.1f}', flush=True)
