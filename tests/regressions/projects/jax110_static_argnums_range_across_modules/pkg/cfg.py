STATIC = (1, 2)
