package result

// Codes of the findings CheckExperiment computes. Analyze replaces findings
// with these codes and keeps any other (added by the run, for example
// no-load-in-loop from reading the machine code).
const (
	CodeFailed       = "failed"
	CodeNoSamples    = "no-samples"
	CodeImpossible   = "impossible"
	CodeBelowClock   = "below-clock"
	CodeUnstable     = "unstable"
	CodeOutliers     = "outliers"
	CodeFirstSlow    = "first-slow"
	CodeDrift        = "drift"
	CodeDisturbed    = "disturbed"
	CodeMigrated     = "migrated"
	CodeGC           = "gc"
	CodeAllocs       = "allocs"
	CodeFreqChange   = "freq-change"
	CodeFewSamples   = "few-samples"
	CodeShortSamples = "short-samples"
	CodePageFaults   = "page-faults"
	CodeSlowClock    = "slow-clock"
	CodeSlowCore     = "slow-core"
	CodeSpawn        = "spawn-dominated"
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
	// held the measured CPU's lock.
	CodeCPUShared = "cpu-shared"
	// The findings of a Go benchmark (benchy gotest): its loop only
	// counts, or stores a constant; its setup is timed; its binary was
	// built to be debugged.
	CodeEmptyLoop    = "empty-loop"
	CodeFolded       = "folded"
	CodeSetupInTimer = "setup-in-timer"
	CodeDebugBuild   = "debug-build"
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
