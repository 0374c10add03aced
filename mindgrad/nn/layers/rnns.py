"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` and their one-step cells ``RNNCell``,
``LSTMCell``, ``GRUCell``, composed of differentiable operators (so every derivative, vmap
and GRAPH mode come from the operators).

MindSpore's conventions, which checkpoints depend on: the weights of layer ``k`` are
``weight_ih_l{k}`` ``(gates * hidden, input)``, ``weight_hh_l{k}``, ``bias_ih_l{k}`` and
``bias_hh_l{k}`` (``_reverse`` appended for the backward direction), registered in the order
all ``weight_ih``, all ``weight_hh``, all ``bias_ih``, all ``bias_hh``, every one drawn from
``U(-1/sqrt(hidden), 1/sqrt(hidden))``. The gates are stacked as (input, forget, cell,
output) for the LSTM and (reset, update, new) for the GRU.

A layer's input projection of every time step is one matrix product before the time loop;
only the hidden-state product runs per step. An LSTM time step (hidden product, gate
activations, state update) is one fused primitive forward and one backward
(``prims/recurrent.py``), with rules of every order through the composite it stands for.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...common.initializer import Uniform, initializer
from ...common.parameter import Parameter, ParameterTuple
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ...ops import functional as F
from ...prims.recurrent import gru_step, lstm_step
from ..cell import Cell
from .basic import Dropout

# MindSpore takes Float32 and Float16; Float64 is accepted too (exact derivative checks)
_FLOATS = (mstype.float32, mstype.float16, mstype.float64)
_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


# --- checks ----------------------------------------------------------------------------------
def _check_tensor(name: str, value: Any, who: str) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{who}', the '{name}' should be a Tensor, but got "
                        f"{type(value).__name__}.")


def _check_float(name: str, value: Tensor, who: str) -> None:
    if value.dtype not in _FLOATS:
        raise TypeError(f"For '{who}', the '{name}' must be Float32 or Float16 (or "
                        f"Float64), but got {value.dtype}.")


def _check_state(hx: Any, is_lstm: bool, x: Tensor, shape: tuple, who: str) -> None:
    """``hx`` is a Tensor (a tuple of two for the LSTM) of ``x``'s dtype and ``shape``."""
    if is_lstm:
        if not isinstance(hx, (tuple, list)):
            raise TypeError(f"For '{who}', the 'hx' should be a tuple, but got "
                            f"{type(hx).__name__}.")
        if len(hx) != 2:
            raise ValueError(f"For '{who}', the length of 'hx' should be 2, but got "
                             f"{len(hx)}.")
        states = (("hx[0]", hx[0]), ("hx[1]", hx[1]))
    else:
        states = (("hx", hx),)
    for name, h in states:
        _check_tensor(name, h, who)
        if h.dtype != x.dtype or h.dtype not in _FLOATS:
            raise TypeError(f"For '{who}', 'x' and '{name}' must have the same float dtype, "
                            f"but got {x.dtype} and {h.dtype}.")
        if tuple(h.shape) != shape:
            raise ValueError(f"For '{who}', '{name}' must have shape {list(shape)}, but got "
                             f"{list(h.shape)}.")


def _positive_int(value: Any, name: str, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{who}', the '{name}' must be a positive int, but got "
                         f"{value!r}.")
    return value


def _bool(value: Any, name: str, who: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{who}', the '{name}' must be a bool, but got "
                        f"{type(value).__name__}.")
    return value


# --- one time step -----------------------------------------------------------------------------
def _step(mode: str, gi: Tensor, h: Any, w_hh: Tensor, b_hh: Any) -> Any:
    """The next state from the input gates ``gi`` (input projection plus its bias) and the
    state ``h`` (``(h, c)`` for the LSTM)."""
    if mode == "LSTM":
        # the hidden product, gate activations and state update are one fused primitive
        # (prims/recurrent.py)
        return lstm_step(gi if b_hh is None else F.add(gi, b_hh), h[0], h[1], w_hh)[:2]
    if mode == "GRU":  # one fused primitive too
        return gru_step(gi, h, w_hh, *(() if b_hh is None else (b_hh,)))[0]
    gh = F.matmul(h, w_hh, transpose_b=True)
    if b_hh is not None:
        gh = F.add(gh, b_hh)
    if mode == "RNN_TANH":
        return F.tanh(F.add(gi, gh))
    if mode == "RNN_RELU":
        return F.relu(F.add(gi, gh))


def _input_gates(x: Tensor, w_ih: Tensor, b_ih: Any) -> Tensor:
    gi = F.matmul(x, w_ih, transpose_b=True)
    return gi if b_ih is None else F.add(gi, b_ih)


