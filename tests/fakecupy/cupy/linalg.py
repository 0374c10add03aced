"""``cupy.linalg``: NumPy's linear algebra on the stand-in's device arrays."""
from ._functions import LINALG

globals().update(LINALG)
