package result

import (
	"slices"

	"github.com/benchy-dev/benchy/internal/machine"
)

// Codes of the findings analyze computes of an experiment. Analyze
// replaces findings with these codes and keeps any other (added by the
// run, for example no-load-in-loop from reading the machine code).
const (
	CodeFailed     = "failed"
	CodeNoSamples  = "no-samples"
	CodeImpossible = "impossible"
	CodeBelowClock = "below-clock"
	CodeUnstable   = "unstable"
	CodeOutliers   = "outliers"
	CodeFirstSlow  = "first-slow"
	CodeDrift      = "drift"
	CodeDisturbed  = "disturbed"
	CodeMigrated   = "migrated"
	CodeGC         = "gc"
	// CodeGOMAXPROCSMoves: measured again as go test runs it (another
	// GOMAXPROCS, not pinned), a benchmark whose samples collected read
	// another figure, beyond the noise.
	CodeGOMAXPROCSMoves = "gomaxprocs-moves"
	CodeAllocs          = "allocs"
	CodeFreqChange      = "freq-change"
	CodeFewSamples      = "few-samples"
	CodeShortSamples    = "short-samples"
	CodePageFaults      = "page-faults"
	CodeSlowClock       = "slow-clock"
	CodeSlowCore        = "slow-core"
	CodeSlowedSamples   = "slowed-samples"
	CodeRemeasured      = "remeasured"
	CodeSpawn           = "spawn-dominated"
	// CodeWarmup, CodeSlowdown, CodeNoSteadyState and CodeInconsistent
	// (check_series.go) classify the series.
)

// Codes of the findings on an experiment's machine code. They are added
// when the code is read (by the run), not recomputed by Analyze: a result
// file does not hold the code.
const (
	CodeAsm          = "asm"
	CodeAsmUnknown   = "asm-unknown"
	CodeNoLoadInLoop = "no-load-in-loop"
	// CodeNotPinned is added by a run where the system cannot pin.
	CodeNotPinned = "not-pinned"
	// CodeCPUShared is an environment finding: another benchy process
	// held the measured CPU's lock, or the lock could not be taken.
	CodeCPUShared = "cpu-shared"
	// CodeLeftProcesses is added by benchy exec when runs of a command
	// (or its --prepare or --cleanup) left processes running in their
	// process group after they exited, which benchy killed.
	CodeLeftProcesses = "left-processes"
	// The findings of a Go benchmark (benchy gotest): its loop only
	// counts, or stores a constant; its setup is timed; its binary was
	// built to be debugged.
	CodeEmptyLoop    = "empty-loop"
	CodeFolded       = "folded"
	CodeSetupInTimer = "setup-in-timer"
	// CodeSetupUnknown: testing's ramp was too short to judge
	// setup-in-timer.
	CodeSetupUnknown = "setup-unknown"
	// CodeDependsOnN: a fixed cost every call pays that is not a setup
	// before the loop (the runtime's, b.RunParallel's goroutines), a share
	// of a sample large enough that the time per op depends on N.
	CodeDependsOnN = "cost-depends-on-n"
	CodeDebugBuild = "debug-build"
	// CodeInputConsumed: testing's N=1 call took far longer than the
	// later calls give for one iteration, fixed cost per call included:
	// the loop changes its own input.
	CodeInputConsumed = "input-consumed"
	// CodeLayoutSensitive: linked with --layouts, the code layout alone
	// moved the benchmark as much as the change claimed.
	CodeLayoutSensitive = "layout-sensitive"
)

// Codes of the classification of an experiment's series (changepoint):
// the run warmed up, slowed down, never settled, or its processes
// disagree.
const (
	CodeWarmup        = "warmup"
	CodeSlowdown      = "slowdown"
	CodeNoSteadyState = "no-steady-state"
	CodeInconsistent  = "inconsistent"
)

// Codes of the latency of single calls (run --latency): a tail far from
// the median, and percentiles that too few calls cannot report.
const (
	CodeHeavyTail = "heavy-tail"
	CodeFewCalls  = "few-calls"
)

