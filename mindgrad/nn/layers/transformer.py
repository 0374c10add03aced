"""Attention and Transformer layers: ``MultiheadAttention``, ``TransformerEncoderLayer``,
``TransformerDecoderLayer``, ``TransformerEncoder``, ``TransformerDecoder`` and
``Transformer``, composed of differentiable operators.

MindSpore's layout and conventions: sequences are ``(L, N, E)`` (``(N, L, E)`` with
``batch_first``; 2-D inputs are one unbatched sequence); ``in_proj_weight`` ``(3E, E)`` is
Xavier-uniform and ``in_proj_bias`` zero; masks are bool (True: not attended) or float (added
to the scores); queries and keys are each scaled by ``head_dim ** -1/4`` before their product;
the attention weights returned are averaged over the heads unless ``average_attn_weights`` is
False.
"""
from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from ...common.initializer import HeUniform, Uniform, XavierNormal, XavierUniform, initializer
from ...common.parameter import Parameter
from ...core import dtype as mstype
from ...core.tensor import Tensor
from ... import ops
from ...ops import functional as F
from ..cell import Cell
from .activation import GELU, ReLU
from .basic import Dense, Dropout
from .container import CellList
from .normalization import LayerNorm


def _linear(x: Tensor, w: Tensor, b: Any) -> Tensor:
    y = F.matmul(x, w, transpose_b=True)
    return y if b is None else F.add(y, b)


def _is_float(t: Tensor) -> bool:
    return t.dtype.np_dtype.kind == "f"


def _additive_mask(mask: Tensor, dtype: Any) -> Tensor:
    """A bool mask as 0 / -inf of ``dtype``; a float mask as it is."""
    if mask.dtype == mstype.bool_:
        return F.masked_fill(F.zeros(mask.shape, dtype), mask, float("-inf"))
    return mask


def _check_shapes(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Any,
                  attn_mask: Any, num_heads: int) -> bool:
    """MindSpore's shape checks; whether the input is batched."""
    nd = query.ndim
    if nd not in (2, 3):
        raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got "
                         f"`query` with {nd}D.")
    if key.ndim != nd or value.ndim != nd:
        kind = "batched" if nd == 3 else "unbatched"
        raise ValueError(f"For {kind} `query`, the `key` and `value` must be {nd}D tensor, but "
                         f"got `key` with {key.ndim}D and `value` with {value.ndim}D.")
    if key_padding_mask is not None and key_padding_mask.ndim != nd - 1:
        raise ValueError(f"For {'batched' if nd == 3 else 'unbatched'} `query`, the "
                         f"`key_padding_mask` must be `None` or {nd - 1}D, but got "
                         f"`key_padding_mask` with {key_padding_mask.ndim}D.")
    if attn_mask is not None and attn_mask.ndim not in (2, 3):
        raise ValueError(f"The `attn_mask` must be `None`, 2-D or 3-D, but got `attn_mask` "
                         f"with {attn_mask.ndim}D.")
    if attn_mask is not None and nd == 2 and attn_mask.ndim == 3:
        want = (num_heads, query.shape[0], key.shape[0])
        if tuple(attn_mask.shape) != want:
            raise ValueError(f"The shape of `attn_mask` must to be {want}, but got "
                             f"{tuple(attn_mask.shape)}.")
    return nd == 3


