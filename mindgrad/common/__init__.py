"""Tensor, Parameter, dtypes and printing."""
