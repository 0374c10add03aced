"""``cupy.fft``: NumPy's FFTs on the stand-in's device arrays."""
from ._functions import FFT

globals().update(FFT)
