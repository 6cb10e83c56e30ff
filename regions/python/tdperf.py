"""tdperf's marker API for Python: named regions for 'tdperf record --regions'.

    import tdperf

    with tdperf.region("solve"):
        solve()

    @tdperf.region("step")          # or @tdperf.region() for the function's name
    def step(): ...

The calls go to libtdperf.so (ctypes), so a Python program and the C, C++
or Fortran code it calls count into the same regions of each thread.
Outside 'tdperf record --regions' every call returns at once.
"""
import ctypes
import functools
import os
import sys

__all__ = ["begin", "end", "region", "active"]


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    # $TDPERF_LIB; the dynamic loader's search; PREFIX/lib beside
    # PREFIX/lib/python3.X/site-packages (and the build tree's top from regions/python)
    names = [os.environ.get("TDPERF_LIB"), "libtdperf.so.1",
             os.path.join(here, "..", "..", "libtdperf.so.1")]
    for name in names:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    return None


_lib = _load()
if _lib is None and os.environ.get("TDPERF_REGIONS"):
    sys.stderr.write("tdperf: libtdperf.so not found (set TDPERF_LIB): "
                     "the regions of this program are not counted\n")
_active = bool(_lib is not None and ctypes.c_int.in_dll(_lib, "tdperf_regions_active").value)
if _active:
    _lib.tdperf_region_begin.argtypes = [ctypes.c_char_p]
    _lib.tdperf_region_end.argtypes = [ctypes.c_char_p]
# the library keeps the name's pointer: one bytes object per name, kept for good
_names = {}


def active():
    """True when the program runs under tdperf record --regions."""
    return _active


def _bytes(name):
    b = _names.get(name)
    if b is None:
        b = _names[name] = ctypes.create_string_buffer(name.encode())
    return b


def begin(name):
    if _active:
        _lib.tdperf_region_begin(_bytes(name))


def end(name):
    if _active:
        _lib.tdperf_region_end(_bytes(name))


class region:
    """A region as a context manager (with) or a decorator."""

    def __init__(self, name=None):
        self.name = name

    def __enter__(self):
        begin(self.name)
        return self

    def __exit__(self, *exc):
        end(self.name)
        return False

    def __call__(self, fn):
        name = self.name or fn.__qualname__

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            begin(name)
            try:
                return fn(*args, **kwargs)
            finally:
                end(name)
        return wrapper
