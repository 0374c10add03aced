"""The ``mindspore.nn`` layer cases (recurrent, attention, convolution, pooling, padding and
shape layers), recorded with the real MindSpore by ``tools/record_catalogue.py --suite
nnlayers`` into ``tests/fixtures/nnlayers.json`` and compared with mindgrad by
``tests/test_nnlayers.py``.

A layer case builds the Cell in either library, loads the same weights into it (drawn from
a fixed seed, in the order of the Parameters' names) and calls it; nested outputs (the
LSTM's ``(output, (h_n, c_n))``) are flattened. A ``_pgrad`` case returns the gradients of
the Parameters (the order of ``trainable_params``) of ``sum(cos-weights * output)`` over all
outputs, so that weight gradients are compared too."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from catalogue_cases import Case, _r


def _flat(out: Any) -> tuple:
    if isinstance(out, (tuple, list)):
        return tuple(t for o in out for t in _flat(o))
    return (out,)


def _build(ms: Any, make: Callable, seed: int) -> Any:
    net = make(ms.nn)
    rng = np.random.default_rng(seed)
    for _, p in sorted(net.parameters_and_names(), key=lambda np_: np_[0]):
        p.set_data(ms.Tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(np.float32)))
    net.set_train(False)
    return net


def _layer(make: Callable, seed: int = 0, call: Callable | None = None) -> Callable:
    """``fn(ms, ops, *xs)``: the layer ``make(nn)`` with seeded weights, called on ``xs``."""
    call = call or (lambda net, *xs: net(*xs))

    def fn(ms, ops, *xs):
        return _flat(call(_build(ms, make, seed), *xs))
    return fn


def _cos(shape: tuple) -> np.ndarray:
    n = int(np.prod(shape)) if shape else 1
    return np.cos(np.arange(n) + 2.0).reshape(shape).astype(np.float32)


def _pgrad(make: Callable, seed: int = 0, call: Callable | None = None) -> Callable:
    """``fn(ms, ops, *xs)``: the gradients of the layer's trainable Parameters."""
    call = call or (lambda net, *xs: net(*xs))

    def fn(ms, ops, *xs):
        net = _build(ms, make, seed)

        def loss(*a):
            total = None
            for o in _flat(call(net, *a)):
                term = (o * ms.Tensor(_cos(tuple(o.shape)))).sum()
                total = term if total is None else total + term
            return total
        return ms.grad(loss, grad_position=None, weights=net.trainable_params())(*xs)
    return fn


SEQ = _r(301, (5, 2, 3))        # (T, B, I)
SEQ_BF = _r(302, (2, 5, 3))     # (B, T, I)
H0 = _r(303, (2, 4), lo=-1, hi=1)
H2 = _r(304, (4, 2, 4), lo=-1, hi=1)   # 2 layers x 2 directions
C2 = _r(305, (4, 2, 4), lo=-1, hi=1)
X2 = _r(306, (2, 3))
LENS = np.array([3, 5], np.int32)

