/* collatz: the longest Collatz chain below N (default 300000). A small
   program whose speed depends on the compiler's optimisation level, for
   benchy exec's README example: cc -O0 and cc -O2, then time both. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	long n = argc > 1 ? atol(argv[1]) : 300000;
	long best = 0, arg = 0;
	for (long i = 1; i < n; i++) {
		long steps = 0;
		for (unsigned long x = i; x != 1; steps++)
			x = x % 2 ? 3 * x + 1 : x / 2;
		if (steps > best)
			best = steps, arg = i;
	}
	printf("%ld %ld\n", arg, best);
	return 0;
}
