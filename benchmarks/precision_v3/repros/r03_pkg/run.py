from geo import k_means
print(k_means.res.shape, k_means.res2.shape)
