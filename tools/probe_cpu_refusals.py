"""Ask MindSpore's CPU build whether it runs a name, to justify leaving the name out.

Run with the Python of a virtualenv that has MindSpore 2.10 (from a scratch folder: MindSpore
writes ``rank_0/`` into the working directory)::

    /path/to/msref/bin/python tools/probe_cpu_refusals.py probes.txt > refused.txt

``probes.txt`` has one probe a line: ``<namespace> <name> <Python expression>``, where the
expression may use ``ms`` (``mindspore``), ``ops``, ``nn``, ``mint``, ``np``, ``Tensor`` and the
sample tensors ``x`` (2x2 float32), ``v`` (length-4 float32) and ``i`` (length-2 int32). Each
probe runs in a fresh interpreter, since a failed kernel can leave MindSpore's error state
behind. Every refused call prints one line in the format of ``tools/data/left_out/*.txt``::

    <namespace> <name> cpu-refused <exception type>: <first line of MindSpore's message>

and every call that runs prints a ``#`` comment, so a name that runs is never left out by
mistake.
"""
from __future__ import annotations

import subprocess
import sys

PRELUDE = """
import numpy as np, mindspore as ms
from mindspore import Tensor, ops, nn, mint
x = Tensor(np.array([[0.5, -1.0], [2.0, 0.25]], np.float32))
v = Tensor(np.array([0.1, 0.4, -0.3, 0.8], np.float32))
i = Tensor(np.array([0, 1], np.int32))
"""

RUNNER = PRELUDE + """
import sys
try:
    out = eval(sys.argv[1])
    # a kernel runs when its result is read: read every Tensor of a tuple result too
    for t in (out if isinstance(out, (tuple, list)) else (out,)):
        if isinstance(t, Tensor):
            t.asnumpy()
    ms.runtime.synchronize()
    (x + 1).asnumpy()  # a failure an asynchronous kernel left behind surfaces at the next one
    print("RUNS")
except Exception as e:
    lines = [s.strip() for s in str(e).splitlines() if s.strip().strip("-")]
    print("FAIL", type(e).__name__ + ":", lines[0][:160] if lines else "")
"""


def probe(expression: str) -> str:
    """``RUNS`` or ``FAIL <type>: <message>`` for one expression, run in a fresh process."""
    done = subprocess.run([sys.executable, "-c", RUNNER, expression], capture_output=True,
                          text=True, timeout=600)
    answers = [s for s in done.stdout.splitlines() if s.startswith(("RUNS", "FAIL"))]
    return answers[-1] if answers else "FAIL crashed: " + done.stderr.strip()[-160:]


def main() -> None:
    with open(sys.argv[1]) as f:
        probes = [s.split(None, 2) for s in f if s.strip() and not s.startswith("#")]
    for namespace, name, expression in probes:
        answer = probe(expression)
        if answer == "RUNS":
            print(f"# {namespace} {name} runs: {expression}")
        else:
            print(f"{namespace} {name} cpu-refused {answer[len('FAIL '):]}")


if __name__ == "__main__":
    main()
