# source: https://github.com/secretflow/secretflow/issues/406
# family: shapes
# expect: JAX130
# check: error:NonConcreteBooleanIndexError
# A k-means centroid update selects each cluster's points with `X[labels == j]` inside a
# traced function: "Array boolean indices must be concrete".
import jax
import jax.numpy as jnp


@jax.jit
def update_centroids(X, labels, centroids):
    n_clusters = centroids.shape[0]
    for j in range(n_clusters):
        centroids = centroids.at[j].set(X[labels == j].mean(axis=0))
    return centroids


if __name__ == "__main__":
    X = jnp.arange(20.0).reshape(10, 2)
    labels = jnp.arange(10) % 3
    print(update_centroids(X, labels, jnp.zeros((3, 2))))
