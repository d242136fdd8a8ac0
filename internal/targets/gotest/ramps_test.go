//go:build linux

package gotest

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// -record NAME calibrates the benchmarks of testdata/gotest/lies on this
// machine, as benchy gotest does, and writes testing's ramps to
// testdata/gotest/ramps/NAME.json before TestSetupInTimerRecorded judges
// every recording. Name a recording quiet... when nothing else ran, and
// hogs... when a busy loop ran pinned to every CPU.
var (
	record           = flag.String("record", "", "record the calibration ramps of testdata/gotest/lies as testdata/gotest/ramps/`NAME`.json")
	recordSampleTime = flag.Duration("record-sample-time", 10*time.Millisecond, "the sample time testing's ramp aims at when recording")
)

const rampsDir = "../../../testdata/gotest/ramps"

// recording is one calibration of every benchmark of the lies package:
// the calls of testing's ramp as the helper recorded them.
type recording struct {
	About      string         `json:"about"` // the machine and its load
	SampleTime string         `json:"sample_time"`
	Ramps      []recordedRamp `json:"ramps"`
}

type recordedRamp struct {
	Bench string   `json:"bench"`
	N     int64    `json:"n"` // the N the ramp settled on
	Calls []Record `json:"calls"`
}

func recordRamps(t *testing.T, name string) {
	t.Helper()
	ch := NewChildren(context.Background())
	pkgs, err := List(ch, filepath.Join(rampsDir, ".."), []string{"./lies"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := BuildWith(ch, pkgs[0], t.TempDir(), nil, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	load, _ := os.ReadFile("/proc/loadavg")
	rec := recording{SampleTime: recordSampleTime.String(),
		About: strings.Join([]string{runtime.GOARCH, strconv.Itoa(runtime.NumCPU()) + " CPUs", "load average " + strings.Fields(string(load) + " ?")[0]}, ", ")}
	ts, err := Calibrate(context.Background(), bin, Options{BenchText: ".", SampleTime: *recordSampleTime, PerProcess: 1,
		CPU: runtime.NumCPU() - 1, GOMAXPROCS: runtime.GOMAXPROCS(0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range ts {
		rec.Ramps = append(rec.Ramps, recordedRamp{Bench: tg.Bench, N: tg.N, Calls: tg.Calibration})
	}
	b, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rampsDir, name+".json"), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// setup-in-timer judged on testing's real ramps, recorded on a 2-vCPU VM:
// quiet.json with nothing else running, hogs-*.json with a busy loop
// pinned to each CPU. On the quiet machine BenchmarkSetup's timed setup is
// caught. Under the hogs no honest benchmark may be accused, whatever the
// ramp looks like: hogs-1 stopped BenchmarkQuoteDiscarded at N=141 (7.6µs
// timed) and hogs-2 BenchmarkSetupReset at N=105, both undisturbed in
// what testing timed, so a call's own few µs read as a third of a sample;
// in hogs-3 and hogs-100ms the ramp of BenchmarkSetup ends at N=1, or its
// calls are slowed beyond what their run delay accounts for, and it is
// not judged (benchy gotest's findings then name the disturbance). hogs-4
// was recorded with the helper stopping testing's timer before its reads
// after the call: the ramp of BenchmarkSetup reached N=1399 and its setup
// is caught under the hogs too.
// BenchmarkParallel is left out: its work runs on threads the helper does
// not read, so the run delay of the calling thread says nothing of it.
func TestSetupInTimerRecorded(t *testing.T) {
	if *record != "" {
		recordRamps(t, *record)
	}
	files, err := filepath.Glob(filepath.Join(rampsDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded ramps in %s (%v)", rampsDir, err)
	}
	quiet := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var rec recording
		if err := json.Unmarshal(b, &rec); err != nil || len(rec.Ramps) == 0 {
			t.Fatalf("%s: %v, %d ramps", file, err, len(rec.Ramps))
		}
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		seen := false
		for _, r := range rec.Ramps {
			f, ok := perCallCost(r.Calls, r.N)
			flagged := ok && f.Code == result.CodeSetupInTimer
			switch r.Bench {
			case "BenchmarkParallel":
			case "BenchmarkSetup":
				seen = true
				if strings.HasPrefix(name, "quiet") && !flagged {
					t.Errorf("%s: the timed setup of %s (ramp to N=%d in %d calls) is not caught", name, r.Bench, r.N, len(r.Calls))
				}
				t.Logf("%s: %s N=%d over %d calls: flagged %v %v", name, r.Bench, r.N, len(r.Calls), flagged, f.Evidence)
			default:
				if flagged {
					t.Errorf("%s: %s times no setup, accused: %s", name, r.Bench, f.Message)
				}
			}
		}
		if !seen {
			t.Errorf("%s: no ramp of BenchmarkSetup", name)
		}
		if strings.HasPrefix(name, "quiet") {
			quiet++
		}
	}
	if quiet == 0 {
		t.Error("no recording of a quiet machine: the lie is never shown caught")
	}
}