CASES: list[Case] = [
    # --- recurrent layers ------------------------------------------------------------------
    Case("rnn_tanh", _layer(lambda nn: nn.RNN(3, 4)), [SEQ], (0,)),
    Case("rnn_relu_2layer", _layer(lambda nn: nn.RNN(3, 4, 2, nonlinearity="relu")),
         [SEQ], (0,)),
    Case("rnn_bi_2layer_h0", _layer(lambda nn: nn.RNN(3, 4, 2, bidirectional=True)),
         [SEQ, H2], (0, 1)),
    Case("rnn_batch_first_nobias",
         _layer(lambda nn: nn.RNN(3, 4, has_bias=False, batch_first=True)), [SEQ_BF], (0,)),
    Case("rnn_seq_length_bi",
         _layer(lambda nn: nn.RNN(3, 4, bidirectional=True),
                call=lambda net, x, s: net(x, None, s)), [SEQ, LENS], (0,)),
    Case("rnn_pgrad", _pgrad(lambda nn: nn.RNN(3, 4, 2, bidirectional=True)), [SEQ]),
    Case("lstm", _layer(lambda nn: nn.LSTM(3, 4)), [SEQ], (0,)),
    Case("lstm_bi_2layer_h0c0",
         _layer(lambda nn: nn.LSTM(3, 4, 2, bidirectional=True),
                call=lambda net, x, h, c: net(x, (h, c))), [SEQ, H2, C2], (0, 1, 2)),
    Case("lstm_batch_first_nobias",
         _layer(lambda nn: nn.LSTM(3, 4, has_bias=False, batch_first=True)), [SEQ_BF], (0,)),
    Case("lstm_seq_length",
         _layer(lambda nn: nn.LSTM(3, 4, 2), call=lambda net, x, s: net(x, None, s)),
         [SEQ, LENS], (0,)),
    Case("lstm_seq_length_bi",
         _layer(lambda nn: nn.LSTM(3, 4, bidirectional=True),
                call=lambda net, x, s: net(x, None, s)), [SEQ, LENS], (0,)),
    Case("lstm_pgrad", _pgrad(lambda nn: nn.LSTM(3, 4, 2, bidirectional=True)), [SEQ]),
    Case("gru", _layer(lambda nn: nn.GRU(3, 4)), [SEQ], (0,)),
    Case("gru_bi_2layer_h0", _layer(lambda nn: nn.GRU(3, 4, 2, bidirectional=True)),
         [SEQ, H2], (0, 1)),
    Case("gru_batch_first_nobias",
         _layer(lambda nn: nn.GRU(3, 4, has_bias=False, batch_first=True)), [SEQ_BF], (0,)),
    Case("gru_seq_length",
         _layer(lambda nn: nn.GRU(3, 4), call=lambda net, x, s: net(x, None, s)),
         [SEQ, LENS], (0,)),
    Case("gru_pgrad", _pgrad(lambda nn: nn.GRU(3, 4, 2)), [SEQ]),
    Case("rnncell", _layer(lambda nn: nn.RNNCell(3, 4)), [X2, H0], (0, 1)),
    Case("rnncell_relu_nobias",
         _layer(lambda nn: nn.RNNCell(3, 4, False, "relu")), [X2, H0], (0, 1)),
    Case("rnncell_pgrad", _pgrad(lambda nn: nn.RNNCell(3, 4)), [X2, H0]),
    Case("lstmcell", _layer(lambda nn: nn.LSTMCell(3, 4),
                            call=lambda net, x, h, c: net(x, (h, c))),
         [X2, H0, H0 * 2], (0, 1, 2)),
    Case("lstmcell_pgrad", _pgrad(lambda nn: nn.LSTMCell(3, 4),
                                  call=lambda net, x, h, c: net(x, (h, c))), [X2, H0, H0 * 2]),
    Case("grucell", _layer(lambda nn: nn.GRUCell(3, 4)), [X2, H0], (0, 1)),
    Case("grucell_nobias_pgrad", _pgrad(lambda nn: nn.GRUCell(3, 4, False)), [X2, H0]),
    # bad input: MindSpore's error types
    Case("rnn_err_dropout", lambda ms, ops: ms.nn.RNN(3, 4, dropout=1.0), []),
    Case("lstm_err_hx_not_tuple", _layer(lambda nn: nn.LSTM(3, 4),
                                         call=lambda net, x, h: net(x, h)), [SEQ, H0[None]]),
    Case("gru_err_seq_length_size", _layer(lambda nn: nn.GRU(3, 4),
                                           call=lambda net, x, s: net(x, None, s)),
         [SEQ, np.array([1, 2, 3], np.int32)]),
    Case("rnncell_err_nonlinearity", lambda ms, ops: ms.nn.RNNCell(3, 4, nonlinearity="gelu"),
         []),
]

Q = _r(311, (3, 2, 8))          # (L, N, E)
KV = _r(312, (4, 2, 8))         # (S, N, E)
K6 = _r(313, (4, 2, 6))
V5 = _r(314, (4, 2, 5))
Q_BF = _r(315, (2, 3, 8))
AMASK = np.array([[False, True, False, False], [False, False, True, True],
                  [True, False, False, False]])
KPM = np.array([[False, False, False, True], [False, True, False, False]])
FMASK = _r(316, (4, 3, 4), lo=-1, hi=0)   # (N * heads, L, S)
SRC_MASK = np.triu(np.ones((3, 3), bool), 1)
SRC_KPM = np.array([[False, False, True], [False, False, False]])
TGT = _r(317, (2, 2, 8))


def _mha(**kw):
    return lambda nn: nn.MultiheadAttention(8, 2, **kw)


