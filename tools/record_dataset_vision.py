"""Record MindSpore's results of the dataset vision transforms on fixed inputs.

Run with a Python that has MindSpore installed:

    /path/to/mindspore-venv/bin/python tools/record_dataset_vision.py

It writes tests/fixtures/dataset_vision.npz, which tests/test_dataset_transforms.py compares
mindgrad's results against. Only deterministic operations are recorded."""
from __future__ import annotations

import os

import numpy as np
import mindspore.dataset.transforms as T
import mindspore.dataset.vision as V

rng = np.random.default_rng(12)
inputs = {
    "rgb": rng.integers(0, 256, (13, 17, 3), dtype=np.uint8),
    "gray": rng.integers(0, 256, (9, 6), dtype=np.uint8),
    "float": rng.standard_normal((8, 11, 3)).astype(np.float32),
}
cases = {
    "resize_down_rgb": (V.Resize((5, 7)), "rgb"),
    "resize_up_rgb": (V.Resize((29, 40)), "rgb"),
    "resize_short_rgb": (V.Resize(10), "rgb"),
    "resize_mixed_gray": (V.Resize((20, 4)), "gray"),
    "resize_float": (V.Resize((5, 19)), "float"),
    "resize_nearest_down": (V.Resize((6, 9), V.Inter.NEAREST), "rgb"),
    "resize_nearest_up": (V.Resize((21, 31), V.Inter.NEAREST), "rgb"),
    "rescale": (V.Rescale(1.0 / 255.0, -0.5), "rgb"),
    "rescale_float": (V.Rescale(0.3, 0.1), "float"),
    "normalize": (V.Normalize([121.0, 115.5, 100.0], [70.0, 68.0, 71.5]), "rgb"),
    "normalize_gray": (V.Normalize([0.5], [0.25]), "gray"),
    "hwc2chw": (V.HWC2CHW(), "rgb"),
    "totensor": (V.ToTensor(), "rgb"),
    "totensor_gray": (V.ToTensor(), "gray"),
    "centercrop": (V.CenterCrop((6, 9)), "rgb"),
    "centercrop_big": (V.CenterCrop(16), "gray"),
    "pad_constant": (V.Pad([1, 2, 3, 4], fill_value=9), "rgb"),
    "pad_edge": (V.Pad(2, padding_mode=V.Border.EDGE), "rgb"),
    "pad_reflect": (V.Pad([2, 1], padding_mode=V.Border.REFLECT), "gray"),
    "pad_symmetric": (V.Pad(3, padding_mode=V.Border.SYMMETRIC), "rgb"),
    "rotate_90": (V.RandomRotation((90, 90)), "rgb"),
    "hflip": (V.RandomHorizontalFlip(1.0), "rgb"),
    "vflip": (V.RandomVerticalFlip(1.0), "rgb"),
    "typecast": (T.TypeCast(np.int16), "rgb"),
}
out = {f"in_{k}": v for k, v in inputs.items()}
for name, (op, src) in cases.items():
    out[name] = np.asarray(op(inputs[src]))
path = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "dataset_vision.npz")
np.savez_compressed(path, **out)
print("wrote", os.path.normpath(path), len(cases), "cases")
