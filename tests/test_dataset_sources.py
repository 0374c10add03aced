"""mindspore.dataset sources: GeneratorDataset, NumpySlicesDataset, MNIST / Fashion-MNIST
(IDX), CIFAR-10 / CIFAR-100 (binary), ImageFolderDataset, CSVDataset; samplers, sharding
and the errors for bad input. Expected values come from the files the tests write and from
MindSpore 2.10's behaviour (column names, dtypes, shapes, orders without shuffling)."""
import os

import numpy as np
import pytest

import mindgrad as ms
import mindgrad.dataset as ds
from dataset_files import (write_cifar10, write_cifar100, write_idx, write_image_folder,
                           write_mnist)


def rows(d, **kw):
    return list(d.create_tuple_iterator(output_numpy=True, **kw))


def col(d, k=0):
    return [r[k].tolist() for r in rows(d)]


class RandomAccess:
    def __init__(self, n=10):
        self.n = n

    def __getitem__(self, i):
        return np.array([i, i * 10]), float(i) * 2

    def __len__(self):
        return self.n


def gen5():
    for i in range(5):
        yield np.array([i, i + 1]), i


# --- GeneratorDataset ---------------------------------------------------------------------


def test_generator_random_access_values_dtypes_and_order():
    d = ds.GeneratorDataset(RandomAccess(), ["a", "b"], shuffle=False)
    assert d.get_col_names() == ["a", "b"] and d.get_dataset_size() == 10
    r = rows(d)
    assert [x[0].tolist() for x in r[:3]] == [[0, 0], [1, 10], [2, 20]]
    assert r[3][1].dtype == np.float64 and r[3][1].shape == () and r[3][1] == 6.0
    assert d.output_shapes() == [[2], []]
    assert d.output_types() == [np.int64, np.float64]


def test_generator_shuffle_is_a_permutation_reproducible_per_seed():
    d = ds.GeneratorDataset(RandomAccess(), ["a", "b"])  # random access: shuffled by default
    first = [r[1] for r in col(d)]
    assert sorted(first) == list(range(0, 100, 10)) and first != sorted(first)
    assert [r[1] for r in col(d)] == first  # a fresh iteration repeats the order
    ds.config.set_seed(7)
    try:
        other = [r[1] for r in col(ds.GeneratorDataset(RandomAccess(), ["a", "b"]))]
        again = [r[1] for r in col(ds.GeneratorDataset(RandomAccess(), ["a", "b"]))]
    finally:
        ds.config.set_seed(5489)
    assert other == again and other != first


def test_generator_iterable_and_callable_sources():
    d = ds.GeneratorDataset(gen5, ["x", "y"])
    assert d.get_dataset_size() == 5
    assert col(d, 1) == [0, 1, 2, 3, 4]
    assert col(d, 0)[2] == [2, 3]
    it = ds.GeneratorDataset([(np.float32(i),) for i in range(3)], ["v"], shuffle=False)
    assert [r[0].dtype for r in rows(it)] == [np.float32] * 3
    assert col(ds.GeneratorDataset(range(4), ["v"], shuffle=False)) == [0, 1, 2, 3]
    # a list item gives one column per element, as a tuple does
    lists = ds.GeneratorDataset([[1, 2.5], [3, 4.5]], ["i", "f"], shuffle=False)
    assert col(lists, 0) == [1, 3] and col(lists, 1) == [2.5, 4.5]


