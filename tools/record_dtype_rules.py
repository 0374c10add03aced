"""Record MindSpore's dtype rules into ``tests/fixtures/dtype_rules.json``.

Run with a Python that has the real MindSpore installed (never mindgrad's own venv)::

    /path/to/mindspore-venv/bin/python tools/record_dtype_rules.py

For every case of ``tests/dtype_cases.py`` and every dtype of ``DTYPES`` it records either the
result's dtype and values or the error's type and first line; for integer and float32 inputs
whose forward result is accepted it also records the dtype of the gradient of
``op(x).sum()``. ``tests/test_dtype_rules.py`` compares mindgrad against the file.

MindSpore's PyNative mode can stay broken after a refused call (later, valid calls fail with
the earlier error), so every refusal ends the worker process that met it and the remaining
calls go to a fresh one; a run takes about 25 minutes on two busy cores.
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

import dtype_cases as DC  # noqa: E402

# Cases whose values depend on a random initialization: only the dtype is recorded.
NO_VALUES = {"nn.Dense"}
GRAD_DTYPES = ("int32", "int64", "float32")


def _plain(v):
    """A JSON value for one element: floats keep NaN/inf as strings, complex as [re, im]."""
    if isinstance(v, complex):
        return [_plain(v.real), _plain(v.imag)]
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v


def _values(out):
    a = out.asnumpy()
    flat = [_plain(v) for v in a.reshape(-1).tolist()]
    return {"shape": list(a.shape), "values": flat}


def _error(e: BaseException) -> dict:
    """The error's type and its first line of text (MindSpore frames some messages with
    lines of dashes)."""
    text = [line.strip() for line in str(e).splitlines() if line.strip().strip("-")]
    return {"error": type(e).__name__, "message": text[0][:200] if text else ""}


def record_one(ms, name: str, fn, dtype: str) -> dict:
    x = DC.make_input(ms.Tensor, dtype)
    try:
        out = fn(ms, x)
        entry = {"dtype": DC.result_dtype(out)}
        if name not in NO_VALUES:
            entry.update(_values(out))
    except Exception as e:  # noqa: BLE001 - every refusal is a fact to record
        return _error(e)
    if dtype in GRAD_DTYPES:
        try:
            g = ms.ops.grad(lambda a: fn(ms, a).sum())(x)
            entry["grad_dtype"] = DC.result_dtype(g)
        except Exception as e:  # noqa: BLE001
            entry["grad_error"] = _error(e)
    return entry


def _misc_calls(ms) -> dict:
    """Argument checks outside the dtype table: label -> call."""
    return {
        "zeros((2.5, 2))": lambda: ms.ops.zeros((2.5, 2)),
        "ones((2, 2.0))": lambda: ms.ops.ones((2, 2.0)),
        "zeros(2.5)": lambda: ms.ops.zeros(2.5),
        "norm([3+4j])": lambda: ms.ops.norm(ms.Tensor(np.array([3 + 4j], np.complex64))),
        "var([1j, -1j])": lambda: ms.ops.var(ms.Tensor(np.array([1j, -1j], np.complex64))),
        "sin(int32) grad": lambda: ms.ops.grad(lambda a: ms.ops.sin(a).sum())(
            ms.Tensor(np.array([1, 2, 3], np.int32))),
        "mul int32 grad": lambda: ms.ops.grad(lambda a: (a * a).sum())(
            ms.Tensor(np.array([1, 2, 3], np.int32))),
    }


def run_misc(ms, label: str) -> dict:
    try:
        r = _misc_calls(ms)[label]()
        return {"dtype": DC.result_dtype(r), **_values(r)}
    except Exception as e:  # noqa: BLE001
        return _error(e)


MISC_LABELS = ("zeros((2.5, 2))", "ones((2, 2.0))", "zeros(2.5)", "norm([3+4j])",
               "var([1j, -1j])", "sin(int32) grad", "mul int32 grad")


def worker() -> None:
    """Read tasks (JSON lines) from stdin and answer each on stdout; stop after a refusal."""
    import mindspore as ms

    ms.set_context(mode=ms.PYNATIVE_MODE)
    for line in sys.stdin:
        task = json.loads(line)
        if task[0] == "misc":
            entry = run_misc(ms, task[1])
        else:
            entry = record_one(ms, task[1], DC.CASES[task[1]], task[2])
        print(json.dumps([task, entry]), flush=True)
        if "error" in entry or "grad_error" in entry:
            return


def run_all(tasks: list) -> dict:
    """Every task's entry, restarting the worker after each refusal."""
    results: dict = {}
    todo = list(tasks)
    while todo:
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        out, _ = proc.communicate("".join(json.dumps(t) + "\n" for t in todo))
        done = 0
        for line in out.splitlines():
            if line.startswith("[["):
                task, entry = json.loads(line)
                results[tuple(task)] = entry
                done += 1
        if done == 0:
            raise RuntimeError(f"the worker answered nothing for {todo[0]}")
        todo = [t for t in todo if tuple(t) not in results]
        print(f"{len(results)}/{len(tasks)}", file=sys.stderr, flush=True)
    return results


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        worker()
        return
    version = subprocess.run([sys.executable, "-c", "import mindspore; print(mindspore.__version__)"],
                             capture_output=True, text=True, check=True).stdout.split()[-1]
    tasks = [["case", name, dt] for name in DC.CASES for dt in DC.DTYPES]
    tasks += [["misc", label] for label in MISC_LABELS]
    results = run_all(tasks)
    table = {name: {dt: results[("case", name, dt)] for dt in DC.DTYPES} for name in DC.CASES}
    misc = {label: results[("misc", label)] for label in MISC_LABELS}
    data = {"mindspore_version": version, "device": "CPU", "mode": "PYNATIVE",
            "cases": table, "misc": misc}
    path = os.path.join(HERE, "..", "tests", "fixtures", "dtype_rules.json")
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {os.path.normpath(path)}: {len(table)} cases x {len(DC.DTYPES)} dtypes")


if __name__ == "__main__":
    main()
