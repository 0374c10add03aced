"""``mindspore.nn``: Cell and the layers, losses and optimizers built on it."""
from .cell import Cell  # noqa: F401
from .grad_cells import Jvp, Vjp  # noqa: F401