def test_generator_num_samples_shards_and_samplers():
    mk = lambda **kw: ds.GeneratorDataset(RandomAccess(), ["a", "b"], **kw)  # noqa: E731
    assert [r[0] for r in col(mk(shuffle=False, num_samples=4))] == [0, 1, 2, 3]
    shard = mk(shuffle=False, num_shards=3, shard_id=2)
    assert shard.get_dataset_size() == 4
    assert [r[0] for r in col(shard)] == [2, 5, 8, 1]  # wraps to keep shards equal
    assert [r[0] for r in col(mk(shuffle=False, num_shards=3, shard_id=0))] == [0, 3, 6, 9]
    assert [r[0] for r in col(mk(sampler=[3, 1, 4]))] == [3, 1, 4]
    assert [r[0] for r in col(mk(sampler=ds.SequentialSampler(2, 4)))] == [2, 3, 4, 5]
    dist = mk(sampler=ds.DistributedSampler(3, 1, shuffle=False))
    assert [r[0] for r in col(dist)] == [1, 4, 7, 0]
    sub = [r[0] for r in col(mk(sampler=ds.SubsetRandomSampler([1, 5, 7])))]
    assert sorted(sub) == [1, 5, 7]
    rnd = [r[0] for r in col(mk(sampler=ds.RandomSampler(num_samples=6)))]
    assert len(rnd) == 6 and len(set(rnd)) == 6
    rep = [r[0] for r in col(mk(sampler=ds.RandomSampler(replacement=True, num_samples=30)))]
    assert len(rep) == 30 and len(set(rep)) < 30


def test_shuffled_shards_split_one_permutation():
    seen = []
    for k in range(2):
        d = ds.GeneratorDataset(RandomAccess(), ["a", "b"], num_shards=2, shard_id=k)
        seen += [r[0] for r in col(d)]
    assert sorted(seen) == list(range(10))


def test_iterable_generator_shards_and_num_samples():
    d = ds.GeneratorDataset(gen5, ["x", "y"], num_shards=2, shard_id=1)
    assert col(d, 1) == [1, 3]
    assert col(ds.GeneratorDataset(gen5, ["x", "y"], num_samples=2), 1) == [0, 1]


def test_generator_column_types_cast():
    d = ds.GeneratorDataset(RandomAccess(), ["a", "b"], column_types=[ms.int32, np.float32],
                            shuffle=False)
    assert d.output_types() == [np.int32, np.float32]


def test_generator_errors_name_the_dataset_and_columns():
    with pytest.raises(ValueError, match="column_names"):
        ds.GeneratorDataset(gen5)
    d = ds.GeneratorDataset(gen5, ["only"])
    with pytest.raises(RuntimeError, match=r"GeneratorDataset.*2 value\(s\).*\['only'\]"):
        rows(d)
    with pytest.raises(ValueError, match="sampler needs a random-access source"):
        ds.GeneratorDataset(gen5, ["x", "y"], sampler=[0, 1])
    with pytest.raises(RuntimeError, match="sampler and shuffle"):
        ds.GeneratorDataset(RandomAccess(), ["a", "b"], sampler=[0], shuffle=True)
    with pytest.raises(ValueError, match="shard_id"):
        ds.GeneratorDataset(RandomAccess(), ["a", "b"], num_shards=2, shard_id=2)

    class Broken:
        def __getitem__(self, i):
            raise KeyError(i)

        def __len__(self):
            return 2
    with pytest.raises(RuntimeError, match=r"GeneratorDataset: source\[0\] raised KeyError"):
        rows(ds.GeneratorDataset(Broken(), ["a"], shuffle=False))


# --- NumpySlicesDataset -------------------------------------------------------------------


def test_numpy_slices_forms():
    d = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    assert d.get_col_names() == ["column_0"] and col(d) == [1, 2, 3]
    d = ds.NumpySlicesDataset({"x": [1, 2], "y": [[1.0, 2.0], [3.0, 4.0]]}, shuffle=False)
    assert d.get_col_names() == ["x", "y"] and col(d, 1) == [[1.0, 2.0], [3.0, 4.0]]
    d = ds.NumpySlicesDataset(([1, 2], [3, 4]), shuffle=False)
    assert d.get_col_names() == ["column_0", "column_1"] and col(d, 1) == [3, 4]
    d = ds.NumpySlicesDataset(np.arange(6).reshape(3, 2), column_names=["q"], shuffle=False)
    assert col(d) == [[0, 1], [2, 3], [4, 5]]
    assert sorted(col(ds.NumpySlicesDataset([5, 6, 7, 8]))) == [5, 6, 7, 8]
    with pytest.raises(ValueError, match="different lengths"):
        ds.NumpySlicesDataset(([1, 2], [3]))


# --- MNIST --------------------------------------------------------------------------------