CASES += [
    # --- attention and Transformer layers ----------------------------------------------------
    Case("mha_self", _layer(_mha(), call=lambda net, q: net(q, q, q)), [Q], (0,)),
    Case("mha_cross", _layer(_mha()), [Q, KV, KV], (0, 1, 2)),
    Case("mha_kdim_vdim", _layer(_mha(kdim=6, vdim=5)), [Q, K6, V5], (0, 1, 2)),
    Case("mha_batch_first", _layer(_mha(batch_first=True), call=lambda net, q: net(q, q, q)),
         [Q_BF], (0,)),
    Case("mha_bool_masks",
         _layer(_mha(), call=lambda net, q, kv, a, k: net(q, kv, kv, key_padding_mask=k,
                                                          attn_mask=a)),
         [Q, KV, AMASK, KPM], (0, 1)),
    Case("mha_float_mask_per_head",
         _layer(_mha(), call=lambda net, q, kv, a: net(q, kv, kv, attn_mask=a,
                                                       average_attn_weights=False)),
         [Q, KV, FMASK], (0, 1)),
    Case("mha_bias_kv_zero_attn",
         _layer(_mha(add_bias_kv=True, add_zero_attn=True),
                call=lambda net, q, kv, k: net(q, kv, kv, key_padding_mask=k)),
         [Q, KV, KPM], (0, 1)),
    Case("mha_no_bias_no_weights",
         _layer(_mha(has_bias=False), call=lambda net, q: net(q, q, q, need_weights=False)),
         [Q], (0,)),
    Case("mha_unbatched", _layer(_mha(), call=lambda net, q, kv: net(q, kv, kv)),
         [Q[:, 0], KV[:, 0]], (0, 1)),
    Case("mha_pgrad", _pgrad(_mha(add_bias_kv=True)), [Q, KV, KV]),
    Case("mha_err_heads", lambda ms, ops: ms.nn.MultiheadAttention(8, 3), []),
    Case("encoder_layer", _layer(lambda nn: nn.TransformerEncoderLayer(8, 2, 16)), [Q], (0,)),
    Case("encoder_layer_gelu_norm_first_masks",
         _layer(lambda nn: nn.TransformerEncoderLayer(8, 2, 16, activation="gelu",
                                                      norm_first=True, batch_first=True),
                call=lambda net, x, m, k: net(x, m, k)), [Q_BF, SRC_MASK, SRC_KPM], (0,)),
    Case("encoder_layer_pgrad", _pgrad(lambda nn: nn.TransformerEncoderLayer(8, 2, 16)), [Q]),
    Case("encoder_layer_err_activation_cell",
         lambda ms, ops: ms.nn.TransformerEncoderLayer(8, 2, 16, activation=ms.nn.ReLU()), []),
    Case("decoder_layer",
         _layer(lambda nn: nn.TransformerDecoderLayer(8, 2, 16),
                call=lambda net, t, m, tm: net(t, m, tgt_mask=tm)),
         [Q, KV, SRC_MASK], (0, 1)),
    Case("decoder_layer_norm_first_pgrad",
         _pgrad(lambda nn: nn.TransformerDecoderLayer(8, 2, 16, norm_first=True)), [Q, KV]),
    Case("encoder_2_layers_norm",
         _layer(lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2,
                                                 nn.LayerNorm((8,))),
                call=lambda net, x, k: net(x, src_key_padding_mask=k)), [Q, SRC_KPM], (0,)),
    Case("decoder_2_layers",
         _layer(lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2),
                call=lambda net, t, m, k: net(t, m, memory_key_padding_mask=k)),
         [Q, KV, KPM], (0, 1)),
    Case("transformer",
         _layer(lambda nn: nn.Transformer(8, 2, 1, 1, 16),
                call=lambda net, s, t: net(s, t)), [Q, TGT], (0, 1)),
    Case("transformer_batch_first_pgrad",
         _pgrad(lambda nn: nn.Transformer(8, 2, 1, 1, 16, batch_first=True)),
         [Q_BF, Q_BF[:, :2]]),
]

L8 = _r(321, (2, 3, 8))
L9 = _r(322, (2, 4, 9))
IMG5 = _r(323, (1, 3, 5, 5))
IMG54 = _r(324, (1, 4, 5, 4))
W1 = _r(325, (4, 3, 3))

