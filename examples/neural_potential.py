"""A neural network potential for Lennard-Jones clusters, then molecular dynamics with it,
MindSpore style.

    pip install -e '.[examples]'
    mindgrad run examples/neural_potential.py             # full run
    mindgrad run examples/neural_potential.py --quick     # a short run (the CI test)

Data: clusters of 7 atoms under the Lennard-Jones potential (epsilon = sigma = mass = 1),
sampled from thermostatted molecular dynamics (NumPy) at temperatures from 0.03 to 0.2,
with their energies and forces.

Model (in the manner of Behler and Parrinello): each atom sees its neighbours through radial
features, G_ik = sum_j exp(-(r_ij - mu_k)^2 / (2 w^2)) fc(r_ij) with a smooth cutoff fc, an
MLP maps them to the atom's energy, and the cluster's energy is the sum over atoms. So the
model is invariant under translations, rotations and permutations of the atoms, and smooth.
The forces are minus the gradient of the energy with respect to the positions
(``ops.grad``), and the loss weighs energies and forces; training differentiates through
that gradient (reverse over reverse), the whole step compiled by ``ms.jit``.

Then velocity-Verlet molecular dynamics with the learned forces, from held-out clusters, for
1,000 steps: the total energy (kinetic + learned potential) must stay constant, and its
largest relative drift is printed, with the errors of the learned energies and forces on
held-out clusters. A PNG shows the training curves, learned against true energies and
forces, and the energy along the trajectories.

Options: --steps (Adam steps), --batch-size, --configs (training clusters), --md-steps,
--dt, --width, --lr, --seed, --out (PNG path), --threads (BLAS threads, default 1),
--quick (fewer clusters and steps).
"""
import argparse
import os
import time

import numpy as np

try:  # `mindgrad run` (or MindSpore) provides `mindspore`
    import mindspore as ms
    from mindspore import Tensor, nn, ops
except ImportError:  # plain `python examples/neural_potential.py`
    import mindgrad as ms
    from mindgrad import Tensor, nn, ops

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from tqdm import tqdm  # noqa: E402

N_ATOMS = 7
CUTOFF = 3.0
CENTERS = np.linspace(0.8, 2.8, 16).astype(np.float32)  # the radial features' centres
WIDTH = 0.15  # and their width


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=4000, help="Adam steps (default 4000)")
    p.add_argument("--batch-size", type=int, default=64, help="clusters per step (default 64)")
    p.add_argument("--configs", type=int, default=4096,
                   help="training clusters (default 4096; 512 more are held out)")
    p.add_argument("--md-steps", type=int, default=1000,
                   help="velocity-Verlet steps (default 1000)")
    p.add_argument("--md-runs", type=int, default=8,
                   help="trajectories, run together (default 8)")
    p.add_argument("--dt", type=float, default=0.005,
                   help="time step in Lennard-Jones time units (default 0.005)")
    p.add_argument("--width", type=int, default=64, help="hidden width (default 64)")
    p.add_argument("--force-weight", type=float, default=1.0,
                   help="weight of the force term in the loss (default 1.0)")
    p.add_argument("--lr", type=float, default=3e-3,
                   help="peak Adam learning rate, cosine-decayed to 1%% (default 3e-3)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", default="neural_potential.png",
                   help="plot path (default neural_potential.png)")
    p.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    p.add_argument("--quick", action="store_true",
                   help="a short run: 1000 clusters, 800 Adam steps")
    args = p.parse_args(argv)
    if args.quick:
        args.configs, args.steps = 1000, 800
    return args


# ---- the reference: Lennard-Jones in NumPy ------------------------------------------------

def lennard_jones(pos):
    """Energies (B,) and forces (B, N, 3) of clusters pos (B, N, 3), float64."""
    diff = pos[:, :, None, :] - pos[:, None, :, :]
    r2 = (diff ** 2).sum(-1)
    diag = np.arange(pos.shape[1])
    r2[:, diag, diag] = np.inf  # no self-interaction
    inv6 = r2 ** -3
    energy = 2.0 * (inv6 * inv6 - inv6).sum((1, 2))  # 4 (r^-12 - r^-6), each pair twice
    coef = 24.0 * (2.0 * inv6 * inv6 - inv6) / r2  # -dV/dr / r
    forces = (coef[..., None] * diff).sum(2)
    return energy, forces


