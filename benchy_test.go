package benchy

import (
	"bytes"
	"strings"
	"testing"
)

// fresh empties the registry for a test, and again after it (the
// package's Example registers its own).
func fresh(t *testing.T) {
	reset := func() {
		mu.Lock()
		defer mu.Unlock()
		experiments, problems = nil, nil
	}
	reset()
	t.Cleanup(reset)
}

func loop(n int) {
	for i := range n {
		SinkInt = i
	}
}

func TestBadRegistrationsExit2WithOneLine(t *testing.T) {
	tests := []struct {
		name string
		e    Experiment
		want string
	}{
		{"empty name", Experiment{Description: "d", Loop: loop}, `the experiment described "d" has an empty name`},
		{"nil loop", Experiment{Name: "x/nil"}, `experiment "x/nil": Loop is nil`},
		{"negative units", Experiment{Name: "x/neg", Units: -1, Loop: loop}, `experiment "x/neg": Units is -1; it must be 0 or more`},
		{"negative floor", Experiment{Name: "x/floor", FloorCycles: -0.5, Loop: loop}, `experiment "x/floor": FloorCycles is -0.5`},
		{"comma", Experiment{Name: "a,b", Loop: loop}, `experiment "a,b": a name may not hold a comma`},
		{"space", Experiment{Name: "a b", Loop: loop}, `experiment "a b": a name may not hold`},
		{"newline", Experiment{Name: "a\nfake: believable", Loop: loop}, `experiment "a\nfake: believable": a name may not hold`},
		{"hash", Experiment{Name: "a#2", Loop: loop}, `a name may not hold a comma, '#'`},
		{"escape in the description", Experiment{Name: "a", Description: "x\x1b[31m", Loop: loop}, `experiment "a": the description and the unit are one line`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fresh(t)
			Register(Experiment{Name: "ok/first", Loop: loop})
			Register(tt.e)
			var out, errb bytes.Buffer
			code := Execute([]string{"list"}, &out, &errb)
			if code != 2 || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q; want 2 and nothing listed", code, out.String())
			}
			if !strings.Contains(errb.String(), tt.want) || strings.Count(errb.String(), "\n") != 1 || !strings.HasPrefix(errb.String(), "benchy: register: ") {
				t.Errorf("stderr %q: want one line with %q", errb.String(), tt.want)
			}
		})
	}
}

func TestDuplicateName(t *testing.T) {
	fresh(t)
	Register(Experiment{Name: "x/twice", Loop: loop})
	Register(Experiment{Name: "x/twice", Loop: loop})
	var out, errb bytes.Buffer
	if code := Execute([]string{"run"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), `experiment "x/twice" is registered twice`) {
		t.Errorf("exit %d, stderr %q; want 2 naming the experiment", code, errb.String())
	}
}

func TestOnlyTheProgramsOwnExperiments(t *testing.T) {
	fresh(t)
	Register(Experiment{Name: "mine/a", Description: "a", Units: 1, Unit: "op", Loop: loop})
	var out, errb bytes.Buffer
	if code := Execute([]string{"list", "--format", "json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"mine/a"`) || strings.Contains(out.String(), "sum/sink") {
		t.Errorf("list = %s; want mine/a only, none of benchy's built-ins", out.String())
	}
}