def test_mnist_reads_idx_files(tmp_path):
    data = write_mnist(str(tmp_path))
    d = ds.MnistDataset(str(tmp_path), usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 10
    assert d.output_shapes() == [[28, 28, 1], []]
    assert d.output_types() == [np.uint8, np.uint32]
    r = rows(d)
    np.testing.assert_array_equal(r[3][0][..., 0], data["train"][0][3])
    assert [int(x[1]) for x in r] == data["train"][1].tolist()
    test = ds.MnistDataset(str(tmp_path), usage="test", shuffle=False)
    assert [int(x[1]) for x in rows(test)] == data["t10k"][1].tolist()
    # "all" (the default) reads the test files first, as MindSpore does
    both = ds.MnistDataset(str(tmp_path), shuffle=False)
    assert both.get_dataset_size() == 14
    assert [int(x[1]) for x in rows(both)] == data["t10k"][1].tolist() + \
        data["train"][1].tolist()
    fashion = ds.FashionMnistDataset(str(tmp_path), usage="test", shuffle=False)
    assert fashion.get_dataset_size() == 4
    out = next(iter(d))
    assert isinstance(out[0], ms.Tensor) and out[0].dtype == ms.uint8
    assert out[1].dtype == ms.uint32


def test_mnist_errors(tmp_path):
    with pytest.raises(ValueError, match=r"MnistDataset.*nowhere does not exist"):
        ds.MnistDataset(str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="usage"):
        ds.MnistDataset(str(tmp_path), usage="valid")
    with pytest.raises(RuntimeError, match=r"train-images-idx3-ubyte is missing"):
        ds.MnistDataset(str(tmp_path), usage="train").get_dataset_size()
    write_mnist(str(tmp_path))
    path = tmp_path / "train-images-idx3-ubyte"
    path.write_bytes(path.read_bytes()[:-5])  # truncated
    with pytest.raises(RuntimeError, match=r"train-images-idx3-ubyte holds .* corrupt"):
        rows(ds.MnistDataset(str(tmp_path), usage="train"))
    path.write_bytes(b"GIF89a" + bytes(20))
    with pytest.raises(RuntimeError, match=r"train-images-idx3-ubyte is not an IDX file"):
        ds.MnistDataset(str(tmp_path), usage="train").get_dataset_size()
    write_idx(str(tmp_path / "train-images-idx3-ubyte"), np.zeros((3, 28, 28), np.uint8))
    with pytest.raises(RuntimeError, match=r"labels for the 3 images"):
        ds.MnistDataset(str(tmp_path), usage="train").get_dataset_size()


# --- CIFAR --------------------------------------------------------------------------------


def test_cifar10_binary(tmp_path):
    data = write_cifar10(str(tmp_path))
    d = ds.Cifar10Dataset(str(tmp_path), usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 5
    assert d.output_shapes() == [[32, 32, 3], []] and d.output_types() == [np.uint8, np.uint32]
    r = rows(d)
    for k in range(5):
        np.testing.assert_array_equal(r[k][0], data["train"][0][k])
    assert [int(x[1]) for x in r] == data["train"][1]
    assert ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size() == 2
    assert ds.Cifar10Dataset(str(tmp_path)).get_dataset_size() == 7


def test_cifar100_binary(tmp_path):
    data = write_cifar100(str(tmp_path))
    d = ds.Cifar100Dataset(str(tmp_path), usage="test", shuffle=False)
    assert d.get_col_names() == ["image", "coarse_label", "fine_label"]
    r = rows(d)
    np.testing.assert_array_equal(r[1][0], data["test"][0][1])
    assert [(int(x[1]), int(x[2])) for x in r] == list(zip(data["test"][1], data["test"][2]))
    assert d.output_types() == [np.uint8, np.uint32, np.uint32]


def test_cifar_errors(tmp_path):
    with pytest.raises(RuntimeError, match="no train files"):
        ds.Cifar10Dataset(str(tmp_path), usage="train").get_dataset_size()
    (tmp_path / "data_batch_1.bin").write_bytes(bytes(3073 + 10))
    with pytest.raises(RuntimeError, match=r"data_batch_1.bin has 3083 bytes"):
        ds.Cifar10Dataset(str(tmp_path), usage="train").get_dataset_size()
    with pytest.raises(ValueError, match="Cifar100Dataset"):
        ds.Cifar100Dataset(str(tmp_path / "missing"))


# --- ImageFolderDataset -------------------------------------------------------------------


def test_image_folder(tmp_path):
    files = write_image_folder(str(tmp_path))
    (tmp_path / "cat" / "notes.txt").write_text("not an image")
    d = ds.ImageFolderDataset(str(tmp_path), shuffle=False, extensions=[".png"])
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 4
    r = rows(d)
    assert [int(x[1]) for x in r] == [0, 0, 1, 1]
    assert r[0][0].dtype == np.uint8 and r[0][0].ndim == 1  # the encoded file
    assert r[0][0].tobytes() == open(sorted(files)[0], "rb").read()
    assert r[1][1].dtype == np.int32
    dec = ds.ImageFolderDataset(str(tmp_path), shuffle=False, decode=True,
                                extensions=[".PNG"], class_indexing={"cat": 5, "dog": 1})
    r = rows(dec)
    paths = sorted(files)
    for k in range(4):
        np.testing.assert_array_equal(r[k][0], files[paths[k]][0])
    assert [int(x[1]) for x in r] == [5, 5, 1, 1]
    only = ds.ImageFolderDataset(str(tmp_path), class_indexing={"dog": 0}, extensions=[".png"])
    assert only.get_dataset_size() == 2


def test_image_folder_errors(tmp_path):
    write_image_folder(str(tmp_path))
    (tmp_path / "cat" / "broken.png").write_bytes(b"\x89PNG not really")
    d = ds.ImageFolderDataset(str(tmp_path), decode=True, shuffle=False)
    with pytest.raises(RuntimeError, match=r"ImageFolderDataset: cannot decode .*broken.png"):
        rows(d)
    with pytest.raises(ValueError, match=r"class_indexing names folder\(s\) \['bird'\]"):
        ds.ImageFolderDataset(str(tmp_path), class_indexing={"bird": 0})
    with pytest.raises(ValueError, match="ImageFolderDataset.*does not exist"):
        ds.ImageFolderDataset(str(tmp_path / "none"))
    # a folder without class sub-folders of files builds (size 0, as in MindSpore) but
    # reading it says so, naming the dataset and the folder
    (tmp_path / "empty" / "cls").mkdir(parents=True)
    empty = ds.ImageFolderDataset(str(tmp_path / "empty"))
    assert empty.get_dataset_size() == 0
    with pytest.raises(RuntimeError, match=r"ImageFolderDataset: .*empty holds no image files"):
        rows(empty)
    with pytest.raises(RuntimeError, match=r"holds no image files with extensions \['.gif'\]"):
        rows(ds.ImageFolderDataset(str(tmp_path), extensions=[".gif"]))


# --- CSVDataset ---------------------------------------------------------------------------


def test_csv(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("a,b,c\n1,2.5,hello\n3,,world\n")
    d = ds.CSVDataset(str(p), shuffle=False)
    assert d.get_col_names() == ["a", "b", "c"]
    r = rows(d)
    assert r[0][0].dtype.kind == "U" and r[0][2] == "hello" and r[1][1] == ""
    d = ds.CSVDataset([str(p)], column_defaults=[0, 9.5, ""], shuffle=False)
    r = rows(d)
    assert d.output_types()[:2] == [np.int32, np.float32]
    assert [int(x[0]) for x in r] == [1, 3] and [float(x[1]) for x in r] == [2.5, 9.5]
    d = ds.CSVDataset(str(p), column_names=["p", "q", "r"], shuffle=False)
    assert d.get_dataset_size() == 3 and str(rows(d)[0][0]) == "a"
    q = tmp_path / "y.csv"
    q.write_text("a,b,c\n5,6.0,x\n")
    both = ds.CSVDataset([str(p), str(q)], column_defaults=[0, 0.0, ""], shuffle=False)
    assert [int(x[0]) for x in rows(both)] == [1, 3, 5]
    assert sorted(int(x[0]) for x in rows(ds.CSVDataset([str(p), str(q)],
                                                      column_defaults=[0, 0.0, ""]))) == [1, 3, 5]
    # a string column stays a NumPy string array in Tensor output
    assert next(iter(ds.CSVDataset(str(p), shuffle=False)))[2] == "hello"


def test_csv_errors(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("a,b\n1,2\n3\n")
    with pytest.raises(RuntimeError, match=r"row 2 of .*bad.csv has 1 fields"):
        ds.CSVDataset(str(p))
    p.write_text("a,b\n1,x\n")
    with pytest.raises(RuntimeError, match=r"column 'b' expects float"):
        ds.CSVDataset(str(p), column_defaults=[0, 0.0])
    with pytest.raises(ValueError, match=r"CSVDataset.*missing.csv does not exist"):
        ds.CSVDataset(str(tmp_path / "missing.csv"))


def test_lazy_attribute_and_mindspore_paths():
    assert ms.dataset is ds
    assert ds.config.get_seed() == 5489
    from mindgrad.dataset.transforms import c_transforms, py_transforms
    from mindgrad.dataset.vision import c_transforms as cv, py_transforms as pv
    assert c_transforms.TypeCast is py_transforms.TypeCast is ds.transforms.TypeCast
    assert cv.Resize is pv.Resize is ds.vision.Resize
    assert os.path.basename(ds.vision.transforms.__file__) == "transforms.py"


def test_mnist_all_reads_the_files_present(tmp_path):
    data = write_mnist(str(tmp_path))
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
        os.remove(tmp_path / name)
    d = ds.MnistDataset(str(tmp_path), shuffle=False)  # a tutorial's MNIST_Data/test folder
    assert [int(r[1]) for r in rows(d)] == data["t10k"][1].tolist()
    (tmp_path / "t10k-labels-idx1-ubyte").unlink()
    with pytest.raises(RuntimeError, match="t10k-labels-idx1-ubyte is missing"):
        ds.MnistDataset(str(tmp_path)).get_dataset_size()
    (tmp_path / "t10k-images-idx3-ubyte").unlink()
    with pytest.raises(RuntimeError, match="holds no MNIST files"):
        ds.MnistDataset(str(tmp_path)).get_dataset_size()


def test_file_sources_shard(tmp_path):
    write_mnist(str(tmp_path / "m"))
    write_cifar10(str(tmp_path / "c"))
    write_image_folder(str(tmp_path / "i"), per_class=3)
    (tmp_path / "x.csv").write_text("v\n" + "\n".join(str(k) for k in range(7)) + "\n")
    makers = {
        "mnist": lambda **kw: ds.MnistDataset(str(tmp_path / "m"), usage="train", **kw),
        "cifar": lambda **kw: ds.Cifar10Dataset(str(tmp_path / "c"), **kw),
        "folder": lambda **kw: ds.ImageFolderDataset(str(tmp_path / "i"), **kw),
        "csv": lambda **kw: ds.CSVDataset(str(tmp_path / "x.csv"), column_defaults=[0], **kw),
        "slices": lambda **kw: ds.NumpySlicesDataset(np.arange(9), **kw),
    }
    for name, make in makers.items():
        whole = make(shuffle=False).get_dataset_size()
        sizes = [make(num_shards=3, shard_id=k).get_dataset_size() for k in range(3)]
        assert sizes == [-(-whole // 3)] * 3, name
        got = [r[0].tobytes() for s in range(3)
               for r in rows(make(num_shards=3, shard_id=s, shuffle=False))]
        want = [r[0].tobytes() for r in rows(make(shuffle=False))]
        assert len(set(want)) == whole and set(got) == set(want), name
    assert ds.MnistDataset(str(tmp_path / "m"), usage="train",
                           num_samples=3).get_dataset_size() == 3


def test_rows_handed_out_cannot_change_the_source(tmp_path):
    write_mnist(str(tmp_path))
    d = ds.MnistDataset(str(tmp_path), usage="train", shuffle=False)
    img = next(d.create_tuple_iterator(output_numpy=True))[0]
    with pytest.raises(ValueError, match="read-only"):
        img[0, 0, 0] = 7
    data = np.arange(3)
    s = ds.NumpySlicesDataset(data, shuffle=False)
    data[0] = 99  # the dataset holds its own copy
    assert col(s) == [0, 1, 2]
