package cli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/pflag"
)

// decimalInt is an integer flag read in base 10 only: pflag's own reads
// "010" as octal 8 and "0x1" as hex 1, which no one means on a command
// line of sample counts and CPU numbers.
type decimalInt[T int | int64] struct{ p *T }

func (d decimalInt[T]) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.FormatInt(int64(*d.p), 10)
}

func (d decimalInt[T]) Set(s string) error {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a whole number in decimal", s)
	}
	*d.p = T(v)
	return nil
}

func (d decimalInt[T]) Type() string { return "int" }

// intFlag binds a decimal int flag.
func intFlag[T int | int64](f *pflag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	f.Var(decimalInt[T]{p}, name, usage)
}

// Upper bounds of the durations and counts a command takes: past them a
// typo (a --warmup of 290 years) would hold the machine, and Ctrl-C would
// wait for one sample at the most.
const (
	maxSamples    = 100000
	maxWarmup     = 10 * time.Minute
	maxSampleTime = 10 * time.Second
)

// checkDuration fails a duration flag outside (0, limit].
func checkDuration(flag string, v, limit time.Duration) error {
	if v <= 0 {
		return Usagef("%s %v: must be a positive duration, e.g. 100ms", flag, v)
	}
	if v > limit {
		return Usagef("%s %v: must be at most %v", flag, v, limit)
	}
	return nil
}
