//go:build unix

package profiles

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/outfile"
)

// A profile is written as --out is: not through a link another user
// planted in a shared sticky directory (root's 0600 file stays as it
// was), and not over a read-only profile without --force.
func TestProfilesObeyOutRules(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("planting a link as another user needs root")
	}
	const planter = 12345
	tmp := filepath.Join(t.TempDir(), "tmp") // like /tmp: root's, 1777
	os.Mkdir(tmp, 0o755)
	os.Chmod(tmp, fs.ModeSticky|0o777)
	victim := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(victim, []byte("root's"), 0o600)
	d := newDir(t, tmp)
	link := filepath.Join(tmp, "sum_keep.cpu.pprof")
	os.Symlink(victim, link)
	if err := os.Lchown(link, planter, planter); err != nil {
		t.Fatal(err)
	}
	cpu := build([]string{"samples", "cpu"}, smp{[]string{"f", "main"}, []int64{1, 10e6}})
	sum := d.Record("sum/keep", cpu, nil, 1)
	if !strings.Contains(sum.Error, "protected_symlinks") || sum.CPU != "" {
		t.Errorf("through a planted link: %+v, want an error saying protected_symlinks", sum)
	}
	if b, _ := os.ReadFile(victim); string(b) != "root's" {
		t.Errorf("the victim now holds %q", b)
	}

	// A read-only profile is kept without --force, replaced with it.
	own := t.TempDir()
	ro := filepath.Join(own, "x.cpu.pprof")
	os.WriteFile(ro, []byte("kept"), 0o444)
	if sum := newDir(t, own).Record("x", cpu, nil, 1); !strings.Contains(sum.Error, "read-only; use --force") {
		t.Errorf("over a read-only profile: %+v", sum)
	}
	forced, err := NewDir(own, outfile.Options{Replace: true})
	if err != nil {
		t.Fatal(err)
	}
	if sum := forced.Record("x", cpu, nil, 1); sum.Error != "" || sum.CPU != ro {
		t.Errorf("--force: %+v", sum)
	}
	if p, err := Read(ro); err != nil || len(p.Sample) != 1 {
		t.Errorf("the replaced profile: %v, %v", p, err)
	}
}
