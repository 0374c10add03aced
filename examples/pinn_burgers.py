"""A physics-informed neural network (PINN) for the 1-D viscous Burgers equation, MindSpore
style, checked against a classical solution.

    pip install -e '.[examples]'
    mindgrad run examples/pinn_burgers.py             # full run
    mindgrad run examples/pinn_burgers.py --quick     # a short run (the CI test)

The problem (a shock forms at x = 0 around t = 0.3 and steepens):

    u_t + u u_x = nu u_xx,   t in [0, 1], x in [-1, 1],   nu = 0.01 / pi,
    u(0, x) = -sin(pi x),    u(t, -1) = u(t, 1) = 0.

The network is built to meet the initial and boundary conditions exactly,
``u(t, x) = -sin(pi x) + t (1 - x^2) N(t, x)`` with N an MLP with tanh activations, so the
loss is the mean squared PDE residual at collocation points. Its derivatives: ``ops.jet``
along x gives u, u_x and u_xx in one second-order Taylor pass, ``ops.jvp`` along t gives
u_t; training is reverse mode through both. Two phases, as is usual for PINNs: Adam on fresh
random points every step (the step compiled by ``ms.jit``), then L-BFGS on a fixed, larger
set of points, run by ``scipy.optimize.minimize`` on the flattened parameters with the loss
and gradient from a compiled ``ms.value_and_grad``. L-BFGS runs in rounds; each first adds the
points of largest residual among many random ones (residual-based adaptive refinement): the
shock layer is thin, and uniform points alone leave it under-resolved (2.3e-2 instead of
3.3e-3 for the full run).

The reference solution comes from the Cole-Hopf transformation, which turns the equation
into the heat equation and gives u as a ratio of two Gaussian integrals; they are evaluated
by Gauss-Hermite quadrature (``scipy.special.roots_hermite``), exact to rounding at 200
nodes. The script prints the relative L2 error of the PINN against it on a 101 x 256 grid
and writes a PNG: the PINN solution, its error, three time slices of both and the loss.

Options: --adam-steps, --lbfgs-iters, --points (Adam points per step), --lbfgs-points,
--rar-rounds, --rar-points, --width, --depth, --lr, --seed, --out (PNG path), --threads
(BLAS threads, default 1), --quick (a short run of both phases on fewer points).
"""
import argparse
import os
import time

import numpy as np

try:  # `mindgrad run` (or MindSpore) provides `mindspore`
    import mindspore as ms
    from mindspore import Tensor, nn, ops
except ImportError:  # plain `python examples/pinn_burgers.py`
    import mindgrad as ms
    from mindgrad import Tensor, nn, ops

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from scipy.optimize import minimize  # noqa: E402
from scipy.special import roots_hermite  # noqa: E402
from tqdm import tqdm  # noqa: E402

NU = 0.01 / np.pi


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--adam-steps", type=int, default=2000, help="Adam steps (default 2000)")
    p.add_argument("--lbfgs-iters", type=int, default=2000,
                   help="L-BFGS iterations (default 2000)")
    p.add_argument("--points", type=int, default=1024,
                   help="collocation points per Adam step, drawn anew each step (default 1024)")
    p.add_argument("--lbfgs-points", type=int, default=4096,
                   help="fixed collocation points for L-BFGS (default 4096)")
    p.add_argument("--rar-rounds", type=int, default=4,
                   help="L-BFGS rounds, each adding the worst points (default 4; 0: one "
                        "round on uniform points only)")
    p.add_argument("--rar-points", type=int, default=256,
                   help="points of largest residual added per round, chosen among 20 times "
                        "as many random ones (default 256)")
    p.add_argument("--width", type=int, default=32, help="hidden width (default 32)")
    p.add_argument("--depth", type=int, default=4, help="hidden layers (default 4)")
    p.add_argument("--lr", type=float, default=2e-3,
                   help="peak Adam learning rate, cosine-decayed to 5%% (default 2e-3)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", default="pinn_burgers.png", help="plot path (default pinn_burgers.png)")
    p.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    p.add_argument("--quick", action="store_true",
                   help="a short run: 1000 Adam steps at 512 points, 800 L-BFGS iterations "
                        "at 1024 points (+ 4 x 256)")
    args = p.parse_args(argv)
    if args.quick:
        args.adam_steps, args.points, args.lbfgs_iters, args.lbfgs_points = 1000, 512, 800, 1024
    return args


