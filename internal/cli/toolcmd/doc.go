// Package toolcmd holds the commands of benchy's own command line that a
// program built on the public package does not have: gotest, bisect and
// history. They share the cli's root, global options, output, progress
// and exit codes (package cli); cmd/benchy adds them with Add.
package toolcmd
