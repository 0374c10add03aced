"""``CheckpointConfig`` and ``ModelCheckpoint``: save the training network's parameters
every N steps (or seconds) as ``{prefix}-{epoch}_{step}.ckpt`` in ``directory``, keeping
at most ``keep_checkpoint_max`` files (the oldest go first). A prefix already used by
checkpoints in the folder becomes ``{prefix}_1``, ``{prefix}_2``, ... as in MindSpore."""
from __future__ import annotations

import os
import time
from typing import Any

from ...common.parameter import Parameter
from ..serialization import save_checkpoint
from ...core.tensor import Tensor
from ._callback import Callback
from ...nn.cell import Cell

_INFO_NAMES = ("epoch_num", "step_num")


def _non_negative(value: Any, name: str) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For 'CheckpointConfig', '{name}' must be a non-negative int, but got "
                         f"{value!r}.")
    return value


class CheckpointConfig:
    """When and how ``ModelCheckpoint`` saves.

    ``save_checkpoint_steps`` (default 1) or, when it is 0/None, ``save_checkpoint_seconds``;
    ``keep_checkpoint_max`` files kept (default 5) or, when it is 0/None, one file per
    ``keep_checkpoint_per_n_minutes``; ``saved_network`` saves that Cell instead of the
    training network; ``append_info`` adds ``'epoch_num'`` / ``'step_num'`` and one dict of
    extra values to every file; ``format`` 'ckpt' or 'safetensors'; ``crc_check`` as in
    ``save_checkpoint``. ``integrated_save``, ``async_save`` (saving is synchronous) and
    ``exception_save`` are accepted; ``enc_key`` is refused by ``save_checkpoint``."""

    def __init__(self, save_checkpoint_steps: int = 1, save_checkpoint_seconds: int = 0,
                 keep_checkpoint_max: int = 5, keep_checkpoint_per_n_minutes: int = 0,
                 integrated_save: bool = True, async_save: Any = False,
                 saved_network: Any = None, append_info: list | None = None,
                 enc_key: Any = None, enc_mode: str = "AES-GCM", exception_save: bool = False,
                 crc_check: bool = False, remove_redundancy: bool = False, format: str = "ckpt",
                 **kwargs: Any) -> None:

        steps = _non_negative(save_checkpoint_steps, "save_checkpoint_steps")
        seconds = _non_negative(save_checkpoint_seconds, "save_checkpoint_seconds")
        keep = _non_negative(keep_checkpoint_max, "keep_checkpoint_max")
        per_min = _non_negative(keep_checkpoint_per_n_minutes, "keep_checkpoint_per_n_minutes")
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError(f"For 'CheckpointConfig', 'saved_network' must be None or a Cell, "
                            f"but got {type(saved_network).__name__}.")
        if not steps and not seconds and not keep and not per_min:
            raise ValueError("For 'CheckpointConfig', 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and "
                             "'keep_checkpoint_per_n_minutes' can't be all None or 0.")
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'CheckpointConfig', 'format' must be 'ckpt' or "
                             f"'safetensors', but got {format!r}.")
        if enc_key is not None and not isinstance(enc_key, bytes):
            raise TypeError(f"For 'CheckpointConfig', 'enc_key' must be None or bytes, but got "
                            f"{type(enc_key).__name__}.")
        self._save_checkpoint_steps = steps
        self._save_checkpoint_seconds = None if steps else seconds
        self._keep_checkpoint_max = keep
        self._keep_checkpoint_per_n_minutes = per_min
        if keep:
            self._keep_checkpoint_per_n_minutes = None
        elif not per_min:
            self._keep_checkpoint_max = 1
        self._integrated_save = bool(integrated_save)
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._enc_key = enc_key
        self._enc_mode = enc_mode
        self._crc_check = bool(crc_check)
        self._format = format
        self.exception_save = bool(exception_save)
        self.remove_redundancy = bool(remove_redundancy)

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    append_dict = property(lambda self: self._append_dict)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)
    crc_check = property(lambda self: self._crc_check)
    format = property(lambda self: self._format)

    def get_checkpoint_policy(self) -> dict:
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _handle_append_info(append_info: Any) -> dict | None:
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(f"For 'CheckpointConfig', 'append_info' must be a list, but got "
                            f"{type(append_info).__name__}.")
        out: dict = {}
        for name in _INFO_NAMES:
            if name in append_info:
                out[name] = 0
        dicts = 0
        for item in append_info:
            if isinstance(item, str):
                if item not in _INFO_NAMES:
                    raise ValueError(f"For 'CheckpointConfig', a str in 'append_info' must be "
                                     f"one of {list(_INFO_NAMES)}, but got {item!r}.")
            elif isinstance(item, dict):
                dicts += 1
                if dicts > 1:
                    raise TypeError("For 'CheckpointConfig', 'append_info' may hold only one "
                                    "dict.")
                for k, v in item.items():
                    if not isinstance(k, str) or not isinstance(
                            v, (int, float, bool, str, Parameter, Tensor)):
                        raise TypeError(f"For 'CheckpointConfig', the 'append_info' dict maps "
                                        f"str to int, float, bool, str or Tensor, but got "
                                        f"{k!r}: {type(v).__name__}.")
                    out[k] = v
            else:
                raise TypeError(f"For 'CheckpointConfig', 'append_info' holds str or dict "
                                f"items, but got {type(item).__name__}.")
        return out


