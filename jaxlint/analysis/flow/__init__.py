"""The flow-sensitive layer: one forward walker (walker.py) that facts ride on."""
