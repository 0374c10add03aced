"""What transformations are running, per thread: the trace stack that ``bind`` consults,
and the GRAPH-mode trace that also records operations on constants and Parameters."""
from __future__ import annotations

import threading
from typing import Any


class _State(threading.local):
    """What transformations are running on the current thread (each thread has its own)."""

    def __init__(self) -> None:
        self.stack: list = []
        # The graph trace while a GRAPH-mode function is being traced: operations whose
        # arguments hold no tracer (constants, Parameters) are recorded by it too.
        self.dynamic: Any = None
        # id(Parameter) -> the tracer standing for it while this thread differentiates
        # with respect to it (see `substitute`)
        self.subs: dict[int, Any] = {}
        # id(tensor) -> the record of a tensor following a traced value assigned into it
        # (``core.following``); its traced value is in `subs`
        self.following: dict[int, Any] = {}


state = _State()

# One entry per trace, and per GRAPH-mode trace, running on any thread. Reading the
# thread-local `state` costs on every operation, so while a list is empty (no transformation
# anywhere, as in plain eager code) the dispatch point does not look. Lists, because their
# append and pop are atomic between threads where ``count += 1`` is not.
active: list = []
graphs: list = []


def push_trace(trace: Any) -> Any:
    stack = state.stack
    trace.level = len(stack)
    stack.append(trace)
    active.append(None)
    return trace


def pop_trace(trace: Any) -> None:
    top = state.stack.pop()
    active.pop()
    assert top is trace, "trace stack corrupted"


def enter_graph(trace: Any) -> None:
    """Make ``trace`` (already pushed) the GRAPH-mode trace that also records operations on
    constants and Parameters."""
    graphs.append(None)
    state.dynamic = trace


def leave_graph(trace: Any) -> None:
    state.dynamic = None
    graphs.pop()


def tracing() -> bool:
    """Whether a transformation (or GRAPH-mode tracing) is running on this thread."""
    return bool(active) and bool(state.stack)


def graph_tracing() -> Any:
    """The GRAPH-mode trace being recorded on this thread, if any."""
    return state.dynamic if graphs else None