# --- the recurrence over a sequence, one layer and direction -----------------------------------
class _DynamicRNNBase(Cell):
    """One layer in one direction over a ``(T, B, I)`` sequence: ``(outputs, final state)``.
    With ``seq_length`` a sequence's state stops changing after its last step and its later
    outputs are zero."""

    mode = "RNN_TANH"

    def construct(self, x: Tensor, h: Any, seq_length: Any, w_ih: Tensor, w_hh: Tensor,
                  b_ih: Any, b_hh: Any) -> tuple:
        dtype = x.dtype
        w_ih, w_hh = F.cast(w_ih, dtype), F.cast(w_hh, dtype)
        if b_ih is not None:
            b_ih, b_hh = F.cast(b_ih, dtype), F.cast(b_hh, dtype)
        lstm = self.mode == "LSTM"
        if b_ih is not None and self.mode != "GRU":
            # the hidden bias adds to every step's gates alike: once for the whole sequence
            # (the GRU's scales its new-gate part by the reset gate, so it stays per step)
            b_ih, b_hh = F.add(b_ih, b_hh), None
        gates = F.unstack(_input_gates(x, w_ih, b_ih), 0)
        alive = None
        if seq_length is not None:
            steps = np.arange(x.shape[0]).reshape(-1, 1, 1)
            lengths = np.asarray(seq_length.asnumpy()).reshape(1, -1, 1)
            alive = [Tensor(a) for a in steps < lengths]
            zero = F.zeros_like(h[0] if lstm else h)
        outputs = []
        for t, gi in enumerate(gates):
            new = _step(self.mode, gi, h, w_hh, b_hh)
            if alive is None:
                h = new
                outputs.append(new[0] if lstm else new)
                continue
            m = F.broadcast_to(alive[t], (new[0] if lstm else new).shape)
            if lstm:
                h = (F.select(m, new[0], h[0]), F.select(m, new[1], h[1]))
                outputs.append(F.select(m, new[0], zero))
            else:
                h = F.select(m, new, h)
                outputs.append(F.select(m, new, zero))
        return F.stack(outputs, 0), h


class _DynamicRNNTanh(_DynamicRNNBase):
    mode = "RNN_TANH"


class _DynamicRNNRelu(_DynamicRNNBase):
    mode = "RNN_RELU"


class _DynamicLSTMCPUGPU(_DynamicRNNBase):
    mode = "LSTM"


class _DynamicGRUCPUGPU(_DynamicRNNBase):
    mode = "GRU"


_RECURRENCES = {"RNN_TANH": _DynamicRNNTanh, "RNN_RELU": _DynamicRNNRelu,
                "LSTM": _DynamicLSTMCPUGPU, "GRU": _DynamicGRUCPUGPU}


def _reverse(x: Tensor, seq_length: Any) -> Tensor:
    """``x`` (T, B, ...) reversed in time, or with ``seq_length`` each sequence's first
    ``seq_length[b]`` steps reversed and the padding left in place."""
    if seq_length is None:
        return F.flip(x, (0,))
    t, b = x.shape[0], x.shape[1]
    lengths = np.asarray(seq_length.asnumpy()).reshape(1, -1)
    steps = np.arange(t).reshape(-1, 1)
    rows = np.where(steps < lengths, lengths - 1 - steps, steps)
    return x[Tensor(rows.astype(np.int64)), Tensor(np.arange(b).reshape(1, -1))]


