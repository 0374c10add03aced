"""The array-operator cases (array manipulation, gather/scatter/segment, reductions and
statistics, random draws, assignment), shared by the recorder
(``tools/record_catalogue.py --suite arrayops``, run with the real MindSpore) and
``tests/test_arrayops.py`` (run with mindgrad). Same ``Case`` API as
``tests/catalogue_cases.py``."""
from __future__ import annotations

import numpy as np

from catalogue_cases import Case, _i, _r

X23 = _r(101, (2, 3))
X34 = _r(102, (3, 4))
X234 = _r(103, (2, 3, 4))
X1234 = _r(104, (1, 2, 3, 4))
X8 = _r(105, (8,))
TIES = np.array([[3., 1., 2., 1.], [0., 5., -1., 5.], [2., 2., 2., 7.]], np.float32)
NANS = np.array([[1., np.nan, 3., 0.5], [np.nan, np.nan, 2., 4.]], np.float32)
SEG = np.array([0, 2, 0, 3, 2, 0, 2, 2], np.int32)
I2 = np.array([[0], [2]], np.int32)
DUP = np.array([[1], [0], [1]], np.int32)
IJ = np.array([[0, 1], [2, 3], [0, 1]], np.int32)


def _param(ms, x, name="p"):
    return ms.Parameter(x, name=name)


def _assign(fn):
    # (the value returned, the Parameter after the call)
    def run(ms, ops, x, v):
        p = _param(ms, x)
        out = fn(ops, p, v)
        return out, p.value()
    return run


