/* tw-hot's shared library (libtwhot.so): one hot function, tw_lib_spin. */
#include <stdint.h>

volatile uint64_t tw_lib_sink;

__attribute__((noinline)) void tw_lib_spin(uint64_t n)
{
	uint64_t x = 5;

	for (uint64_t i = 0; i < n; i++)
		x = (x << 3) + (x >> 5) + i;
	tw_lib_sink += x;
}
