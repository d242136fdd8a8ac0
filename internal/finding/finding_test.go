package finding

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSeverityJSONRoundTrip(t *testing.T) {
	for _, s := range []Severity{Info, Warn, Error} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var got Severity
		if err := json.Unmarshal(b, &got); err != nil || got != s {
			t.Errorf("%v -> %s -> %v (%v)", s, b, got, err)
		}
	}
	var s Severity
	err := json.Unmarshal([]byte(`"fatal"`), &s)
	if err == nil || !strings.Contains(err.Error(), "info, warn, error") {
		t.Errorf("unknown severity: err = %v, want the valid names", err)
	}
}

func TestWorstAndHas(t *testing.T) {
	if _, ok := Worst(nil); ok {
		t.Error("Worst(nil) reported a severity")
	}
	fs := []Finding{{Code: "a", Severity: Info}, {Code: "b", Severity: Error}, {Code: "c", Severity: Warn}}
	if w, ok := Worst(fs); !ok || w != Error {
		t.Errorf("Worst = %v, %v; want error", w, ok)
	}
	if !Has(fs, "c") || Has(fs, "d") {
		t.Error("Has does not match codes")
	}
}
