"""Record the operator-catalogue cases (``tests/catalogue_cases.py``) with the real MindSpore
into ``tests/fixtures/catalogue.json``, or with ``--suite numpy`` the ``mindspore.numpy``
cases (``tests/msnumpy_cases.py``) into ``tests/fixtures/msnumpy.json``, or with
``--suite mint`` the ``mindspore.mint`` cases (``tests/mint_cases.py``) into
``tests/fixtures/mint.json``.

Run with a Python that has MindSpore 2.10 installed (never mindgrad's own venv)::

    /path/to/mindspore-venv/bin/python tools/record_catalogue.py [--suite numpy|mint]

For each case it stores the inputs, every output's shape, dtype and values (or the error's
type and first line) and, for the cases that name inputs to differentiate, the gradient of
``sum(w * first output)`` with the fixed weights ``w`` of ``weights(shape)``.
``tests/test_catalogue.py`` runs the same calls on mindgrad and compares.

A refused call can leave MindSpore's PyNative mode broken for the calls after it, so each
case runs in a worker that stops at its first error; the next case goes to a fresh worker
(as does a case marked ``fresh``).
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import importlib  # noqa: E402

# suite name -> (case module under tests/, fixture file under tests/fixtures/)
SUITES = {"catalogue": ("catalogue_cases", "catalogue.json"),
          "numpy": ("msnumpy_cases", "msnumpy.json"),
          "mint": ("mint_cases", "mint.json"),
          "nnlayers": ("nnlayers_cases", "nnlayers.json"),
          "arrayops": ("arrayops_cases", "arrayops.json"),
          "nnmisc": ("nnmisc_cases", "nnmisc.json"),
          "tensormethods": ("tensormethods_cases", "tensormethods.json"),
          "special": ("special_cases", "special.json"),
          "opsfns": ("opsfns_cases", "opsfns.json"),
          "opsvision": ("opsvision_cases", "opsvision.json"),
          "nncells": ("nncells_cases", "nncells.json"),
          "primclasses": ("primclasses_cases", "primclasses.json"),
          "lamblars": ("lamblars_cases", "lamblars.json"),
          "thorlayers": ("thorlayers_cases", "thorlayers.json"),
          "primclasses2": ("primclasses2_cases", "primclasses2.json")}


def _suite(name: str) -> tuple:
    module, fixture = SUITES[name]
    return importlib.import_module(module), os.path.join(HERE, "..", "tests", "fixtures",
                                                         fixture)


def weights(shape: tuple) -> np.ndarray:
    """The fixed cotangent: distinct, non-symmetric values of ``shape``."""
    n = int(np.prod(shape)) if shape else 1
    return np.cos(np.arange(n) + 1.0).reshape(shape).astype(np.float32)


def _plain(v):
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v


def encode(a: np.ndarray) -> dict:
    a = np.asarray(a)
    if a.dtype.kind == "c":  # complex: [real, imag] pairs (JSON has no complex numbers)
        return {"dtype": str(a.dtype), "shape": list(a.shape),
                "values": [[_plain(v.real), _plain(v.imag)] for v in a.reshape(-1).tolist()]}
    return {"dtype": str(a.dtype), "shape": list(a.shape),
            "values": [_plain(v) for v in a.reshape(-1).tolist()]}


def _outputs(out) -> list:
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [encode(o.asnumpy()) for o in outs]


def _message(e: Exception) -> list:
    """``[type, first line]`` of an error; MindSpore's kernel-selection errors open with a
    rule of dashes, which is skipped."""
    lines = [s.strip() for s in str(e).splitlines() if s.strip().strip("-")]
    return [type(e).__name__, (lines[0] if lines else "")[:300]]


def record_case(case) -> dict:
    import mindspore as ms
    from mindspore import ops

    ms.set_seed(0)
    ts = [ms.Tensor(x) for x in case.inputs]
    rec: dict = {"name": case.name, "inputs": [encode(x) for x in case.inputs]}
    try:
        rec["outputs"] = _outputs(case.fn(ms, ops, *ts))
    except Exception as e:  # noqa: BLE001 - the error is the record
        rec["error"] = _message(e)
        return rec
    if case.grad:
        first = rec["outputs"][0]
        w = ms.Tensor(weights(tuple(first["shape"])))

        def loss(*xs):
            out = case.fn(ms, ops, *xs)
            out = out[0] if isinstance(out, (tuple, list)) else out
            return (out * w).sum()

        try:
            g = ms.grad(loss, grad_position=tuple(case.grad))(*ts)
            g = g if isinstance(g, (tuple, list)) else (g,)
            rec["grads"] = [encode(t.asnumpy()) for t in g]
        except Exception as e:  # noqa: BLE001
            rec["grad_error"] = _message(e)
    return rec


def worker(suite: str, start: int) -> None:
    """Record cases from ``start`` on, one JSON line each, stopping after an error."""
    CC, _ = _suite(suite)
    for k, case in enumerate(CC.CASES[start:]):
        if k and case.fresh:
            return
        rec = record_case(case)
        print(json.dumps(rec), flush=True)
        if "error" in rec or "grad_error" in rec:
            return


def main() -> None:
    if len(sys.argv) > 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]))
        return
    suite = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--suite" else "catalogue"
    CC, OUT = _suite(suite)
    records: list = []
    while len(records) < len(CC.CASES):
        run = subprocess.run([sys.executable, __file__, "--worker", suite, str(len(records))],
                             capture_output=True, text=True)
        lines = [json.loads(l) for l in run.stdout.splitlines() if l.startswith("{")]
        if not lines:
            raise SystemExit(f"worker made no progress at case {len(records)}:\n"
                             f"{run.stderr[-3000:]}")
        records.extend(lines)
        print(f"{len(records)}/{len(CC.CASES)}", file=sys.stderr)
    import mindspore as ms

    with open(OUT, "w") as f:
        json.dump({"mindspore": ms.__version__, "cases": records}, f, indent=0)
        f.write("\n")
    print(f"wrote {OUT}: {len(records)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
