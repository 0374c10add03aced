"""``mindgrad run`` runs a script as ``python script.py`` would (its folder first on
sys.path, the user's traceback only, python's exit codes), run in a subprocess as a user
runs it; ``mindgrad --version``; and the README's commands work without an activated venv."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import mindgrad as ms

ROOT = Path(__file__).resolve().parent.parent


def _mindgrad(*args: str, cwd: Path, launcher: str = "module") -> subprocess.CompletedProcess:
    """Run the command line: ``python -m mindgrad`` or the installed ``mindgrad`` script."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT)] + sys.path))
    if launcher == "module":
        cmd = [sys.executable, "-m", "mindgrad", *args]
    else:
        cmd = [launcher, *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def test_script_folder_is_first_on_sys_path(tmp_path: Path) -> None:
    """A script imports the module beside it, from any current folder, and neither the
    current folder nor the launcher's folder is searched before the script's."""
    _write(tmp_path / "proj" / "helper.py", "VALUE = 'beside the script'\n")
    _write(tmp_path / "helper.py", "VALUE = 'current folder'\n")
    _write(tmp_path / "proj" / "train.py", """
        import sys
        import helper
        import mindspore
        print(helper.VALUE)
        print(sys.path[0])
    """)
    res = _mindgrad("run", "proj/train.py", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == ["beside the script", str(tmp_path / "proj")]
    # a symlink to the script: python searches the real script's folder
    (tmp_path / "link.py").symlink_to(tmp_path / "proj" / "train.py")
    res = _mindgrad("run", "link.py", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0] == "beside the script"


def test_installed_launcher_puts_the_script_folder_first(tmp_path: Path) -> None:
    launcher = Path(sys.executable).parent / "mindgrad"
    if not launcher.exists():
        pytest.skip("the mindgrad launcher is not installed beside this python")
    _write(tmp_path / "proj" / "helper.py", "VALUE = 7\n")
    _write(tmp_path / "proj" / "main.py", "import helper, sys\nprint(helper.VALUE, sys.argv)\n")
    res = _mindgrad("run", str(tmp_path / "proj" / "main.py"), "--epochs", "2", cwd=tmp_path,
                    launcher=str(launcher))
    assert res.returncode == 0, res.stderr
    assert res.stdout == f"7 [{str(tmp_path / 'proj' / 'main.py')!r}, '--epochs', '2']\n"


def test_arguments_name_and_file_as_python_gives_them(tmp_path: Path) -> None:
    _write(tmp_path / "s.py", """
        import sys
        print(sys.argv)
        print(__name__, __file__)
        import mindspore as ms
        print(ms.ops.grad(lambda x: x * x)(ms.Tensor([3.0])))
    """)
    res = _mindgrad("run", "s.py", "--lr", "0.1", "-x", "--help", "--version", "pos",
                    cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [
        "['s.py', '--lr', '0.1', '-x', '--help', '--version', 'pos']",
        f"__main__ {tmp_path / 's.py'}", "[6.]"]


def test_traceback_shows_only_the_users_frames(tmp_path: Path) -> None:
    _write(tmp_path / "boom.py", """
        import mindspore.ops as ops
        from mindspore import Tensor

        def step(x):
            return ops.matmul(x, Tensor([[1.0, 2.0, 3.0]]))

        step(Tensor([[1.0, 2.0]]))
    """)
    res = _mindgrad("run", "boom.py", cwd=tmp_path)
    assert res.returncode == 1 and res.stdout == ""
    lines = res.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "{tmp_path / "boom.py"}", line 8, in <module>'
    assert f'File "{tmp_path / "boom.py"}", line 6, in step' in res.stderr
    assert "cli.py" not in res.stderr and "runpy" not in res.stderr
    assert "__main__.py" not in res.stderr
    assert lines[-1].startswith("ValueError: For 'MatMul'")


def test_syntax_error_and_chained_exceptions_as_python_prints_them(tmp_path: Path) -> None:
    _write(tmp_path / "syn.py", "x = 1\ndef f(:\n")
    res = _mindgrad("run", "syn.py", cwd=tmp_path)
    assert res.returncode == 1
    assert res.stderr.splitlines()[0] == f'  File "{tmp_path / "syn.py"}", line 2'
    assert res.stderr.splitlines()[-1] == "SyntaxError: invalid syntax"
    assert "cli.py" not in res.stderr and "Traceback" not in res.stderr
    script = _write(tmp_path / "chain.py", """
        try:
            {}["key"]
        except KeyError as err:
            raise RuntimeError("wrapped") from err
    """)
    res = _mindgrad("run", "chain.py", cwd=tmp_path)
    expected = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)
    assert res.returncode == expected.returncode == 1
    assert res.stderr == expected.stderr


@pytest.mark.parametrize("code,status,err", [
    ("sys.exit(3)", 3, ""),
    ("sys.exit()", 0, ""),
    ("sys.exit(0)", 0, ""),
    ("sys.exit('stopped early')", 1, "stopped early\n"),
    ("raise KeyboardInterrupt", 130, "KeyboardInterrupt"),
])
def test_exit_status_as_python(tmp_path: Path, code: str, status: int, err: str) -> None:
    _write(tmp_path / "ex.py", f"import sys\nprint('before')\n{code}\nprint('after')\n")
    res = _mindgrad("run", "ex.py", cwd=tmp_path)
    assert res.returncode == status
    assert res.stdout == "before\n"
    if code.startswith("raise"):
        assert res.stderr.splitlines()[-1] == err and "cli.py" not in res.stderr
    else:
        assert res.stderr == err


def test_missing_file_and_folders(tmp_path: Path) -> None:
    res = _mindgrad("run", "nothere.py", cwd=tmp_path)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == (f"mindgrad run: can't open file {str(tmp_path / 'nothere.py')!r}: "
                          f"[Errno 2] No such file or directory\n")
    (tmp_path / "folder").mkdir()
    res = _mindgrad("run", "folder", cwd=tmp_path)
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr == (f"mindgrad run: can't find '__main__' module in "
                          f"{str(tmp_path / 'folder')!r}\n")
    # a folder with a __main__.py runs it, with the folder first on sys.path (as python)
    _write(tmp_path / "app" / "__main__.py", """
        import sys, util
        print(util.NAME, sys.argv, __file__ == sys.path[0] + '/__main__.py')
    """)
    _write(tmp_path / "app" / "util.py", "NAME = 'util'\n")
    res = _mindgrad("run", "app", "a", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout == "util ['app', 'a'] True\n"


def test_version_flag(tmp_path: Path) -> None:
    res = _mindgrad("--version", cwd=tmp_path)
    assert res.returncode == 0 and res.stdout == f"mindgrad {ms.__version__}\n"
    res = _mindgrad(cwd=tmp_path)  # no command: the usage, and python's status for it
    assert res.returncode == 2 and "usage: mindgrad" in res.stderr


def _readme_commands() -> list[str]:
    """Every command in the README's indented code blocks, split at ``&&``."""
    text = (ROOT / "README.md").read_text()
    commands = []
    for line in text.splitlines():
        if line.startswith("    ") and not line.startswith("     "):
            shell = line.strip().split("  #")[0]
            # environment assignments before a command (VAR=value cmd) are not the command
            commands += [re.sub(r"^(\w+=\S+\s+)+", "", c.strip()) for c in shell.split("&&")]
    return commands


def test_readme_commands_run_without_an_activated_venv() -> None:
    """Each pip / python / mindgrad command in the README names the venv's own, so that it
    can be pasted into a shell where the venv is not active; only the command that makes the
    venv uses the system's python3."""
    commands = _readme_commands()
    assert "python3 -m venv .venv" in commands
    tools = re.compile(r"^(\S*/)?(pip3?|python3?|mindgrad)(\s|$)")
    used = [c for c in commands if tools.match(c)]
    assert len(used) >= 8
    for command in used:
        if command == "python3 -m venv .venv":
            continue
        assert command.startswith((".venv/bin/pip ", ".venv/bin/python ",
                                   ".venv/bin/mindgrad ")), command
    # the inline commands of the prose too (`pip install ...`, `mindgrad run ...`)
    text = (ROOT / "README.md").read_text()
    for inline in re.findall(r"`([^`]+)`", text):
        assert not re.match(r"(pip3?|python3?) \S", inline) or inline.startswith("python3 -m"), \
            inline
