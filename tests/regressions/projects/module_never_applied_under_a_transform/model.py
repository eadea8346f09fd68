import flax.linen as nn
from layers import Gate


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return Gate()(nn.Dense(4)(x))
