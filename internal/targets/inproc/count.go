package inproc

import (
	"errors"
	"reflect"
	"runtime"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/callgrind"
)

// CountCommand runs the workload's loop at n ops in a process of its own,
// the program re-executed by Options.CountArgs, counted inside the loop
// function only (its symbol read from the function value, as Check reads
// its code; a closure too): the setup and benchy's own work are not
// counted.
func (t *Target) CountCommand(n int64) (callgrind.Command, error) {
	if t.opts.CountArgs == nil {
		return callgrind.Command{}, errors.New("counting in process is not set up (Options.CountArgs)")
	}
	if t.w.Loop == nil {
		return callgrind.Command{}, errors.New("workload " + t.w.Name + " has no loop")
	}
	argv, err := t.opts.CountArgs(t.w.Name, n)
	if err != nil {
		return callgrind.Command{}, err
	}
	return callgrind.Command{Argv: argv, Symbol: LoopSymbol(t.w.Loop), MarkStart: markName(CountStart), MarkEnd: markName(CountEnd), Dumps: 1}, nil
}

// markName is the symbol of a mark: the child is this program, so its
// name here is its name there.
func markName(f func()) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// LoopSymbol is the symbol of the loop function: the name in the
// executable's symbol table (a generic instantiation's as the linker
// wrote it), else the runtime's name of it.
func LoopSymbol(loop func(int)) string {
	if l, err := asm.Inspect(loop); err == nil && l.Func.Name != "" {
		return l.Func.Name
	}
	return runtime.FuncForPC(reflect.ValueOf(loop).Pointer()).Name()
}

// RunLoop runs the workload's setup and then its loop at n ops, once, for
// a count: nothing is pinned, timed or read.
func RunLoop(w Workload, n int) {
	// One thread: callgrind counts per thread (--separate-threads=yes)
	// and dumps the thread that ends the count.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if w.Setup != nil {
		w.Setup()
	}
	CountStart()
	w.Loop(n)
	CountEnd()
}

// CountStart and CountEnd mark where counting starts and ends. callgrind
// toggles at their entry, so they need no body: never inlined, the call is
// kept.
//
//go:noinline
func CountStart() {}

//go:noinline
func CountEnd() {}