def cole_hopf(t, x, nodes=200):
    """The exact solution on the grid t x x (float64, shape (len(t), len(x))).

    u(t, x) = -int sin(pi (x - s)) g(x - s) w(s) ds / int g(x - s) w(s) ds, with
    g(y) = exp(-cos(pi y) / (2 pi nu)) and w(s) = exp(-s^2 / (4 nu t)); s = sqrt(4 nu t) z
    makes both Gauss-Hermite integrals in z."""
    z, w = roots_hermite(nodes)
    tt, xx = np.meshgrid(t, x, indexing="ij")
    y = xx[..., None] - np.sqrt(4 * NU * tt)[..., None] * z
    expo = -np.cos(np.pi * y) / (2 * np.pi * NU)
    # exp(-cos / (2 pi nu)) spans e^-50 .. e^50: scale by the largest term of each sum
    g = w * np.exp(expo - expo.max(-1, keepdims=True))
    return -(np.sin(np.pi * y) * g).sum(-1) / g.sum(-1)


class BurgersNet(nn.Cell):
    """(t, x), each (N, 1) -> u (N, 1), exact at t = 0 and at x = +-1."""

    def __init__(self, width, depth):
        super().__init__()
        layers = [nn.Dense(2, width), nn.Tanh()]
        for _ in range(depth - 1):
            layers += [nn.Dense(width, width), nn.Tanh()]
        layers.append(nn.Dense(width, 1))
        self.mlp = nn.SequentialCell(layers)

    def construct(self, t, x):
        n = self.mlp(ops.concat([2 * t - 1, x], 1))  # t scaled to [-1, 1] like x
        return -ops.sin(np.pi * x) + t * (1 - x * x) * n


def main(argv=None):
    args = parse_args(argv)
    try:  # threadpoolctl comes with scikit-learn
        from threadpoolctl import threadpool_limits
    except ImportError:
        return train(args)
    # the matrices are small: one BLAS thread is as fast and does not fight a busy machine
    with threadpool_limits(limits=args.threads, user_api="blas"):
        return train(args)


def random_points(rng, n):
    t = rng.random((n, 1), dtype=np.float32)
    x = rng.uniform(-1.0, 1.0, (n, 1)).astype(np.float32)
    return Tensor(t), Tensor(x)