# --- the stacked layers -------------------------------------------------------------------
class _RNNBase(Cell):
    """Stacked, optionally bidirectional recurrent layers (see the module docstring)."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 has_bias: bool = True, batch_first: bool = False, dropout: Any = 0.0,
                 bidirectional: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        who = type(self).__name__
        _positive_int(hidden_size, "hidden_size", who)
        _positive_int(input_size, "input_size", who)
        _positive_int(num_layers, "num_layers", who)
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)):
            raise TypeError(f"For '{who}', the 'dropout' must be a float, but got "
                            f"{type(dropout).__name__}.")
        for name, v in (("has_bias", has_bias), ("batch_first", batch_first),
                        ("bidirectional", bidirectional)):
            _bool(v, name, who)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{who}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but "
                             f"got {dropout}.")
        self.rnn = _RECURRENCES[mode]()
        self.mode, self.is_lstm = mode, mode == "LSTM"
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.batch_first, self.bidirectional, self.has_bias = batch_first, bidirectional, has_bias
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        dirs = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        init = Uniform(1 / math.sqrt(hidden_size))
        shapes: dict = {"weight_ih": [], "weight_hh": [], "bias_ih": [], "bias_hh": []}
        for layer in range(num_layers):
            for d in range(dirs):
                suffix = f"_l{layer}" + ("_reverse" if d else "")
                layer_in = input_size if layer == 0 else hidden_size * dirs
                shapes["weight_ih"].append((suffix, (gate_size, layer_in)))
                shapes["weight_hh"].append((suffix, (gate_size, hidden_size)))
                if has_bias:
                    shapes["bias_ih"].append((suffix, (gate_size,)))
                    shapes["bias_hh"].append((suffix, (gate_size,)))
        lists = {}
        for kind, entries in shapes.items():  # MindSpore's registration order
            params = []
            for suffix, shape in entries:
                p = Parameter(initializer(init, list(shape), dtype), name=kind + suffix)
                setattr(self, kind + suffix, p)
                params.append(p)
            lists[kind] = ParameterTuple(params)
        object.__setattr__(self, "w_ih_list", lists["weight_ih"])
        object.__setattr__(self, "w_hh_list", lists["weight_hh"])
        object.__setattr__(self, "b_ih_list", lists["bias_ih"])
        object.__setattr__(self, "b_hh_list", lists["bias_hh"])

    def _weights(self, k: int) -> tuple:
        if self.has_bias:
            return self.w_ih_list[k], self.w_hh_list[k], self.b_ih_list[k], self.b_hh_list[k]
        return self.w_ih_list[k], self.w_hh_list[k], None, None

    def _state(self, hx: Any, k: int) -> Any:
        return (hx[0][k], hx[1][k]) if self.is_lstm else hx[k]

    def construct(self, x: Tensor, hx: Any = None, seq_length: Any = None) -> tuple:
        who = type(self).__name__
        _check_tensor("x", x, who)
        if x.ndim != 3:
            layout = "(batch, seq, input)" if self.batch_first else "(seq, batch, input)"
            raise ValueError(f"For '{who}', 'x' must be 3-D {layout}, but got shape "
                             f"{list(x.shape)}.")
        _check_float("x", x, who)
        batch = x.shape[0] if self.batch_first else x.shape[1]
        if x.shape[2] != self.input_size:
            raise ValueError(f"For '{who}', the last dimension of 'x' must be input_size="
                             f"{self.input_size}, but got shape {list(x.shape)}.")
        dirs = 2 if self.bidirectional else 1
        shape = (self.num_layers * dirs, batch, self.hidden_size)
        if hx is None:
            zeros = F.zeros(shape, x.dtype)
            hx = (zeros, zeros) if self.is_lstm else zeros
        else:
            _check_state(hx, self.is_lstm, x, shape, who)
        if seq_length is not None:
            _check_tensor("seq_length", seq_length, who)
            if seq_length.dtype not in (mstype.int32, mstype.int64):
                raise TypeError(f"For '{who}', the 'seq_length' must be Int32 or Int64, but "
                                f"got {seq_length.dtype}.")
            if tuple(seq_length.shape) != (batch,):
                got = seq_length.shape[0] if seq_length.ndim else 0
                raise ValueError(f"For '{who}' batch size of x and seq_length must be equal, "
                                 f"but got {batch} of x and {got} of seq_length.")
        if self.batch_first:
            x = F.transpose(x, (1, 0, 2))
        finals = []
        for layer in range(self.num_layers):
            k = layer * dirs
            out, h_f = self.rnn(x, self._state(hx, k), seq_length, *self._weights(k))
            finals.append(h_f)
            if self.bidirectional:
                out_b, h_b = self.rnn(_reverse(x, seq_length), self._state(hx, k + 1),
                                      seq_length, *self._weights(k + 1))
                out = F.concat((out, _reverse(out_b, seq_length)), 2)
                finals.append(h_b)
            x = self.dropout_op(out) if self.dropout and layer < self.num_layers - 1 else out
        if self.batch_first:
            x = F.transpose(x, (1, 0, 2))
        if self.is_lstm:
            return x, (F.stack([h[0] for h in finals], 0), F.stack([h[1] for h in finals], 0))
        return x, F.stack(finals, 0)


class RNN(_RNNBase):
    """Stacked Elman RNN layers: ``h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)`` with
    ``act`` ``'tanh'`` or ``'relu'`` (``nonlinearity``).

    ``RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', has_bias=True,
    batch_first=False, dropout=0.0, bidirectional=False, dtype=float32)``; called as
    ``net(x, hx=None, seq_length=None)`` with ``x`` ``(T, B, input_size)`` (``(B, T, ...)``
    with ``batch_first``) and ``hx`` ``(num_layers * directions, B, hidden_size)``; returns
    ``(output, h_n)``. ``dropout`` applies (in training) to every layer's output but the
    last."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        modes = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}
        if nonlinearity not in modes:
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but "
                             f"got {nonlinearity}.")
        super().__init__(modes[nonlinearity], *args, **kwargs)