CASES += [
    # --- convolutions ----------------------------------------------------------------------------
    Case("conv1d_same", _layer(lambda nn: nn.Conv1d(3, 4, 3)), [L8], (0,)),
    Case("conv1d_pad_stride_dilation_group_bias",
         _layer(lambda nn: nn.Conv1d(4, 6, 3, stride=2, pad_mode="pad", padding=2, dilation=2,
                                     group=2, has_bias=True)), [L9], (0,)),
    Case("conv1d_valid", _layer(lambda nn: nn.Conv1d(3, 4, 4, stride=3, pad_mode="valid")),
         [_r(326, (2, 3, 10))], (0,)),
    Case("conv1d_pgrad", _pgrad(lambda nn: nn.Conv1d(4, 6, 3, stride=2, group=2,
                                                     has_bias=True)), [L9]),
    Case("conv1d_err_padding_same",
         lambda ms, ops: ms.nn.Conv1d(3, 4, 3, padding=1)(ms.Tensor(L8)), []),
    Case("conv2d_transpose_same", _layer(lambda nn: nn.Conv2dTranspose(3, 4, 3)), [IMG5], (0,)),
    Case("conv2d_transpose_stride_group_bias",
         _layer(lambda nn: nn.Conv2dTranspose(4, 6, 3, stride=2, group=2, has_bias=True)),
         [IMG54], (0,)),
    Case("conv2d_transpose_valid_dilation",
         _layer(lambda nn: nn.Conv2dTranspose(3, 4, (2, 3), stride=(3, 1), pad_mode="valid",
                                              dilation=(1, 2))), [IMG5], (0,)),
    Case("conv2d_transpose_pad_output_padding",
         _layer(lambda nn: nn.Conv2dTranspose(3, 4, 3, stride=2, pad_mode="pad",
                                              padding=(1, 0, 2, 1), output_padding=1,
                                              has_bias=True)), [IMG5], (0,)),
    Case("conv2d_transpose_pgrad",
         _pgrad(lambda nn: nn.Conv2dTranspose(4, 6, 3, stride=2, group=2, has_bias=True)),
         [IMG54]),
    Case("conv2d_transpose_err_output_padding",
         lambda ms, ops: ms.nn.Conv2dTranspose(3, 4, 3, output_padding=1)(ms.Tensor(IMG5)), []),
    Case("conv1d_transpose_same", _layer(lambda nn: nn.Conv1dTranspose(3, 4, 3, stride=2)),
         [_r(327, (2, 3, 6))], (0,)),
    Case("conv1d_transpose_pad_group_bias",
         _layer(lambda nn: nn.Conv1dTranspose(4, 2, 3, stride=3, pad_mode="pad", padding=1,
                                              group=2, has_bias=True)),
         [_r(328, (2, 4, 6))], (0,)),
    Case("conv1d_transpose_valid", _layer(lambda nn: nn.Conv1dTranspose(3, 2, 2, stride=3,
                                                                        pad_mode="valid")),
         [_r(329, (2, 3, 6))], (0,)),
    Case("conv1d_transpose_pgrad", _pgrad(lambda nn: nn.Conv1dTranspose(3, 4, 3, stride=2,
                                                                        has_bias=True)),
         [_r(327, (2, 3, 6))]),
    Case("ops_conv1d", lambda ms, ops, x, w: ops.conv1d(x, w), [L8, W1], (0, 1)),
    Case("ops_conv1d_pad_bias",
         lambda ms, ops, x, w, b: ops.conv1d(x, w, b, stride=2, pad_mode="pad", padding=(1,),
                                             dilation=2), [L8, W1, _r(330, (4,))], (0, 1, 2)),
    Case("ops_conv1d_same_groups",
         lambda ms, ops, x, w: ops.conv1d(x, w, pad_mode="same", stride=3, groups=2),
         [L9, _r(331, (4, 2, 2))], (0, 1)),
    Case("ops_conv1d_err_padding_pair",
         lambda ms, ops, x, w: ops.conv1d(x, w, pad_mode="pad", padding=(1, 2)), [L8, W1]),
]

S9 = _r(341, (2, 3, 9))
S8 = _r(342, (2, 3, 8))
IMG76 = _r(343, (2, 3, 7, 6))
VOL = _r(344, (1, 2, 5, 4, 6))
POS9 = _r(345, (2, 3, 9), lo=0.1, hi=2.0)
POS_IMG = _r(346, (1, 2, 7, 7), lo=0.1, hi=2.0)


