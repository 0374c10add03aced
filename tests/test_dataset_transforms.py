"""mindspore.dataset.vision and mindspore.dataset.transforms: results compared with values
MindSpore 2.10 produced on the same inputs (tests/fixtures/dataset_vision.npz, written by
tools/record_dataset_vision.py), the random operations checked for their invariants, and
the transforms used inside map on decoded image files."""
import io
import os

import numpy as np
import pytest

import mindgrad as ms
import mindgrad.dataset as ds
import mindgrad.dataset.transforms as T
import mindgrad.dataset.vision as V
from dataset_files import write_image_folder

FIX = np.load(os.path.join(os.path.dirname(__file__), "fixtures", "dataset_vision.npz"))
INPUTS = {k[3:]: FIX[k] for k in FIX.files if k.startswith("in_")}

CASES = {
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


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    op, src = CASES[name]
    got = np.asarray(op(INPUTS[src]))
    want = FIX[name]
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_fixture_covers_every_case():
    assert set(CASES) == {k for k in FIX.files if not k.startswith("in_")}


def _png(arr):
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, "PNG")
    return np.frombuffer(buf.getvalue(), np.uint8)


def test_decode_and_pil_round_trip():
    arr = INPUTS["rgb"]
    np.testing.assert_array_equal(V.Decode()(_png(arr)), arr)
    pil = V.Decode(to_pil=True)(_png(arr))
    assert pil.size == (17, 13)
    resized = V.Resize((5, 7))(pil)  # a PIL image stays a PIL image
    assert resized.size == (7, 5)
    assert np.asarray(V.ToTensor()(pil)).shape == (3, 13, 17)
    with pytest.raises(RuntimeError, match="Decode.*not a decodable image"):
        V.Decode()(np.frombuffer(b"not an image", np.uint8))
    with pytest.raises(TypeError, match="1-D uint8"):
        V.Decode()(np.zeros((2, 2), np.float32))


def test_random_ops_invariants():
    img = INPUTS["rgb"]
    ds.config.set_seed(11)
    try:
        crop = V.RandomCrop((6, 8))(img)
        assert crop.shape == (6, 8, 3)
        # the crop is a window of the image
        found = any(np.array_equal(img[t:t + 6, l:l + 8], crop)
                    for t in range(8) for l in range(10))
        assert found
        padded = V.RandomCrop(15, padding=2)(img)
        assert padded.shape == (15, 15, 3)
        assert V.RandomCrop(20, pad_if_needed=True)(img).shape == (20, 20, 3)
        with pytest.raises(ValueError, match="RandomCrop.*pad_if_needed"):
            V.RandomCrop(20)(img)
        rrc = V.RandomResizedCrop((8, 8), scale=(0.5, 1.0))(img)
        assert rrc.shape == (8, 8, 3) and rrc.dtype == np.uint8
        flips = {V.RandomHorizontalFlip(0.5)(img)[0, 0].tobytes() for _ in range(40)}
        assert flips == {img[0, 0].tobytes(), img[0, -1].tobytes()}
        assert np.array_equal(V.RandomVerticalFlip(0.0)(img), img)
        rot = V.RandomRotation(30)(img)
        assert rot.shape == img.shape
        expand = V.RandomRotation((45, 45), expand=True)(img)
        assert expand.shape[0] > img.shape[0] and expand.shape[1] > img.shape[1]
    finally:
        ds.config.set_seed(5489)