class LSTM(_RNNBase):
    """Stacked LSTM layers (gates input, forget, cell, output).

    ``LSTM(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
    dropout=0.0, bidirectional=False, dtype=float32)``; called as ``net(x, hx=None,
    seq_length=None)`` with ``hx = (h_0, c_0)``; returns ``(output, (h_n, c_n))``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)


class GRU(_RNNBase):
    """Stacked GRU layers (gates reset, update, new).

    ``GRU(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
    dropout=0.0, bidirectional=False, dtype=float32)``; called as ``net(x, hx=None,
    seq_length=None)``; returns ``(output, h_n)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("GRU", *args, **kwargs)


# --- single cells ------------------------------------------------------------------------------
class RNNCellBase(Cell):
    """A single recurrent step with ``weight_ih`` ``(chunks * hidden, input)``,
    ``weight_hh``, ``bias_ih``, ``bias_hh``, all from ``U(-1/sqrt(hidden), 1/sqrt(hidden))``."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool, num_chunks: int,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        who = type(self).__name__
        _bool(has_bias, "has_bias", who)
        _positive_int(hidden_size, "hidden_size", who)
        _positive_int(input_size, "input_size", who)
        self.input_size, self.hidden_size, self.has_bias = input_size, hidden_size, has_bias
        init = Uniform(1 / math.sqrt(hidden_size))
        rows = num_chunks * hidden_size
        self.weight_ih = Parameter(initializer(init, [rows, input_size], dtype), name="weight_ih")
        self.weight_hh = Parameter(initializer(init, [rows, hidden_size], dtype),
                                   name="weight_hh")
        self.bias_ih = self.bias_hh = None
        if has_bias:
            self.bias_ih = Parameter(initializer(init, [rows], dtype), name="bias_ih")
            self.bias_hh = Parameter(initializer(init, [rows], dtype), name="bias_hh")

    def _check(self, x: Any, hx: Any, lstm: bool) -> None:
        who = type(self).__name__
        _check_tensor("x", x, who)
        _check_float("x", x, who)
        if x.ndim != 2 or x.shape[1] != self.input_size:
            raise ValueError(f"For '{who}', 'x' must have shape (batch, {self.input_size}), "
                             f"but got {list(x.shape)}.")
        _check_state(hx, lstm, x, (x.shape[0], self.hidden_size), who)

    def _apply(self, mode: str, x: Tensor, hx: Any) -> Any:
        gi = _input_gates(x, F.cast(self.weight_ih, x.dtype),
                          None if self.bias_ih is None else F.cast(self.bias_ih, x.dtype))
        b_hh = None if self.bias_hh is None else F.cast(self.bias_hh, x.dtype)
        return _step(mode, gi, hx, F.cast(self.weight_hh, x.dtype), b_hh)


class RNNCell(RNNCellBase):
    """One Elman RNN step: ``h' = act(W_ih x + b_ih + W_hh h + b_hh)``; ``net(x, hx)`` with
    ``x`` ``(B, input_size)`` and ``hx`` ``(B, hidden_size)``."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 nonlinearity: str = "tanh", dtype: Any = mstype.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, 1, dtype)
        if not isinstance(nonlinearity, str):
            raise TypeError(f"For 'RNNCell', the 'nonlinearity' must be a str, but got "
                            f"{type(nonlinearity).__name__}.")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNNCell', the 'nonlinearity' should be in ['tanh', "
                             f"'relu'], but got {nonlinearity}.")
        self.nonlinearity = nonlinearity

    def construct(self, x: Tensor, hx: Tensor) -> Tensor:
        self._check(x, hx, False)
        return self._apply("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", x, hx)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``net(x, (h, c))`` returns ``(h', c')``."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = mstype.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, 4, dtype)

    def construct(self, x: Tensor, hx: Any) -> tuple:
        self._check(x, hx, True)
        return self._apply("LSTM", x, tuple(hx))


class GRUCell(RNNCellBase):
    """One GRU step: ``net(x, hx)`` returns ``h'``."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = mstype.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, 3, dtype)

    def construct(self, x: Tensor, hx: Tensor) -> Tensor:
        self._check(x, hx, False)
        return self._apply("GRU", x, hx)


__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]