def _cell(make, call=None):
    return _layer(make, call=call)


CASES += [
    # --- pooling --------------------------------------------------------------------------------
    Case("maxpool1d_valid", _cell(lambda nn: nn.MaxPool1d(3, 2)), [S9], (0,)),
    Case("maxpool1d_same", _cell(lambda nn: nn.MaxPool1d(3, 2, "same")), [S8], (0,)),
    Case("maxpool1d_unbatched", _cell(lambda nn: nn.MaxPool1d(2, 2)), [S8[0]], (0,)),
    Case("maxpool1d_pad_dilation_ceil_indices",
         _cell(lambda nn: nn.MaxPool1d(3, 2, "pad", 1, 2, True, True)), [S9], (0,)),
    Case("maxpool1d_err_padding_valid", lambda ms, ops: ms.nn.MaxPool1d(3, 2, padding=1), []),
    Case("avgpool1d_valid", _cell(lambda nn: nn.AvgPool1d(3, 2)), [S9], (0,)),
    Case("avgpool1d_same", _cell(lambda nn: nn.AvgPool1d(3, 2, "same")), [S8], (0,)),
    Case("avgpool1d_single_window", _cell(lambda nn: nn.AvgPool1d(6, 4, "same")), [S8], (0,)),
    Case("avgpool1d_pad_ceil_exclude",
         _cell(lambda nn: nn.AvgPool1d(3, 2, "pad", 1, True, False)), [S8], (0,)),
    Case("avgpool1d_pad", _cell(lambda nn: nn.AvgPool1d(4, 3, "pad", 2)), [S9], (0,)),
    Case("ops_avg_pool1d", lambda ms, ops, x: ops.avg_pool1d(x, 3, 2, 1, True, False), [S8],
         (0,)),
    Case("adaptive_avg_pool1d", _cell(lambda nn: nn.AdaptiveAvgPool1d(3)), [S9], (0,)),
    Case("adaptive_max_pool1d", _cell(lambda nn: nn.AdaptiveMaxPool1d(4)), [S8], (0,)),
    Case("adaptive_avg_pool1d_err_divisible",
         lambda ms, ops, x: ops.adaptive_avg_pool1d(x, 4), [S9]),
    Case("adaptive_avg_pool2d", _cell(lambda nn: nn.AdaptiveAvgPool2d((3, 4))), [IMG76], (0,)),
    Case("adaptive_avg_pool2d_none", _cell(lambda nn: nn.AdaptiveAvgPool2d((None, 4))),
         [IMG76], (0,)),
    Case("adaptive_avg_pool2d_3d_input", _cell(lambda nn: nn.AdaptiveAvgPool2d(2)),
         [IMG76[0]], (0,)),
    Case("adaptive_max_pool2d", _cell(lambda nn: nn.AdaptiveMaxPool2d((3, 4))), [IMG76], (0,)),
    Case("adaptive_max_pool2d_indices",
         _cell(lambda nn: nn.AdaptiveMaxPool2d(3, return_indices=True)), [IMG76], (0,)),
    Case("adaptive_avg_pool3d", _cell(lambda nn: nn.AdaptiveAvgPool3d((2, 3, 4))), [VOL],
         (0,)),
    Case("adaptive_max_pool3d_indices",
         _cell(lambda nn: nn.AdaptiveMaxPool3d((2, 3, 4), True)), [VOL], (0,)),
    Case("ops_adaptive_max_pool3d", lambda ms, ops, x: ops.adaptive_max_pool3d(x, (3, None, 2)),
         [VOL], (0,)),
    Case("lppool1d", _cell(lambda nn: nn.LPPool1d(2, 3)), [POS9], (0,)),
    Case("lppool1d_p3_stride_ceil", _cell(lambda nn: nn.LPPool1d(3.0, 3, 2, True)), [POS9],
         (0,)),
    Case("lppool2d", _cell(lambda nn: nn.LPPool2d(2, (3, 2))), [POS_IMG], (0,)),
    Case("lppool2d_stride", _cell(lambda nn: nn.LPPool2d(1.5, 3, 2)), [POS_IMG], (0,)),
    Case("lp_pool1d_err_norm_zero", lambda ms, ops, x: ops.lp_pool1d(x, 0, 3), [POS9]),
]