def train(args):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    net = BurgersNet(args.width, args.depth)
    params = net.trainable_params()

    def residual(t, x):
        # u, u_x, u_xx: one Taylor pass along x (the series is the path x + s); this measured
        # faster than ops.laplacian with a jvp for u_x, or than grad of grad
        series = ops.stack([ops.ones_like(x), ops.zeros_like(x)])
        u, du = ops.jet(lambda x_: net(t, x_), x, series)
        _, u_t = ops.jvp(lambda t_: net(t_, x), t, ops.ones_like(t))
        return u_t + u * du[0] - NU * du[1]

    def loss_fn(t, x):
        r = residual(t, x)
        return ops.mean(r * r)

    lr = nn.cosine_decay_lr(0.05 * args.lr, args.lr, max(args.adam_steps, 1), 1,
                            max(args.adam_steps, 1))
    optimizer = nn.Adam(params, learning_rate=lr)
    grad_fn = ms.value_and_grad(loss_fn, None, optimizer.parameters)
    value_and_grad = ms.jit(grad_fn)  # for L-BFGS

    @ms.jit
    def train_step(t, x):
        loss, grads = grad_fn(t, x)
        optimizer(grads)
        return loss

    t_grid = np.linspace(0.0, 1.0, 101)
    x_grid = np.linspace(-1.0, 1.0, 256)
    reference = cole_hopf(t_grid, x_grid)
    tg, xg = np.meshgrid(t_grid, x_grid, indexing="ij")
    t_eval = Tensor(tg.reshape(-1, 1).astype(np.float32))
    x_eval = Tensor(xg.reshape(-1, 1).astype(np.float32))

    def predict():
        return net(t_eval, x_eval).asnumpy().reshape(reference.shape).astype(np.float64)

    def relative_l2():
        return float(np.linalg.norm(predict() - reference) / np.linalg.norm(reference))

    print(f"Burgers PINN: MLP 2-{'-'.join([str(args.width)] * args.depth)}-1, "
          f"{args.adam_steps} Adam steps at {args.points} points, "
          f"up to {args.lbfgs_iters} L-BFGS iterations at {args.lbfgs_points} points")
    losses, checks = [], []
    start = time.perf_counter()
    bar = tqdm(total=args.adam_steps + args.lbfgs_iters, unit="it", dynamic_ncols=True)
    for step in range(1, args.adam_steps + 1):
        losses.append(float(train_step(*random_points(rng, args.points)).asnumpy()))
        bar.update(1)
        if step % 100 == 0 or step == args.adam_steps:
            checks.append((len(losses), relative_l2()))
            bar.set_postfix(phase="adam", loss=f"{losses[-1]:.3e}", rel_l2=f"{checks[-1][1]:.2e}")
    adam_error = relative_l2()

    # L-BFGS over the flattened parameters on a fixed set of points, in rounds; each round
    # first adds the points of largest residual among many random ones (residual-based
    # adaptive refinement), which finds the thin shock layer that uniform points miss
    residual_fn = ms.jit(residual)
    t_fix, x_fix = random_points(rng, args.lbfgs_points)
    shapes = [p.shape for p in params]
    sizes = [int(np.prod(s)) for s in shapes]

    def set_params(flat):
        for p, chunk, shape in zip(params, np.split(flat, np.cumsum(sizes)[:-1]), shapes):
            p.set_data(Tensor(chunk.reshape(shape).astype(np.float32)))

    last = {}

    def fun(flat):
        set_params(flat)
        loss, grads = value_and_grad(t_fix, x_fix)
        last["loss"] = float(loss.asnumpy())
        return last["loss"], np.concatenate([g.asnumpy().ravel() for g in grads]
                                            ).astype(np.float64)

    def callback(flat):
        # the line search ends on the accepted point: its loss is the last one evaluated
        losses.append(last["loss"])
        bar.update(1)
        if len(losses) % 100 == 0:
            checks.append((len(losses), relative_l2()))
            bar.set_postfix(phase="l-bfgs", loss=f"{losses[-1]:.3e}",
                            rel_l2=f"{checks[-1][1]:.2e}")

    n_lbfgs = 0
    rounds = max(1, args.rar_rounds) if args.lbfgs_iters > 0 else 0
    for r in range(rounds):
        if args.rar_rounds > 0:
            t_pool, x_pool = random_points(rng, 20 * args.rar_points)
            res = np.abs(residual_fn(t_pool, x_pool).asnumpy()[:, 0])
            worst = np.argsort(res)[-args.rar_points:]
            t_fix = Tensor(np.concatenate([t_fix.asnumpy(), t_pool.asnumpy()[worst]]))
            x_fix = Tensor(np.concatenate([x_fix.asnumpy(), x_pool.asnumpy()[worst]]))
        iters = args.lbfgs_iters // rounds + (r < args.lbfgs_iters % rounds)
        flat0 = np.concatenate([p.asnumpy().ravel() for p in params]).astype(np.float64)
        result = minimize(fun, flat0, jac=True, method="L-BFGS-B", callback=callback,
                          options={"maxiter": iters, "maxfun": 2 * iters,
                                   "maxcor": 50, "ftol": 1e-15, "gtol": 1e-12})
        set_params(result.x)
        n_lbfgs += result.nit
    bar.close()
    elapsed = time.perf_counter() - start

    u = predict()
    err = float(np.linalg.norm(u - reference) / np.linalg.norm(reference))
    checks.append((len(losses), err))
    print(f"relative L2 error after Adam: {adam_error:.3e}")
    print(f"relative L2 error: {err:.3e}")
    print(f"max abs error: {np.abs(u - reference).max():.3e}")
    print(f"training time: {elapsed:.1f} s ({args.adam_steps} Adam steps, "
          f"{n_lbfgs} L-BFGS iterations)")
    plot(t_grid, x_grid, u, reference, losses, checks, args.adam_steps, err, args.out)
    print(f"plot: {os.path.abspath(args.out)}")
    return 0


def plot(t, x, u, ref, losses, checks, adam_steps, err, path):
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    extent = (t[0], t[-1], x[0], x[-1])
    for ax, field, title, cmap in ((axes[0, 0], u, "PINN u(t, x)", "RdBu_r"),
                                   (axes[0, 1], np.abs(u - ref), "|PINN - Cole-Hopf|",
                                    "magma")):
        im = ax.imshow(field.T, origin="lower", extent=extent, aspect="auto", cmap=cmap)
        ax.set_xlabel("t")
        ax.set_ylabel("x")
        ax.set_title(title)
        fig.colorbar(im, ax=ax)
    ax = axes[1, 0]
    for tk, color in ((0.25, "tab:blue"), (0.5, "tab:green"), (0.75, "tab:red")):
        k = int(np.argmin(np.abs(t - tk)))
        ax.plot(x, ref[k], color=color, lw=3, alpha=0.35, label=f"Cole-Hopf, t = {t[k]:.2f}")
        ax.plot(x, u[k], "--", color=color, lw=1.2, label=f"PINN, t = {t[k]:.2f}")
    ax.set_xlabel("x")
    ax.set_ylabel("u")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax = axes[1, 1]
    ax.semilogy(np.arange(1, len(losses) + 1), losses, lw=0.6, alpha=0.7, label="loss")
    steps, errs = zip(*checks)
    ax.semilogy(steps, errs, "o-", ms=2.5, color="tab:red", label="relative L2 error")
    ax.axvline(adam_steps, color="gray", ls=":", lw=1)
    ax.set_xlabel("iteration (Adam, then L-BFGS)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.suptitle(r"PINN for $u_t + u u_x = (0.01/\pi)\, u_{xx}$, $u(0, x) = -\sin(\pi x)$: "
                 f"relative L2 error {err:.2e}")
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
