"""The 1.x path ``mindspore.dataset.vision.py_transforms``: the same operations."""
from .transforms import (CenterCrop, Decode, HWC2CHW, Normalize, Pad, RandomCrop, RandomHorizontalFlip, RandomResizedCrop, RandomRotation, RandomVerticalFlip, Rescale, Resize, ToPIL, ToTensor)  # noqa: F401
from .utils import Border, Inter  # noqa: F401