P34 = _r(351, (2, 3, 4))
P345 = _r(352, (1, 2, 3, 4, 5))
M33 = _r(353, (2, 4, 4))
IDX = np.array([[1, 3, 0], [2, 2, 1]], np.int32)

CASES += [
    # --- padding -------------------------------------------------------------------------------
    Case("constant_pad1d", _cell(lambda nn: nn.ConstantPad1d((1, 2), 0.5)), [P34], (0,)),
    Case("constant_pad1d_crop", _cell(lambda nn: nn.ConstantPad1d((-1, 2), 1.5)), [P34], (0,)),
    Case("constant_pad2d_int", _cell(lambda nn: nn.ConstantPad2d(1, -2.0)), [P34], (0,)),
    Case("constant_pad3d", _cell(lambda nn: nn.ConstantPad3d((1, 0, 2, 1, 0, 1), 3)),
         [P345], (0,)),
    Case("constant_pad2d_err_length",
         lambda ms, ops: ms.nn.ConstantPad2d((1, 2, 3, 4, 5, 6), 0.0), []),
    Case("zero_pad2d", _cell(lambda nn: nn.ZeroPad2d((1, 2, 0, 1))), [P34], (0,)),
    Case("reflection_pad1d", _cell(lambda nn: nn.ReflectionPad1d((2, 1))), [P34], (0,)),
    Case("reflection_pad2d", _cell(lambda nn: nn.ReflectionPad2d(1)), [P34], (0,)),
    Case("reflection_pad3d", _cell(lambda nn: nn.ReflectionPad3d((1, 2, 0, 1, 1, 1))),
         [P345], (0,)),
    Case("reflection_pad1d_err_negative", lambda ms, ops: ms.nn.ReflectionPad1d((-1, 1)), []),
    Case("replication_pad1d", _cell(lambda nn: nn.ReplicationPad1d((3, 1))), [P34], (0,)),
    Case("replication_pad2d", _cell(lambda nn: nn.ReplicationPad2d((1, 2, 2, 0))), [P34],
         (0,)),
    Case("replication_pad3d", _cell(lambda nn: nn.ReplicationPad3d(1)), [P345[0]], (0,)),
    Case("pad_constant", _cell(lambda nn: nn.Pad(((0, 0), (1, 2), (2, 1)))), [P34], (0,)),
    Case("pad_reflect", _cell(lambda nn: nn.Pad(((1, 0), (1, 2), (2, 1)), "REFLECT")),
         [P34], (0,)),
    Case("pad_symmetric", _cell(lambda nn: nn.Pad(((1, 1), (0, 3), (2, 4)), "SYMMETRIC")),
         [P34], (0,)),
    Case("pad_err_mode", lambda ms, ops: ms.nn.Pad(((1, 1),), "EDGE"), []),
    # --- shuffling, reshaping, small math layers ----------------------------------------------
    Case("pixel_shuffle", _cell(lambda nn: nn.PixelShuffle(2)), [_r(354, (1, 8, 2, 3))], (0,)),
    Case("pixel_unshuffle", _cell(lambda nn: nn.PixelUnshuffle(2)), [_r(355, (2, 4, 6))],
         (0,)),
    Case("ops_pixel_shuffle_5d", lambda ms, ops, x: ops.pixel_shuffle(x, 3),
         [_r(356, (2, 1, 9, 2, 1))], (0,)),
    Case("pixel_shuffle_err_channels", lambda ms, ops, x: ops.pixel_shuffle(x, 2),
         [_r(357, (1, 6, 2, 2))]),
    Case("unflatten", _cell(lambda nn: nn.Unflatten(2, (2, 2))), [P34], (0,)),
    Case("unflatten_last", _cell(lambda nn: nn.Unflatten(-1, [2, 1, 2])), [P34], (0,)),
    Case("tril", _cell(lambda nn: nn.Tril()), [M33], (0,)),
    Case("triu_k", _cell(lambda nn: nn.Triu(), call=lambda net, x: net(x, 1)), [M33], (0,)),
    Case("range_int", lambda ms, ops: ms.nn.Range(1, 8, 2)(), []),
    Case("range_float", lambda ms, ops: ms.nn.Range(0.5, 2.0, 0.25)(), []),
    Case("range_limit_only", lambda ms, ops: ms.nn.Range(5)(), []),
    Case("onehot", _cell(lambda nn: nn.OneHot(depth=4)), [IDX]),
    Case("onehot_axis0_values", _cell(lambda nn: nn.OneHot(0, 4, 3.0, -1.0)), [IDX]),
    Case("norm", _cell(lambda nn: nn.Norm(axis=1)), [P34], (0,)),
    Case("norm_all_keep", _cell(lambda nn: nn.Norm(keep_dims=True)), [P34], (0,)),
    Case("norm_default", _cell(lambda nn: nn.Norm()), [_r(358, (1, 3, 1))], (0,)),
    Case("moments", _cell(lambda nn: nn.Moments(axis=1)), [P34], (0,)),
    Case("moments_keep_tuple", _cell(lambda nn: nn.Moments((0, 2), True),
                                     call=lambda net, x: net(x)[1]), [P34], (0,)),
    Case("moments_all", _cell(lambda nn: nn.Moments()), [P34], (0,)),
    Case("reduce_logsumexp", _cell(lambda nn: nn.ReduceLogSumExp(1)), [P34], (0,)),
    Case("reduce_logsumexp_keep", _cell(lambda nn: nn.ReduceLogSumExp((0, 2), True)), [P34],
         (0,)),
]