def multi_head_attention_forward(mha: "MultiheadAttention", query: Tensor, key: Tensor,
                                 value: Tensor, key_padding_mask: Any, attn_mask: Any,
                                 average_attn_weights: bool) -> tuple:
    """``(output (L, N, E), weights)`` of ``mha``'s attention on ``(L, N, E)`` inputs (or
    unbatched ``(L, E)`` ones)."""
    heads, embed = mha.num_heads, mha.embed_dim
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, heads)
    if not batched:
        query, key, value = (F.expand_dims(t, 1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = F.expand_dims(key_padding_mask, 0)
    tgt_len, bsz, e = query.shape
    if key_padding_mask is not None and key_padding_mask.dtype != mstype.bool_ \
            and not _is_float(key_padding_mask):
        raise ValueError("The `key_padding_mask` only supports bool and floating dtypes.")
    if e != embed:
        raise ValueError(f"The `embed_dim` should be {embed}, but got {e}.")
    if mha.in_proj_weight is not None:
        if tuple(key.shape) != tuple(value.shape):
            raise ValueError(f"The shape of `key` {tuple(key.shape)} does not match `value` "
                             f"{tuple(value.shape)}.")
        w_q, w_k, w_v = F.split(mha.in_proj_weight, embed, 0)
    else:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise ValueError(f"The sequence length and batch dims of `key`: "
                             f"{tuple(key.shape[:2])} do not match `value`: "
                             f"{tuple(value.shape[:2])}.")
        w_q, w_k, w_v = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
    b_q = b_k = b_v = None
    if mha.in_proj_bias is not None:
        b_q, b_k, b_v = F.split(mha.in_proj_bias, embed, 0)
    q, k, v = _linear(query, w_q, b_q), _linear(key, w_k, b_k), _linear(value, w_v, b_v)
    if attn_mask is not None:
        if attn_mask.dtype == mstype.uint8:
            attn_mask = F.cast(attn_mask, mstype.bool_)
        elif attn_mask.dtype != mstype.bool_ and not _is_float(attn_mask):
            raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got "
                             f"not {attn_mask.dtype}.")
        src_len = key.shape[0]
        want = (tgt_len, src_len) if attn_mask.ndim == 2 else (bsz * heads, tgt_len, src_len)
        if tuple(attn_mask.shape) != want:
            raise ValueError(f"The shape of the `attn_mask` should be {want}, but got "
                             f"{tuple(attn_mask.shape)}.")
    if mha.bias_k is not None:
        k = F.concat((k, F.tile(mha.bias_k, (1, bsz, 1))), 0)
        v = F.concat((v, F.tile(mha.bias_v, (1, bsz, 1))), 0)
        attn_mask = _pad_last(attn_mask)
        key_padding_mask = _pad_last(key_padding_mask)
    head_dim = embed // heads
    q = F.transpose(F.reshape(q, (tgt_len, bsz * heads, head_dim)), (1, 0, 2))
    k = F.transpose(F.reshape(k, (k.shape[0], bsz * heads, head_dim)), (1, 0, 2))
    v = F.transpose(F.reshape(v, (v.shape[0], bsz * heads, head_dim)), (1, 0, 2))
    if mha.add_zero_attn:
        zeros = F.zeros((bsz * heads, 1, head_dim), k.dtype)
        k, v = F.concat((k, zeros), 1), F.concat((v, zeros), 1)
        attn_mask = _pad_last(attn_mask)
        key_padding_mask = _pad_last(key_padding_mask)
    src_len = k.shape[1]
    mask = None if attn_mask is None else _additive_mask(attn_mask, q.dtype)
    if mask is not None and mask.ndim == 2:
        mask = F.reshape(mask, (1, 1) + tuple(mask.shape))
    elif mask is not None:
        mask = F.reshape(mask, (bsz, heads, tgt_len, src_len))
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise ValueError(f"The shape of `key_padding_mask` should be {(bsz, src_len)}, but "
                             f"got {tuple(key_padding_mask.shape)}.")
        # as additive masks, a bool pair's union (MindSpore's logical_or) is their sum
        kpm = _additive_mask(F.reshape(key_padding_mask, (bsz, 1, 1, src_len)), q.dtype)
        mask = kpm if mask is None else F.add(mask, kpm)
    q = F.reshape(q, (bsz, heads, tgt_len, head_dim))
    k = F.reshape(k, (bsz, heads, src_len, head_dim))
    v = F.reshape(v, (bsz, heads, src_len, head_dim))
    scale = math.sqrt(math.sqrt(head_dim))
    scores = F.matmul(F.div(q, scale), F.div(F.transpose(k, (0, 1, 3, 2)), scale))
    if mask is not None:
        scores = F.add(scores, mask)
    attn = F.softmax(scores, -1)
    if mha.dropout and mha.training:
        attn = ops.dropout(attn, p=mha.dropout, training=True)
    out = F.matmul(attn, v)
    out = F.reshape(F.transpose(out, (2, 0, 1, 3)), (bsz * tgt_len, embed))
    out = _linear(out, mha.out_proj.weight, mha.out_proj.bias)
    out = F.reshape(out, (tgt_len, bsz, out.shape[1]))
    if average_attn_weights:
        attn = F.div(F.reduce_sum(attn, 1), heads)
    if not batched:
        out = F.squeeze(out, 1)
        attn = F.squeeze(attn, 0)
    return out, attn


def _pad_last(mask: Any) -> Any:
    """A mask with one more key position (not masked) at the end."""
    if mask is None:
        return None
    pad = np.zeros(tuple(mask.shape[:-1]) + (1,), mask.dtype.np_dtype)
    return F.concat((mask, Tensor(pad)), -1)


class MultiheadAttention(Cell):
    """Multi-head attention ``softmax(q k^T / sqrt(head_dim) + mask) v`` over ``num_heads``
    heads with input projections (``in_proj_weight``, or ``q_proj_weight`` /
    ``k_proj_weight`` / ``v_proj_weight`` when ``kdim`` or ``vdim`` differ from
    ``embed_dim``) and the output projection ``out_proj`` (a ``Dense``).

    Called as ``mha(query, key, value, key_padding_mask=None, need_weights=True,
    attn_mask=None, average_attn_weights=True)``; returns ``(output, weights)``, or
    ``(output,)`` when ``need_weights`` is False."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0,
                 has_bias: bool = True, add_bias_kv: bool = False, add_zero_attn: bool = False,
                 kdim: Any = None, vdim: Any = None, batch_first: bool = False,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        dtype = mstype.float32 if dtype is None else dtype
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim,
                                                                          embed_dim), dtype),
                                            "in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim),
                                                       dtype), "q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim),
                                                       dtype), "k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim),
                                                       dtype), "v_proj_weight")
            self.in_proj_weight = None
        self.in_proj_bias = (Parameter(initializer("zeros", (3 * embed_dim,), dtype),
                                       "in_proj_bias") if has_bias else None)
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias,
                              weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(1 / math.sqrt(embed_dim)), dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype),
                                    "bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype),
                                    "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn, self.dtype = add_zero_attn, dtype

    def construct(self, query: Tensor, key: Tensor, value: Tensor,
                  key_padding_mask: Any = None, need_weights: bool = True,
                  attn_mask: Any = None, average_attn_weights: bool = True) -> tuple:
        if key_padding_mask is not None and key_padding_mask.dtype != mstype.bool_ \
                and not _is_float(key_padding_mask):
            raise ValueError("only bool and floating types of key_padding_mask are supported")
        batched = query.ndim == 3
        if self.batch_first and batched:
            query, key, value = (F.swapaxes(t, 0, 1) for t in (query, key, value))
        out, weights = multi_head_attention_forward(self, query, key, value, key_padding_mask,
                                                    attn_mask, average_attn_weights)
        if self.batch_first and batched:
            out = F.swapaxes(out, 0, 1)
        return (out, weights) if need_weights else (out,)


def _activation(activation: Any) -> Any:
    """MindSpore's rule: 'relu' / 'gelu', or ``ops.relu`` / ``ops.gelu`` themselves (a Cell
    is callable, so even ``nn.ReLU()`` is refused by the last check, as in MindSpore)."""
    if not isinstance(activation, (str, Cell)) and not callable(activation):
        raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, "
                         f"but get {activation}.")
    if isinstance(activation, Cell) and not isinstance(activation, (ReLU, GELU)):
        raise ValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, but "
                         f"get {activation}.")
    if callable(activation) and activation is not ops.relu and activation is not ops.gelu:
        raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, "
                         f"but get {activation}.")
    if isinstance(activation, str):
        if activation == "relu":
            return ops.relu
        if activation == "gelu":
            return ops.gelu
        raise ValueError(f"The activation must be relu/gelu, but get {activation}")
    return activation


def _feed_forward(layer: Cell, d_model: int, dim_feedforward: int, dtype: Any) -> None:
    layer.dense1 = Dense(d_model, dim_feedforward, weight_init=HeUniform(math.sqrt(5)),
                         bias_init=Uniform(1 / math.sqrt(d_model)), dtype=dtype)
    layer.dropout = Dropout(p=layer.dropout_num)
    layer.dense2 = Dense(dim_feedforward, d_model, weight_init=HeUniform(math.sqrt(5)),
                         bias_init=Uniform(1 / math.sqrt(dim_feedforward)), dtype=dtype)


class _TransformerLayer(Cell):
    """What the encoder and decoder layers share: arguments, feed-forward block, norms."""

    def _setup(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float,
               activation: Any, layer_norm_eps: float, batch_first: bool, norm_first: bool,
               dtype: Any, n_norms: int) -> None:
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps = dropout, layer_norm_eps
        self.batch_first, self.norm_first, self.dtype = batch_first, norm_first, dtype
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, dtype=dtype)
        if n_norms == 3:
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                     batch_first=batch_first, dtype=dtype)
        _feed_forward(self, d_model, dim_feedforward, dtype)
        for i in range(1, n_norms + 1):
            setattr(self, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for i in range(1, n_norms + 1):
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self.activation1 = activation
        self.activation = _activation(activation)

    def _sa_block(self, x: Tensor, attn_mask: Any, key_padding_mask: Any) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor, drop: Cell) -> Tensor:
        return drop(self.dense2(self.dropout(self.activation(self.dense1(x)))))


def _check_padding_mask(mask: Any) -> None:
    if mask is not None and mask.dtype != mstype.bool_ and not _is_float(mask):
        raise AssertionError("only bool and floating types of key_padding_mask are supported")


class TransformerEncoderLayer(_TransformerLayer):
    """Self-attention then a feed-forward block (``dense2(dropout(act(dense1(x))))``), each
    with a residual connection and LayerNorm (before the block with ``norm_first``)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: Any = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self._setup(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                    batch_first, norm_first, dtype, 2)

    def construct(self, src: Tensor, src_mask: Any = None,
                  src_key_padding_mask: Any = None) -> Tensor:
        _check_padding_mask(src_key_padding_mask)
        x = src
        if self.norm_first:
            x = F.add(x, self._sa_block(self.norm1(x), src_mask, src_key_padding_mask))
            return F.add(x, self._ff_block(self.norm2(x), self.dropout2))
        x = self.norm1(F.add(x, self._sa_block(x, src_mask, src_key_padding_mask)))
        return self.norm2(F.add(x, self._ff_block(x, self.dropout2)))


