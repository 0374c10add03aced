"""Train a small CNN on MNIST-format files with mindspore.dataset and mindspore.train.Model.

    pip install -e '.[examples]'
    mindgrad run examples/train_cnn_dataset.py          # or: python examples/train_cnn_dataset.py
    mindgrad run examples/train_cnn_dataset.py --data MNIST_Data   # a real MNIST folder

Without ``--data`` the script writes scikit-learn's 1797 handwritten 8x8 digits as MNIST IDX
files (``digits_idx/train`` and ``digits_idx/test``, an 80/20 stratified split) and trains
on them. ``--data DIR`` reads a folder laid out as MindSpore's tutorials have it (``DIR/train``
and ``DIR/test`` with the four MNIST files), or one folder holding all four files.

The data goes through ``MnistDataset`` -> ``map(Rescale, Normalize, HWC2CHW)`` ->
``map(TypeCast)`` -> ``batch``; ``Model.fit`` trains a Conv-Pool-Conv-Pool-Dense-Dense
network with Adam and evaluates the test set after every epoch. Callbacks print the loss
(``LossMonitor``), record the loss of every step (``LambdaCallback``) and save checkpoints
(``ModelCheckpoint``); a tqdm progress bar shows when the output is a terminal (``--progress``
shows it always). The loss per step and the test accuracy per epoch are plotted to a PNG.

Options: --data, --epochs (10), --batch-size (32), --lr (2e-3), --out (PNG path),
--ckpt-dir (checkpoint folder), --limit N (first N training images), --seed, --progress.
"""
import argparse
import os
import time

import numpy as np

try:  # `mindgrad run` (or real MindSpore) provides `mindspore`
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore import nn
    from mindspore.dataset import transforms, vision
    from mindspore.train import (CheckpointConfig, LambdaCallback, LossMonitor, Model,
                                 ModelCheckpoint)
except ImportError:  # plain `python examples/train_cnn_dataset.py`
    import mindgrad as ms
    import mindgrad.dataset as ds
    from mindgrad import nn
    from mindgrad.dataset import transforms, vision
    from mindgrad.train import (CheckpointConfig, LambdaCallback, LossMonitor, Model,
                                ModelCheckpoint)
try:
    from mindspore.train import ProgressBar  # mindgrad's tqdm callback
except ImportError:
    try:
        from mindgrad.train import ProgressBar
    except ImportError:
        ProgressBar = None

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=None,
                   help="an MNIST folder (DIR/train + DIR/test, or the four files in DIR); "
                        "default: write scikit-learn's digits as IDX files to --idx-dir")
    p.add_argument("--idx-dir", default="digits_idx",
                   help="where the digits IDX files are written (default digits_idx)")
    p.add_argument("--epochs", type=int, default=10, help="training epochs (default 10)")
    p.add_argument("--batch-size", type=int, default=32, help="minibatch size (default 32)")
    p.add_argument("--lr", type=float, default=2e-3, help="Adam learning rate (default 2e-3)")
    p.add_argument("--out", default="cnn_dataset_loss.png",
                   help="where to write the loss/accuracy plot (default cnn_dataset_loss.png)")
    p.add_argument("--ckpt-dir", default="cnn_dataset_ckpt",
                   help="checkpoint folder (default cnn_dataset_ckpt)")
    p.add_argument("--limit", type=int, default=None,
                   help="train on the first N training images only (quick runs)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--progress", action="store_true",
                   help="show the tqdm progress bar even when the output is not a terminal")
    return p.parse_args(argv)


def write_idx(path, array):
    """An IDX file: magic (0, 0, type 0x08 = uint8, rank), big-endian sizes, the bytes."""
    array = np.ascontiguousarray(array, dtype=np.uint8)
    header = bytes([0, 0, 0x08, array.ndim]) + np.array(array.shape, ">u4").tobytes()
    with open(path, "wb") as f:
        f.write(header + array.tobytes())


