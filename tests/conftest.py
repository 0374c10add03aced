"""Test-wide device selection.

``MINDGRAD_TEST_DEVICE=GPU`` runs every test with ``device_target="GPU"`` (the default,
``CPU``, runs them on NumPy). On a GPU, CuPy must be installed and see a device. Without
one, ``tests/fakecupy`` stands in for CuPy: a strict array module whose device arrays
refuse implicit conversion to NumPy as CuPy's do, so that the GPU code paths run here.
``MINDGRAD_TEST_CUPY`` chooses: ``auto`` (default: real CuPy where it works, else the
stand-in), ``standin`` or ``real``.

``tests/test_gpu_standin.py`` uses the stand-in through the ``standin_gpu`` fixture in every
ordinary run, whatever these variables say.
"""
from __future__ import annotations

import os
import sys
from typing import Iterator

import pytest

FAKECUPY = os.path.join(os.path.dirname(__file__), "fakecupy")
DEVICE = os.environ.get("MINDGRAD_TEST_DEVICE", "CPU").upper()
CUPY_CHOICE = os.environ.get("MINDGRAD_TEST_CUPY", "auto").lower()
_CUPY_MODULES = ("cupy", "cupyx")


def _real_cupy_works() -> bool:
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # not installed, no driver, no device
        return False


def real_gpu() -> bool:
    """Whether this session runs on real CuPy (whose kernels flush float32 subnormal
    results to zero in places: cumprod, erfc)."""
    cupy = sys.modules.get("cupy")
    return DEVICE == "GPU" and cupy is not None and not getattr(cupy, "STANDIN", False)


def _cupy_module_names() -> list[str]:
    return [m for m in sys.modules if m.split(".")[0] in _CUPY_MODULES]


def import_standin() -> dict | None:
    """Import the stand-in as ``cupy`` / ``cupyx``, returning the modules it replaced (real
    CuPy's, if it was imported) so that ``remove_standin`` can put them back."""
    present = sys.modules.get("cupy")
    if getattr(present, "STANDIN", False):
        return None  # already in use (MINDGRAD_TEST_DEVICE=GPU without a GPU): keep it
    saved = {m: sys.modules.pop(m) for m in _cupy_module_names()}
    sys.path.insert(0, FAKECUPY)
    try:
        import cupy
        import cupyx  # noqa: F401
    finally:
        sys.path.remove(FAKECUPY)
    assert getattr(cupy, "STANDIN", False), cupy.__file__
    return saved


def remove_standin(saved: dict | None) -> None:
    if saved is None:
        return  # the session runs on the stand-in: leave it imported
    for m in _cupy_module_names():
        del sys.modules[m]
    sys.modules.update(saved)


def _use_device(target: str) -> None:
    from mindgrad import context
    from mindgrad.core import config

    config._backend["xp"] = None  # chosen afresh: ``cupy`` may now be another module
    context.set_context(device_target=target)


def pytest_configure(config: pytest.Config) -> None:
    if DEVICE == "CPU":
        return
    if DEVICE != "GPU":
        raise pytest.UsageError(f"MINDGRAD_TEST_DEVICE must be CPU or GPU, not {DEVICE!r}")
    if CUPY_CHOICE not in ("auto", "standin", "real"):
        raise pytest.UsageError("MINDGRAD_TEST_CUPY must be auto, standin or real, not "
                                f"{CUPY_CHOICE!r}")
    real = CUPY_CHOICE != "standin" and _real_cupy_works()
    if CUPY_CHOICE == "real" and not real:
        raise pytest.UsageError("MINDGRAD_TEST_CUPY=real, but CuPy or a GPU is missing")
    if not real:
        import_standin()
    _use_device("GPU")


def pytest_report_header(config: pytest.Config) -> str:
    if DEVICE == "CPU":
        return "mindgrad device: CPU (NumPy)"
    import cupy

    kind = "stand-in (tests/fakecupy)" if getattr(cupy, "STANDIN", False) else \
        f"CuPy {cupy.__version__}"
    return f"mindgrad device: GPU on {kind}"


@pytest.fixture(autouse=True)
def _session_device() -> Iterator[None]:
    """Each test starts on the session's device target (tests switch it themselves)."""
    if DEVICE == "GPU":
        from mindgrad import context

        if context.get_context("device_target") != "GPU":
            context.set_context(device_target="GPU")
    yield


@pytest.fixture
def standin_gpu() -> Iterator[object]:
    """``device_target="GPU"`` on the CuPy stand-in for one test (real CuPy, if imported,
    is put back afterwards); yields the stand-in ``cupy`` module."""
    from mindgrad import context
    from mindgrad.core import device

    before = context.get_context("device_target")
    checking = device.mixed  # the device checks stay off for CPU-only sessions
    saved = import_standin()
    try:
        _use_device("GPU")
        import cupy

        cupy.reset_transfers()
        yield cupy
    finally:
        remove_standin(saved)
        _use_device(before)
        device.mixed = checking or before == "GPU"


@pytest.fixture(params=[1, 0], ids=["pynative", "graph"])
def mode(request) -> Iterator[int]:
    """Run a test in PYNATIVE (1) and in GRAPH (0) mode; PYNATIVE again afterwards."""
    import mindgrad as ms

    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)
