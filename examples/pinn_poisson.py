"""A physics-informed neural network (PINN) for the 2-D Poisson equation, MindSpore style.

    pip install -e '.[examples]'
    mindgrad run examples/pinn_poisson.py             # full run
    mindgrad run examples/pinn_poisson.py --quick     # a short run (the CI test)

The problem, on the unit square with a known solution:

    -(u_xx + u_yy) = 2 pi^2 sin(pi x) sin(pi y)   in (0, 1)^2,   u = 0 on the boundary,
    u(x, y) = sin(pi x) sin(pi y).

An MLP (x, y) -> u with tanh activations is trained with Adam on the mean squared PDE
residual at random interior points (drawn anew every step) plus a weighted mean squared
boundary value at random boundary points. The Laplacian of the network comes from
``ops.laplacian(net, batch_axis=0)`` (mindgrad's forward Laplacian: one pass carries the
value, both first derivatives and the summed second derivatives through the network), and
the training gradient is reverse mode through it; the whole step (Laplacian, loss, gradient,
Adam update) is compiled once by ``ms.jit``. The script prints the relative L2 error against
the exact solution on a 101 x 101 grid and writes a PNG: the PINN solution, its pointwise
error and the loss curve.

Options: --steps, --points (interior points per step), --width, --depth, --lr, --seed,
--out (PNG path), --threads (BLAS threads, default 1), --quick (2000 steps at 256 points).
"""
import argparse
import os
import time

import numpy as np

try:  # `mindgrad run` (or MindSpore) provides `mindspore`
    import mindspore as ms
    from mindspore import Tensor, nn, ops
except ImportError:  # plain `python examples/pinn_poisson.py`
    import mindgrad as ms
    from mindgrad import Tensor, nn, ops

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from tqdm import tqdm  # noqa: E402

PI = np.pi
BOUNDARY_WEIGHT = 100.0  # the boundary term against the residual term (f is ~20 in size)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=5000, help="Adam steps (default 5000)")
    p.add_argument("--points", type=int, default=1024,
                   help="interior collocation points per step (default 1024; a quarter as "
                        "many on the boundary)")
    p.add_argument("--width", type=int, default=32, help="hidden width (default 32)")
    p.add_argument("--depth", type=int, default=3, help="hidden layers (default 3)")
    p.add_argument("--lr", type=float, default=2e-3,
                   help="peak Adam learning rate, cosine-decayed to 1%% (default 2e-3)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", default="pinn_poisson.png", help="plot path (default pinn_poisson.png)")
    p.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    p.add_argument("--quick", action="store_true",
                   help="a short run: 2000 steps at 256 points (a few seconds)")
    args = p.parse_args(argv)
    if args.quick:
        args.steps, args.points = 2000, 256
    return args


class MLP(nn.Cell):
    """(N, 2) points -> (N, 1) values: Dense-tanh layers, then a linear output."""

    def __init__(self, width, depth):
        super().__init__()
        layers = [nn.Dense(2, width), nn.Tanh()]
        for _ in range(depth - 1):
            layers += [nn.Dense(width, width), nn.Tanh()]
        layers.append(nn.Dense(width, 1))
        self.layers = nn.SequentialCell(layers)

    def construct(self, xy):
        return self.layers(xy)


def exact(xy):
    return np.sin(PI * xy[:, 0:1]) * np.sin(PI * xy[:, 1:2])


def source(xy):
    """f = -Laplacian of the exact solution."""
    return 2 * PI ** 2 * exact(xy)


def boundary_points(rng, n):
    """n points uniformly on the four sides of the unit square."""
    s = rng.random(n)
    side = rng.integers(0, 4, n)
    x = np.select([side == 0, side == 1], [0.0, 1.0], s)
    y = np.select([side == 2, side == 3], [0.0, 1.0], s)
    return np.stack([x, y], 1).astype(np.float32)


def relative_l2(net, grid):
    u = net(Tensor(grid)).asnumpy()
    ref = exact(grid)
    return float(np.linalg.norm(u - ref) / np.linalg.norm(ref)), u