def _unused_prefix(directory: str, prefix: str) -> str:
    """``prefix``, or ``prefix_N`` past the highest N already used by a checkpoint there."""
    suffix = 0
    for filename in os.listdir(directory):
        ext = os.path.splitext(filename)[1]
        if ext not in (".ckpt", ".safetensors") or filename.endswith("_breakpoint.ckpt"):
            continue
        if not filename.startswith(prefix) or len(filename) <= len(prefix) \
                or filename[len(prefix)].isalpha():
            continue
        rest = filename[len(prefix):]
        dash = rest.find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash != -1 and rest[1:dash].isdigit():
            suffix = max(suffix, int(rest[1:dash]) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class ModelCheckpoint(Callback):
    """Save checkpoints during training (see ``CheckpointConfig``); the last step is saved
    at the end of training too. ``prefix`` and ``directory`` may be callables of the
    cb_params; a callable prefix names the file ``{prefix}.ckpt``.

    As in MindSpore the names hold no rank: in data-parallel training each process is
    given its own directory (MindSpore's layout is ``rank_<id>``, e.g.
    ``directory=f"ckpt/rank_{get_rank()}"``). Processes that share one directory write the
    same names (each file is renamed into place whole) and remove each other's old files
    (one already gone is skipped)."""

    def __init__(self, prefix: Any = "CKP", directory: Any = None,
                 config: CheckpointConfig | None = None) -> None:
        super().__init__()
        if not callable(prefix) and (not isinstance(prefix, str) or "/" in prefix):
            raise ValueError(f"For 'ModelCheckpoint', 'prefix' must be a callable or a str "
                             f"without '/', but got {prefix!r}.")
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', 'config' must be a CheckpointConfig, but "
                            f"got {type(config).__name__}.")
        self._config = config
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        self._prefix = prefix
        if directory is None:
            self._directory = os.getcwd()
        elif callable(directory):
            self._directory = None
        else:
            self._directory = self._make_directory(directory)
        if self._prefix_func is None and self._directory_func is None:
            self._prefix = _unused_prefix(self._directory, prefix)
        self._latest_ckpt_file_name = ""
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._written: dict[str, int] = {}  # path -> order of writing (ties of mtime)
        self._append_dict = dict(config.append_dict or {})
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)

    @staticmethod
    def _make_directory(path: Any) -> str:
        if not isinstance(path, (str, os.PathLike)) or not os.fspath(path).strip():
            raise ValueError(f"For 'ModelCheckpoint', 'directory' must be a non-empty path, "
                             f"but got {path!r}.")
        real = os.path.realpath(os.fspath(path))
        os.makedirs(real, exist_ok=True)
        return real

    @property
    def latest_ckpt_file_name(self) -> str:
        """The path of the last checkpoint written."""
        return self._latest_ckpt_file_name

    def step_end(self, run_context: Any) -> None:
        cb = run_context.original_args()
        if self._prefix_func is not None:
            self._prefix = self._prefix_func(cb)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError(f"For 'ModelCheckpoint', the callable 'prefix' must return a "
                                 f"str without '/', but got {self._prefix!r}.")
        if self._directory_func is not None:
            self._directory = self._make_directory(self._directory_func(cb))
        self._save_ckpt(cb)

    def end(self, run_context: Any) -> None:
        self._save_ckpt(run_context.original_args(), force=True)

    def _due(self, cb: dict, force: bool) -> bool:
        cfg = self._config
        if cfg.save_checkpoint_steps:
            return force or cb["cur_step_num"] >= (self._last_triggered_step
                                                   + cfg.save_checkpoint_steps)
        if cfg.save_checkpoint_seconds:
            now = time.time()
            if force or now - self._last_time > cfg.save_checkpoint_seconds:
                self._last_time = now
                return True
        return False

    def _existing(self) -> list[str]:
        """This prefix's checkpoints in the folder (``prefix-<digits and _>.ext``)."""
        ext = "." + self._config.format
        out = []
        for filename in os.listdir(self._directory):
            if filename.endswith(ext) and filename.startswith(self._prefix + "-"):
                middle = filename[len(self._prefix):-len(ext)]
                if not any(ch.isalpha() for ch in middle):
                    out.append(os.path.join(self._directory, filename))
        return out

    def _ages(self, files: list[str]) -> dict[str, tuple]:
        """Each file's age key, oldest first: modification time, then the order this
        callback wrote them (files written within one clock tick have the same time). A
        file gone since it was listed is left out: the ranks of a data-parallel run that
        share a directory remove each other's old checkpoints."""
        ages = {}
        for path in files:
            try:
                ages[path] = (os.stat(path).st_mtime_ns, self._written.get(path, -1))
            except FileNotFoundError:
                pass
        return ages

    @staticmethod
    def _remove(path: str) -> None:
        try:
            os.remove(path)
        except FileNotFoundError:  # another process removed it first: what was wanted
            pass

    def _make_room(self) -> None:
        cfg = self._config
        files = self._existing()
        if cfg.keep_checkpoint_max and 0 < cfg.keep_checkpoint_max <= len(files):
            ages = self._ages(files)
            if ages:
                self._remove(min(ages, key=ages.__getitem__))
        elif cfg.keep_checkpoint_per_n_minutes:
            now = time.time()
            window = cfg.keep_checkpoint_per_n_minutes * 60
            if now - self._last_time_for_keep < window:
                ages = self._ages(files)
                recent = [f for f, (ns, _) in ages.items() if now - ns / 1e9 < window]
                if recent:
                    oldest = min(recent, key=ages.__getitem__)
                    for f in recent:
                        if f != oldest:
                            self._remove(f)

    def _save_ckpt(self, cb: dict, force: bool = False) -> None:
        step = cb["cur_step_num"]
        if step == self._last_triggered_step or not self._due(cb, force):
            return
        step_in_epoch = int((step - 1) % cb["batch_num"] + 1)
        ext = self._config.format
        if self._prefix_func is not None:
            name = f"{self._prefix}.{ext}"
        else:
            name = f"{self._prefix}-{cb['cur_epoch_num']}_{step_in_epoch}.{ext}"
        self._make_room()
        path = os.path.join(self._directory, name)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = step
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + cb["cur_epoch_num"]
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + step
        network = self._config.saved_network or cb["train_network"]
        save_checkpoint(network, path, self._config.integrated_save, False,
                        self._append_dict or None, self._config.enc_key, self._config.enc_mode,
                        crc_check=self._config.crc_check, format=ext)
        self._written[path] = len(self._written)
        self._latest_ckpt_file_name = path


__all__ = ["CheckpointConfig", "ModelCheckpoint"]