def bound(pos, reach=1.6):
    """Which clusters (B, N, 3) hold together: every atom has a neighbour within reach."""
    d = np.linalg.norm(pos[:, :, None, :] - pos[:, None, :, :], axis=-1)
    d[:, np.arange(pos.shape[1]), np.arange(pos.shape[1])] = np.inf
    return (d.min(2) < reach).all(1)


def sample_clusters(rng, n_configs, n_replicas=64, dt=0.005, every=25, burn_in=2000):
    """Clusters from Langevin dynamics of n_replicas clusters at temperatures 0.03 to 0.2,
    one sample every `every` steps after burn_in: positions (centred), energies, forces.
    The rare samples from which an atom has evaporated are left out."""
    # start: the atoms on a jittered compact lattice, relaxed by the burn-in
    base = np.array([[0, 0, 0], [1, 0, 0], [0.5, 0.87, 0], [0.5, 0.29, 0.82],
                     [-0.5, 0.87, 0], [1.5, 0.87, 0], [0.5, -0.87, 0]], float) * 1.12
    pos = base[None] + 0.05 * rng.standard_normal((n_replicas, N_ATOMS, 3))
    temps = np.linspace(0.03, 0.2, n_replicas)[:, None, None]
    vel = np.sqrt(temps) * rng.standard_normal(pos.shape)
    gamma = 1.0  # friction of the Langevin thermostat
    c1 = np.exp(-gamma * dt)
    c2 = np.sqrt((1 - c1 ** 2) * temps)
    _, f = lennard_jones(pos)
    out_pos, out_e, out_f = [], [], []
    step = 0
    while sum(len(p) for p in out_pos) < n_configs:
        # BAOAB Langevin integrator
        vel += 0.5 * dt * f
        pos += 0.5 * dt * vel
        vel = c1 * vel + c2 * rng.standard_normal(pos.shape)
        pos += 0.5 * dt * vel
        e, f = lennard_jones(pos)
        vel += 0.5 * dt * f
        step += 1
        if step > burn_in and step % every == 0:
            keep = bound(pos)
            out_pos.append((pos - pos.mean(1, keepdims=True))[keep])
            out_e.append(e[keep])
            out_f.append(f[keep])
    pos, e, f = (np.concatenate(a)[:n_configs] for a in (out_pos, out_e, out_f))
    order = rng.permutation(n_configs)  # mix temperatures and times
    return pos[order], e[order], f[order]


# ---- the model -----------------------------------------------------------------------------

class RadialFeatures(nn.Cell):
    """Positions (B, N, 3) -> per-atom features (B, N, K), smooth in the positions."""

    def __init__(self):
        super().__init__()
        self.centers = Tensor(CENTERS)
        eye = np.eye(N_ATOMS, dtype=np.float32)
        self.eye = Tensor(eye)  # keeps sqrt away from 0 on the diagonal
        self.others = Tensor((1.0 - eye)[..., None])  # drops i = j

    def construct(self, pos):
        diff = ops.expand_dims(pos, 2) - ops.expand_dims(pos, 1)  # (B, N, N, 3)
        r = ops.sqrt(ops.reduce_sum(diff * diff, -1) + self.eye)  # (B, N, N)
        # cosine cutoff: 1 at r = 0, falling smoothly to 0 at CUTOFF, 0 beyond
        fc = 0.5 * (ops.cos(np.pi * ops.minimum(r, CUTOFF) / CUTOFF) + 1.0)
        r = ops.expand_dims(r, -1)
        g = ops.exp(-(r - self.centers) ** 2 / (2 * WIDTH ** 2)) * ops.expand_dims(fc, -1)
        return ops.reduce_sum(g * self.others, 2)


