"""Sources that read the standard files from a folder the user names: MNIST and
Fashion-MNIST (IDX), CIFAR-10 / CIFAR-100 (binary version), an image folder tree and CSV.
Nothing is downloaded. Files are read once, on first use, into memory."""
from __future__ import annotations

import csv
import os
from typing import Any, Sequence

import numpy as np

from .datasets import _names
from .sources import MappableSource
from .vision.transforms import decode_image

_IDX_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"),
               0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


def _frozen(*arrays: np.ndarray) -> tuple:
    """The arrays made read-only: rows handed out are views of them, and a caller writing
    into a row (``output_numpy=True``) must not change the next epoch's data."""
    for a in arrays:
        a.setflags(write=False)
    return arrays


def _check_dir(name: str, path: Any) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"For '{name}', dataset_dir must be a str, but got "
                        f"{type(path).__name__}.")
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise ValueError(f"For '{name}', the folder {path} does not exist or is not a "
                         f"directory.")
    return path


def _check_usage(name: str, usage: Any, allowed: Sequence[str]) -> str:
    usage = "all" if usage is None else usage
    if usage not in allowed:
        raise ValueError(f"For '{name}', usage must be one of {list(allowed)}, but got "
                         f"{usage!r}.")
    return usage


def read_idx(path: str, name: str) -> np.ndarray:
    """An IDX file (MNIST's format: a magic number giving the dtype and rank, big-endian
    dimension sizes, then the values) as an array."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise RuntimeError(f"{name}: cannot read {path}: {exc}") from None
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_DTYPES:
        raise RuntimeError(f"{name}: {path} is not an IDX file (bad magic number "
                           f"{raw[:4].hex() or 'empty'}).")
    ndim = raw[3]
    head = 4 + 4 * ndim
    if ndim == 0 or len(raw) < head:
        raise RuntimeError(f"{name}: {path} is a truncated IDX file (header of {ndim} dims).")
    dims = tuple(int(d) for d in np.frombuffer(raw, ">u4", ndim, 4))
    dtype = np.dtype(_IDX_DTYPES[raw[2]])
    want = int(np.prod(dims)) * dtype.itemsize
    if len(raw) - head != want:
        raise RuntimeError(f"{name}: {path} holds {len(raw) - head} bytes of data but its "
                           f"header {list(dims)} needs {want}; the file is corrupt or "
                           f"truncated.")
    return np.frombuffer(raw, dtype, offset=head).reshape(dims).astype(dtype.newbyteorder("="))


class _UsageFolderSource(MappableSource):
    """A source reading the standard files of a folder, split by ``usage`` ("train",
    "test" or "all"); its columns are ``_COLUMNS``."""

    _COLUMNS = ["image", "label"]

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: Any = None,
                 num_parallel_workers: int | None = None, shuffle: Any = None,
                 sampler: Any = None, num_shards: Any = None, shard_id: Any = None,
                 cache: Any = None) -> None:
        super().__init__(num_samples, shuffle, sampler, num_shards, shard_id)
        self.dataset_dir = _check_dir(self._name, dataset_dir)
        self.usage = _check_usage(self._name, usage, ("train", "test", "all"))
        self._data: tuple | None = None

    def get_col_names(self):
        return list(self._COLUMNS)


class MnistDataset(_UsageFolderSource):
    """MNIST from its four IDX files in ``dataset_dir`` (``train-images-idx3-ubyte``,
    ``train-labels-idx1-ubyte``, ``t10k-images-idx3-ubyte``, ``t10k-labels-idx1-ubyte``).
    Columns: ``image`` uint8 (28, 28, 1), ``label`` uint32. ``usage``: "train", "test" or
    "all" (the default: the test files, then the training files, as MindSpore orders them)."""

    _PREFIX = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}  # test first, as MindSpore reads them

    def _files(self) -> list[tuple[str, str]]:
        """The (images, labels) file pairs to read. "all" reads the pairs present (a folder
        may hold only the test files, as in MindSpore's tutorials); "train" / "test" need
        theirs."""
        out = []
        for pre in self._PREFIX[self.usage]:
            imgs = os.path.join(self.dataset_dir, f"{pre}-images-idx3-ubyte")
            labels = os.path.join(self.dataset_dir, f"{pre}-labels-idx1-ubyte")
            present = [os.path.isfile(p) for p in (imgs, labels)]
            if all(present) or (self.usage != "all" or any(present)):
                for p, ok in zip((imgs, labels), present):
                    if not ok:
                        raise RuntimeError(
                            f"{self._name}: {p} is missing (usage={self.usage!r} needs "
                            f"{os.path.basename(imgs)} and {os.path.basename(labels)} in "
                            f"{self.dataset_dir}).")
                out.append((imgs, labels))
        if not out:
            raise RuntimeError(f"{self._name}: {self.dataset_dir} holds no MNIST files "
                               f"(train-images-idx3-ubyte / train-labels-idx1-ubyte or "
                               f"t10k-images-idx3-ubyte / t10k-labels-idx1-ubyte).")
        return out

    def _arrays(self) -> tuple:
        if self._data is None:
            images, labels = [], []
            for ip, lp in self._files():
                im, lab = read_idx(ip, self._name), read_idx(lp, self._name)
                if im.ndim != 3 or im.dtype != np.uint8:
                    raise RuntimeError(f"{self._name}: {ip} should hold uint8 images (n, h, w), "
                                       f"but holds {im.dtype} {list(im.shape)}.")
                if lab.ndim != 1 or len(lab) != len(im):
                    raise RuntimeError(f"{self._name}: {lp} holds {list(lab.shape)} labels for "
                                       f"the {len(im)} images of {ip}.")
                images.append(im)
                labels.append(lab)
            im = np.concatenate(images) if len(images) > 1 else images[0]
            self._data = _frozen(im[..., None], np.concatenate(labels).astype(np.uint32))
        return self._data

    def _length(self):
        return len(self._arrays()[1])

    def _load(self, i):
        im, lab = self._arrays()
        return im[i], lab[i, ...]

    def _num_classes(self):
        return 10


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST: the same IDX files and columns as ``MnistDataset``."""


class Cifar10Dataset(_UsageFolderSource):
    """CIFAR-10, binary version: ``data_batch_*.bin`` (train) and ``test_batch.bin`` (test)
    in ``dataset_dir``, each record a label byte and a 32x32x3 image stored channel-first.
    Columns: ``image`` uint8 (32, 32, 3) (height, width, channel), ``label`` uint32."""

    _LABELS = 1

    def _file_names(self, usage: str) -> list[str]:
        names = sorted(os.listdir(self.dataset_dir))
        if usage == "train":
            return [n for n in names if n.startswith("data_batch") and n.endswith(".bin")]
        return ["test_batch.bin"] if "test_batch.bin" in names else []

    def _files(self) -> list[str]:
        usages = ["train", "test"] if self.usage == "all" else [self.usage]
        files = [os.path.join(self.dataset_dir, n) for u in usages for n in self._file_names(u)]
        if not files:
            raise RuntimeError(f"{self._name}: no {self.usage} files of the binary version in "
                               f"{self.dataset_dir} (expected {self._expected()}).")
        return files

    def _expected(self) -> str:
        return "data_batch_1.bin ... data_batch_5.bin and test_batch.bin"

    def _arrays(self) -> tuple:
        if self._data is None:
            rec = self._LABELS + 3072
            chunks = []
            for path in self._files():
                raw = np.fromfile(path, np.uint8)
                if raw.size == 0 or raw.size % rec:
                    raise RuntimeError(f"{self._name}: {path} has {raw.size} bytes, not a "
                                       f"multiple of the {rec}-byte record; the file is "
                                       f"corrupt or not the binary version.")
                chunks.append(raw.reshape(-1, rec))
            recs = np.concatenate(chunks) if len(chunks) > 1 else chunks[0]
            images = np.ascontiguousarray(
                recs[:, self._LABELS:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
            labels = [recs[:, k].astype(np.uint32) for k in range(self._LABELS)]
            self._data = _frozen(images, *labels)
        return self._data

    def _length(self):
        return len(self._arrays()[0])

    def _load(self, i):
        arrays = self._arrays()
        return (arrays[0][i],) + tuple(a[i, ...] for a in arrays[1:])

    def _num_classes(self):
        return 10


class Cifar100Dataset(Cifar10Dataset):
    """CIFAR-100, binary version: ``train.bin`` and ``test.bin``, each record a coarse label
    byte, a fine label byte and a channel-first image. Columns: ``image`` uint8 (32, 32, 3),
    ``coarse_label`` and ``fine_label`` uint32."""

    _LABELS = 2
    _COLUMNS = ["image", "coarse_label", "fine_label"]

    def _file_names(self, usage):
        name = "train.bin" if usage == "train" else "test.bin"
        return [name] if os.path.isfile(os.path.join(self.dataset_dir, name)) else []

    def _expected(self):
        return "train.bin and test.bin"

    def _num_classes(self):
        return 100


class ImageFolderDataset(MappableSource):
    """Images in one sub-folder per class: ``dataset_dir/<class>/<file>``. Classes are the
    sub-folders in sorted order (label 0, 1, ...) unless ``class_indexing`` maps folder
    names to labels (then only those folders are read). ``extensions`` keeps only files with
    those endings (case-insensitive). Columns: ``image`` (the file's bytes, uint8 1-D; the
    decoded RGB image (h, w, 3) with ``decode=True``) and ``label`` int32. A folder with no
    such files builds (size 0) but raises a RuntimeError when read, as in MindSpore."""

    def __init__(self, dataset_dir: str, num_samples: Any = None,
                 num_parallel_workers: int | None = None, shuffle: Any = None,
                 sampler: Any = None, extensions: Any = None, class_indexing: Any = None,
                 decode: bool = False, num_shards: Any = None, shard_id: Any = None,
                 cache: Any = None, decrypt: Any = None) -> None:
        super().__init__(num_samples, shuffle, sampler, num_shards, shard_id)
        self.dataset_dir = _check_dir(self._name, dataset_dir)
        if class_indexing is not None and not isinstance(class_indexing, dict):
            raise TypeError(f"For '{self._name}', class_indexing must be a dict from folder "
                            f"name to label, but got {type(class_indexing).__name__}.")
        self.extensions = None if extensions is None else \
            tuple(e.lower() for e in _names(extensions, "extensions", self._name))
        self.decode = bool(decode)
        folders = sorted(d for d in os.listdir(self.dataset_dir)
                         if os.path.isdir(os.path.join(self.dataset_dir, d))
                         and not d.startswith("."))
        if class_indexing is None:
            self.class_indexing = {d: i for i, d in enumerate(folders)}
        else:
            missing = [k for k in class_indexing if k not in folders]
            if missing:
                raise ValueError(f"For '{self._name}', class_indexing names folder(s) "
                                 f"{missing} that {self.dataset_dir} does not have.")
            self.class_indexing = {k: int(v) for k, v in class_indexing.items()}
        files, labels = [], []
        for d in folders:
            if d not in self.class_indexing:
                continue
            for f in sorted(os.listdir(os.path.join(self.dataset_dir, d))):
                path = os.path.join(self.dataset_dir, d, f)
                if f.startswith(".") or not os.path.isfile(path):
                    continue
                if self.extensions is not None and not f.lower().endswith(self.extensions):
                    continue
                files.append(path)
                labels.append(self.class_indexing[d])
        self._files = files
        self._labels, = _frozen(np.asarray(labels, np.int32))

    def get_col_names(self):
        return ["image", "label"]

    def get_class_indexing(self) -> dict:
        return dict(self.class_indexing)

    def _length(self):
        return len(self._files)

    def _rows(self, epoch):
        # as in MindSpore: building the dataset and get_dataset_size (0) work, reading fails
        if not self._files:
            ext = "" if self.extensions is None else f" with extensions {list(self.extensions)}"
            raise RuntimeError(f"{self._name}: {self.dataset_dir} holds no image files{ext} "
                               f"in class sub-folders ({self.dataset_dir}/<class>/<image>).")
        yield from super()._rows(epoch)

    def _load(self, i):
        path = self._files[i]
        try:
            with open(path, "rb") as f:
                raw = np.frombuffer(f.read(), np.uint8)
        except OSError as exc:
            raise RuntimeError(f"{self._name}: cannot read {path}: {exc}") from None
        if self.decode:
            try:
                raw = decode_image(raw)
            except Exception as exc:
                raise RuntimeError(f"{self._name}: cannot decode {path}: the image is broken "
                                   f"or not an image ({exc}).") from None
        return raw, self._labels[i, ...]

    def _num_classes(self):
        return len(set(self.class_indexing.values()))


class CSVDataset(MappableSource):
    """Rows of CSV files. The first line of each file names the columns unless
    ``column_names`` is given (then every line is data). Values are strings unless
    ``column_defaults`` gives a value per column whose type sets the column's dtype (an int:
    int32, a float: float32, a str: string); an empty field takes the default."""

    def __init__(self, dataset_files: Any, field_delim: str = ",",
                 column_defaults: Sequence[Any] | None = None, column_names: Any = None,
                 num_samples: Any = None, num_parallel_workers: int | None = None,
                 shuffle: Any = True, num_shards: Any = None, shard_id: Any = None,
                 cache: Any = None) -> None:
        shuffle = shuffle if isinstance(shuffle, bool) else shuffle is not None
        super().__init__(num_samples, shuffle, None, num_shards, shard_id)
        files = [dataset_files] if isinstance(dataset_files, (str, os.PathLike)) \
            else list(dataset_files)
        if not files:
            raise ValueError("For 'CSVDataset', dataset_files must name at least one file.")
        files = [os.fspath(f) for f in files]
        for f in files:
            if not os.path.isfile(f):
                raise ValueError(f"For 'CSVDataset', the file {f} does not exist.")
        if not isinstance(field_delim, str) or len(field_delim) != 1:
            raise ValueError(f"For 'CSVDataset', field_delim must be one character, but got "
                             f"{field_delim!r}.")
        given = _names(column_names, "column_names", "CSVDataset")
        rows: list[list[str]] = []
        names = given
        for f in files:
            with open(f, newline="") as fh:
                lines = [r for r in csv.reader(fh, delimiter=field_delim) if r]
            if given is None:
                if not lines:
                    raise RuntimeError(f"CSVDataset: {f} is empty (no header line).")
                head, lines = lines[0], lines[1:]
                if names is None:
                    names = head
                elif head != names:
                    raise RuntimeError(f"CSVDataset: {f} has columns {head}, but the first file "
                                       f"has {names}.")
            for k, r in enumerate(lines):
                if len(r) != len(names):
                    raise RuntimeError(f"CSVDataset: row {k + 1} of {f} has {len(r)} fields "
                                       f"but there are {len(names)} columns {names}.")
            rows.extend(lines)
        self._names = list(names)
        if column_defaults is not None and len(column_defaults) != len(self._names):
            raise ValueError(f"For 'CSVDataset', column_defaults has {len(column_defaults)} "
                             f"values but there are {len(self._names)} columns {self._names}.")
        self._columns = list(_frozen(*[self._column([r[c] for r in rows], c, column_defaults,
                                                    files) for c in range(len(self._names))]))

    def _column(self, values, c, defaults, files) -> np.ndarray:
        if defaults is None:
            return np.asarray(values, dtype=str)
        default = defaults[c]
        if isinstance(default, str):
            return np.asarray([v if v != "" else default for v in values], dtype=str)
        kind, dtype = (int, np.int32) if isinstance(default, (int, np.integer)) and \
            not isinstance(default, bool) else (float, np.float32)
        out = []
        for v in values:
            try:
                out.append(kind(v) if v.strip() != "" else default)
            except ValueError:
                raise RuntimeError(f"CSVDataset: column '{self._names[c]}' expects "
                                   f"{kind.__name__} values (from column_defaults), but a row "
                                   f"in {files} holds {v!r}.") from None
        return np.asarray(out, dtype)

    def get_col_names(self):
        return list(self._names)

    def _length(self):
        return len(self._columns[0]) if self._columns else 0

    def _load(self, i):
        return tuple(c[i, ...] for c in self._columns)
