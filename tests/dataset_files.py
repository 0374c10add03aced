"""Writers of small files in the real dataset formats (IDX, CIFAR binary, image folders,
CSV) for the dataset tests."""
from __future__ import annotations

import os
import struct

import numpy as np


def write_idx(path: str, arr: np.ndarray) -> None:
    """An IDX file: zero bytes, the dtype code (0x08 = uint8), the rank, big-endian sizes."""
    with open(path, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, 0x08, arr.ndim))
        for d in arr.shape:
            f.write(struct.pack(">I", d))
        f.write(arr.astype(np.uint8).tobytes())


def write_mnist(folder: str, n_train: int = 10, n_test: int = 4, seed: int = 0) -> dict:
    """MNIST's four files; returns the arrays written."""
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    out = {}
    for pre, n in (("train", n_train), ("t10k", n_test)):
        images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
        labels = rng.integers(0, 10, n).astype(np.uint8)
        write_idx(os.path.join(folder, f"{pre}-images-idx3-ubyte"), images)
        write_idx(os.path.join(folder, f"{pre}-labels-idx1-ubyte"), labels)
        out[pre] = (images, labels)
    return out


def write_cifar10(folder: str, counts=(3, 2), n_test: int = 2, seed: int = 0) -> dict:
    """data_batch_<k>.bin files with counts[k-1] records and test_batch.bin; each record is a
    label byte and a channel-first 3x32x32 image. Returns images (HWC) and labels."""
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    out = {"train": ([], []), "test": ([], [])}
    files = [(f"data_batch_{k + 1}.bin", n, "train") for k, n in enumerate(counts)]
    files.append(("test_batch.bin", n_test, "test"))
    for name, n, usage in files:
        with open(os.path.join(folder, name), "wb") as f:
            for _ in range(n):
                chw = rng.integers(0, 256, (3, 32, 32), dtype=np.uint8)
                label = int(rng.integers(10))
                f.write(bytes([label]) + chw.tobytes())
                out[usage][0].append(chw.transpose(1, 2, 0))
                out[usage][1].append(label)
    return out


def write_cifar100(folder: str, n_train: int = 3, n_test: int = 2, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    out = {}
    for name, n, usage in (("train.bin", n_train, "train"), ("test.bin", n_test, "test")):
        images, coarse, fine = [], [], []
        with open(os.path.join(folder, name), "wb") as f:
            for _ in range(n):
                chw = rng.integers(0, 256, (3, 32, 32), dtype=np.uint8)
                c, fi = int(rng.integers(20)), int(rng.integers(100))
                f.write(bytes([c, fi]) + chw.tobytes())
                images.append(chw.transpose(1, 2, 0))
                coarse.append(c)
                fine.append(fi)
        out[usage] = (images, coarse, fine)
    return out


def write_image_folder(folder: str, classes=("cat", "dog"), per_class: int = 2,
                       fmt: str = "PNG", seed: int = 0) -> dict:
    """folder/<class>/<k>.<fmt> images of random pixels; returns {path: (array, class)}."""
    from PIL import Image

    rng = np.random.default_rng(seed)
    out = {}
    for c in classes:
        os.makedirs(os.path.join(folder, c), exist_ok=True)
        for k in range(per_class):
            arr = rng.integers(0, 256, (6 + k, 5, 3), dtype=np.uint8)
            path = os.path.join(folder, c, f"{k}.{fmt.lower()}")
            Image.fromarray(arr).save(path, fmt)
            out[path] = (arr, c)
    return out