CASES: list[Case] = [
    # --- assignment -------------------------------------------------------------------------
    Case("assign", _assign(lambda ops, p, v: ops.assign(p, v)), [X23, _r(106, (2, 3))], (1,)),
    Case("assign_add", _assign(lambda ops, p, v: ops.assign_add(p, v)), [X23, _r(107, (2, 3))],
         (1,)),
    Case("assign_sub", _assign(lambda ops, p, v: ops.assign_sub(p, v)), [X23, _r(108, (2, 3))],
         (1,)),
    Case("assign_add_broadcast", _assign(lambda ops, p, v: ops.assign_add(p, v)),
         [X23, _r(109, (1, 3))]),
    Case("assign_cast_int", _assign(lambda ops, p, v: ops.assign(p, v)),
         [X23, _i(110, (2, 3), 9)]),
    Case("assign_bad_shape", _assign(lambda ops, p, v: ops.assign(p, v)), [X23, _r(111, (3,))]),
    Case("P_Assign", _assign(lambda ops, p, v: ops.Assign()(p, v)), [X23, _r(112, (2, 3))]),
    Case("P_AssignAdd", _assign(lambda ops, p, v: ops.AssignAdd()(p, v)),
         [X23, _r(113, (2, 3))]),
    Case("P_AssignSub", _assign(lambda ops, p, v: ops.AssignSub()(p, v)),
         [X23, _r(114, (2, 3))]),
    Case("assign_tensor_method", _assign(lambda ops, p, v: p.assign_value(v)),
         [X23, _r(115, (2, 3))]),
    # --- shapes and views -------------------------------------------------------------------
    Case("expand", lambda ms, ops, x: ops.expand(x, ms.Tensor(np.array([4, 2, 3], np.int32))),
         [_r(120, (1, 3))], (0,)),
    Case("expand_minus1", lambda ms, ops, x: ops.expand(x, ms.Tensor(np.array([-1, 2],
                                                                                np.int32))),
         [_r(121, (3, 1))], (0,)),
    Case("expand_as", lambda ms, ops, x, y: ops.expand_as(x, y), [_r(122, (3, 1)), X34], (0,)),
    Case("expand_bad", lambda ms, ops, x: ops.expand(x, ms.Tensor(np.array([4, 2], np.int32))),
         [_r(123, (3, 2))]),
    Case("swapdims", lambda ms, ops, x: ops.swapdims(x, 0, 2), [X234], (0,)),
    Case("swapdims_neg", lambda ms, ops, x: ops.swapdims(x, -1, 1), [X234], (0,)),
    Case("t_2d", lambda ms, ops, x: ops.t(x), [X23], (0,)),
    Case("t_1d", lambda ms, ops, x: ops.t(x), [X8], (0,)),
    Case("t_3d", lambda ms, ops, x: ops.t(x), [X234]),
    Case("ravel", lambda ms, ops, x: ops.ravel(x), [X234], (0,)),
    Case("reverse", lambda ms, ops, x: ops.reverse(x, (0, 2)), [X234], (0,)),
    Case("reverse_list", lambda ms, ops, x: ops.reverse(x, [-1]), [X23], (0,)),
    Case("view_as", lambda ms, ops, x, y: ops.view_as(x, y), [X234, _r(124, (6, 4))], (0,)),
    Case("deepcopy", lambda ms, ops, x: ops.deepcopy(x), [X23]),
    Case("slice", lambda ms, ops, x: ops.slice(x, (0, 1, 1), (2, 2, -1)), [X234], (0,)),
    Case("slice_bad", lambda ms, ops, x: ops.slice(x, (0, 2), (2, 3)), [X23]),
    Case("strided_slice", lambda ms, ops, x: ops.strided_slice(x, (0, 0, 3), (2, 3, 0),
                                                                  (1, 2, -1)), [X234], (0,)),
    Case("strided_slice_masks",
         lambda ms, ops, x: ops.strided_slice(x, (1, 0, 1), (2, 2, 3), (1, 1, 1),
                                              begin_mask=2, end_mask=4, shrink_axis_mask=1),
         [X234], (0,)),
    Case("strided_slice_new_axis",
         lambda ms, ops, x: ops.strided_slice(x, (0, 1), (1, 3), (1, 1), new_axis_mask=1),
         [X23], (0,)),
    Case("strided_slice_ellipsis",
         lambda ms, ops, x: ops.strided_slice(x, (0, 1), (1, 3), (1, 1), ellipsis_mask=1),
         [X234], (0,)),
    Case("strided_slice_short",
         lambda ms, ops, x: ops.strided_slice(x, (1,), (2,), (1,)), [X234], (0,)),
    Case("P_StridedSlice_masks",
         lambda ms, ops, x: ops.StridedSlice(0, 1, 0, 0, 2)(x, (0, 1, 0), (1, 2, 4), (1, 1, 2)),
         [X234], (0,)),
    Case("P_Slice", lambda ms, ops, x: ops.Slice()(x, (1, 0), (1, 2)), [X23], (0,)),
    # --- diagonals --------------------------------------------------------------------------
    Case("diag_embed", lambda ms, ops, x: ops.diag_embed(x), [X23], (0,)),
    Case("diag_embed_offset", lambda ms, ops, x: ops.diag_embed(x, 1, 0, 2), [X23], (0,)),
    Case("diag_embed_neg", lambda ms, ops, x: ops.diag_embed(x, -2), [X23], (0,)),
    Case("diagflat", lambda ms, ops, x: ops.diagflat(x), [X23], (0,)),
    Case("diagflat_offset", lambda ms, ops, x: ops.diagflat(x, -1), [_r(130, (3,))], (0,)),
    Case("diagonal_scatter", lambda ms, ops, x, s: ops.diagonal_scatter(x, s),
         [X34, _r(131, (3,))], (0, 1)),
    Case("diagonal_scatter_offset",
         lambda ms, ops, x, s: ops.diagonal_scatter(x, s, 1, 1, 2),
         [X234, _r(132, (2, 3))], (0, 1)),
    # --- scatters into slices ---------------------------------------------------------------
    Case("select_scatter", lambda ms, ops, x, s: ops.select_scatter(x, s, 1, 2),
         [X234, _r(133, (2, 4))], (0, 1)),
    Case("slice_scatter", lambda ms, ops, x, s: ops.slice_scatter(x, s, 2, 1, 4, 2),
         [X234, _r(134, (2, 3, 2))], (0, 1)),
    Case("slice_scatter_default", lambda ms, ops, x, s: ops.slice_scatter(x, s),
         [X23, _r(135, (2, 3))], (0, 1)),
    Case("index_add", lambda ms, ops, x, y: ops.index_add(
        x, ms.Tensor(np.array([0, 2, 0], np.int32)), y, 1), [X34, _r(136, (3, 3))], (0, 1)),
    Case("index_add_param", lambda ms, ops, x, y: (lambda p: (ops.index_add(
        p, ms.Tensor(np.array([1, 0], np.int32)), y, 0), p.value()))(_param(ms, x)),
         [X23, _r(137, (2, 3))]),
    Case("index_fill", lambda ms, ops, x: ops.index_fill(
        x, 1, ms.Tensor(np.array([0, 2], np.int32)), 1.5), [X23], (0,)),
    Case("index_fill_tensor_value", lambda ms, ops, x, v: ops.index_fill(
        x, 0, ms.Tensor(np.array([1], np.int32)), v), [X23, np.array(-4.0, np.float32)],
         (0, 1)),
    Case("inplace_update", lambda ms, ops, x, v: ops.inplace_update(
        x, v, ms.Tensor(np.array([1, 0], np.int32))), [X34, _r(138, (2, 4))], (0, 1)),
    Case("inplace_add", lambda ms, ops, x, v: ops.inplace_add(x, v, (0, 2)),
         [X34, _r(139, (2, 4))], (0, 1)),
    Case("inplace_sub", lambda ms, ops, x, v: ops.inplace_sub(x, v, 1),
         [X34, _r(140, (1, 4))], (0, 1)),
    Case("inplace_index_add", lambda ms, ops, x, v: (lambda p: (ops.inplace_index_add(
        p, ms.Tensor(np.array([2, 0, 2], np.int32)), v, 0), p.value()))(_param(ms, x)),
         [X34, _r(141, (3, 4))]),
    # --- repeats, masks, combinatorics ------------------------------------------------------
    Case("repeat_elements", lambda ms, ops, x: ops.repeat_elements(x, 2, 1), [X23], (0,)),
    Case("repeat_elements_axis0", lambda ms, ops, x: ops.repeat_elements(x, 3), [X23], (0,)),
    Case("sequence_mask", lambda ms, ops, x: ops.sequence_mask(x, 5),
         [np.array([[1, 3], [0, 5]], np.int32)]),
    Case("sequence_mask_nomax", lambda ms, ops, x: ops.sequence_mask(x),
         [np.array([2, 4, 1], np.int64)]),
    Case("cartesian_prod", lambda ms, ops, a, b: ops.cartesian_prod(a, b),
         [_r(142, (3,)), _r(143, (2,))], (0, 1)),
    Case("combinations", lambda ms, ops, x: ops.combinations(x), [_r(144, (4,))], (0,)),
    Case("combinations_r3_repl", lambda ms, ops, x: ops.combinations(x, 3, True),
         [_r(145, (3,))], (0,)),
    Case("reverse_sequence", lambda ms, ops, x: ops.reverse_sequence(
        x, ms.Tensor(np.array([1, 3, 4], np.int32)), 1, 0), [X34], (0,)),
    Case("reverse_sequence_batch1", lambda ms, ops, x: ops.reverse_sequence(
        x, ms.Tensor(np.array([2, 1, 3], np.int64)), 0, 1), [_r(146, (3, 3, 2))], (0,)),
    Case("unique_consecutive", lambda ms, ops, x: ops.unique_consecutive(x, True, True),
         [np.array([1, 1, 2, 2, 3, 1, 1, 2], np.int32)]),
    Case("unique_consecutive_plain", lambda ms, ops, x: ops.unique_consecutive(x),
         [np.array([1., 1., 2., 2., 3., 1.], np.float32)]),
    Case("unique_consecutive_dim", lambda ms, ops, x: ops.unique_consecutive(x, True, True, 0),
         [np.array([[1, 2], [1, 2], [3, 4], [1, 2]], np.int32)]),
    Case("unique_with_pad", lambda ms, ops, x: ops.unique_with_pad(x, -1),
         [np.array([1, 1, 5, 5, 4, 4, 3, 3, 2, 2], np.int32)]),
    # --- pixel and channel shuffles ---------------------------------------------------------
    Case("pixel_shuffle", lambda ms, ops, x: ops.pixel_shuffle(x, 2),
         [_r(150, (1, 8, 2, 3))], (0,)),
    Case("pixel_unshuffle", lambda ms, ops, x: ops.pixel_unshuffle(x, 2),
         [_r(151, (2, 4, 2))], (0,)),
    Case("channel_shuffle", lambda ms, ops, x: ops.channel_shuffle(x, 2),
         [_r(152, (1, 4, 2, 2))], (0,)),
    # --- segments ---------------------------------------------------------------------------
    Case("unsorted_segment_sum", lambda ms, ops, x, s: ops.unsorted_segment_sum(x, s, 5),
         [_r(160, (8, 2)), SEG], (0,)),
    Case("unsorted_segment_sum_2d_ids",
         lambda ms, ops, x, s: ops.unsorted_segment_sum(x, s, 3),
         [_r(161, (2, 3, 2)), np.array([[0, 1, 0], [2, 2, 0]], np.int32)], (0,)),
    Case("unsorted_segment_max", lambda ms, ops, x, s: ops.unsorted_segment_max(x, s, 5),
         [np.round(_r(162, (8, 2))), SEG], (0,)),
    Case("unsorted_segment_min", lambda ms, ops, x, s: ops.unsorted_segment_min(x, s, 5),
         [np.round(_r(163, (8, 2))), SEG], (0,)),
    Case("unsorted_segment_prod", lambda ms, ops, x, s: ops.unsorted_segment_prod(x, s, 5),
         [_r(164, (8, 2)), SEG], (0,)),
    Case("unsorted_segment_max_int", lambda ms, ops, x, s: ops.unsorted_segment_max(x, s, 4),
         [_i(165, (8,), 9), SEG]),
    Case("unsorted_segment_sum_oob", lambda ms, ops, x, s: ops.unsorted_segment_sum(x, s, 2),
         [_r(166, (4,)), np.array([0, 5, 1, -1], np.int32)], (0,)),
    Case("P_UnsortedSegmentSum", lambda ms, ops, x, s: ops.UnsortedSegmentSum()(x, s, 4),
         [X8, SEG], (0,)),
    Case("P_UnsortedSegmentMax", lambda ms, ops, x, s: ops.UnsortedSegmentMax()(x, s, 4),
         [X8, SEG]),
    Case("sparse_segment_mean", lambda ms, ops, x, i, s: ops.sparse_segment_mean(x, i, s),
         [X34, np.array([0, 2, 1, 1], np.int32), np.array([0, 0, 1, 3], np.int32)], (0,)),
    # --- scatters ---------------------------------------------------------------------------
    Case("tensor_scatter_mul", lambda ms, ops, x, i, u: ops.tensor_scatter_mul(x, i, u),
         [X34, DUP, _r(170, (3, 4))], (0, 2)),
    Case("tensor_scatter_div", lambda ms, ops, x, i, u: ops.tensor_scatter_div(x, i, u),
         [X34, I2, _r(171, (2, 4), lo=0.5)], (0, 2)),
    Case("tensor_scatter_max", lambda ms, ops, x, i, u: ops.tensor_scatter_max(x, i, u),
         [X34, IJ, _r(172, (3,))], (0, 2)),
    Case("tensor_scatter_min", lambda ms, ops, x, i, u: ops.tensor_scatter_min(x, i, u),
         [X34, IJ, _r(173, (3,))], (0, 2)),
    Case("P_TensorScatterMul", lambda ms, ops, x, i, u: ops.TensorScatterMul()(x, i, u),
         [X34, I2, _r(174, (2, 4))]),
    Case("scatter_nd_add", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_nd_add(p, i, u),
                                                                 p.value()))(_param(ms, x)),
         [X34, DUP, _r(175, (3, 4))]),
    Case("scatter_nd_sub", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_nd_sub(p, i, u),
                                                                 p.value()))(_param(ms, x)),
         [X34, IJ, _r(176, (3,))]),
    Case("scatter_nd_mul", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_nd_mul(p, i, u),
                                                                 p.value()))(_param(ms, x)),
         [X34, DUP, _r(177, (3, 4))]),
    Case("scatter_nd_div", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_nd_div(p, i, u),
                                                                 p.value()))(_param(ms, x)),
         [X34, I2, _r(178, (2, 4), lo=0.5)]),
    Case("scatter_nd_max", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_nd_max(p, i, u),
                                                                 p.value()))(_param(ms, x)),
         [X34, IJ, _r(179, (3,))]),
    Case("scatter_nd_min", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_nd_min(p, i, u),
                                                                 p.value()))(_param(ms, x)),
         [X34, IJ, _r(180, (3,))]),
    Case("P_ScatterNdUpdate", lambda ms, ops, x, i, u: (lambda p: (ops.ScatterNdUpdate()(
        p, i, u), p.value()))(_param(ms, x)), [X34, I2, _r(181, (2, 4))]),
    Case("P_ScatterNdAdd", lambda ms, ops, x, i, u: (lambda p: (ops.ScatterNdAdd()(
        p, i, u), p.value()))(_param(ms, x)), [X34, IJ, _r(182, (3,))]),
    Case("scatter_update", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_update(p, i, u),
                                                                 p.value()))(_param(ms, x)),
         [X34, np.array([[2, 0]], np.int32), _r(183, (1, 2, 4))]),
    Case("scatter_max", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_max(p, i, u),
                                                              p.value()))(_param(ms, x)),
         [X34, np.array([1, 0, 1], np.int32), _r(184, (3, 4))]),
    Case("scatter_min", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_min(p, i, u),
                                                              p.value()))(_param(ms, x)),
         [X34, np.array([1, 0, 1], np.int32), _r(185, (3, 4))]),
    Case("scatter_mul", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_mul(p, i, u),
                                                              p.value()))(_param(ms, x)),
         [X34, np.array([1, 0, 1], np.int32), _r(186, (3, 4))]),
    Case("scatter_div", lambda ms, ops, x, i, u: (lambda p: (ops.scatter_div(p, i, u),
                                                              p.value()))(_param(ms, x)),
         [X34, np.array([2, 0], np.int32), _r(187, (2, 4), lo=0.5)]),
    Case("P_ScatterUpdate", lambda ms, ops, x, i, u: (lambda p: (ops.ScatterUpdate()(p, i, u),
                                                                  p.value()))(_param(ms, x)),
         [X34, np.array([1], np.int32), _r(188, (1, 4))]),
    Case("P_ScatterSub", lambda ms, ops, x, i, u: (lambda p: (ops.ScatterSub()(p, i, u),
                                                               p.value()))(_param(ms, x)),
         [X34, np.array([1, 1], np.int32), _r(189, (2, 4))]),
    Case("scatter_update_not_param", lambda ms, ops, x, i, u: ops.scatter_update(x, i, u),
         [X34, np.array([1], np.int32), _r(190, (1, 4))]),
    # --- reductions and statistics ----------------------------------------------------------
    Case("median", lambda ms, ops, x: ops.median(x), [TIES], (0,)),
    Case("median_axis0_keep", lambda ms, ops, x: ops.median(x, 0, True), [X34], (0,)),
    Case("median_even", lambda ms, ops, x: ops.median(x, 1), [X34], (0,)),
    Case("nanmedian", lambda ms, ops, x: ops.nanmedian(x, 1), [NANS]),
    Case("aminmax", lambda ms, ops, x: ops.aminmax(x, axis=1), [TIES]),
    Case("aminmax_keep", lambda ms, ops, x: ops.aminmax(x, axis=-1, keepdims=True), [X234]),
    Case("histc", lambda ms, ops, x: ops.histc(x, 4, -2.0, 2.0), [X34]),
    Case("histc_auto", lambda ms, ops, x: ops.histc(x, 5), [X34]),
    Case("bincount", lambda ms, ops, x: ops.bincount(x), [np.array([1, 1, 4, 2, 1], np.int32)]),
    Case("bincount_weights", lambda ms, ops, x, w: ops.bincount(x, w, 7),
         [np.array([1, 1, 4, 2, 1], np.int32), _r(191, (5,))]),
    Case("bucketize", lambda ms, ops, x: ops.bucketize(x, [-1.0, 0.0, 1.0]), [X34]),
    Case("bucketize_right", lambda ms, ops, x: ops.bucketize(x, [1, 2, 3], right=True),
         [np.array([[1, 2], [3, 4]], np.int32)]),
    Case("top_k", lambda ms, ops, x: ops.top_k(x, 2), [X34], (0,)),
    Case("intopk", lambda ms, ops, x, y: ops.intopk(x, y, 2),
         [X34, np.array([0, 1, 3], np.int32)]),
    Case("P_TopK", lambda ms, ops, x: ops.TopK()(x, 3), [X34], (0,)),
    # --- spatial rearrangements and more operator classes ------------------------------------
    Case("mirror_pad_reflect", lambda ms, ops, x: ops.mirror_pad(
        x, ms.Tensor(np.array([[1, 1], [2, 1]], np.int64)), "REFLECT"), [X34], (0,)),
    Case("mirror_pad_symmetric", lambda ms, ops, x: ops.mirror_pad(
        x, ms.Tensor(np.array([[0, 2], [3, 0]], np.int64)), "SYMMETRIC"), [X34], (0,)),
    Case("P_MirrorPad", lambda ms, ops, x: ops.MirrorPad("SYMMETRIC")(
        x, ms.Tensor(np.array([[1, 0], [0, 1]], np.int64))), [X23], (0,)),
    Case("space_to_batch_nd", lambda ms, ops, x: ops.space_to_batch_nd(
        x, [2, 2], [[0, 0], [1, 1]]), [_r(210, (2, 3, 4, 2))], (0,)),
    Case("batch_to_space_nd", lambda ms, ops, x: ops.batch_to_space_nd(
        x, [2, 2], [[0, 1], [1, 0]]), [_r(211, (8, 2, 2, 3))], (0,)),
    Case("P_SpaceToBatchND", lambda ms, ops, x: ops.SpaceToBatchND(2, [[1, 1], [0, 0]])(x),
         [_r(212, (1, 2, 2, 4))], (0,)),
    Case("P_BatchToSpaceND", lambda ms, ops, x: ops.BatchToSpaceND([2, 1], [[0, 0], [0, 0]])(x),
         [_r(213, (4, 1, 2, 3))], (0,)),
    Case("unfold", lambda ms, ops, x: ops.unfold(x, 2), [_r(214, (2, 3, 4, 5))], (0,)),
    Case("unfold_args", lambda ms, ops, x: ops.unfold(x, (2, 3), 2, 1, (2, 1)),
         [_r(215, (1, 2, 5, 6))], (0,)),
    Case("fold", lambda ms, ops, x: ops.fold(x, ms.Tensor(np.array([4, 5], np.int32)), 2),
         [_r(216, (2, 12, 12))], (0,)),
    Case("fold_args", lambda ms, ops, x: ops.fold(x, ms.Tensor(np.array([5, 6], np.int32)),
                                                   (2, 3), 2, 1, (2, 1)),
         [_r(217, (1, 12, 18))], (0,)),
    Case("col2im", lambda ms, ops, x: ops.col2im(x, ms.Tensor(np.array([4, 4], np.int32)),
                                                  [2, 2], [1, 1], [0, 0], [2, 2]),
         [_r(218, (1, 2, 4, 4))], (0,)),
    Case("padding", lambda ms, ops, x: ops.padding(x, 4), [_r(219, (3, 1))], (0,)),
    Case("P_Padding", lambda ms, ops, x: ops.Padding(3)(x), [_r(220, (2, 2, 1))], (0,)),
    Case("P_Identity", lambda ms, ops, x: ops.Identity()(x), [X23], (0,)),
    Case("P_Cummin", lambda ms, ops, x: ops.Cummin(1)(x), [X34], (0,)),
    Case("P_Cummax", lambda ms, ops, x: ops.Cummax(0)(x), [X34], (0,)),
    Case("P_Histogram", lambda ms, ops, x: ops.Histogram(5, -1.0, 1.0)(x), [X34]),
    Case("P_Bincount", lambda ms, ops, x, w: ops.Bincount()(
        x, ms.Tensor(np.array(6, np.int32)), w), [np.array([1, 1, 4, 2, 1], np.int32),
                                                  _r(221, (5,))]),
    Case("P_Bernoulli", lambda ms, ops, x: ops.Bernoulli()(x, 0.4), [X23], values=False),
    Case("index_add_int64_indices", lambda ms, ops, x, y: ops.index_add(
        x, ms.Tensor(np.array([0, 2], np.int64)), y, 0), [X34, _r(222, (2, 4))]),
    Case("choice_with_mask", lambda ms, ops, x: ops.choice_with_mask(x, 4),
         [np.array([[True, False, True], [False, True, True]])], values=False),
    Case("identity", lambda ms, ops, x: ops.identity(x), [X23]),
    Case("shape_", lambda ms, ops, x: ms.Tensor(np.array(ops.shape_(x))), [X234]),
    Case("tensor_range", lambda ms, ops, a, b, c: ops.tensor_range(a, b, c),
         [np.array(1, np.int32), np.array(9, np.int32), np.array(3, np.int32)]),
    Case("tensor_range_float", lambda ms, ops, a, b, c: ops.tensor_range(a, b, c),
         [np.array(0.5, np.float32), np.array(2.0, np.float32), np.array(0.25, np.float32)]),
    Case("tensor_slice", lambda ms, ops, x: ops.tensor_slice(x, (1, 0, 2), (1, 2, 2)), [X234],
         (0,)),
    Case("tensor_median", lambda ms, ops, x: x.median(0), [X34], (0,)),
    Case("tensor_histc", lambda ms, ops, x: x.histc(3, -1.0, 1.0), [X34]),
    Case("tensor_bincount", lambda ms, ops, x: x.bincount(minlength=6),
         [np.array([1, 1, 4, 2, 1], np.int32)]),
    Case("uniform_candidate_sampler", lambda ms, ops, t: ops.uniform_candidate_sampler(
        t, 2, 4, False, 5), [np.array([[1, 2], [3, 0]], np.int64)], values=False),
    Case("uniform_candidate_sampler_unique_i32", lambda ms, ops, t: ops.uniform_candidate_sampler(
        t, 1, 3, True, 5), [np.array([[1], [3]], np.int32)], values=False),
    Case("log_uniform_candidate_sampler", lambda ms, ops, t: ops.log_uniform_candidate_sampler(
        t, 1, 4, False, 5), [np.array([[1], [3]], np.int64)], values=False),
    Case("log_uniform_candidate_sampler_unique",
         lambda ms, ops, t: ops.log_uniform_candidate_sampler(t, 1, 3, True, 5),
         [np.array([[1], [3]], np.int64)], values=False),
    Case("P_LogUniformCandidateSampler", lambda ms, ops, t: ops.LogUniformCandidateSampler(
        2, 3, False, 10)(t), [np.array([[1, 7]], np.int64)], values=False),
    Case("masked_scatter", lambda ms, ops, x, m, s: x.masked_scatter(m, s),
         [X23, np.array([[True, False, True], [False, True, True]]), _r(230, (6,))], (0, 2)),
    Case("masked_scatter_broadcast", lambda ms, ops, x, m, s: x.masked_scatter(m, s),
         [X23, np.array([False, True, True]), _r(231, (2, 3))], (0, 2)),
    Case("P_MaskedScatter", lambda ms, ops, x, m, s: ops.MaskedScatter()(x, m, s),
         [X23, np.array([[True, False, True], [False, False, True]]), _r(232, (4,))]),
    Case("masked_scatter_short_source", lambda ms, ops, x, m, s: x.masked_scatter(m, s),
         [X23, np.array([[True, True, True], [False, True, True]]), _r(233, (3,))]),
    # --- random draws (shapes and dtypes; distributions in tests/test_arrayops.py) ----------
    Case("bernoulli", lambda ms, ops, x: ops.bernoulli(x, 0.3), [X23], values=False),
    Case("bernoulli_tensor_p", lambda ms, ops, x, p: ops.bernoulli(x, p),
         [_i(200, (2, 3), 2), _r(201, (2, 3), lo=0, hi=1)], values=False),
    Case("standard_laplace", lambda ms, ops: ops.standard_laplace((2, 3)), [], values=False),
    Case("laplace", lambda ms, ops, m, b: ops.laplace((3, 2), m, b),
         [np.array(1.0, np.float32), np.array(0.5, np.float32)], values=False),
    Case("random_poisson", lambda ms, ops, r: ops.random_poisson(
        ms.Tensor(np.array([4, 2], np.int32)), r), [_r(202, (3,), lo=1, hi=4)], values=False),
    Case("random_poisson_i32", lambda ms, ops, r: ops.random_poisson(
        ms.Tensor(np.array([5], np.int32)), r, dtype=ms.int32), [_r(203, (2, 1), lo=1, hi=4)],
         values=False),
    Case("random_gamma", lambda ms, ops, a: ops.random_gamma(
        ms.Tensor(np.array([4, 2], np.int32)), a), [_r(204, (3,), lo=1, hi=4)], values=False),
    Case("random_categorical", lambda ms, ops, x: ops.random_categorical(x, 5),
         [_r(205, (2, 4))], values=False),
    Case("random_categorical_i32", lambda ms, ops, x: ops.random_categorical(
        x, 3, 1, ms.int32), [_r(206, (3, 4))], values=False),
    Case("multinomial_with_replacement", lambda ms, ops, x: ops.multinomial_with_replacement(
        x, ms.Tensor(np.array(2, np.int64)), ms.Tensor(np.array(0, np.int64)), 6, True),
         [_r(207, (2, 3), lo=0.1, hi=1)], values=False),
]
