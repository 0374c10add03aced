"""``mindspore._extends``: ``cell_attr_register``, the decorator MindSpore's built-in cells
put on ``__init__`` to record the arguments a cell was made with."""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable


def cell_attr_register(fn: Callable | None = None, attrs: Any = None) -> Any:
    """Decorate a Cell's ``__init__`` so that, after it runs, ``self.cell_init_args`` holds
    the class name and the arguments (all of them, or the attributes named by ``attrs``, a
    name or a list of names), as MindSpore records them. Usable bare or with ``attrs=``."""
    if attrs is not None and not isinstance(attrs, (str, list)):
        raise ValueError(f"For 'cell_attr_register', 'attrs' must be a str or a list of str, "
                         f"but got {type(attrs).__name__}.")

    def wrap(init: Callable) -> Callable:
        @functools.wraps(init)
        def deco(self: Any, *args: Any, **kwargs: Any) -> None:
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs)
                arguments: Any = [v for k, v in bound.arguments.items() if k != "self"]
            init(self, *args, **kwargs)
            if isinstance(attrs, str):
                arguments = getattr(self, attrs, [])
            elif isinstance(attrs, list):
                for item in attrs:
                    if not isinstance(item, str):
                        raise ValueError(f"For 'cell_attr_register', every entry of 'attrs' "
                                         f"must be a str, but got {item!r}.")
                arguments = [getattr(self, a) for a in attrs if hasattr(self, a)]
            self.cell_init_args = type(self).__name__ + str(arguments)

        return deco

    return wrap(fn) if fn is not None else wrap
