# source: https://github.com/jax-ml/jax/issues/1219
# family: benchmarking
# expect: JAX601
# check: elapsed<good/3
# Timing a jitted call without waiting for the result measures only the dispatch.
import time

from jax import jit, numpy

a = numpy.ones((3000, 3000)) * 3
b = numpy.ones((3000, 3000)) * 5
f = jit(numpy.matmul)

if __name__ == "__main__":
    f(a, b).block_until_ready()
    times = []
    for _ in range(5):
        start = time.time()
        f(a, b)
        times.append(time.time() - start)
    print("elapsed=%f" % min(times))
