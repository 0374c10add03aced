"""Automatic mixed precision: ``auto_mixed_precision`` and ``build_train_network``.

Levels, as MindSpore runs them:

- 'O0': float32 throughout.
- 'O1': the white-listed layers (``get_white_list()``: Conv and Dense layers, the RNN
  cells) compute in float16: their inputs and trainable parameters are cast to float16
  and their outputs back to float32. Operators called directly in a ``construct`` (an
  ``ops.matmul``) stay float32: mindgrad does not rewrite the user's code.
- 'O2': the whole network computes in float16 except the black-listed layers
  (``get_black_list()``: BatchNorm and LayerNorm), which run in float32 on float32 inputs
  and hand float16 on; ``build_train_network`` adds dynamic loss scaling by default.
- 'O3': everything in float16.

Parameters stay float32 at every level (master weights): each float16 layer casts them
when it runs, so the gradients and the optimizer update are float32. With a loss function
the network output and the label are cast to float32 before the loss."""
from __future__ import annotations

from typing import Any

from ..core import dtype as mstype
from ..nn import layers as L
from ..nn.cell import Cell
from ..nn.loss_scale import TrainOneStepWithLossScaleCell
from ..nn.optim.optimizer import Optimizer
from ..nn.wrap import TrainOneStepCell, WithLossCell, mixed_precision_cast
from ..ops import functional as F
from .loss_scale_manager import DynamicLossScaleManager, LossScaleManager

_LEVELS = ("O0", "O1", "O2", "O3", "auto")
_WHITE_NAMES = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
                "Conv3dTranspose", "Dense", "LSTMCell", "RNNCell", "GRUCell")
_BLACK_NAMES = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")


def _present(names: tuple) -> list:
    return [getattr(L, n) for n in names if hasattr(L, n)]


AMP_WHITE_LIST = _present(_WHITE_NAMES)
AMP_BLACK_LIST = _present(_BLACK_NAMES)


def get_white_list() -> list:
    """The layer classes that 'O1' runs in float16 (a copy)."""
    return list(AMP_WHITE_LIST)


def get_black_list() -> list:
    """The layer classes that 'O2' keeps in float32 (a copy)."""
    return list(AMP_BLACK_LIST)


class _OutputTo16(Cell):
    """Runs ``backbone`` and casts its output to float16 (after a float32 layer)."""

    def __init__(self, backbone: Cell, dtype: Any = mstype.float16) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        return F.cast(self._backbone(*args, **kwargs), self.dtype)


class _OutputTo32(Cell):
    """Runs ``backbone`` and casts its float outputs to float32."""

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        return mixed_precision_cast(self._backbone(*args, **kwargs), mstype.float32)

    def __getattr__(self, name: str) -> Any:
        # the wrapped network's attributes stay reachable (MindSpore copies them over)
        backbone = self.__dict__.get("_backbone")
        if backbone is None:
            raise AttributeError(name)
        return getattr(backbone, name)


def _replace_child(parent: Cell, name: str, new: Cell) -> None:
    """Put ``new`` where the sub-cell ``name`` was, without renaming Parameters."""
    parent._cells[name] = new
    if parent.__dict__.get(name) is not None:
        object.__setattr__(parent, name, new)
    object.__setattr__(parent, "_graph", None)


def _wrap_cells(network: Cell, kinds: tuple, make: Any) -> None:
    """Replace every sub-cell of one of ``kinds`` (searching below the others) by
    ``make(cell)``."""
    for name, child in list(network._cells.items()):
        if child is None or child is network:
            continue
        if isinstance(child, kinds):
            _replace_child(network, name, make(child))
        else:
            _wrap_cells(child, kinds, make)


def _check_dtype(dtype: Any) -> None:
    allowed = [d for d in (mstype.float16, getattr(mstype, "bfloat16", None)) if d is not None]
    if not isinstance(dtype, mstype.DType) or dtype not in allowed:
        raise ValueError(f"The dtype should be one of {tuple(allowed)}, but got {dtype}.")


def _keep_black_fp32(network: Cell, black_list: list, dtype: Any) -> None:
    kinds = tuple(black_list)
    if kinds:
        _wrap_cells(network, kinds, lambda c: _OutputTo16(c.to_float(mstype.float32), dtype))


def auto_mixed_precision(network: Cell, amp_level: str = "O0",
                         dtype: Any = mstype.float16) -> Cell:
    """Return ``network`` set up for ``amp_level`` (see the module docstring); it is changed
    in place, and 'O2' / 'O3' (and 'O1' on a white-listed layer itself) return a wrapper
    whose outputs are float32. 'auto' runs as 'O1'."""
    if not isinstance(network, Cell):
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell, but "
                        f"got {type(network).__name__}.")
    _check_dtype(dtype)
    if amp_level not in _LEVELS:
        raise ValueError(f"The amp level {amp_level} is not supported")
    if amp_level == "O0":
        return network
    if amp_level in ("O1", "auto"):
        white = tuple(AMP_WHITE_LIST)
        if isinstance(network, white):
            network = _OutputTo32(network.to_float(dtype))
        else:
            _wrap_cells(network, white, lambda c: _OutputTo32(c.to_float(dtype)))
    elif amp_level == "O2":
        network.to_float(dtype)
        _keep_black_fp32(network, AMP_BLACK_LIST, dtype)
        network = _OutputTo32(network)
    else:
        network.to_float(dtype)
        network = _OutputTo32(network)
    object.__setattr__(network, "_amp_level", amp_level)
    return network


