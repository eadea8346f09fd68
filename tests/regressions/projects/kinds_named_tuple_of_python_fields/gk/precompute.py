def linear_precompute(geometry, params):
    if int(getattr(params, "n_gpus", 1)) > 1:
        import gk.sharding as sharding

        mesh = sharding.build_mesh(params)
        if mesh is not None:
            grid = sharding.grid_shape_from(params, geometry)
            scaled = sharding.Scaled(2, geometry["scale"])
            return sharding.precompute_sharded(geometry, params, mesh, grid, scaled)
    return geometry
