"""Train a small convolutional network on scikit-learn's handwritten digits, MindSpore style.

    pip install -e '.[examples]'
    mindgrad run examples/train_digits.py            # or: python examples/train_digits.py

The 1797 8x8 digit images (shipped with scikit-learn) are scaled to [0, 1], standardized
and split 80/20 (stratified, fixed seed). A Conv-Conv-Pool-Dense-Dense network is trained
with Adam and a cosine-decayed learning rate; the whole training step (forward, backward,
optimizer update) is compiled once in GRAPH_MODE by ``nn.TrainOneStepCell`` (``--mode jit``
uses ``ms.jit`` around an ``ops.value_and_grad`` step instead: same results, same speed).
After training the script prints the test accuracy and the elapsed time, saves a
checkpoint, loads it into a freshly built network and checks that it gives the same
accuracy, and plots the loss curve and the test accuracy per epoch to a PNG.

Options: --epochs, --batch-size, --lr, --out (PNG path), --ckpt (checkpoint path),
--limit N (train on the first N training samples only, for a quick run), --seed, --mode,
--threads (BLAS threads, default 1).
"""
import argparse
import os
import time

import numpy as np

try:  # `mindgrad run` (or real MindSpore) provides `mindspore`
    import mindspore as ms
    from mindspore import nn, ops
except ImportError:  # plain `python examples/train_digits.py`
    import mindgrad as ms
    from mindgrad import nn, ops

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from tqdm import tqdm  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--epochs", type=int, default=15, help="training epochs (default 15)")
    p.add_argument("--batch-size", type=int, default=32, help="minibatch size (default 32)")
    p.add_argument("--lr", type=float, default=2e-3, help="Adam learning rate (default 2e-3)")
    p.add_argument("--out", default="digits_loss.png",
                   help="where to write the loss/accuracy plot (default digits_loss.png)")
    p.add_argument("--ckpt", default="digits_cnn.ckpt",
                   help="where to save the checkpoint (default digits_cnn.ckpt)")
    p.add_argument("--limit", type=int, default=None,
                   help="use only the first N training samples (quick runs)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--mode", choices=("graph", "jit"), default="graph",
                   help="graph: GRAPH_MODE + nn.TrainOneStepCell (default); "
                        "jit: ms.jit around an ops.value_and_grad step")
    p.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    return p.parse_args(argv)


def load_data(seed, limit=None):
    """(x_train, y_train, x_test, y_test): float32 NCHW images, int32 labels."""
    digits = load_digits()
    x = (digits.images.astype(np.float32) / 16.0)[:, None, :, :]  # (N, 1, 8, 8) in [0, 1]
    y = digits.target.astype(np.int32)
    x_train, x_test, y_train, y_test = train_test_split(
        x, y, test_size=0.2, stratify=y, random_state=seed)
    mean, std = x_train.mean(), x_train.std()  # statistics of the training set only
    x_train, x_test = (x_train - mean) / std, (x_test - mean) / std
    if limit is not None:
        x_train, y_train = x_train[:limit], y_train[:limit]
    return x_train, y_train, x_test, y_test


class DigitsCNN(nn.Cell):
    """(N, 1, 8, 8) -> conv 16 -> conv 32 -> maxpool -> dense 128 -> dense 10 logits."""

    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.SequentialCell([
            nn.Conv2d(1, 16, 3, pad_mode="same", has_bias=True),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, pad_mode="same", has_bias=True),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),  # -> (N, 32, 4, 4)
        ])
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(32 * 4 * 4, 128)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(128, num_classes)

    def construct(self, x):
        x = self.flatten(self.features(x))
        return self.fc2(self.relu(self.fc1(x)))


def accuracy(net, x, y, batch_size=512):
    """Fraction of correctly classified samples (evaluated in batches)."""
    net.set_train(False)
    correct = 0
    for i in range(0, len(x), batch_size):
        logits = net(ms.Tensor(x[i:i + batch_size]))
        pred = ops.argmax(logits, 1).asnumpy()
        correct += int((pred == y[i:i + batch_size]).sum())
    return correct / len(x)


