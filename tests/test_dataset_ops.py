"""mindspore.dataset operations and iterators: map (in this process and in worker
processes), batch, shuffle, repeat, take, skip, zip, concat, project, rename, split, filter;
tuple/dict iterators with output_numpy and num_epochs; sizes, shapes and types."""
import os

import numpy as np
import pytest

import mindgrad as ms
import mindgrad.dataset as ds
import mindgrad.dataset.vision as vision


class RandomAccess:
    def __init__(self, n=10):
        self.n = n

    def __getitem__(self, i):
        return np.int64(i), float(i) * 2

    def __len__(self):
        return self.n


def base(n=10):
    return ds.GeneratorDataset(RandomAccess(n), ["a", "b"], shuffle=False)


def col(d, k=0):
    return [r[k].tolist() for r in d.create_tuple_iterator(output_numpy=True)]


def test_map_columns_order_and_values():
    d = base().map(lambda a: (a, a + 1), input_columns=["a"], output_columns=["a1", "a2"])
    assert d.get_col_names() == ["a1", "a2", "b"]
    assert col(d, 1)[:3] == [1, 2, 3] and col(d, 2)[:2] == [0.0, 2.0]
    d = base().map(lambda a: a * 2)  # the first column by default
    assert d.get_col_names() == ["a", "b"] and col(d)[:3] == [0, 2, 4]
    d = base().map([lambda b: b + 1, lambda b: b * 10], input_columns="b")
    assert col(d, 1)[:3] == [10.0, 30.0, 50.0]
    d = base().map(lambda a, b: a + b, input_columns=["a", "b"], output_columns=["s"])
    assert d.get_col_names() == ["s"] and col(d)[:3] == [0.0, 3.0, 6.0]


