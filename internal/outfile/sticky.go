package outfile

import (
	"fmt"
	"io/fs"
)

// allowedInSticky decides whether benchy may follow, write into or replace
// a file of type fileType owned by fileUID, found in a directory of mode
// dirMode owned by dirUID, as user selfUID. It is a pure function of those
// facts so every combination can be tested without a second user.
//
// In a sticky directory anyone may create a name, so a name may have been
// planted by another user to make benchy write where they choose. The rules
// are the kernel's, applied whatever the sysctls say and to root as well
// (the kernel exempts no one either):
//
//   - fs.protected_symlinks: a link in a sticky world-writable directory is
//     followed only if it is owned by the follower or by the directory's
//     owner;
//   - fs.protected_regular and fs.protected_fifos (at their stricter level
//     2): a regular file or FIFO in a sticky directory writable by others
//     or by the group is written only if owned by the writer or by the
//     directory's owner; benchy treats devices as FIFOs;
//   - rename(2) over a file in a sticky directory is allowed only to the
//     file's owner, the directory's owner, or root, so a replacement that
//     would fail with EPERM after measuring is refused before.
func allowedInSticky(dirMode fs.FileMode, dirUID, fileUID, selfUID uint32, fileType fs.FileMode) error {
	if dirMode&fs.ModeSticky == 0 || fileUID == selfUID {
		return nil
	}
	shared := dirMode&0o022 != 0 // writable by the group or by others
	switch {
	case fileType&fs.ModeSymlink != 0:
		if dirMode&0o002 != 0 && fileUID != dirUID {
			return fmt.Errorf("is a symbolic link owned by another user (uid %d) in a shared sticky directory: not following it, as fs.protected_symlinks would not", fileUID)
		}
	case fileType&fs.ModeDir != 0:
		// A directory is refused anyway, for being one.
	case fileType == 0: // a regular file
		if shared && fileUID != dirUID {
			return fmt.Errorf("is owned by another user (uid %d) in a shared sticky directory: not writing over it, as fs.protected_regular would not", fileUID)
		}
		if dirUID != selfUID && selfUID != 0 {
			return fmt.Errorf("is owned by another user (uid %d) in a sticky directory that is not yours: replacing it would not be permitted", fileUID)
		}
	default: // a FIFO or a device
		if shared && fileUID != dirUID {
			what := "device"
			if fileType&fs.ModeNamedPipe != 0 {
				what = "named pipe"
			}
			return fmt.Errorf("is a %s owned by another user (uid %d) in a shared sticky directory: not writing into it, as fs.protected_fifos would not", what, fileUID)
		}
	}
	return nil
}
