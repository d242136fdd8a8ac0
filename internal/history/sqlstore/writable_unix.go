//go:build unix

package sqlstore

import "golang.org/x/sys/unix"

// writable reports whether this process may write path (a file, or a
// directory to create files in): its permissions, and read-only media.
func writable(path string) bool { return unix.Access(path, unix.W_OK) == nil }
