"""Numeric core: pure functions over bytes, watts, seconds and USD. No I/O, no UI, no rules."""

TIGHT_HEADROOM = 0.05
"""A plan with less than this share of the card's usable memory free is one allocator hiccup from out-of-memory:
the search takes a lighter format that leaves room over it, ranking (advisor.recommend) marks it fragile, and the
report calls it tight. Here, not in the planner, so that the report can read it without importing the sweep."""
