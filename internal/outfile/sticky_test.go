package outfile

import (
	"io/fs"
	"strings"
	"testing"
)

// TestAllowedInSticky covers the sticky-directory rules with constructed
// facts, so no second user is needed. uid 0 is root, 1000 is the user
// running benchy, 2000 another user who could plant a name, 3000 the owner
// of a shared directory.
func TestAllowedInSticky(t *testing.T) {
	const (
		sticky777 = fs.ModeDir | fs.ModeSticky | 0o777 // like /tmp
		sticky770 = fs.ModeDir | fs.ModeSticky | 0o770 // a group's shared directory
		sticky755 = fs.ModeDir | fs.ModeSticky | 0o755
		plain777  = fs.ModeDir | 0o777
		link      = fs.ModeSymlink
		regular   = fs.FileMode(0)
		fifo      = fs.ModeNamedPipe
		chardev   = fs.ModeDevice | fs.ModeCharDevice
	)
	for _, c := range []struct {
		name                  string
		dirMode               fs.FileMode
		dirUID, fileUID, self uint32
		typ                   fs.FileMode
		refuse                string // "" allowed, else part of the message
	}{
		// fs.protected_symlinks
		{"own link in /tmp", sticky777, 0, 1000, 1000, link, ""},
		{"link planted in /tmp", sticky777, 0, 2000, 1000, link, "protected_symlinks"},
		{"link planted in /tmp stops root too", sticky777, 0, 2000, 0, link, "protected_symlinks"},
		{"link of the directory's owner", sticky777, 3000, 3000, 1000, link, ""},
		{"root's link in root's /tmp, as root", sticky777, 0, 0, 0, link, ""},
		{"root's link in /tmp, as a user", sticky777, 0, 0, 1000, link, ""},
		{"link in a sticky dir not world-writable", sticky770, 3000, 2000, 1000, link, ""},
		{"link in a world-writable dir that is not sticky", plain777, 3000, 2000, 1000, link, ""},

		// fs.protected_regular, and the rename that replaces a file
		{"own file in /tmp", sticky777, 0, 1000, 1000, regular, ""},
		{"file planted in /tmp", sticky777, 0, 2000, 1000, regular, "protected_regular"},
		{"file planted in /tmp stops root too", sticky777, 0, 2000, 0, regular, "protected_regular"},
		{"file planted in a group's sticky dir", sticky770, 3000, 2000, 1000, regular, "protected_regular"},
		{"root's file in /tmp, as a user: rename fails", sticky777, 0, 0, 1000, regular, "not be permitted"},
		{"root's file in /tmp, as root", sticky777, 0, 0, 0, regular, ""},
		{"owner's file in own sticky dir", sticky777, 1000, 3000, 1000, regular, "protected_regular"},
		{"dir owner's file in their dir, as the owner", sticky777, 1000, 1000, 1000, regular, ""},
		{"other's file in a sticky dir only its owner writes", sticky755, 3000, 2000, 1000, regular, "not be permitted"},
		{"other's file in a sticky dir, as root", sticky755, 3000, 2000, 0, regular, ""},
		{"other's file, no sticky bit", plain777, 3000, 2000, 1000, regular, ""},

		// fs.protected_fifos, and devices likewise
		{"own FIFO in /tmp", sticky777, 0, 1000, 1000, fifo, ""},
		{"FIFO planted in /tmp", sticky777, 0, 2000, 1000, fifo, "named pipe"},
		{"FIFO planted in /tmp stops root too", sticky777, 0, 2000, 0, fifo, "protected_fifos"},
		{"FIFO of the directory's owner", sticky777, 0, 0, 1000, fifo, ""},
		{"FIFO planted in a group's sticky dir", sticky770, 3000, 2000, 1000, fifo, "protected_fifos"},
		{"FIFO, no sticky bit", plain777, 3000, 2000, 1000, fifo, ""},
		{"device planted in /tmp", sticky777, 0, 2000, 1000, chardev, "device"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := allowedInSticky(c.dirMode, c.dirUID, c.fileUID, c.self, c.typ)
			switch {
			case c.refuse == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.refuse != "" && err == nil:
				t.Errorf("allowed, want refused (%s)", c.refuse)
			case err != nil && !strings.Contains(err.Error(), c.refuse):
				t.Errorf("message %q does not say %q", err, c.refuse)
			case err != nil && strings.Contains(err.Error(), "\n"):
				t.Errorf("message %q is more than one line", err)
			}
		})
	}
}
