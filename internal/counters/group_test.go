package counters

import (
	"encoding/binary"
	"slices"
	"testing"
)

func words(ws ...uint64) []byte {
	b := make([]byte, 0, 8*len(ws))
	for _, w := range ws {
		b = binary.NativeEndian.AppendUint64(b, w)
	}
	return b
}

func TestParseGroup(t *testing.T) {
	tests := []struct {
		name    string
		b       []byte
		want    int
		times   bool
		ok      bool
		values  []uint64
		en, run uint64
	}{
		{"software group", words(4, 10, 20, 30, 40), 4, false, true, []uint64{10, 20, 30, 40}, 0, 0},
		{"hardware group with times", words(2, 900, 800, 5, 6), 2, true, true, []uint64{5, 6}, 900, 800},
		{"fewer events than opened", words(3, 1, 2, 3), 4, false, false, nil, 0, 0},
		{"values missing", words(4, 1, 2), 4, false, false, nil, 0, 0},
		{"extra values", words(1, 1, 2), 1, false, false, nil, 0, 0},
		{"times missing", words(1), 1, true, false, nil, 0, 0},
		{"empty", nil, 1, false, false, nil, 0, 0},
		{"not whole words", []byte{1, 0, 0}, 1, false, false, nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := parseGroup(tt.b, tt.want, tt.times)
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok=%v", err, tt.ok)
			}
			if !tt.ok {
				return
			}
			if !slices.Equal(r.values, tt.values) || r.enabled != tt.en || r.running != tt.run {
				t.Errorf("got %+v, want values %v enabled %d running %d", r, tt.values, tt.en, tt.run)
			}
		})
	}
}

func FuzzParseGroup(f *testing.F) {
	f.Add(words(4, 10, 20, 30, 40), 4, false)
	f.Add(words(2, 900, 800, 5, 6), 2, true)
	f.Add([]byte{1, 2, 3}, 1, true)
	f.Fuzz(func(t *testing.T, b []byte, want int, times bool) {
		r, err := parseGroup(b, want, times)
		if err == nil && len(r.values) != want {
			t.Fatalf("%d values for %d events", len(r.values), want)
		}
	})
}
