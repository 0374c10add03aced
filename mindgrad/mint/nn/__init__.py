"""``mindspore.mint.nn``: PyTorch-style layers (``layers``) and ``functional``."""
from __future__ import annotations

from . import functional, layers, vision_layers  # noqa: F401
from .layers import *  # noqa: F401,F403
from .vision_layers import *  # noqa: F401,F403

__all__ = list(layers.__all__) + list(vision_layers.__all__)
