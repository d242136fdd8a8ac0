package gotest

// WithBinary is a copy of t that runs the same benchmark, at the same N,
// on the same side, from bin, under the name display: the benchmark in
// another build of its package (another code layout, --layouts),
// calibrated once for all.
func (t *Target) WithBinary(bin *Binary, display string) *Target {
	c := &Target{Bin: bin, Bench: t.Bench, Display: display, Side: t.Side, N: t.N, Calibration: t.Calibration, Fail: t.Fail,
		ctx: t.ctx, opts: t.opts, start: t.start}
	return c
}
