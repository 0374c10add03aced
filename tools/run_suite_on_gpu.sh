#!/usr/bin/env bash
# Run mindgrad's whole test suite with device_target="GPU" on real CuPy.
#
# Needs an NVIDIA GPU and CuPy (`pip install -e '.[test,gpu]'`, or the cupy-cudaXXx wheel
# matching the CUDA driver). Every test then makes its tensors on the GPU; the header line
# "mindgrad device: GPU on CuPy <version>" confirms which array module ran. Arguments go
# to pytest (e.g. `tools/run_suite_on_gpu.sh -q -x tests/test_nn_layers.py`); PYTHON picks
# the interpreter (default: python3). Without a GPU, `MINDGRAD_TEST_DEVICE=GPU pytest`
# runs the same suite on the CuPy stand-in in tests/fakecupy.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c "import cupy, sys; sys.exit(cupy.cuda.runtime.getDeviceCount() == 0)" 2>/dev/null
then
    echo "run_suite_on_gpu.sh: CuPy cannot see a CUDA GPU here (pip install -e '.[gpu]')" >&2
    exit 2
fi
# the repository first on the path: the example tests start scripts in subprocesses
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
MINDGRAD_TEST_DEVICE=GPU MINDGRAD_TEST_CUPY=real exec "$PY" -m pytest "$@"
