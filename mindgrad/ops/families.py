"""The modules that define the functions of ``mindgrad.ops``, one per family of operators,
and the lookup of a function of the name table (``names.py``) by its name."""
from __future__ import annotations

from typing import Any, Callable

from . import (array_functions, functional, indexing_functions, linalg_functions,
               math_functions, nn_functions, random_ops, sorting)
from . import (layer_functions, loss_functions, reshaping_functions, scatter_functions,
               spatial_functions, statistics_functions)
from . import decompositions, fft_functions, matrix_functions, special_functions

FAMILIES = (functional, array_functions, indexing_functions, linalg_functions, math_functions,
            nn_functions, random_ops, sorting,
            reshaping_functions, scatter_functions, spatial_functions, statistics_functions,
            layer_functions, loss_functions,
            special_functions, decompositions, matrix_functions, fft_functions)


def function(name: str) -> Callable[..., Any]:
    """The function ``mindgrad.ops.<name>``, from the family module that offers it."""
    for module in FAMILIES:
        if name in module.__all__:
            return getattr(module, name)
    raise LookupError(f"The name table names the function {name!r}, which no module of "
                      f"mindgrad.ops defines.")


__all__ = ["FAMILIES", "function"]
