// Package history is what the history's commands read and judge, apart
// from the store that keeps it (package sqlstore): where a store lives
// (Address), the code a result measured (Source: its git commit, or the
// build's), the rows a store gives back, the series of a benchmark on a
// machine and their steps. It links no SQL, hashing or compression, so
// that the writers of its documents and a program built on the public
// package can import it; --store reaches the store through the Storage a
// store package registers.
package history
