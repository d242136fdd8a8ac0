//go:build !race

package gotest

const raceEnabled = false
