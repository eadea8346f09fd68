import jax


@jax.tree_util.register_pytree_node_class
class PointCloud:
    def __init__(self, x, batch_size=None, penalty=1.0):
        self.x, self.batch_size, self.penalty = x, batch_size, penalty

    @property
    def is_online(self) -> bool:
        return self.batch_size is not None

    @property
    def is_squared_euclidean(self) -> bool:
        return True

    @property
    def ndim(self) -> int:
        return self.x.shape[-1]

    def materialize(self) -> "PointCloud":
        return PointCloud(self.x)

    def tree_flatten(self):
        return (self.x,), {"batch_size": self.batch_size, "penalty": self.penalty}

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, **aux)
