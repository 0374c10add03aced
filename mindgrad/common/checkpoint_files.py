"""Checkpoint files on disk: the checkpoint error, atomic writes, and the clean-up of the
temporary files that interrupted saves leave behind.

A save writes ``.<name>.<random>.tmp`` beside the target, holds an exclusive ``flock`` on it
while writing, and renames it into place, so a reader never sees a half-written checkpoint.
A save killed before the rename (``kill -9``, a power cut) leaves its temporary file; the
kernel drops its lock when the process dies. The next save to the same target removes every
such file of that target that nobody holds locked, so a save still running in another thread
or process keeps its file.
"""
from __future__ import annotations

import os
import re
import tempfile
from typing import Callable, BinaryIO

try:  # POSIX only; without it orphaned temporary files are left alone (never removed unsafely)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class CheckpointError(ValueError):
    """A checkpoint file that cannot be read (missing, truncated, corrupted, not a
    checkpoint)."""


def corrupt(path: str, why: str) -> CheckpointError:
    """The error for a file that exists but cannot be read as a checkpoint."""
    return CheckpointError(f"Failed to read the checkpoint file '{path}': {why}. The file is "
                           f"truncated, corrupted or not a checkpoint.")


_SUFFIX = ".tmp"
_RANDOM = r"[A-Za-z0-9_]{8}"  # what tempfile.mkstemp puts between prefix and suffix


def _temp_prefix(path: str) -> str:
    return "." + os.path.basename(path) + "."


def _lock(fd: int, blocking: bool) -> bool:
    """Take an exclusive lock on ``fd``; False when ``blocking`` is off and it is taken."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        return True
    except BlockingIOError:
        return False


def remove_orphaned_temp_files(path: str) -> list[str]:
    """Remove the temporary files that interrupted saves to ``path`` left behind; return their
    paths. A file some live save holds locked is kept. Without ``fcntl`` nothing is removed."""
    if fcntl is None:
        return []
    directory = os.path.dirname(os.path.abspath(path))
    pattern = re.compile(re.escape(_temp_prefix(path)) + _RANDOM + re.escape(_SUFFIX))
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    removed = []
    for name in names:
        if not pattern.fullmatch(name):
            continue
        tmp = os.path.join(directory, name)
        try:
            fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:  # gone meanwhile, a link, or not ours to read
            continue
        try:
            # Remove only what we hold locked and is still the file at that name: a save
            # that created its file but has not locked it yet notices the removal (see
            # _create_locked_temp) and starts over with a new file.
            if _lock(fd, blocking=False) and os.path.samestat(os.fstat(fd), os.stat(tmp)):
                os.unlink(tmp)
                removed.append(tmp)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def _create_locked_temp(path: str) -> tuple[int, str]:
    """A new temporary file beside ``path``, locked by us (fd, name)."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=_temp_prefix(path), suffix=_SUFFIX)
        _lock(fd, blocking=True)
        try:
            if os.path.samestat(os.fstat(fd), os.stat(tmp)):
                return fd, tmp
        except FileNotFoundError:
            pass
        # Another save's clean-up took the file between its creation and our lock.
        os.close(fd)


def write_atomic(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Write ``path`` through ``write(file)`` into a locked temporary file that is renamed
    into place only when complete; on any error the temporary file is removed and an existing
    ``path`` is left as it was. Orphans of earlier interrupted saves are removed first."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    remove_orphaned_temp_files(path)
    fd, tmp = _create_locked_temp(path)
    try:
        with os.fdopen(fd, "wb", closefd=False) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    finally:
        os.close(fd)  # closing drops the lock


__all__ = ["CheckpointError", "corrupt", "write_atomic", "remove_orphaned_temp_files"]
