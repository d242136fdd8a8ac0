//go:build race

package gotest

const raceEnabled = true
