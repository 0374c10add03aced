"""The package's shape, checked from its source: the layer order (each module imports only
from its own layer or the ones below), no import cycles among mindgrad's modules, no import
inside a function that points at mindgrad (the way cycles hide), every primitive defined under
``prims/``, and no module over the line budget. ``docs/ARCHITECTURE.md`` explains the layers.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "mindgrad"

# Layers, bottom first. A module belongs to the longest prefix listed; it may import from a
# layer of the same rank or lower, never higher.
LAYERS: dict[str, int] = {
    "core": 0,            # Tensor, dtypes, Primitive and bind, trace state, trees, mutation
    "common": 1,          # MindSpore's data objects: Parameter, initializers, seeds, formats
    "communication.management": 1,  # process-group state over MPI; nothing of mindgrad below
    "ad": 2,              # the transformations: reverse, forward, batching, Taylor, Laplacian
    "prims.structural": 2,  # the primitives the transformations themselves emit
    "prims._util": 2,     # array helpers of implementations (arrays only, no tensors)
    "prims": 3,           # every other primitive with all of its rules
    "graph": 4,           # tracing to a graph, passes, code generation, the compile cache
    "context": 5,         # set_context / get_context (the state itself is core.config)
    "ops": 5,             # the MindSpore front end: functions, op classes, Tensor methods
    "nn": 6, "numpy": 6, "mint": 6, "train": 6, "communication": 6, "dataset": 6, "jit": 6, "runtime": 6,
    "amp": 7, "compat": 7, "": 8, "cli": 8, "__main__": 9,
}

MAX_LINES = 700


def _modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _layer(module: str) -> int:
    best = ""
    for prefix in LAYERS:
        if (module == prefix or module.startswith(prefix + ".") or prefix == "") \
                and len(prefix) >= len(best):
            best = prefix
    return LAYERS[best]


def _target(module: str, is_package: bool, node: ast.ImportFrom, name: str) -> str | None:
    """The mindgrad module an ``from ... import name`` refers to (without the leading
    ``mindgrad.``), or None for another package."""
    if node.level == 0:
        if not (node.module or "").startswith("mindgrad"):
            return None
        base = (node.module or "").split(".")[1:]
    else:
        base = module.split(".") if module else []
        if not is_package:
            base = base[:-1]
        base = base[:len(base) - (node.level - 1)] + (node.module.split(".") if node.module
                                                     else [])
    full = ".".join(base + [name]).strip(".")
    if full in MODULES:
        return full
    joined = ".".join(base)
    while joined and joined not in MODULES:
        joined = joined.rpartition(".")[0]
    return joined


def _imports(module: str, path: pathlib.Path) -> list[tuple[str, int, bool]]:
    """``(target, line, inside_function)`` for each import of a mindgrad module."""
    tree = ast.parse(path.read_text())
    is_package = path.name == "__init__.py"
    out = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ImportFrom):
                for alias in child.names:
                    t = _target(module, is_package, child, alias.name)
                    if t is not None and t != module:
                        out.append((t, child.lineno, nested))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.startswith("mindgrad."):
                        out.append((alias.name[len("mindgrad."):], child.lineno, nested))
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            visit(child, inner)

    visit(tree, False)
    return out


IMPORTS = {m: _imports(m, p) for m, p in MODULES.items()}


def test_no_upward_import():
    bad = [f"{m} (layer {_layer(m)}) imports {t} (layer {_layer(t)}) at line {line}"
           for m, edges in IMPORTS.items() for t, line, _ in edges if _layer(t) > _layer(m)]
    assert not bad, "\n".join(bad)


def test_no_import_inside_functions():
    bad = [f"{m} line {line}: imports {t} inside a function"
           for m, edges in IMPORTS.items() for t, line, nested in edges if nested]
    assert not bad, "\n".join(bad)


def _cycles(graph: dict[str, set]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    found = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def test_no_import_cycles():
    graph = {m: {t for t, _, _ in edges} for m, edges in IMPORTS.items()}
    assert _cycles(graph) == []


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_module_size():
    big = {m: n for m, p in MODULES.items() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines: {big}"


def test_primitives_are_defined_under_prims():
    outside = []
    for m, p in MODULES.items():
        if m.startswith("prims") or m == "core.primitive":
            continue
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Primitive":
                outside.append(f"{m} line {node.lineno}")
    assert not outside, "Primitive(...) outside prims/: " + ", ".join(outside)


@pytest.mark.parametrize("module,layer", [("core.tensor", 0), ("prims.structural", 2),
                                          ("prims.arith", 3), ("ops.functional", 5), ("cli", 8)])
def test_layer_table(module, layer):
    assert _layer(module) == layer
