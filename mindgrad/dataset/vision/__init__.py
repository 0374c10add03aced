"""``mindspore.dataset.vision``: image operations (see ``transforms.py``) and enums."""
from .transforms import (CenterCrop, Decode, HWC2CHW, Normalize, Pad, RandomCrop, RandomHorizontalFlip, RandomResizedCrop, RandomRotation, RandomVerticalFlip, Rescale, Resize, ToPIL, ToTensor)  # noqa: F401
from .utils import Border, ImageBatchFormat, Inter  # noqa: F401
from . import transforms, utils  # noqa: F401
