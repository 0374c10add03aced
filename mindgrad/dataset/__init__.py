"""``mindspore.dataset``: data pipelines for training.

Sources read data from Python (``GeneratorDataset``, ``NumpySlicesDataset``) or from the
standard files in a folder (``MnistDataset``, ``FashionMnistDataset``, ``Cifar10Dataset``,
``Cifar100Dataset``, ``ImageFolderDataset``, ``CSVDataset``); operations (``map``,
``batch``, ``shuffle``, ``repeat``, ``take``, ``skip``, ``zip``, ``concat``, ``project``,
``rename``, ``split``, ...) build a pipeline that runs when it is iterated
(``create_tuple_iterator``, ``create_dict_iterator`` or a plain ``for`` loop). Transforms
live in ``mindspore.dataset.vision`` and ``mindspore.dataset.transforms``."""
from . import config, transforms, vision  # noqa: F401
from .datasets import (BatchDataset, BatchInfo, ConcatDataset, Dataset,  # noqa: F401
                       ProjectDataset, RenameDataset, RepeatDataset, ShuffleDataset,
                       SkipDataset, TakeDataset, ZipDataset)
from .file_sources import (Cifar10Dataset, Cifar100Dataset, CSVDataset,  # noqa: F401
                           FashionMnistDataset, ImageFolderDataset, MnistDataset)
from .iterators import DictIterator, TupleIterator  # noqa: F401
from .map_op import MapDataset  # noqa: F401
from .samplers import (DistributedSampler, RandomSampler, Sampler,  # noqa: F401
                       SequentialSampler, SubsetRandomSampler, SubsetSampler,
                       WeightedRandomSampler)
from .sources import GeneratorDataset, NumpySlicesDataset, Shuffle  # noqa: F401
from .vision.utils import Border, Inter  # noqa: F401


def zip(datasets):  # noqa: A001 (MindSpore's name)
    """``mindspore.dataset.zip((ds1, ds2, ...))``: the rows of the datasets side by side."""
    if not isinstance(datasets, (tuple, list)):
        raise TypeError(f"For 'zip', datasets must be a tuple of datasets, but got "
                        f"{type(datasets).__name__}.")
    return ZipDataset(datasets)
