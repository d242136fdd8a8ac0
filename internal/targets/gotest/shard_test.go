package gotest

import (
	"fmt"
	"testing"
)

// Every benchmark is in exactly one shard of N, the same one each time,
// and the zero Shard holds them all.
func TestShardPartitions(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		counts := make([]int, n)
		for b := 0; b < 200; b++ {
			name := fmt.Sprintf("BenchmarkX%d", b)
			in := 0
			for i := 1; i <= n; i++ {
				if (Shard{i, n}).Holds("example.com/p", name) {
					in++
					counts[i-1]++
				}
			}
			if in != 1 {
				t.Errorf("%s is in %d of %d shards", name, in, n)
			}
			if !(Shard{}).Holds("example.com/p", name) {
				t.Errorf("the zero Shard does not hold %s", name)
			}
		}
		for i, c := range counts {
			if n > 1 && c == 0 {
				t.Errorf("shard %d/%d holds none of 200 benchmarks", i+1, n)
			}
		}
	}
	if s := (Shard{2, 4}).String(); s != "2/4" {
		t.Errorf("String = %q", s)
	}
}
