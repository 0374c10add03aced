"""Tensor, Parameter, dtypes, initializers, checkpoints and printing."""
from .serialization import load_checkpoint, load_param_into_net, save_checkpoint  # noqa: F401
