package result

// CounterReport says which counters a Source counts and why the others are
// missing. It is stored with the results.
type CounterReport struct {
	// Opened lists the counters the Source reads, in the order they were
	// opened.
	Opened []string `json:"opened"`
	// Unavailable maps each counter that could not be opened to the
	// reason, e.g. "no hardware PMU: ENOENT".
	Unavailable map[string]string `json:"unavailable,omitempty"`
	// Notes qualifies opened counters, e.g. hardware events that count
	// user space only because the kernel forbids counting the kernel.
	Notes map[string]string `json:"notes,omitempty"`
}

// AddOpened records that the counter name is read.
func (r *CounterReport) AddOpened(name string) { r.Opened = append(r.Opened, name) }

// SetUnavailable records why the counter name could not be read.
func (r *CounterReport) SetUnavailable(name, reason string) {
	if r.Unavailable == nil {
		r.Unavailable = map[string]string{}
	}
	r.Unavailable[name] = reason
}

// SetNote qualifies the opened counter name.
func (r *CounterReport) SetNote(name, text string) {
	if r.Notes == nil {
		r.Notes = map[string]string{}
	}
	r.Notes[name] = text
}
