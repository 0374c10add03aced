"""set_context / get_context check keys and values as MindSpore 2.10 does: an unknown key is
a ValueError, a value of the wrong type a TypeError, a value outside its choices or range a
ValueError; a call that raises changes nothing."""
from __future__ import annotations

import pytest

import mindgrad as ms
from mindgrad import context


@pytest.fixture(autouse=True)
def _restore_context():
    saved = dict(context._state)
    yield
    context._state.clear()
    context._state.update(saved)
    ms.set_context(mode=saved["mode"], device_target=saved["device_target"])


@pytest.mark.parametrize("key", ["bogus_key", "enable_dump", "device", "Mode"])
def test_unknown_set_context_key_raises_value_error(key: str) -> None:
    with pytest.raises(ValueError, match=f"set_context.*{key}"):
        ms.set_context(**{key: 1})


def test_misspelt_key_suggests_the_real_one() -> None:
    with pytest.raises(ValueError, match="Did you mean 'device_target'"):
        ms.set_context(devce_target="CPU")


def test_a_failing_call_changes_nothing() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, max_call_depth=50)
    with pytest.raises(ValueError, match="bogus"):
        ms.set_context(mode=ms.GRAPH_MODE, max_call_depth=70, bogus=1)
    with pytest.raises(TypeError, match="pynative_synchronize"):
        ms.set_context(mode=ms.GRAPH_MODE, pynative_synchronize=1)
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    assert ms.get_context("max_call_depth") == 50
    assert ms.get_context("pynative_synchronize") is False


@pytest.mark.parametrize("key,value,error,words", [
    ("mode", 5, ValueError, "GRAPH_MODE \\(0\\) or PYNATIVE_MODE \\(1\\), but got 5"),
    ("mode", None, ValueError, "mode"),
    ("mode", "GRAPH", TypeError, "'mode' must be an int, but got str"),
    ("mode", 0.0, TypeError, "'mode' must be an int"),
    ("device_target", "TPU", ValueError, "device_target.*'CPU', 'GPU'.*'TPU'"),
    ("device_target", "cpu", ValueError, "device_target"),
    ("device_target", 1, TypeError, "'device_target' must be a str"),
    ("device_id", -1, ValueError, "'device_id' must be in \\[0, 4095\\]"),
    ("device_id", 4096, ValueError, "device_id"),
    ("device_id", "0", TypeError, "'device_id' must be an int"),
    ("max_call_depth", 0, ValueError, "max_call_depth"),
    ("runtime_num_threads", -1, ValueError, "runtime_num_threads"),
    ("runtime_num_threads", 1.5, TypeError, "runtime_num_threads"),
    ("pynative_synchronize", 1, TypeError, "'pynative_synchronize' must be a bool"),
    ("check_bprop", "yes", TypeError, "check_bprop"),
    ("deterministic", "on", ValueError, "\\['ON', 'OFF'\\]"),
    ("deterministic", True, TypeError, "deterministic"),
    ("save_graphs", 5, ValueError, "save_graphs"),
    ("save_graphs", "x", TypeError, "save_graphs"),
    ("jit_syntax_level", 3, ValueError, "STRICT \\(0\\) or COMPATIBLE \\(1\\) or LAX \\(2\\)"),
    ("jit_config", "O0", TypeError, "'jit_config' must be a dict"),
    ("jit_config", {"jit_lvl": "O0"}, ValueError, "jit_lvl"),
    ("jit_config", {"jit_level": "O5"}, ValueError, "O5"),
    ("exec_order", "random", ValueError, "exec_order"),
    ("max_device_memory", 4, TypeError, "max_device_memory"),
    ("gpu_config", [1], TypeError, "gpu_config"),
    ("env_config_path", "/no/such/file.json", ValueError, "env_config_path"),
    ("precision_mode", "force_fp16", ValueError, "ascend_config"),
])
def test_bad_values(key: str, value, error: type, words: str) -> None:
    before = ms.get_context(key) if key in context._KEYS else None
    with pytest.raises(error, match=f"set_context.*{words}"):
        ms.set_context(**{key: value})
    if before is not None:
        assert ms.get_context(key) == before


def test_meaningful_keys_take_effect_and_read_back() -> None:
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    assert ms.get_context("mode") == ms.GRAPH_MODE and context.is_graph_mode()
    ms.set_context(mode=True)  # MindSpore takes a bool as the int it is
    assert ms.get_context("mode") == ms.PYNATIVE_MODE and type(ms.get_context("mode")) is int
    assert ms.get_context("device_target") == "CPU"


def test_harmless_keys_are_kept() -> None:
    """The keys mindgrad has no use for are accepted with MindSpore's values and read back."""
    assert ms.get_context("max_call_depth") == 1000
    assert ms.get_context("save_graphs") == 0 and ms.get_context("jit_config") == {}
    ms.set_context(max_call_depth=10, pynative_synchronize=True, save_graphs=True,
                   save_graphs_path="/tmp/graphs", jit_config={"jit_level": "O0"},
                   jit_syntax_level=ms.STRICT, deterministic="ON", runtime_num_threads=2,
                   max_device_memory="2GB", enable_graph_kernel=False, device_id=0,
                   ascend_config={"precision_mode": "force_fp16"})
    assert ms.get_context("max_call_depth") == 10
    assert ms.get_context("pynative_synchronize") is True
    assert ms.get_context("save_graphs") == 2  # True means level 2, as in MindSpore
    assert ms.get_context("save_graphs_path") == "/tmp/graphs"
    assert ms.get_context("jit_syntax_level") == ms.STRICT == 0
    assert ms.get_context("deterministic") == "ON"
    config = ms.get_context("jit_config")
    assert config == {"jit_level": "O0"}
    config["jit_level"] = "O2"  # a copy: the context keeps its own
    assert ms.get_context("jit_config") == {"jit_level": "O0"}
    ms.set_context(enable_sparse=True)  # deprecated in MindSpore: accepted and dropped
    with pytest.raises(ValueError, match="enable_sparse"):
        ms.get_context("enable_sparse")


def test_get_context_unknown_key() -> None:
    with pytest.raises(ValueError, match="get_context.*'bogus'"):
        ms.get_context("bogus")
    with pytest.raises(ValueError, match="Did you mean 'mode'"):
        ms.get_context("mdoe")
    with pytest.raises(TypeError, match="get_context.*str"):
        ms.get_context(0)
