# source: https://github.com/jax-ml/jax/issues/1219
# family: benchmarking
# The fix (the FAQ's advice, PR #5879): block until the result is ready.
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
        f(a, b).block_until_ready()
        times.append(time.time() - start)
    print("elapsed=%f" % min(times))