class TransformerDecoderLayer(_TransformerLayer):
    """Self-attention, attention over the encoder's ``memory``, then a feed-forward block,
    each with a residual connection and LayerNorm (before the block with ``norm_first``)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: Any = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self._setup(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                    batch_first, norm_first, dtype, 3)

    def _mha_block(self, x: Tensor, mem: Tensor, attn_mask: Any,
                   key_padding_mask: Any) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout2(x)

    def construct(self, tgt: Tensor, memory: Tensor, tgt_mask: Any = None,
                  memory_mask: Any = None, tgt_key_padding_mask: Any = None,
                  memory_key_padding_mask: Any = None) -> Tensor:
        x = tgt
        if self.norm_first:
            x = F.add(x, self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask))
            x = F.add(x, self._mha_block(self.norm2(x), memory, memory_mask,
                                         memory_key_padding_mask))
            return F.add(x, self._ff_block(self.norm3(x), self.dropout3))
        x = self.norm1(F.add(x, self._sa_block(x, tgt_mask, tgt_key_padding_mask)))
        x = self.norm2(F.add(x, self._mha_block(x, memory, memory_mask,
                                                memory_key_padding_mask)))
        return self.norm3(F.add(x, self._ff_block(x, self.dropout3)))


def _clones(layer: _TransformerLayer, cls: type, num_layers: int) -> CellList:
    """``num_layers`` independent layers made like ``layer`` (fresh weights, copied)."""
    proto = cls(layer.d_model, layer.nhead, layer.dim_feedforward, layer.dropout_num,
                layer.activation1, layer.layernorm_eps, layer.batch_first, layer.norm_first,
                dtype=layer.dtype)
    return CellList([copy.deepcopy(proto) for _ in range(num_layers)])


class TransformerEncoder(Cell):
    """``num_layers`` encoder layers made like ``encoder_layer``, then ``norm`` if given."""

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int,
                 norm: Any = None) -> None:
        super().__init__()
        self.layers = _clones(encoder_layer, TransformerEncoderLayer, num_layers)
        self.num_layers, self.norm = num_layers, norm

    def construct(self, src: Tensor, src_mask: Any = None,
                  src_key_padding_mask: Any = None) -> Tensor:
        _check_padding_mask(src_key_padding_mask)
        out = src
        for layer in self.layers:
            out = layer(out, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return out if self.norm is None else self.norm(out)


class TransformerDecoder(Cell):
    """``num_layers`` decoder layers made like ``decoder_layer``, then ``norm`` if given."""

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Any = None) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, TransformerDecoderLayer, num_layers)
        self.num_layers, self.norm = num_layers, norm

    def construct(self, tgt: Tensor, memory: Tensor, tgt_mask: Any = None,
                  memory_mask: Any = None, tgt_key_padding_mask: Any = None,
                  memory_key_padding_mask: Any = None) -> Tensor:
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                        tgt_key_padding_mask=tgt_key_padding_mask,
                        memory_key_padding_mask=memory_key_padding_mask)
        return out if self.norm is None else self.norm(out)


class Transformer(Cell):
    """An encoder (``num_encoder_layers`` layers and a final LayerNorm) and a decoder;
    every Parameter of rank > 1 is re-drawn Xavier-uniform, as in MindSpore."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: Any = "relu", custom_encoder: Any = None,
                 custom_decoder: Any = None, layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                batch_first, norm_first)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(*args, dtype=dtype), num_encoder_layers,
                LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(*args, dtype=dtype), num_decoder_layers,
                LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src: Tensor, tgt: Tensor, src_mask: Any = None, tgt_mask: Any = None,
                  memory_mask: Any = None, src_key_padding_mask: Any = None,
                  tgt_key_padding_mask: Any = None, memory_key_padding_mask: Any = None) -> Tensor:
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError("The number of features for 'src' and 'tgt' must be equal to "
                             "`d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)


__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerDecoder", "Transformer"]