def custom_mixed_precision(network: Cell, *, white_list: list | None = None,
                           black_list: list | None = None, dtype: Any = mstype.float16) -> Cell:
    """Mixed precision with your own lists of layer classes: give ``white_list`` (those
    layers in float16, as 'O1') or ``black_list`` (everything else in float16, those kept
    in float32, as 'O2'), not both."""
    if not isinstance(network, Cell):
        raise TypeError(f"For 'custom_mixed_precision', the network must be a Cell, but got "
                        f"{type(network).__name__}.")
    if (white_list is None) == (black_list is None):
        raise ValueError("For 'custom_mixed_precision', exactly one of 'white_list' and "
                         "'black_list' must be given.")
    _check_dtype(dtype)
    chosen = white_list if white_list is not None else black_list
    if not isinstance(chosen, list) or not all(isinstance(c, type) and issubclass(c, Cell)
                                               for c in chosen):
        raise TypeError("For 'custom_mixed_precision', the list must hold Cell classes.")
    if white_list is not None:
        _wrap_cells(network, tuple(white_list), lambda c: _OutputTo32(c.to_float(dtype)))
        return network
    network.to_float(dtype)
    _keep_black_fp32(network, black_list, dtype)
    return _OutputTo32(network)


# MindSpore's per-level defaults of build_train_network
def _config_for(level: str) -> dict:
    fp16 = level in ("O2", "O3")
    return {"keep_batchnorm_fp32": level == "O2",
            "cast_model_type": mstype.float16 if fp16 else mstype.float32,
            "loss_scale_manager": DynamicLossScaleManager() if level == "O2" else None}


class _WithLossCellFp32(WithLossCell):
    """``loss_fn(float32(backbone(data)), float32(label))`` for a float16 backbone."""

    def construct(self, data: Any, label: Any) -> Any:
        out = self._backbone(data)
        label = mixed_precision_cast(label, mstype.float32)
        return self._loss_fn(mixed_precision_cast(out, mstype.float32), label)


def _check_kwargs(kwargs: dict) -> None:
    for key in kwargs:
        if key not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{key}'")
    if "cast_model_type" in kwargs and kwargs["cast_model_type"] not in (mstype.float16,
                                                                         mstype.float32):
        raise TypeError(f"For 'build_train_network', 'cast_model_type' must be float16 or "
                        f"float32, but got {kwargs['cast_model_type']}.")
    if "keep_batchnorm_fp32" in kwargs and not isinstance(kwargs["keep_batchnorm_fp32"], bool):
        raise TypeError(f"For 'build_train_network', 'keep_batchnorm_fp32' must be a bool, but "
                        f"got {type(kwargs['keep_batchnorm_fp32']).__name__}.")
    manager = kwargs.get("loss_scale_manager")
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"For 'build_train_network', 'loss_scale_manager' must be a "
                        f"LossScaleManager, but got {type(manager).__name__}.")


def build_train_network(network: Cell, optimizer: Optimizer, loss_fn: Cell | None = None,
                        level: str = "O0", boost_level: str = "O0", **kwargs: Any) -> Cell:
    """The training Cell for ``network``: mixed precision by ``level``, the loss, and one
    optimizer step per call (``TrainOneStepCell``, or ``TrainOneStepWithLossScaleCell``
    when the loss scale manager drops overflowing updates). Keywords override the level's
    defaults: ``cast_model_type``, ``keep_batchnorm_fp32``, ``loss_scale_manager``."""
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"For 'build_train_network', 'optimizer' must be an nn.Optimizer, but "
                        f"got {type(optimizer).__name__}.")
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in {list(_LEVELS)}, but got "
                        f"type {type(level)}.")
    if level not in _LEVELS:
        raise ValueError(f"For 'build_train_network', 'level' must be in {list(_LEVELS)}, but "
                         f"got {level!r}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"For 'build_train_network', 'boost_level' must be 'O0', 'O1' or "
                         f"'O2', but got {boost_level!r}.")
    _check_kwargs(kwargs)
    config = dict(_config_for(level), **kwargs)
    cast_type = config["cast_model_type"]
    if cast_type == mstype.float16:
        network.to_float(mstype.float16)
        if config["keep_batchnorm_fp32"]:
            _keep_black_fp32(network, AMP_BLACK_LIST, mstype.float16)
    elif not config["keep_batchnorm_fp32"] and level == "O2":
        network.to_float(mstype.float16)
    elif not (cast_type == mstype.float32 and level in ("O2", "O3")):
        network = auto_mixed_precision(network, level)
    if loss_fn is not None:
        if not isinstance(loss_fn, Cell):
            raise TypeError(f"For 'build_train_network', 'loss_fn' must be a Cell, but got "
                            f"{type(loss_fn).__name__}.")
        if cast_type == mstype.float16 or getattr(network, "_amp_level", "O0") in ("O2", "O3"):
            network = _WithLossCellFp32(network, loss_fn)
        else:
            network = WithLossCell(network, loss_fn)
    loss_scale = None
    manager = config["loss_scale_manager"]
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return TrainOneStepWithLossScaleCell(network, optimizer,
                                                 scale_sense=update_cell).set_train()
    return TrainOneStepCell(network, optimizer, loss_scale).set_train()


__all__ = ["auto_mixed_precision", "build_train_network", "custom_mixed_precision",
           "get_white_list", "get_black_list"]
