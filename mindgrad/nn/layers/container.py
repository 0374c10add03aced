"""Containers of Cells: SequentialCell, CellList, CellDict. Children are registered like
attributes (keys ``'0'``, ``'1'``, ... or the dict keys), so their Parameters appear in
``trainable_params()`` with MindSpore's dotted names (``'0.weight'``)."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Iterable, Iterator

from ...ad.api import axes_per_leaf
from ...ad.batching import VmapAxisError, VmapAxisTypeError, check_axis
from ...core.tensor import Tensor
from ...core.tree import flatten, unflatten
from ...ops import functional as F
from ..cell import Cell


def _take(a: Tensor, axis: int, i: int) -> Tensor:
    """Slice ``i`` of ``a`` along ``axis``."""
    return a[(slice(None),) * (axis % a.ndim) + (i,)]


def _check_cell(cell: Any, who: str) -> Cell:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{who}', each element must be a Cell, but got "
                        f"{type(cell).__name__}.")
    return cell


class _IndexedCells(Cell):
    """Shared list behaviour: children keyed by their position."""

    def _items(self) -> list[Cell]:
        return list(self._cells.values())

    def _rebuild(self, cells: list[Cell]) -> None:
        """Re-key the children as 0..n-1 (their Parameter names stay as they were)."""
        for key in list(self._cells):
            self.__dict__.pop(key, None)
        self._cells.clear()
        for i, c in enumerate(cells):
            self._cells[str(i)] = c
            object.__setattr__(self, str(i), c)

    def _index(self, index: int) -> int:
        n = len(self._cells)
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"For '{type(self).__name__}', the index must be an int or slice, "
                            f"but got {type(index).__name__}.")
        if not -n <= index < n:
            raise IndexError(f"For '{type(self).__name__}', index {index} is out of range for "
                             f"{n} cells.")
        return index % n

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end."""
        self.insert_child_to_cell(str(len(self._cells)), _check_cell(cell, type(self).__name__))

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before position ``index``."""
        cells = self._items()
        n = len(cells)
        pos = max(0, min(n, index + n if index < 0 else index))
        if self._auto_prefix:  # name its Parameters as registration at `pos` would
            for p in _check_cell(cell, type(self).__name__).get_parameters():
                p.name = f"{pos}.{p.name}"
        cells.insert(pos, cell)
        self._rebuild(cells)

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._items())

    def __setitem__(self, index: int, cell: Cell) -> None:
        i = self._index(index)
        self.insert_child_to_cell(str(i), _check_cell(cell, type(self).__name__))

    def __delitem__(self, index: Any) -> None:
        cells = self._items()
        del cells[index if isinstance(index, slice) else self._index(index)]
        self._rebuild(cells)


class SequentialCell(_IndexedCells):
    """Runs its cells in order, each on the previous one's output.

    ``SequentialCell(c1, c2)``, ``SequentialCell([c1, c2])`` or
    ``SequentialCell(OrderedDict(name=cell, ...))``."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for name, cell in args[0].items():
                self.insert_child_to_cell(name, _check_cell(cell, "SequentialCell"))
            return
        cells = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        for cell in cells:
            self.append(cell)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return SequentialCell(OrderedDict(list(self._cells.items())[index]))
        return self._items()[self._index(index)]

    def construct(self, x: Any) -> Any:
        for cell in self._cells.values():
            x = cell(x)
        return x


