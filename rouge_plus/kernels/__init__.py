"""Counting kernels: each scores one prediction against one reference."""
