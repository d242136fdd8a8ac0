package gotest

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/benchy-dev/benchy/internal/layout"
)

// TestLayoutSeedsReproduce: one seed links the same binary twice, byte for
// byte; another seed links another.
func TestLayoutSeedsReproduce(t *testing.T) {
	notUnderRace(t)
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	t.Parallel()
	ch := NewChildren(context.Background())
	pkgs, err := List(ch, testdata, []string{"./profiled"}, nil)
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("go list: %v %v", pkgs, err)
	}
	read := func(seed int64) []byte {
		bin, err := BuildWith(ch, pkgs[0], t.TempDir(), layout.Flags(nil, seed), BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(bin.Path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one, again, two := read(1), read(1), read(2)
	if !bytes.Equal(one, again) {
		t.Errorf("seed 1 linked two different binaries")
	}
	if bytes.Equal(one, two) {
		t.Errorf("seeds 1 and 2 linked the same binary: -randlayout had no effect")
	}
}