class AtomicEnergy(nn.Cell):
    """Cluster energy = sum over atoms of an MLP of the atom's (standardized) features,
    rescaled to the data's energy per atom."""

    def __init__(self, width, feat_mean, feat_std, e_mean, e_std):
        super().__init__()
        self.features = RadialFeatures()
        k = len(CENTERS)
        self.mlp = nn.SequentialCell([nn.Dense(k, width), nn.Tanh(), nn.Dense(width, width),
                                      nn.Tanh(), nn.Dense(width, 1)])
        self.feat_mean = Tensor(feat_mean.astype(np.float32))
        self.feat_std = Tensor(feat_std.astype(np.float32))
        self.e_mean = float(e_mean)  # energy per atom
        self.e_std = float(e_std)

    def construct(self, pos):
        g = (self.features(pos) - self.feat_mean) / self.feat_std
        atomic = self.mlp(g)[..., 0] * self.e_std + self.e_mean  # (B, N)
        return ops.reduce_sum(atomic, 1)  # (B,)


def main(argv=None):
    args = parse_args(argv)
    try:  # threadpoolctl comes with scikit-learn
        from threadpoolctl import threadpool_limits
    except ImportError:
        return run(args)
    # the matrices are small: one BLAS thread is as fast and does not fight a busy machine
    with threadpool_limits(limits=args.threads, user_api="blas"):
        return run(args)


