"""``set_auto_parallel_context`` / ``get_auto_parallel_context`` /
``reset_auto_parallel_context`` and ``ParallelMode``.

mindgrad parallelizes over data only: ``parallel_mode`` ``data_parallel`` (or
``hybrid_parallel``, which MindSpore also trains by averaging gradients) makes
``TrainOneStepCell`` (and ``Model``) all-reduce the gradients across the ranks, averaged with
``gradients_mean=True``; ``semi_auto_parallel`` and ``auto_parallel`` shard operators, which
mindgrad does not do, and are refused. The gradient buckets follow
``all_reduce_fusion_config`` (split indices) or ``comm_fusion``'s ``allreduce`` size in MB.
The other keys are checked, kept and returned, without effect."""
from __future__ import annotations

import copy
from typing import Any
from ..communication.management import get_group_size, get_rank


class ParallelMode:
    """The values of ``parallel_mode``."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


# mindgrad reduces gradients in buckets of at most this many MB unless told otherwise
DEFAULT_FUSION_MB = 64

_DEFAULTS: dict[str, Any] = {
    "device_num": None, "global_rank": None, "gradients_mean": False,
    "gradient_fp32_sync": True, "loss_repeated_mean": True, "parallel_mode": "stand_alone",
    "search_mode": "recursive_programming", "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": False, "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "",
    "full_batch": False, "dataset_strategy": "data_parallel", "enable_parallel_optimizer": False,
    "enable_alltoall": False, "all_reduce_fusion_config": [], "pipeline_stages": 1,
    "pipeline_result_broadcast": False, "grad_accumulation_step": 1,
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None},
                    "reducescatter": {"mode": "auto", "config": None}},
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
    "auto_pipeline": False, "dump_local_norm": False, "sharding_propagation": False,
    "parallel_optimizer_config": {}, "pipeline_config": {}, "group_ckpt_save_file": "",
}
_state: dict[str, Any] = copy.deepcopy(_DEFAULTS)

_BOOLS = ("gradients_mean", "gradient_fp32_sync", "loss_repeated_mean", "parameter_broadcast",
          "full_batch", "enable_parallel_optimizer", "enable_alltoall",
          "pipeline_result_broadcast", "auto_pipeline", "dump_local_norm",
          "sharding_propagation")


def _check(key: str, value: Any) -> Any:
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise TypeError(f"The parameter '{key}' must be {bool}, but got {type(value)}")
        return value
    if key == "parallel_mode":
        if value not in ParallelMode.MODE_LIST:
            raise ValueError(f"The context configuration parameter 'parallel_mode' only "
                             f"support 'stand_alone', 'data_parallel', 'hybrid_parallel', "
                             f"'semi_auto_parallel' and 'auto_parallel', but got the value : "
                             f"{value}.")
        if value in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL):
            raise ValueError(f"For 'set_auto_parallel_context', parallel_mode '{value}' shards "
                             f"operators across devices, which mindgrad does not do: use "
                             f"'data_parallel'.")
        return value
    if key == "device_num":
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"The context configuration parameter 'device_num' must be a "
                             f"positive integer, but got the value of device_num : {value}.")
        return int(value)
    if key == "global_rank":
        if not isinstance(value, int) or not 0 <= value <= 4095:
            raise ValueError(f"The context configuration parameter 'global_rank' must be in "
                             f"[0, 4095], but got the value of global_rank : {value}.")
        return int(value)
    if key == "all_reduce_fusion_config":
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in value) \
                or list(value) != sorted(set(value)):
            raise ValueError(f"For 'set_auto_parallel_context', 'all_reduce_fusion_config' "
                             f"must be an increasing list of positive int, but got {value!r}.")
        return list(value)
    if key == "comm_fusion":
        if not isinstance(value, dict):
            raise TypeError(f"For 'set_auto_parallel_context', 'comm_fusion' must be a dict, "
                            f"but got {type(value).__name__}.")
        merged = copy.deepcopy(_state["comm_fusion"])
        for k, v in value.items():
            if k not in merged:
                raise KeyError(f"For 'set_auto_parallel_context', comm_fusion's key must be "
                               f"one of {list(merged)}, but got '{k}'.")
            if k == "openstate":
                merged[k] = _check("gradients_mean", v)
            else:
                merged[k] = {**merged[k], **dict(v)}
        return merged
    return value


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Set data-parallel options (``parallel_mode``, ``gradients_mean``, ``device_num``,
    ...). ValueError for an unknown key or a bad value, nothing set then."""
    checked = {}
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        checked[key] = _check(key, value)
    _state.update(checked)


def get_auto_parallel_context(attr_key: str) -> Any:
    """The value of one option. ``device_num`` and ``global_rank`` are, until set, the group
    size and rank of ``mindspore.communication``."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    value = _state[attr_key]
    if value is None:

        return get_group_size() if attr_key == "device_num" else get_rank()
    return copy.deepcopy(value)


def reset_auto_parallel_context() -> None:
    """Every option back to its default (stand_alone)."""
    _state.clear()
    _state.update(copy.deepcopy(_DEFAULTS))


def data_parallel() -> bool:
    """Whether training cells all-reduce their gradients across the ranks."""
    return _state["parallel_mode"] in (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL)
