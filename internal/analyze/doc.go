// Package analyze makes every judgement of a run once, from its samples,
// and stores it in the result: each experiment's statistics (Compute), the
// shape of its series (warm-up, steps, the steady state), the findings and
// their causes, the verdicts of its comparisons (through compare) and the
// summary. What it stores is what the writers in render show.
package analyze
