def scale(x, factor):
    if factor > 1:
        return x * factor
    return x