def test_transform_ops():
    lab = np.array(2)
    assert T.OneHot(4)(lab).tolist() == [0, 0, 1, 0]
    assert T.OneHot(4)(np.array([1, 3])).tolist() == [[0, 1, 0, 0], [0, 0, 0, 1]]
    np.testing.assert_allclose(T.OneHot(4, smoothing_rate=0.2)(lab), [0.05, 0.05, 0.85, 0.05])
    with pytest.raises(ValueError, match=r"OneHot.*\[0, 4\)"):
        T.OneHot(4)(np.array(4))
    assert T.Fill(3)(np.array([1, 2])).tolist() == [3, 3]
    filled = T.Fill(2.5)(np.array([1, 2]))
    assert filled.dtype == np.int64 and filled.tolist() == [2, 2]
    assert T.TypeCast(ms.float16)(np.array([1, 2])).dtype == np.float16
    c = T.Compose([V.Rescale(2.0, 0), V.HWC2CHW()])
    out = c(INPUTS["rgb"])
    assert out.shape == (3, 13, 17) and out[0, 0, 0] == 2.0 * INPUTS["rgb"][0, 0, 0]
    a, b = T.Duplicate()(np.array([1]))
    assert a.tolist() == b.tolist() == [1]
    ds.config.set_seed(2)
    try:
        picks = {T.RandomChoice([T.Fill(1), T.Fill(2)])(np.array([0])).item() for _ in range(30)}
        applied = {T.RandomApply([T.Fill(5)], 0.5)(np.array([0])).item() for _ in range(30)}
    finally:
        ds.config.set_seed(5489)
    assert picks == {1, 2} and applied == {0, 5}


def test_argument_errors():
    with pytest.raises(ValueError, match="Normalize.*same non-zero length"):
        V.Normalize([1, 2], [1])
    with pytest.raises(ValueError, match=r"Normalize.*3 channel\(s\).*2 values"):
        V.Normalize([1, 2], [1, 1])(INPUTS["rgb"])
    with pytest.raises(TypeError, match="Resize.*size"):
        V.Resize((1, 2, 3))
    with pytest.raises(ValueError, match="prob"):
        V.RandomHorizontalFlip(2)
    with pytest.raises(ValueError, match=r"HWC2CHW.*\[2, 3, 4, 5\]"):
        V.HWC2CHW()(np.zeros((2, 3, 4, 5)))
    assert V.Inter.LINEAR == V.Inter.BILINEAR == 2 and V.Inter.NEAREST == 0


def test_image_operation_on_a_label_column_fails_in_map():
    """Operations that run on stacks of rows still refuse rows that are not images: HWC2CHW
    mapped onto the scalar labels fails, naming the operation, the column and the shape."""
    d = ds.NumpySlicesDataset({"image": np.zeros((3, 2, 2, 1), np.uint8),
                               "label": np.arange(3, dtype=np.uint32)}, shuffle=False)
    with pytest.raises(RuntimeError, match=r"'HWC2CHW' on input column\(s\) \['label'\].*"
                                           r"shape \[\]"):
        list(d.map(V.HWC2CHW(), "label").create_tuple_iterator(output_numpy=True))
    out = list(d.map(V.HWC2CHW(), "image").create_tuple_iterator(output_numpy=True))
    assert out[0][0].shape == (1, 2, 2)


def test_image_pipeline_on_files(tmp_path):
    files = write_image_folder(str(tmp_path), per_class=3, fmt="JPEG")
    d = ds.ImageFolderDataset(str(tmp_path), shuffle=False)
    d = d.map([V.Decode(), V.Resize((4, 4)), V.Rescale(1 / 255, 0),
               V.Normalize([0.5] * 3, [0.5] * 3), V.HWC2CHW()], input_columns="image")
    d = d.map(T.TypeCast(ms.int32), input_columns="label").batch(2)
    assert d.get_dataset_size() == 3
    batch = next(d.create_dict_iterator())
    assert batch["image"].shape == (2, 3, 4, 4) and batch["image"].dtype == ms.float32
    assert batch["label"].dtype == ms.int32
    # the first image, decoded by Pillow and run through the same operations by hand
    from PIL import Image

    first = np.asarray(Image.open(sorted(files)[0]).convert("RGB"))
    want = V.HWC2CHW()(V.Normalize([0.5] * 3, [0.5] * 3)(V.Rescale(1 / 255, 0)(
        V.Resize((4, 4))(first))))
    np.testing.assert_array_equal(batch["image"].asnumpy()[0], want)
