"""Process groups over MPI: ``init``, ranks and sizes, ``create_group`` / ``destroy_group``,
``release``.

MindSpore's collective library (HCCL, NCCL, MCCL) is MPI here: ``init()`` joins the
processes an MPI launcher started (``mpirun -n N mindgrad run train.py`` or ``mindgrad
msrun``) through mpi4py, and every group is an MPI communicator. This module depends on
mpi4py (optional: ``pip install 'mindgrad[mpi]'``) and nothing else of mindgrad, so the
collective primitives below the graph layer can use it.

Before ``init()``, as in MindSpore, a process is alone: ``get_rank()`` is 0 and
``get_group_size()`` is 1; the collectives refuse to run until ``init()``.
"""
from __future__ import annotations

import os
from typing import Any

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_group_size", "get_local_rank",
           "get_local_rank_size", "create_group", "destroy_group", "get_process_group_ranks",
           "get_group_rank_from_world_rank", "get_world_rank_from_group_rank", "get_comm_name",
           "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_WORLD_NAMES = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP,
                "mccl": MCCL_WORLD_COMM_GROUP}

# Environment variables an MPI launcher sets in the processes it starts (Open MPI, PMIx,
# MPICH's Hydra and Intel MPI, Slurm's srun): their absence means no launcher started us.
_LAUNCHER_VARS = ("OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                  "MPI_LOCALNRANKS", "SLURM_PROCID")


class GlobalComm:
    """The communication settings of this process: the backend's name, the world group's
    name (``WORLD_COMM_GROUP``, the default ``group`` of every collective) and whether
    ``init()`` has run."""

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


class _State:
    """The MPI objects behind the groups (filled by ``init``)."""

    mpi: Any = None            # the mpi4py.MPI module
    world: Any = None          # its COMM_WORLD
    local: Any = None          # the world split by shared-memory node
    groups: dict = {}          # user group name -> (communicator, world ranks)


def _import_mpi(what: str) -> Any:
    try:
        from mpi4py import MPI
    except ImportError as e:  # mpi4py missing, or it cannot load an MPI library
        raise RuntimeError(
            f"For '{what}', mindgrad communicates over MPI through mpi4py, which could not be "
            f"imported ({e}). Install it with an MPI library: pip install 'mindgrad[mpi]'."
        ) from None
    return MPI


def _launched() -> bool:
    return any(v in os.environ for v in _LAUNCHER_VARS)


def init(backend_name: str | None = None) -> None:
    """Join the processes started by an MPI launcher (``mpirun -n N mindgrad run
    train.py``, ``mindgrad msrun ...``). ``backend_name`` is MindSpore's (``'hccl'``,
    ``'nccl'`` or ``'mccl'``, None: hccl); all of them run on MPI here, and the world
    group takes that backend's name. Calling it again is harmless.

    RuntimeError when the process was not started by an MPI launcher (as MindSpore's
    ``init`` outside ``mpirun`` or ``msrun``) or when mpi4py is not installed."""
    if backend_name is None:
        backend_name = "hccl"
    if not isinstance(backend_name, str) or backend_name not in _WORLD_NAMES:
        raise RuntimeError(f"For 'init', the argument 'backend_name' must be one of 'hccl', "
                           f"'nccl' and 'mccl', but got 'backend_name' : {backend_name}")
    if GlobalComm.INITED:
        return
    if not _launched():
        raise RuntimeError(
            "For 'init', this process was not started by an MPI launcher, so there is no "
            "group to join. Launch the script with 'mpirun -n N mindgrad run train.py' or "
            "'mindgrad msrun --worker_num=N --local_worker_num=N train.py' (without init(), "
            "a script runs alone: get_rank() is 0 and get_group_size() is 1).")
    MPI = _import_mpi("init")
    _State.mpi = MPI
    _State.world = MPI.COMM_WORLD
    _State.local = MPI.COMM_WORLD.Split_type(MPI.COMM_TYPE_SHARED, key=MPI.COMM_WORLD.rank)
    _State.groups = {}
    GlobalComm.BACKEND = backend_name
    GlobalComm.WORLD_COMM_GROUP = _WORLD_NAMES[backend_name]
    GlobalComm.INITED = True


def release() -> None:
    """Free the groups ``create_group`` made and leave the initialized state (get_rank() is
    0 again). MPI itself stays up until the process ends, as MPI allows one start only; a
    later ``init()`` joins the same processes again."""
    if not GlobalComm.INITED:
        return
    for comm, _ in _State.groups.values():
        comm.Free()
    if _State.local is not None:
        _State.local.Free()
    _State.groups = {}
    _State.world = _State.local = None
    GlobalComm.INITED = False


def _is_world(group: str) -> bool:
    return group == GlobalComm.WORLD_COMM_GROUP or group in _WORLD_NAMES.values()


def _check_group(what: str, group: Any) -> None:
    if not isinstance(group, str):
        raise TypeError(f"For '{what}', the argument 'group' must be a str, but got "
                        f"{type(group).__name__}.")


def communicator(group: str, what: str) -> Any:
    """The mpi4py communicator of ``group`` (after ``init``); RuntimeError before ``init``,
    ValueError for a group that does not exist."""
    _check_group(what, group)
    if not GlobalComm.INITED:
        raise RuntimeError(
            f"For '{what}', the communication is not initialized: call "
            f"mindspore.communication.init() first, in a script started by 'mpirun -n N "
            f"mindgrad run train.py' or 'mindgrad msrun'.")
    if _is_world(group):
        return _State.world
    hit = _State.groups.get(group)
    if hit is None:
        raise ValueError(f"For '{what}', the group '{group}' does not exist on rank "
                         f"{_State.world.rank}: create it with create_group() first.")
    return hit[0]


def _group_ranks(group: str, what: str) -> list[int]:
    comm = communicator(group, what)
    if comm is _State.world:
        return list(range(comm.size))
    return list(_State.groups[group][1])


def get_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank in ``group`` (0 before ``init``)."""
    _check_group("get_rank", group)
    if not GlobalComm.INITED:
        return 0
    return communicator(group, "get_rank").rank


def get_group_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """How many processes ``group`` holds (1 before ``init``)."""
    _check_group("get_group_size", group)
    if not GlobalComm.INITED:
        return 1
    return communicator(group, "get_group_size").size


def _local_of(group: str, what: str) -> Any:
    """``group``'s processes on this machine, as a communicator (None for the world's own
    node communicator, which ``init`` keeps)."""
    comm = communicator(group, what)
    if comm is _State.world:
        return _State.local
    return comm.Split_type(_State.mpi.COMM_TYPE_SHARED, key=comm.rank)


def _local_attr(group: str, who: str, attr: str, before_init: int) -> int:
    """``attr`` ("rank" or "size") of ``group``'s communicator among the processes on
    this machine (``before_init`` until ``init``)."""
    _check_group(who, group)
    if not GlobalComm.INITED:
        return before_init
    local = _local_of(group, who)
    value = getattr(local, attr)
    if local is not _State.local:
        local.Free()
    return value


def get_local_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank among ``group``'s processes on the same machine (0 before
    ``init``). For a group other than the world every member must call it together (it
    splits the group's communicator by machine)."""
    return _local_attr(group, "get_local_rank", "rank", 0)