def run(args):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()

    n_test = 512
    pos, energy, forces = sample_clusters(rng, args.configs + n_test)
    train = slice(0, args.configs)
    test = slice(args.configs, None)
    print(f"Lennard-Jones clusters of {N_ATOMS} atoms: {args.configs} for training, {n_test} "
          f"held out; energies {energy.min():.2f} .. {energy.max():.2f}")

    feats = RadialFeatures()(Tensor(pos[train].astype(np.float32))).asnumpy().reshape(
        -1, len(CENTERS))
    e_atom = energy[train] / N_ATOMS
    net = AtomicEnergy(args.width, feats.mean(0), feats.std(0) + 1e-3, e_atom.mean(),
                       e_atom.std())
    f_scale = float(forces[train].std())
    e_scale = float(energy[train].std())

    def total_energy(p):
        return ops.reduce_sum(net(p))

    force_fn = ops.grad(total_energy)  # dE/dpos, per cluster: the clusters are independent

    def loss_fn(p, e, f):
        e_pred = net(p)
        f_pred = -force_fn(p)
        e_loss = ops.mean(((e_pred - e) / e_scale) ** 2)
        f_loss = ops.mean(((f_pred - f) / f_scale) ** 2)
        return e_loss + args.force_weight * f_loss, e_loss, f_loss

    lr = nn.cosine_decay_lr(0.01 * args.lr, args.lr, args.steps, 1, args.steps)
    optimizer = nn.Adam(net.trainable_params(), learning_rate=lr)
    grad_fn = ms.value_and_grad(loss_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(p, e, f):
        (loss, e_loss, f_loss), grads = grad_fn(p, e, f)
        optimizer(grads)
        return loss, e_loss, f_loss

    @ms.jit
    def energy_and_forces(p):
        return net(p), -force_fn(p)

    as32 = lambda a: Tensor(a.astype(np.float32))  # noqa: E731
    history = []
    bs = min(args.batch_size, args.configs)
    per_epoch = args.configs // bs  # a fresh shuffle every epoch, the last partial batch dropped
    with tqdm(total=args.steps, unit="step", dynamic_ncols=True, desc="training") as bar:
        for step in range(args.steps):
            if step % per_epoch == 0:
                order = rng.permutation(args.configs)
            idx = order[step % per_epoch * bs:(step % per_epoch + 1) * bs]
            loss, e_loss, f_loss = train_step(as32(pos[idx]), as32(energy[idx]),
                                              as32(forces[idx]))
            history.append((float(e_loss.asnumpy()), float(f_loss.asnumpy())))
            bar.update(1)
            if step % 50 == 0:
                bar.set_postfix(energy_loss=f"{history[-1][0]:.2e}",
                                force_loss=f"{history[-1][1]:.2e}", refresh=False)
    train_time = time.perf_counter() - start

    e_pred, f_pred = (a.asnumpy().astype(np.float64)
                      for a in energy_and_forces(as32(pos[test])))
    e_mae = np.abs(e_pred - energy[test]).mean()
    f_rel = np.linalg.norm(f_pred - forces[test]) / np.linalg.norm(forces[test])
    print(f"held-out energy MAE: {e_mae:.4f} (energies spread {energy[test].std():.3f})")
    print(f"held-out force relative error: {f_rel:.4f}")

    # velocity Verlet with the learned forces, several trajectories at once
    runs = min(args.md_runs, n_test)
    x = pos[test][:runs].copy()
    v = np.sqrt(0.15) * rng.standard_normal(x.shape)  # kinetic temperature about 0.15
    v -= v.mean(1, keepdims=True)  # no drift of the centre of mass
    e_pot, f = (a.asnumpy().astype(np.float64) for a in energy_and_forces(as32(x)))
    totals, potentials, lj_along = [], [], []

    def record():
        totals.append(e_pot + 0.5 * (v * v).sum((1, 2)))
        potentials.append(e_pot)
        lj_along.append(lennard_jones(x)[0])

    record()
    for _ in tqdm(range(args.md_steps), unit="step", dynamic_ncols=True, desc="MD"):
        v += 0.5 * args.dt * f
        x += args.dt * v
        e_pot, f = (a.asnumpy().astype(np.float64) for a in energy_and_forces(as32(x)))
        v += 0.5 * args.dt * f
        record()
    totals, potentials, lj_along = np.array(totals), np.array(potentials), np.array(lj_along)
    drift = np.abs(totals - totals[0]).max(0) / np.abs(totals[0])
    elapsed = time.perf_counter() - start
    md_err = np.abs(potentials - lj_along).mean()
    print(f"MD: {runs} trajectories of {args.md_steps} steps, dt = {args.dt}")
    print(f"learned potential along the trajectories: mean |E_model - E_LJ| {md_err:.4f}")
    print(f"relative energy drift: {drift.max():.3e}")
    print(f"total time: {elapsed:.1f} s (training {train_time:.1f} s)")
    plot(history, energy[test], e_pred, forces[test], f_pred, totals, potentials, lj_along,
         args.dt, drift.max(), args.out)
    print(f"plot: {os.path.abspath(args.out)}")
    return 0


def plot(history, e_true, e_pred, f_true, f_pred, totals, potentials, lj_along, dt, drift,
         path):
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    ax = axes[0, 0]
    h = np.array(history)
    ax.semilogy(h[:, 0], lw=0.6, alpha=0.7, label="energy loss")
    ax.semilogy(h[:, 1], lw=0.6, alpha=0.7, label="force loss")
    ax.set_xlabel("Adam step")
    ax.set_title("training (scaled mean squared errors)")
    ax.legend()
    ax.grid(alpha=0.3)
    ax = axes[0, 1]
    lo, hi = e_true.min(), e_true.max()
    ax.plot([lo, hi], [lo, hi], color="gray", lw=1)
    ax.plot(e_true, e_pred, ".", ms=3, label="energy")
    ax.set_xlabel("Lennard-Jones energy")
    ax.set_ylabel("learned energy")
    ax.set_title("held-out clusters")
    inset = ax.inset_axes([0.58, 0.1, 0.38, 0.38])
    ft, fp = f_true.ravel(), f_pred.ravel()
    lim = np.percentile(np.abs(ft), 99.5)
    inset.plot([-lim, lim], [-lim, lim], color="gray", lw=1)
    inset.plot(ft, fp, ".", ms=1, color="tab:orange")
    inset.set_xlim(-lim, lim)
    inset.set_ylim(-lim, lim)
    inset.set_title("force components", fontsize=8)
    inset.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    t = dt * np.arange(len(totals))
    ax = axes[1, 0]
    ax.plot(t, (totals - totals[0]) / np.abs(totals[0]), lw=0.8)
    ax.set_xlabel("time (Lennard-Jones units)")
    ax.set_ylabel("(E(t) - E(0)) / |E(0)|")
    ax.set_title(f"total energy, {totals.shape[1]} trajectories: largest drift {drift:.1e}")
    ax.grid(alpha=0.3)
    ax = axes[1, 1]
    ax.plot(t, lj_along[:, 0], lw=2.5, alpha=0.4, label="Lennard-Jones energy")
    ax.plot(t, potentials[:, 0], "--", lw=1, label="learned potential energy")
    ax.plot(t, totals[:, 0], lw=1, label="learned total energy")
    ax.set_xlabel("time (Lennard-Jones units)")
    ax.set_title("one trajectory")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.suptitle("A neural potential for Lennard-Jones clusters of 7 atoms, and velocity-Verlet "
                 "dynamics with it")
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
