"""The Python program of tests/e2e/t1102-regions-fortran-python.sh: the
context manager's region "a" does three times the decorated function
"b"'s iterations, 5 times."""
import tdperf


@tdperf.region("b")
def b(n):
    s = 1.0
    for _ in range(n):
        s = s * 1.0000001 + 0.5
    return s


for _ in range(5):
    with tdperf.region("a"):
        b(3 * 30000)      # a's own work is in b's: nested, a is b's parent
    b(30000)

@tdperf.region()
def named_by_function():
    pass


named_by_function()