def write_digits(folder, seed):
    """scikit-learn's digits as MNIST files: folder/train and folder/test (80/20)."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    images = np.round(digits.images * (255.0 / 16.0)).astype(np.uint8)  # 0..16 -> 0..255
    x_tr, x_te, y_tr, y_te = train_test_split(images, digits.target, test_size=0.2,
                                              random_state=seed, stratify=digits.target)
    for sub, prefix, x, y in (("train", "train", x_tr, y_tr), ("test", "t10k", x_te, y_te)):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
        write_idx(os.path.join(folder, sub, f"{prefix}-images-idx3-ubyte"), x)
        write_idx(os.path.join(folder, sub, f"{prefix}-labels-idx1-ubyte"), y)
    return os.path.join(folder, "train"), os.path.join(folder, "test")


def data_folders(args):
    if args.data is None:
        return write_digits(args.idx_dir, args.seed)
    train, test = os.path.join(args.data, "train"), os.path.join(args.data, "test")
    if os.path.isdir(train) and os.path.isdir(test):
        return train, test
    return args.data, args.data  # one folder with all four files: usage picks them


def create_dataset(folder, usage, batch_size, shuffle, limit=None):
    """MindSpore's quick-start pipeline: scale to [0, 1], normalize, HWC -> CHW, int32
    labels, batches."""
    data = ds.MnistDataset(folder, usage=usage, shuffle=shuffle,
                           num_samples=limit)
    image_ops = [vision.Rescale(1.0 / 255.0, 0), vision.Normalize(mean=(0.1307,), std=(0.3081,)),
                 vision.HWC2CHW()]
    data = data.map(image_ops, "image")
    data = data.map(transforms.TypeCast(ms.int32), "label")
    return data.batch(batch_size)


class Net(nn.Cell):
    """Conv(16) -> ReLU -> MaxPool -> Conv(32) -> ReLU -> MaxPool -> Dense(64) -> Dense(10)."""

    def __init__(self, height, width):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, pad_mode="same")
        self.conv2 = nn.Conv2d(16, 32, 3, pad_mode="same")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(32 * (height // 4) * (width // 4), 64)
        self.fc2 = nn.Dense(64, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc2(self.relu(self.fc1(self.flatten(x))))


def plot(step_losses, steps_per_epoch, accuracies, path):
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    steps = np.arange(1, len(step_losses) + 1)
    ax1.plot(steps, step_losses, lw=0.8, label="step loss")
    if len(step_losses) >= steps_per_epoch:
        per_epoch = np.reshape(step_losses[:len(step_losses) // steps_per_epoch
                                           * steps_per_epoch], (-1, steps_per_epoch)).mean(1)
        ax1.plot(np.arange(1, len(per_epoch) + 1) * steps_per_epoch, per_epoch, "o-",
                 label="epoch mean")
    ax1.set_xlabel("step")
    ax1.set_ylabel("cross-entropy loss")
    ax1.set_yscale("log")
    ax1.legend()
    ax2.plot(np.arange(1, len(accuracies) + 1), accuracies, "o-")
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("test accuracy")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None):
    args = parse_args(argv)
    ms.set_seed(args.seed)
    ds.config.set_seed(args.seed)
    ms.set_context(mode=ms.GRAPH_MODE)
    train_dir, test_dir = data_folders(args)
    one_folder = train_dir == test_dir
    train = create_dataset(train_dir, "train" if one_folder else None, args.batch_size,
                           shuffle=True, limit=args.limit)
    test = create_dataset(test_dir, "test" if one_folder else None, args.batch_size,
                          shuffle=False)
    _, _, height, width = train.output_shapes()[0]
    n_train = train.get_dataset_size()
    print(f"train {n_train} batches / test {test.get_dataset_size()} batches of "
          f"{args.batch_size} images {height}x{width}")

    net = Net(height, width)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Adam(net.trainable_params(), learning_rate=args.lr)
    model = Model(net, loss_fn, optimizer, metrics={"accuracy"})

    step_losses, accuracies = [], []

    def record_step(run_context):
        step_losses.append(float(run_context.original_args().net_outputs.asnumpy()))

    def record_epoch(run_context):
        accuracies.append(float(run_context.original_args().metrics["accuracy"]))

    callbacks = [LossMonitor(per_print_times=n_train),
                 LambdaCallback(on_train_step_end=record_step,
                                on_train_epoch_end=record_epoch),
                 ModelCheckpoint(prefix="cnn", directory=args.ckpt_dir,
                                 config=CheckpointConfig(save_checkpoint_steps=n_train,
                                                         keep_checkpoint_max=2))]
    if args.progress and ProgressBar is not None:
        callbacks.insert(0, ProgressBar())
    start = time.perf_counter()
    model.fit(args.epochs, train, test, callbacks=callbacks)
    elapsed = time.perf_counter() - start
    result = model.eval(test)
    print(f"test accuracy: {float(result['accuracy']):.4f}")
    print(f"training time: {elapsed:.1f} s for {args.epochs} epochs")
    plot(step_losses, n_train, accuracies, args.out)
    print(f"plot: {args.out}")


if __name__ == "__main__":
    main()