VOL5 = _r(361, (1, 4, 5, 6, 7))
W3D = _r(362, (6, 4, 3, 2, 3))
W3T = _r(363, (4, 3, 3, 2, 3))

CASES += [
    # --- 3-D convolution and pooling ----------------------------------------------------------
    Case("conv3d_same", _cell(lambda nn: nn.Conv3d(4, 6, 3)), [VOL5], (0,)),
    Case("conv3d_pad_group_bias",
         _cell(lambda nn: nn.Conv3d(4, 6, (3, 2, 3), stride=2, pad_mode="pad",
                                    padding=(1, 0, 1, 0, 0, 1), group=2, has_bias=True)),
         [VOL5], (0,)),
    Case("conv3d_valid_dilation", _cell(lambda nn: nn.Conv3d(4, 2, 2, pad_mode="valid",
                                                             dilation=(1, 2, 1))), [VOL5], (0,)),
    Case("conv3d_pgrad", _pgrad(lambda nn: nn.Conv3d(4, 6, 3, stride=2, group=2,
                                                     has_bias=True)), [VOL5]),
    Case("conv3d_transpose_same", _cell(lambda nn: nn.Conv3dTranspose(4, 6, 3)), [VOL5], (0,)),
    Case("conv3d_transpose_pad_bias",
         _cell(lambda nn: nn.Conv3dTranspose(4, 6, 3, stride=2, pad_mode="pad",
                                             padding=(1, 0, 1, 0, 0, 1), has_bias=True)),
         [VOL5], (0,)),
    Case("conv3d_transpose_valid_dilation",
         _cell(lambda nn: nn.Conv3dTranspose(4, 6, 3, pad_mode="valid", stride=(2, 1, 3),
                                             dilation=(1, 2, 1))), [VOL5], (0,)),
    Case("conv3d_transpose_group_output_padding",
         _cell(lambda nn: nn.Conv3dTranspose(4, 6, 3, pad_mode="pad", padding=1, stride=2,
                                             group=2, output_padding=1)), [VOL5], (0,)),
    Case("conv3d_transpose_pgrad",
         _pgrad(lambda nn: nn.Conv3dTranspose(4, 6, 3, stride=2, group=2, has_bias=True)),
         [VOL5]),
    Case("ops_conv3d", lambda ms, ops, x, w: ops.conv3d(x, w, pad_mode="pad", padding=(1, 2, 0)),
         [VOL5, W3D], (0, 1)),
    Case("ops_conv3d_same_stride",
         lambda ms, ops, x, w: ops.conv3d(x, w, pad_mode="same", stride=2), [VOL5, W3D],
         (0, 1)),
    Case("ops_conv3d_transpose", lambda ms, ops, x, w: ops.conv3d_transpose(x, w),
         [VOL5, W3T], (0, 1)),
    Case("ops_conv3d_transpose_same", lambda ms, ops, x, w: ops.conv3d_transpose(
        x, w, pad_mode="same", stride=2), [VOL5, W3T], (0, 1)),
    Case("ops_conv3d_err_padding6", lambda ms, ops, x, w: ops.conv3d(
        x, w, pad_mode="pad", padding=(1, 2, 0, 1, 1, 0)), [VOL5, W3D]),
    Case("maxpool3d", _cell(lambda nn: nn.MaxPool3d(2)), [VOL5], (0,)),
    Case("maxpool3d_same", _cell(lambda nn: nn.MaxPool3d(3, 2, "same")), [VOL5], (0,)),
    Case("maxpool3d_pad_dilation", _cell(lambda nn: nn.MaxPool3d(3, 2, "pad", 1, 2)), [VOL5],
         (0,)),
    Case("maxpool3d_ceil_indices",
         _cell(lambda nn: nn.MaxPool3d(3, 2, "pad", 1, ceil_mode=True, return_indices=True)),
         [VOL5], (0,)),
    Case("maxpool3d_unbatched", _cell(lambda nn: nn.MaxPool3d(2, 2)), [VOL5[0]], (0,)),
    Case("ops_max_pool3d", lambda ms, ops, x: ops.max_pool3d(x, 3, 2, 1, 1, True), [VOL5], (0,)),
    Case("avgpool3d", _cell(lambda nn: nn.AvgPool3d(2)), [VOL5], (0,)),
    Case("avgpool3d_same", _cell(lambda nn: nn.AvgPool3d(3, 2, "same")), [VOL5], (0,)),
    Case("avgpool3d_pad_ceil_exclude",
         _cell(lambda nn: nn.AvgPool3d(3, 2, "pad", 1, True, False)), [VOL5], (0,)),
    Case("avgpool3d_divisor", _cell(lambda nn: nn.AvgPool3d((2, 3, 2), (1, 2, 2), "pad",
                                                            divisor_override=5)), [VOL5], (0,)),
    Case("ops_avg_pool3d_ceil_include",
         lambda ms, ops, x: ops.avg_pool3d(x, 3, 2, 1, True, True), [VOL5], (0,)),
    Case("maxpool3d_err_dilation_valid", lambda ms, ops: ms.nn.MaxPool3d(2, dilation=2), []),
]

