"""Reads the agent's static config under jit (v34 douri main.py:665-666)."""

from typing import Any

import jax
from agents.critic import CriticAgent  # noqa: F401 - the class the agent is


@jax.jit
def score(critic_agent: Any, q, v):
    w = float(critic_agent.config.get("proposal_q_weight", 1.0))
    m = int(critic_agent.meta["steps"])
    s = float(critic_agent.scale)  # error: JAX101
    return w * q + m * v + s