// CodeTargetCI: the precision asked with --target-ci was not reached
// before --max-time ran out.
const CodeTargetCI = "target-ci"

// Verdicts, from the worst finding on an experiment.
const (
	// VerdictBelievable: no finding above info.
	VerdictBelievable = "believable"
	// VerdictDoubtful: a warning on the experiment, or an environment error
	// (see envBearing).
	VerdictDoubtful = "doubtful"
	// VerdictNotBelievable: an error on the experiment: the evidence shows
	// the number cannot be right (or there is no number).
	VerdictNotBelievable = "not believable"
)

// Scopes of a finding code: who raises it.
const (
	// ScopeAnalysis: the analysis computes it from the samples; `benchy
	// report` recomputes it from a file.
	ScopeAnalysis = "analysis"
	// ScopeRun: the run adds it from what a file does not hold (the
	// machine code, the binary, the system); the analysis keeps it.
	ScopeRun = "run"
	// ScopeEnvironment: the machine checks (internal/machine) and the CPU
	// lock, about the machine rather than one experiment.
	ScopeEnvironment = "environment"
)

// CodeInfo is one entry of the registry of finding codes.
type CodeInfo struct {
	Code  string
	Scope string
	// Cause says what most likely went wrong and what to do, as the
	// line under the table says it; empty for a code that only informs.
	Cause string
}