X3 = _r(371, (2, 3, 5))
X4 = _r(372, (1, 2, 5, 4))
X5 = _r(373, (1, 2, 3, 4, 5))


def _interp(**kw):
    return lambda ms, ops, x: ops.interpolate(x, **kw)


CASES += [
    # --- resizing ---------------------------------------------------------------------------------
    Case("interp_nearest_3d", _interp(size=8), [X3], (0,)),
    Case("interp_nearest_down", _interp(size=3), [X3], (0,)),
    Case("interp_nearest_4d", _interp(size=(7, 9)), [X4], (0,)),
    Case("interp_nearest_recompute", _interp(scale_factor=2.0, recompute_scale_factor=True),
         [X4], (0,)),
    Case("interp_nearest_5d_scale", _interp(scale_factor=(1.5, 2.0, 0.6)), [X5], (0,)),
    Case("interp_nearest_exact", _interp(size=(3, 7), mode="nearest-exact"), [X4], (0,)),
    Case("interp_linear", _interp(size=8, mode="linear"), [X3], (0,)),
    Case("interp_linear_down", _interp(size=3, mode="linear"), [X3], (0,)),
    Case("interp_linear_align", _interp(size=8, mode="linear", align_corners=True), [X3], (0,)),
    Case("interp_bilinear", _interp(size=(7, 9), mode="bilinear"), [X4], (0,)),
    Case("interp_bilinear_align", _interp(size=(7, 3), mode="bilinear", align_corners=True),
         [X4], (0,)),
    Case("interp_trilinear", _interp(size=(5, 6, 7), mode="trilinear"), [X5], (0,)),
    Case("interp_trilinear_scale", _interp(scale_factor=(1.5, 2.0, 0.6), mode="trilinear"),
         [X5], (0,)),
    Case("interp_area", _interp(size=(3, 2), mode="area"), [X4], (0,)),
    Case("interp_err_scale_nearest_4d", _interp(scale_factor=2.0), [X4]),
    Case("interp_err_both", _interp(size=4, scale_factor=2.0), [X3]),
    Case("upsample_bilinear", _cell(lambda nn: nn.Upsample(size=(6, 8), mode="bilinear")),
         [X4], (0,)),
    Case("upsample_nearest_5d", _cell(lambda nn: nn.Upsample(scale_factor=2.0)), [X5], (0,)),
]