def get_local_rank_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """How many of ``group``'s processes run on this machine (1 before ``init``); for a
    group other than the world, called by every member together."""
    return _local_attr(group, "get_local_rank_size", "size", 1)


def create_group(group: str, rank_ids: list, options: Any = None) -> None:
    """Make a group of the world ranks ``rank_ids`` named ``group``. Every process listed
    calls it (the others need not); ``options`` (backend settings) is accepted and unused.

    ValueError for a taken name, an empty, repeated or out-of-range rank list, or a calling
    process that is not in the list."""
    _check_group("create_group", group)
    world = communicator(GlobalComm.WORLD_COMM_GROUP, "create_group")
    if _is_world(group) or group in _State.groups:
        raise ValueError(f"For 'create_group', the group '{group}' already exists.")
    if not isinstance(rank_ids, (list, tuple)) or not all(
            isinstance(r, int) and not isinstance(r, bool) for r in rank_ids):
        raise TypeError(f"For 'create_group', 'rank_ids' must be a list of int, but got "
                        f"{rank_ids!r}.")
    ranks = list(rank_ids)
    if not ranks or len(set(ranks)) != len(ranks):
        raise ValueError(f"For 'create_group', 'rank_ids' must be non-empty and without "
                         f"repeats, but got {ranks}.")
    if any(r < 0 or r >= world.size for r in ranks):
        raise ValueError(f"For 'create_group', every rank in 'rank_ids' must be in [0, "
                         f"{world.size}), but got {ranks}.")
    if world.rank not in ranks:
        raise ValueError(f"For 'create_group', this process (rank {world.rank}) is not in "
                         f"'rank_ids' {ranks}: only the ranks of the group create it.")
    # MPI_Comm_create_group is collective over the new group's members only
    comm = world.Create_group(world.group.Incl(ranks), tag=_tag(group))
    _State.groups[group] = (comm, tuple(ranks))


def _tag(name: str) -> int:
    """A tag every member computes alike from the group's name (Python's str hash is salted
    per process), so that groups made at the same time do not mix their set-up messages."""
    import zlib

    return zlib.crc32(name.encode()) & 0x7FFF


def destroy_group(group: str) -> None:
    """Free a group ``create_group`` made (ValueError for the world group or an unknown
    name)."""
    _check_group("destroy_group", group)
    communicator(GlobalComm.WORLD_COMM_GROUP, "destroy_group")
    if _is_world(group):
        raise ValueError(f"For 'destroy_group', the world group '{group}' can not be "
                         f"destroyed.")
    hit = _State.groups.pop(group, None)
    if hit is None:
        raise ValueError(f"For 'destroy_group', the group '{group}' does not exist.")
    hit[0].Free()


def get_process_group_ranks(group: str = GlobalComm.WORLD_COMM_GROUP) -> list[int]:
    """The world ranks in ``group``, in group-rank order."""
    return _group_ranks(group, "get_process_group_ranks")


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in ``group`` of the process of world rank ``world_rank_id``."""
    ranks = _group_ranks(group, "get_group_rank_from_world_rank")
    if world_rank_id not in ranks:
        raise ValueError(f"For 'get_group_rank_from_world_rank', world rank "
                         f"{world_rank_id} is not in the group '{group}' ({ranks}).")
    return ranks.index(world_rank_id)


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of the process of rank ``group_rank_id`` in ``group``."""
    ranks = _group_ranks(group, "get_world_rank_from_group_rank")
    if not isinstance(group_rank_id, int) or not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"For 'get_world_rank_from_group_rank', 'group_rank_id' must be in "
                         f"[0, {len(ranks)}), but got {group_rank_id}.")
    return ranks[group_rank_id]


def get_comm_name(group: str = GlobalComm.WORLD_COMM_GROUP) -> str:
    """The name of ``group``'s communicator (MPI's name of it)."""
    return communicator(group, "get_comm_name").Get_name()