def test_map_errors_name_the_column_or_operation():
    with pytest.raises(ValueError, match=r"For 'map', column 'zz' does not exist.*\['a', 'b'\]"):
        base().map(lambda a: a, input_columns=["zz"])
    with pytest.raises(RuntimeError, match=r"map: operation '<lambda>' on input column\(s\) "
                                           r"\['a'\] failed with ZeroDivisionError"):
        col(base().map(lambda a: 1 // 0, input_columns=["a"]))
    with pytest.raises(RuntimeError, match=r"returned 2 column\(s\) but output_columns names 1"):
        col(base().map(lambda a: (a, a), input_columns=["a"]))
    with pytest.raises(ValueError, match="duplicate"):
        base().map(lambda a: a, input_columns=["a"], output_columns=["b"])


def _slow_square(x):
    return x * x + 1


def test_map_worker_processes_match_in_process_results():
    data = np.arange(200, dtype=np.int64)
    src = ds.NumpySlicesDataset({"x": data}, shuffle=False)
    inproc = col(src.map(_slow_square, num_parallel_workers=1))
    src2 = ds.NumpySlicesDataset({"x": data}, shuffle=False)
    local = 3  # a closure works too: workers are forked, nothing is pickled but rows
    par = src2.map(lambda x: _slow_square(x) + local - 3, num_parallel_workers=2,
                   python_multiprocessing=True)
    assert col(par) == inproc == (data * data + 1).tolist()
    # a worker's error reaches the caller with the operation's message
    bad = ds.NumpySlicesDataset({"x": data}, shuffle=False).map(
        lambda x: x if x != 150 else 1 // 0, num_parallel_workers=2,
        python_multiprocessing=True)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        col(bad)


def test_vectorized_map_equals_row_by_row():
    rng = np.random.default_rng(1)
    imgs = rng.integers(0, 256, (130, 4, 5, 1), dtype=np.uint8)
    ops = [vision.Rescale(1 / 255, 0), vision.Normalize([0.13], [0.31]), vision.HWC2CHW()]
    fast = ds.NumpySlicesDataset({"image": imgs}, shuffle=False).map(ops, "image")
    got = np.stack([r[0] for r in fast.create_tuple_iterator(output_numpy=True)])
    want = np.stack([ops[2](ops[1](ops[0](im))) for im in imgs])
    assert got.shape == (130, 1, 4, 5) and got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def test_batch_shapes_remainder_and_per_batch_map():
    d = base().batch(4)
    assert d.get_dataset_size() == 3 and d.get_batch_size() == 4
    assert col(d) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert d.output_shapes() == [[4], [4]]
    assert base().batch(4, drop_remainder=True).get_dataset_size() == 2
    assert col(base().batch(4, True)) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    infos = []

    def pbm(a, b, info):
        infos.append((info.get_batch_num(), info.get_epoch_num()))
        assert isinstance(a, list) and isinstance(a[0], np.ndarray)
        return [x * 10 for x in a], [y + 1 for y in b]
    d = base().batch(4, per_batch_map=pbm, input_columns=["a", "b"])
    assert col(d)[:2] == [[0, 10, 20, 30], [40, 50, 60, 70]]
    assert col(d, 1)[0] == [1.0, 3.0, 5.0, 7.0]
    assert infos[:3] == [(0, 0), (1, 0), (2, 0)]
    sized = base().batch(lambda info: info.get_batch_num() + 1)
    assert col(sized) == [[0], [1, 2], [3, 4, 5], [6, 7, 8, 9]]
    ragged = ds.GeneratorDataset([(np.zeros(k),) for k in (1, 2)], ["v"], shuffle=False)
    with pytest.raises(RuntimeError, match=r"cannot batch column 'v'.*\(1,\), \(2,\)"):
        col(ragged.batch(2))
    padded = ds.GeneratorDataset([(np.ones(k),) for k in (1, 3)], ["v"], shuffle=False)
    assert col(padded.padded_batch(2, pad_info={"v": (None, -1)})) == \
        [[[1.0, -1.0, -1.0], [1.0, 1.0, 1.0]]]


def test_shuffle_repeat_take_skip():
    ds.config.set_seed(3)
    try:
        s = col(base().shuffle(4))
        s2 = col(base().shuffle(4))
        full = col(base().shuffle(100))
    finally:
        ds.config.set_seed(5489)
    assert sorted(s) == list(range(10)) and s != list(range(10)) and s == s2
    assert sorted(full) == list(range(10))
    assert col(base().skip(2).take(3)) == [2, 3, 4]
    r = base().take(3).repeat(2)
    assert r.get_dataset_size() == 6 and col(r) == [0, 1, 2, 0, 1, 2]
    # each repetition of a shuffled source is a new order
    sh = ds.GeneratorDataset(RandomAccess(10), ["a", "b"]).repeat(2)
    order = col(sh)
    assert sorted(order[:10]) == sorted(order[10:]) == list(range(10))
    assert order[:10] != order[10:]
    assert base().repeat().get_dataset_size() == -1
    assert col(base().repeat().take(13))[-3:] == [0, 1, 2]
    with pytest.raises(ValueError, match="For 'take'"):
        base().take(0)


def test_zip_concat_project_rename():
    z = ds.zip((base().take(3), base().rename(["a", "b"], ["c", "e"])))
    assert z.get_col_names() == ["a", "b", "c", "e"] and z.get_dataset_size() == 3
    assert col(z, 2) == [0, 1, 2]
    assert base().take(2).zip(base().project(["b"]).rename("b", "q")).get_col_names() == \
        ["a", "b", "q"]
    with pytest.raises(ValueError, match=r"share the column name\(s\) \['a', 'b'\]"):
        ds.zip((base(), base()))
    c = base().take(2) + base().skip(8)
    assert c.get_dataset_size() == 4 and col(c) == [0, 1, 8, 9]
    assert col(base().take(1).concat([base().take(1), base().take(1)])) == [0, 0, 0]
    with pytest.raises(ValueError, match="same columns"):
        base().concat(base().project(["a"]))
    p = base().project(["b", "a"])
    assert p.get_col_names() == ["b", "a"] and col(p)[:2] == [0.0, 2.0]
    with pytest.raises(ValueError, match=r"For 'project', column 'zz'"):
        base().project(["zz"])
    with pytest.raises(ValueError, match=r"For 'rename', column 'zz'"):
        base().rename(["zz"], ["y"])


def test_split_and_filter():
    a, b = base().split([0.7, 0.3], randomize=False)
    assert col(a) == list(range(7)) and col(b) == [7, 8, 9]
    a, b = base().split([4, 6])
    ra, rb = col(a), col(b)
    assert len(ra) == 4 and len(rb) == 6 and sorted(ra + rb) == list(range(10))
    with pytest.raises(ValueError, match="add up to the dataset size 10"):
        base().split([4, 5])
    with pytest.raises(RuntimeError, match="randomize=True needs a random-access source"):
        base().take(5).split([2, 3])
    f = base().filter(lambda a: a % 3 == 0, input_columns=["a"])
    assert col(f) == [0, 3, 6, 9] and f.get_dataset_size() == 4


def test_iterators_tensors_dicts_epochs():
    d = base()
    row = next(iter(d))
    assert isinstance(row, list) and isinstance(row[0], ms.Tensor)
    assert row[0].dtype == ms.int64 and row[1].dtype == ms.float64
    dict_row = next(d.create_dict_iterator())
    assert list(dict_row) == ["a", "b"] and isinstance(dict_row["b"], ms.Tensor)
    np_row = next(d.create_dict_iterator(output_numpy=True))
    assert isinstance(np_row["a"], np.ndarray)
    only = next(d.create_tuple_iterator(columns=["b"], output_numpy=True))
    assert len(only) == 1 and only[0] == 0.0
    shuffled = ds.GeneratorDataset(RandomAccess(), ["a", "b"])
    it = shuffled.create_tuple_iterator(num_epochs=2, output_numpy=True)
    e1 = [int(r[0]) for r in it]
    e2 = [int(r[0]) for r in it]
    assert sorted(e1) == sorted(e2) == list(range(10)) and e1 != e2
    assert list(it) == []  # two epochs only
    assert [int(r[0]) for r in shuffled.create_tuple_iterator(output_numpy=True)] == e1
    with pytest.raises(ValueError, match="num_epochs"):
        d.create_tuple_iterator(num_epochs=0)


def test_config():
    assert ds.config.get_seed() == 5489
    n = ds.config.get_num_parallel_workers()
    ds.config.set_num_parallel_workers(3)
    assert ds.config.get_num_parallel_workers() == 3
    ds.config.set_num_parallel_workers(n)
    with pytest.raises(ValueError, match="set_num_parallel_workers"):
        ds.config.set_num_parallel_workers(0)
    with pytest.raises(TypeError, match="set_seed"):
        ds.config.set_seed(1.5)


def test_map_column_order_projects():
    d = base().map(lambda a: a + 1, input_columns="a", column_order=["b", "a"])
    assert d.get_col_names() == ["b", "a"] and col(d, 1)[:2] == [1, 2]


def test_generator_rows_read_by_worker_processes():
    class Source:
        def __getitem__(self, i):
            return np.array([i, i * i]), np.int32(os.getpid())

        def __len__(self):
            return 64
    d = ds.GeneratorDataset(Source(), ["v", "pid"], shuffle=False, num_parallel_workers=2,
                            python_multiprocessing=True)
    r = list(d.create_tuple_iterator(output_numpy=True))
    assert [x[0].tolist() for x in r] == [[i, i * i] for i in range(64)]
    assert os.getpid() not in {int(x[1]) for x in r}
    shuffled = ds.GeneratorDataset(Source(), ["v", "pid"], num_parallel_workers=2)
    assert sorted(int(x[0][0]) for x in shuffled.create_tuple_iterator(output_numpy=True)) \
        == list(range(64))


def test_vectorized_map_keeps_zero_d_rows_as_arrays():
    d = ds.NumpySlicesDataset({"label": np.arange(5, dtype=np.uint32)}, shuffle=False)
    d = d.map(ds.transforms.TypeCast(ms.int32), "label")
    out = [r[0] for r in d.create_tuple_iterator(output_numpy=True)]
    assert all(type(o) is np.ndarray and o.shape == () and o.dtype == np.int32 for o in out)
    assert [int(o) for o in out] == [0, 1, 2, 3, 4]