def main(argv=None):
    args = parse_args(argv)
    try:  # threadpoolctl comes with scikit-learn
        from threadpoolctl import threadpool_limits
    except ImportError:
        return train(args)
    # the matrices are small: one BLAS thread is as fast and does not fight a busy machine
    with threadpool_limits(limits=args.threads, user_api="blas"):
        return train(args)


def train(args):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    net = MLP(args.width, args.depth)
    laplacian = ops.laplacian(net, batch_axis=0)  # per point: u_xx + u_yy, shape (N, 1)

    def loss_fn(x_in, f_in, x_bd):
        residual = laplacian(x_in) + f_in
        u_bd = net(x_bd)
        return ops.mean(residual * residual) + BOUNDARY_WEIGHT * ops.mean(u_bd * u_bd)

    lr = nn.cosine_decay_lr(0.01 * args.lr, args.lr, args.steps, 1, args.steps)
    optimizer = nn.Adam(net.trainable_params(), learning_rate=lr)
    grad_fn = ms.value_and_grad(loss_fn, None, optimizer.parameters)

    @ms.jit
    def train_step(x_in, f_in, x_bd):
        loss, grads = grad_fn(x_in, f_in, x_bd)
        optimizer(grads)
        return loss

    g = np.linspace(0.0, 1.0, 101, dtype=np.float32)
    gx, gy = np.meshgrid(g, g, indexing="ij")
    grid = np.stack([gx.ravel(), gy.ravel()], 1)

    n_bd = max(4, args.points // 4)
    print(f"Poisson PINN: MLP 2-{'-'.join([str(args.width)] * args.depth)}-1, {args.steps} "
          f"Adam steps, {args.points} interior + {n_bd} boundary points per step")
    losses, checks = [], []
    start = time.perf_counter()
    with tqdm(total=args.steps, unit="step", dynamic_ncols=True) as bar:
        for step in range(1, args.steps + 1):
            x_in = rng.random((args.points, 2), dtype=np.float32)
            loss = train_step(Tensor(x_in), Tensor(source(x_in).astype(np.float32)),
                              Tensor(boundary_points(rng, n_bd)))
            losses.append(float(loss.asnumpy()))
            bar.update(1)
            if step % 100 == 0 or step == args.steps:
                err, _ = relative_l2(net, grid)
                checks.append((step, err))
                bar.set_postfix(loss=f"{losses[-1]:.3e}", rel_l2=f"{err:.2e}")
    elapsed = time.perf_counter() - start

    err, u = relative_l2(net, grid)
    print(f"relative L2 error: {err:.3e}")
    print(f"max abs error: {np.abs(u - exact(grid)).max():.3e}")
    print(f"training time: {elapsed:.1f} s")
    plot(gx, gy, u.reshape(gx.shape), exact(grid).reshape(gx.shape), losses, checks, err,
         args.out)
    print(f"plot: {os.path.abspath(args.out)}")
    return 0


def plot(gx, gy, u, ref, losses, checks, err, path):
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    im = axes[0].pcolormesh(gx, gy, u, shading="auto", cmap="viridis")
    axes[0].set_title("PINN solution $u(x, y)$")
    fig.colorbar(im, ax=axes[0])
    im = axes[1].pcolormesh(gx, gy, np.abs(u - ref), shading="auto", cmap="magma")
    axes[1].set_title(r"$|u - \sin(\pi x)\sin(\pi y)|$")
    fig.colorbar(im, ax=axes[1])
    for ax in axes[:2]:
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.set_aspect("equal")
    ax = axes[2]
    ax.semilogy(np.arange(1, len(losses) + 1), losses, lw=0.6, alpha=0.6, label="training loss")
    steps, errs = zip(*checks)
    ax.semilogy(steps, errs, "o-", ms=2.5, color="tab:red", label="relative L2 error")
    ax.set_xlabel("Adam step")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.suptitle(r"PINN for $-\Delta u = 2\pi^2\sin(\pi x)\sin(\pi y)$, $u = 0$ on the "
                 f"boundary: relative L2 error {err:.2e}")
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
