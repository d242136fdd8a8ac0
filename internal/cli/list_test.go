package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/workload"
)

func TestListText(t *testing.T) {
	var out bytes.Buffer
	if err := listRun(&listOptions{Format: "text"}, builtins(), &out); err != nil {
		t.Fatal(err)
	}
	// Rows start at the left; a description's wrapped lines are indented
	// under its column, and no line passes 80 columns.
	text := out.String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "NAME") {
		t.Fatalf("no header:\n%s", text)
	}
	var rows []string
	for _, l := range lines[1:] {
		if len(l) > 80 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
		if strings.HasPrefix(l, " ") {
			rows[len(rows)-1] += " " + strings.TrimSpace(l)
		} else {
			rows = append(rows, l)
		}
	}
	all := workload.All()
	if len(rows) != len(all) {
		t.Fatalf("want %d rows, got:\n%s", len(all), text)
	}
	for i, w := range all {
		if row := rows[i]; !strings.HasPrefix(row, w.Name+" ") || !strings.HasSuffix(row, w.Description) {
			t.Errorf("row %d = %q, want %s ... %s", i, row, w.Name, w.Description)
		}
	}
	if !strings.Contains(out.String(), "4096 adds") || !strings.Contains(out.String(), "8 multiplies") {
		t.Errorf("units not shown:\n%s", out.String())
	}
}

func TestListJSON(t *testing.T) {
	var out bytes.Buffer
	if err := listRun(&listOptions{Format: "json"}, builtins(), &out); err != nil {
		t.Fatal(err)
	}
	var got []render.ListEntry
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(workload.All()) {
		t.Fatalf("%d entries", len(got))
	}
	if e := got[1]; e.Name != "sum/sink" || e.Units != 4096 || e.Unit != "add" || !e.ReadsMemory || e.FloorCycles != 1.0/16 {
		t.Errorf("sum/sink entry = %+v", e)
	}
}

func TestListCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := testMain([]string{"list", "--format", "yaml"}, &stdout, &stderr); code != ExitUsage {
		t.Errorf("bad --format: exit %d, stderr %q", code, stderr.String())
	}
	stdout.Reset()
	if code := testMain([]string{"list"}, &stdout, &stderr); code != ExitOK || !strings.Contains(stdout.String(), "sum/unused") {
		t.Errorf("list: exit %d, stdout %q", code, stdout.String())
	}
}
