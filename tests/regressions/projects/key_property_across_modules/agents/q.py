from agents.random_state import RandomStateMixin


class QFunction(RandomStateMixin):
    def __init__(self, env, random_seed=None):
        self.env = env
        self.random_seed = random_seed