// Codes is the registry of every finding code benchy raises. A test holds
// it to the constants, to docs/findings.md and to the tests that raise
// each code.
var Codes = []CodeInfo{
	{CodeFailed, ScopeAnalysis, "an experiment failed"},
	{CodeNoSamples, ScopeAnalysis, "nothing was measured"},
	{CodeImpossible, ScopeAnalysis, "a time no core can reach: the compiler computed the result or removed the work"},
	{CodeBelowClock, ScopeAnalysis, "samples too short for the clock to time: raise --sample-time"},
	{CodeUnstable, ScopeAnalysis, "the samples do not agree: a noisy machine, or work that varies"},
	{CodeOutliers, ScopeAnalysis, ""},
	{CodeFirstSlow, ScopeAnalysis, "the warm-up was too short: raise --warmup"},
	{CodeDrift, ScopeAnalysis, "something changed during the run: the machine or the program's state"},
	{CodeDisturbed, ScopeAnalysis, "other tasks took the CPU while measuring: stop them, or try another --cpu"},
	{CodeMigrated, ScopeAnalysis, "the pin did not hold: samples ran on other CPUs"},
	{CodeGC, ScopeAnalysis, "the collector ran inside samples"},
	{CodeGOMAXPROCSMoves, ScopeAnalysis, "the collector's cost moves with GOMAXPROCS and the pin: quote the figure of the settings your program runs at (--gomaxprocs)"},
	{CodeAllocs, ScopeAnalysis, ""},
	{CodeFreqChange, ScopeAnalysis, "the CPU's clock changed during the run (governor, turbo or the host)"},
	{CodeFewSamples, ScopeAnalysis, "too few samples to judge: raise --samples (a smoke run checks, it does not measure)"},
	{CodeShortSamples, ScopeAnalysis, ""},
	{CodePageFaults, ScopeAnalysis, "memory was mapped while measuring: a longer --warmup, or --gc"},
	{CodeSlowClock, ScopeAnalysis, "the CPU's clock dropped while measuring (governor, turbo or the host)"},
	{CodeSlowCore, ScopeAnalysis, "the core was shared with a busy sibling hardware thread or the host"},
	{CodeSlowedSamples, ScopeAnalysis, ""},
	{CodeRemeasured, ScopeAnalysis, ""},
	{CodeSpawn, ScopeAnalysis, "a run is mostly the start of a process: give each run more work"},
	{CodeWarmup, ScopeAnalysis, ""},
	{CodeSlowdown, ScopeAnalysis, "the run slowed down and stayed slower: the machine or the program's state changed"},
	{CodeNoSteadyState, ScopeAnalysis, "the run never settled: something came and went while measuring"},
	{CodeInconsistent, ScopeAnalysis, "the processes disagree on the shape of their series"},
	{CodeTargetCI, ScopeAnalysis, "the precision asked was not reached in --max-time: raise it, or ask less"},
	{CodeHeavyTail, ScopeAnalysis, ""},
	{CodeFewCalls, ScopeAnalysis, ""},

	{CodeAsm, ScopeRun, ""},
	{CodeAsmUnknown, ScopeRun, ""},
	{CodeNoLoadInLoop, ScopeRun, "the compiler removed the work: the loop no longer reads its input (keep the result: benchy.Keep)"},
	{CodeNotPinned, ScopeRun, "the measured thread was not pinned (the system cannot pin, or the benchmark runs b.RunParallel)"},
	{CodeEmptyLoop, ScopeRun, "the compiler deleted the benchmark's work: keep every result (a package-level variable, or b.Loop)"},
	{CodeFolded, ScopeRun, "the compiler computed the result before the loop: read the inputs from variables"},
	{CodeSetupInTimer, ScopeRun, "work outside the b.N loop is timed: call b.ResetTimer after the setup"},
	{CodeLeftProcesses, ScopeRun, "runs left processes running after they exited (benchy killed them): wait for what the command starts"},
	{CodeSetupUnknown, ScopeRun, ""},
	{CodeInputConsumed, ScopeRun, "the loop changes its own input (sorts it in place, fills a cache, drains a buffer): give each iteration fresh input, copied with the timer stopped"},
	{CodeDependsOnN, ScopeRun, "a cost paid once per call is spread over N: the time per op holds for the samples' N only (a larger --sample-time gives a larger N)"},
	{CodeDebugBuild, ScopeRun, "the test binary was built to debug or instrument: build it without -N -l, -race or -cover"},
	{CodeLayoutSensitive, ScopeRun, "the code layout alone moves the benchmark as much as the change: the difference may be where the linker put the functions, not the code"},

	{CodeCPUShared, ScopeEnvironment, "another benchy process measured on the same CPU: run one at a time, or give each its own --cpu"},
	{machine.CodeNoCPUFreq, ScopeEnvironment, ""},
	{machine.CodeGovernor, ScopeEnvironment, "the governor follows the load: set it to performance"},
	{machine.CodeTurbo, ScopeEnvironment, "turbo makes the top clock depend on heat and load: turn it off to compare runs"},
	{machine.CodeFreqRange, ScopeEnvironment, "the CPU may change its clock: pin scaling_min_freq to scaling_max_freq"},
	{machine.CodeCPUBusy, ScopeEnvironment, "the machine was busy: close other programs"},
	{machine.CodeSiblingBusy, ScopeEnvironment, "the SMT sibling of the measured CPU was busy"},
	{machine.CodeBusyUnknown, ScopeEnvironment, ""},
	{machine.CodeLoad, ScopeEnvironment, "the machine was loaded: close other programs"},
	{machine.CodeEfficiencyCore, ScopeEnvironment, "an efficiency core: measure on a performance core (--cpu)"},
	{machine.CodeNotIsolated, ScopeEnvironment, ""},
	{machine.CodeCPU0, ScopeEnvironment, ""},
	{machine.CodeSteal, ScopeEnvironment, "the host ran other guests on this CPU"},
	{machine.CodeVirtualMachine, ScopeEnvironment, ""},
	{machine.CodeThrottled, ScopeEnvironment, "the CPU was slowed for heat"},
	{machine.CodeCgroupQuota, ScopeEnvironment, "a CPU quota limits this process"},
	{machine.CodeSlowCPU, ScopeEnvironment, "the measured CPU ran the reference loop slower than an idle one: let benchy choose, or name a faster CPU (--cpu)"},
}

// LookupCode is the registry's entry for code; false for a code benchy
// does not raise.
func LookupCode(code string) (CodeInfo, bool) {
	for _, c := range Codes {
		if c.Code == code {
			return c, true
		}
	}
	return CodeInfo{}, false
}

// AppendOnce appends s to list unless list holds it already: codes and
// labels gathered from many findings, each once, in the order first seen.
func AppendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
