"""MindSpore computes inf and NaN (log of 0, division by zero, overflow) without a word;
NumPy reports each as a RuntimeWarning. mindgrad silences those reports for its own code
only, with a warnings filter:

- it matches NumPy's floating-point messages (``divide by zero encountered in log``,
  ``overflow encountered in exp``, ``invalid value encountered in sqrt``, ``underflow ...``)
  raised while a frame of a ``mindgrad`` module (compiled graphs included: they run as
  ``mindgrad.graph.compiled``) is the innermost Python frame;
- it costs almost nothing per operation: NumPy checks its floating-point flags after every
  ufunc anyway, and the filter is consulted only when one is set. What each eager operation
  (and each call of a compiled graph) pays is one identity test, ``warnings.filters is
  installed_in``, which finds out whether the filter list was replaced since the filter
  went in: ``warnings.catch_warnings`` restores the list it found on exit, so a filter added
  at import inside such a block (pytest collects test files in one) would otherwise be
  lost. A ``np.errstate`` around each operation would cost about a microsecond;
- it leaves the user's NumPy state alone: ``np.seterr`` / ``np.errstate`` are untouched, so
  the user's own NumPy code warns as before, and a user who asks NumPy to raise
  (``np.seterr(all="raise")``) still gets FloatingPointError from mindgrad's operations too;
- every other warning, and every exception, passes. Filters installed after mindgrad is
  imported come first, as Python's filters do, and then decide (``warnings.simplefilter(
  "error")`` after the import turns these reports into exceptions again); ``python -W ...``
  options are installed before, so they do not.
"""
from __future__ import annotations

import warnings

# NumPy's wording of its floating-point error reports (numpy/_core/_ufunc_config.py).
MESSAGE = r"(divide by zero|overflow|underflow|invalid value) encountered in "
MODULE = r"mindgrad(\.|$)"

# The list object the filter was last put in (``warnings.filters`` at that time).
installed_in: list | None = None


def install() -> None:
    """Add the filter to ``warnings.filters`` unless it is there already."""
    global installed_in
    filters = warnings.filters
    installed_in = filters
    for action, message, category, module, _ in filters:
        if action == "ignore" and category is RuntimeWarning \
                and getattr(message, "pattern", None) == MESSAGE \
                and getattr(module, "pattern", None) == MODULE:
            return
    warnings.filterwarnings("ignore", message=MESSAGE, category=RuntimeWarning, module=MODULE)


def ensure() -> None:
    """Install the filter again if the filter list was replaced since (see above)."""
    if warnings.filters is not installed_in:
        install()