def plot(losses, steps_per_epoch, test_acc, path):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    steps = np.arange(1, len(losses) + 1)
    ax.plot(steps, losses, color="tab:blue", alpha=0.35, lw=0.8, label="loss (minibatch)")
    k = max(1, steps_per_epoch // 4)  # moving average over a quarter of an epoch
    if 1 < k <= len(losses):
        smooth = np.convolve(losses, np.ones(k) / k, mode="valid")
        ax.plot(steps[k - 1:], smooth, color="tab:blue", lw=1.8,
                label=f"loss ({k}-step average)")
    ax.set_xlabel("training step")
    ax.set_ylabel("cross-entropy loss", color="tab:blue")
    ax.set_yscale("log")
    ax2 = ax.twinx()
    epoch_ends = steps_per_epoch * np.arange(1, len(test_acc) + 1)
    ax2.plot(epoch_ends, 100 * np.asarray(test_acc), "o-", color="tab:orange",
             label="test accuracy")
    ax2.set_ylabel("test accuracy (%)", color="tab:orange")
    ax2.set_ylim(min(80.0, 100 * min(test_acc) - 2), 100.5)
    lines = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    labels = ax.get_legend_handles_labels()[1] + ax2.get_legend_handles_labels()[1]
    ax.legend(lines, labels, loc="center right")
    ax.set_title(f"Digits CNN on mindgrad: final test accuracy {100 * test_acc[-1]:.2f}%")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    args = parse_args(argv)
    try:  # threadpoolctl comes with scikit-learn
        from threadpoolctl import threadpool_limits
    except ImportError:
        return train(args)
    # The matrices here are tiny: one BLAS thread is as fast as two, and much faster when
    # another process is busy on the other core (2 threads were 2.6x slower then).
    with threadpool_limits(limits=args.threads, user_api="blas"):
        return train(args)


def train(args):
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    x_train, y_train, x_test, y_test = load_data(args.seed, args.limit)
    print(f"train {x_train.shape[0]} / test {x_test.shape[0]} images of 8x8, 10 classes")

    n = x_train.shape[0]
    bs = min(args.batch_size, n)
    steps_per_epoch = n // bs  # the last partial batch is dropped: one compiled shape

    net = DigitsCNN()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    # one learning rate per step: cosine decay from --lr to 2% of it over the run
    lr = nn.cosine_decay_lr(0.02 * args.lr, args.lr, args.epochs * steps_per_epoch,
                            steps_per_epoch, args.epochs)
    optimizer = nn.Adam(net.trainable_params(), learning_rate=lr)
    if args.mode == "graph":
        # GRAPH_MODE: the first call compiles forward, backward and the Adam update
        train_step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
        train_cell = train_step
    else:
        # the functional style: ms.jit around a value_and_grad step
        def forward(x, y):
            return loss_fn(net(x), y)

        grad_fn = ops.value_and_grad(forward, None, optimizer.parameters)

        @ms.jit
        def train_step(x, y):
            loss, grads = grad_fn(x, y)
            optimizer(grads)
            return loss

        train_cell = net

    losses, test_acc = [], []
    start = time.perf_counter()
    with tqdm(total=args.epochs * steps_per_epoch, unit="step", dynamic_ncols=True) as bar:
        for epoch in range(1, args.epochs + 1):
            train_cell.set_train(True)  # accuracy() switches to eval mode
            order = rng.permutation(n)
            for s in range(steps_per_epoch):
                idx = order[s * bs:(s + 1) * bs]
                loss = train_step(ms.Tensor(x_train[idx]), ms.Tensor(y_train[idx]))
                losses.append(float(loss.asnumpy()))
                bar.update(1)
                bar.set_postfix(epoch=f"{epoch}/{args.epochs}", loss=f"{losses[-1]:.4f}",
                                refresh=False)
            test_acc.append(accuracy(net, x_test, y_test))
            bar.set_postfix(epoch=f"{epoch}/{args.epochs}", loss=f"{losses[-1]:.4f}",
                            test_acc=f"{test_acc[-1]:.4f}")
    elapsed = time.perf_counter() - start

    acc = test_acc[-1]
    print(f"test accuracy: {acc:.4f} ({round(acc * len(y_test))}/{len(y_test)})")
    print(f"training time: {elapsed:.1f} s for {args.epochs} epochs "
          f"({len(losses)} steps of {bs})")

    ms.save_checkpoint(net, args.ckpt)
    print(f"checkpoint: {args.ckpt}")
    fresh = DigitsCNN()  # new random weights
    print(f"fresh network before loading: test accuracy {accuracy(fresh, x_test, y_test):.4f}")
    param_not_load, ckpt_not_load = ms.load_param_into_net(fresh, ms.load_checkpoint(args.ckpt))
    if param_not_load or ckpt_not_load:
        print(f"not loaded: {param_not_load} / unused in checkpoint: {ckpt_not_load}")
    reloaded = accuracy(fresh, x_test, y_test)
    print(f"reloaded test accuracy: {reloaded:.4f} (trained: {acc:.4f}) "
          f"{'same' if reloaded == acc else 'DIFFERENT'}")

    plot(losses, steps_per_epoch, test_acc, args.out)
    print(f"plot: {os.path.abspath(args.out)}")
    return 0 if reloaded == acc else 1


if __name__ == "__main__":
    raise SystemExit(main())