class CellList(_IndexedCells):
    """A list of Cells (registered, but not callable: iterate over it in ``construct``)."""

    def __init__(self, *args: Any, auto_prefix: bool = True) -> None:
        super().__init__(auto_prefix=auto_prefix)
        if len(args) > 1:
            raise TypeError("For 'CellList', give one iterable of Cells.")
        if args and args[0] is not None:
            self.extend(args[0])

    def extend(self, cells: Iterable[Cell]) -> "CellList":
        """Append every Cell of ``cells``."""
        if not isinstance(cells, Iterable) or isinstance(cells, Cell):
            raise TypeError(f"For 'CellList', 'cells' must be an iterable of Cells, but got "
                            f"{type(cells).__name__}.")
        for cell in cells:
            self.append(cell)
        return self

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return CellList(self._items()[index], auto_prefix=False)
        return self._items()[self._index(index)]

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError("A CellList is not callable: iterate over its cells, or "
                                  "map over them with ops.vmap.")

    def __vmap__(self, in_axes: Any, out_axes: Any) -> Any:
        """``ops.vmap(cell_list, in_axes, out_axes)`` (model ensembling): cell ``i`` runs on
        slice ``i`` of each input mapped by ``in_axes`` (an input with axis None is given
        whole to every cell), and the results are stacked along ``out_axes``. The cells run
        one after another, each as itself (they need not share a structure)."""
        cells = self._items()

        def mapped(*args: Any) -> Any:
            specs = in_axes if isinstance(in_axes, (tuple, list)) else [in_axes] * len(args)
            if len(specs) != len(args):
                raise VmapAxisError(f"For 'vmap', in_axes has {len(specs)} entries but "
                                    f"{len(args)} arguments were given.")
            for a, ax in zip(args, specs):
                if ax is None:
                    continue
                if not isinstance(a, Tensor) or isinstance(ax, bool) or not isinstance(ax, int):
                    raise VmapAxisTypeError(f"For 'vmap', in_axes {ax!r} must be None or an "
                                            f"int axis of a Tensor input.")
                check_axis("in_axes", ax, a.shape, "an input of shape")
                if a.shape[ax] != len(cells):
                    raise VmapAxisError(f"For 'vmap' over a CellList of {len(cells)} cells, "
                                        f"the mapped axis {ax} of an input of shape "
                                        f"{list(a.shape)} must have size {len(cells)}.")
            outs = [cell(*[a if ax is None else _take(a, ax, i) for a, ax in zip(args, specs)])
                    for i, cell in enumerate(cells)]
            leaves = [flatten(o)[0] for o in outs]
            tree = flatten(outs[0])[1]
            axes = axes_per_leaf(out_axes, outs[0], len(leaves[0]))
            stacked = [F.stack([ls[k] for ls in leaves], axis=0 if ax is None else ax)
                       for k, ax in enumerate(axes)]
            return unflatten(tree, stacked)

        return mapped


class CellDict(Cell):
    """An ordered dict of Cells keyed by name."""

    def __init__(self, *args: Any, auto_prefix: bool = True) -> None:
        super().__init__(auto_prefix=auto_prefix)
        if len(args) > 1:
            raise TypeError("For 'CellDict', give one dict or iterable of (key, Cell) pairs.")
        if args and args[0] is not None:
            self.update(args[0])

    @staticmethod
    def _check_key(key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(f"For 'CellDict', the key must be a str, but got "
                            f"{type(key).__name__}.")
        if not key or "." in key or key in Cell.__dict__:
            raise KeyError(f"For 'CellDict', the key {key!r} is empty, contains '.', or is the "
                           f"name of a Cell attribute.")
        return key

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        self.insert_child_to_cell(self._check_key(key), _check_cell(cell, "CellDict"))

    def __delitem__(self, key: str) -> None:
        delattr(self, key)

    def __contains__(self, key: Any) -> bool:
        return key in self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._cells))

    def keys(self) -> Iterable[str]:
        return list(self._cells.keys())

    def values(self) -> Iterable[Cell]:
        return list(self._cells.values())

    def items(self) -> Iterable[tuple[str, Cell]]:
        return list(self._cells.items())

    def pop(self, key: str) -> Cell:
        cell = self._cells[key]
        del self[key]
        return cell

    def clear(self) -> None:
        for key in list(self._cells):
            del self[key]

    def update(self, cells: Any) -> None:
        """Add (key, Cell) pairs from a dict, a CellDict or an iterable of pairs."""
        pairs = cells.items() if isinstance(cells, (dict, CellDict)) else cells
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise TypeError("For 'CellDict.update', each element must be a (key, Cell) pair.")
            self[pair[0]] = pair[1]

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError("A CellDict is not callable: look its cells up by key.")


__all__ = ["SequentialCell", "CellList", "CellDict"]
