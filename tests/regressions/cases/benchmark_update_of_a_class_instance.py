"""foundry-ai/foundry `notebooks/env/interactive.ipynb` cell 1 and `pusht_diffusion.ipynb` cell 9
(v42 check set, JAX601 high x2, read false): the timed frame is handed to
`interactive.update(...)`, a method of a `StreamingInterface` instance (a class of another
module), which converts it with `np.array` before the clock is read. A `.update`/`.append` of
an instance of a class is that class's own method, not a container the value waits in, so
where the value goes is unknown (`body_waits.instance_of_a_class`). The near misses: the
same frame appended to a list nothing reads on the host, and a result kept in a name."""

import time

import jax
import jax.numpy as jnp
from viewer import StreamingInterface


@jax.jit
def render(pos):
    return jnp.ones((256, 256, 3)) * pos


interactive = StreamingInterface(256, 256)


def loop(pos, label):
    for _ in range(256):
        t = time.time()
        interactive.update(render(pos))
        elapsed = time.time() - t
        label.value = f"{elapsed * 1000:.2f}ms"


def collect(pos):
    frames = []
    t = time.time()
    frames.append(render(pos))  # error: JAX601
    elapsed = time.time() - t
    return frames, elapsed


def keep(pos):
    t = time.time()
    frame = render(pos)  # error: JAX601
    elapsed = time.time() - t
    return frame, elapsed
