"""The floor: values and tables every layer may import (no AST analysis, no rule)."""
