package result

import "testing"

// The slowed samples are left out only while at least five and at least
// half remain; else the experiment keeps all of them.
func TestWithoutSlowed(t *testing.T) {
	e := Experiment{Samples: make([]Sample, 10)}
	for i := range e.Samples {
		e.Samples[i].Ns = int64(i)
	}
	for _, c := range []struct {
		slowed []int
		want   int
	}{
		{nil, 10},
		{[]int{}, 10},
		{[]int{0, 9}, 8},
		{[]int{0, 1, 2, 3, 4}, 5},     // half left: out
		{[]int{0, 1, 2, 3, 4, 5}, 10}, // fewer than half: kept
	} {
		e.Slowed = c.slowed
		got := e.WithoutSlowed()
		if len(got.Samples) != c.want {
			t.Errorf("slowed %v: %d samples, want %d", c.slowed, len(got.Samples), c.want)
		}
		for _, s := range got.Samples {
			for _, i := range c.slowed {
				if c.want < 10 && s.Ns == int64(i) {
					t.Errorf("slowed %v: sample %d kept", c.slowed, i)
				}
			}
		}
	}
	if !CleanEnough(10, 5) || CleanEnough(9, 5) || CleanEnough(6, 2) {
		t.Errorf("CleanEnough: 10-5 %v, 9-5 %v, 6-2 %v; want true, false, false", CleanEnough(10, 5), CleanEnough(9, 5), CleanEnough(6, 2))
	}
}
