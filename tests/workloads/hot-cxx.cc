// hot-cxx: C++ functions whose mangled names a profile must demangle:
// two overloads of one name (they must stay two functions) and a member of
// a class template.  The double
// overload does twice the work of the int one.  Built by the test that
// uses it (tests/e2e/t0640-hotspots.sh) with -fno-inline, so each stays a
// function of its own.
#include <cstdlib>
#include <vector>

namespace tw {
double spin(int rounds)
{
	volatile double x = 1.0;
	for (int i = 0; i < rounds; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

double spin(double rounds)
{
	volatile double x = 1.0;
	for (long i = 0; i < 2 * (long)rounds; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

template <typename T> struct Grid {
	std::vector<T> cells;
	explicit Grid(int n) : cells(n, T(1)) {}
	T sum(int rounds) const
	{
		T s = 0;
		for (int r = 0; r < rounds; r++)
			for (size_t i = 0; i < cells.size(); i++)
				s = s * T(0.999) + cells[i];
		return s;
	}
};
} // namespace tw

static volatile double sink;

int main(int argc, char **argv)
{
	int units = argc > 1 ? atoi(argv[1]) : 1;
	tw::Grid<double> grid(1000);

	for (int u = 0; u < units; u++) {
		sink = tw::spin(100000000);
		sink = tw::spin(100000000.0);
		sink = grid.sum(100000);
	}
	return 0;
}
