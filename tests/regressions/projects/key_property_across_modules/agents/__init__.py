from agents.q import QFunction

__all__ = ["QFunction"]
