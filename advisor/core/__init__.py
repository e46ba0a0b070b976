"""Numeric core: pure functions over bytes, watts, seconds and USD. No I/O, no UI, no rules."""
