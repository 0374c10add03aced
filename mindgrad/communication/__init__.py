"""``mindspore.communication``: process groups and collectives over MPI (mpi4py).

Launch a script on N processes with ``mpirun -n N mindgrad run train.py`` (or ``mindgrad
msrun --worker_num=N --local_worker_num=N train.py``) and call ``init()`` in it. The
functional collectives are in ``comm_func``; the operator classes are ``ops.AllReduce``,
``ops.AllGather``, ... ."""
from __future__ import annotations

from .management import *  # noqa: F401,F403
from .management import __all__ as _management_all


def __getattr__(name: str):
    # comm_func sits above the primitives, which use this package's management module:
    # importing it here at once would be circular, so it is loaded on first use
    if name == "comm_func":
        import importlib

        return importlib.import_module(f"{__name__}.comm_func")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [*_management_all, "comm_func"]
