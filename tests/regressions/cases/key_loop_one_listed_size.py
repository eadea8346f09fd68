"""alpa-projects/alpa playground/alpa_micro_benchmark/benchmark_dist_save_load.py:42-75 (JAX201
high, precision v11 check set, read by an untuned reader; the function's head, its docstring
shortened): `arr_sizes = [256 * 1024 * 1024]` (the four-size list is commented out) and
`[random.normal(rngkey, (arr_size,)) for arr_size in arr_sizes]`: a loop with one step
consumes its key once (`loops.runs_at_most_once`: a literal of at most one element, or a name
bound only to one that nothing can grow; `tests/test_analysis.py` tests it directly, as the
old finding here depended on the comprehension's line layout). The near misses fire: a list that is appended to,
and a second draw from the same key after the loop."""

from jax import random


def benchmark_ndarray_save_load(mode="flax", to_efs=True):
    """
    EFS performance: https://docs.aws.amazon.com/efs/latest/ug/performance.html

    if mode == "flax": use flax.training.checkpoints.save_checkpoint/restore_checkpoint
    elif mode == "alpa": use alpa.serialization.save_checkpoint/restore_checkpoint
    elif mode == "numpy: use np.save/load

    Benchmark results on EFS:
    - flax.save_checkpoint:    save average run time: 15.0580 seconds, save average throughput: 0.5313 Gbps
    - flax.restore_checkpoint: load average run time:  6.8287 seconds, load average throughput: 1.2225 Gbps

    - alpa.save_checkpoint:    save average run time: 12.8583 seconds, save average throughput: 0.6222 Gbps
                 use cache:
    - alpa.restore_checkpoint: N/A

    - np.save:                 save average run time: 10.4157 seconds, save average throughput: 0.7682 Gbps
    - np.load:                 load average run time:  2.9987 seconds, load average throughput: 4.9950 Gbps

    Benchmark results on local filesystem:
    - flax.save_checkpoint:    save average run time: 5.5268 seconds, save average throughput: 1.4475 Gbps
    - flax.restore_checkpoint: load average run time: 5.1856 seconds, load average throughput: 1.5428 Gbps

    - alpa.save_checkpoint:    save average run time: 10.3145 seconds, save average throughput: 0.7756 Gbps
    - alpa.restore_checkpoint: N/A

    - np.save:                 save average run time: 0.8104 seconds, save average throughput:  9.8718 Gbps
    - np.load:                 load average run time: 0.7327 seconds, load average throughput: 10.9179 Gbps
    """
    rngkey = random.PRNGKey(0)
    # arr_sizes = [1024*1024, 4*1024*1024, 16*1024*1024, 32*1024*1024] # 4M, 16M, 64M, 128M
    arr_sizes = [256 * 1024 * 1024]  # 1G
    benchmark_arrs = [random.normal(rngkey, (arr_size,)) for arr_size in arr_sizes]
    for arr in benchmark_arrs:
        print(mode, to_efs, arr.shape)


def bench_then_noise():
    rngkey = random.PRNGKey(0)
    arr_sizes = [1024]
    benchmark_arrs = [random.normal(rngkey, (arr_size,)) for arr_size in arr_sizes]
    return benchmark_arrs, random.uniform(rngkey, (3,))  # error: JAX201


def grows():
    rngkey = random.PRNGKey(0)
    arr_sizes = [1024]
    arr_sizes.append(2048)
    return [random.normal(rngkey, (arr_size,)) for arr_size in arr_sizes]  # error: JAX201
