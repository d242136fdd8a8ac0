package render

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/result"
)

// The HTML report is well-formed (it parses as XML), self-contained (no
// script, nothing fetched), holds one section with its charts per
// experiment, and escapes what came from the file.
func TestHTML(t *testing.T) {
	r := fixtureResult()
	r.Experiments[0].Name = `sum/<script>alert(1)</script>`
	analyze.Analyze(r)
	var b bytes.Buffer
	if err := Write(&b, r, "html"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	dec := xml.NewDecoder(strings.NewReader(strings.TrimPrefix(page, "<!DOCTYPE html>\n")))
	dec.Strict = true
	sections, svgs := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch se.Name.Local {
			case "section":
				for _, a := range se.Attr {
					if a.Name.Local == "class" && a.Value == "experiment" {
						sections++
					}
				}
			case "svg":
				svgs++
			case "script", "link", "img", "iframe":
				t.Errorf("a %s element: the page must be self-contained", se.Name.Local)
			}
		}
	}
	if sections != len(r.Experiments) {
		t.Errorf("%d experiment sections, want %d", sections, len(r.Experiments))
	}
	measured := 0
	for _, e := range r.Experiments {
		if e.Stats.N > 0 {
			measured++
		}
	}
	if svgs < 2*measured {
		t.Errorf("%d charts for %d measured experiments, want a distribution and a series each", svgs, measured)
	}
	// Nothing is fetched: the only URL is the SVG namespace's name.
	page = strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, "")
	for _, bad := range []string{"<script", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// An interleaved comparison gets its chart of per-round ratios with the
// interval and the threshold band.
func TestHTMLComparison(t *testing.T) {
	r := fixtureResult()
	a, b := r.Experiments[0], r.Experiments[0]
	b.Name = "sum/sink#2"
	r.Experiments = []result.Experiment{a, b}
	r.Settings.Compare = []string{a.Name, b.Name}
	analyze.Analyze(r)
	if len(r.Comparison) != 1 {
		t.Fatalf("%d comparisons", len(r.Comparison))
	}
	var out bytes.Buffer
	if err := Write(&out, r, "html"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`class="threshold"`, `class="round"`, "per round (log scale)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in the comparison chart", want)
		}
	}
}

// The page opens with an overview of every experiment and its deciding
// reason, and each section lists the deciding finding first.
func TestHTMLOverviewAndDecidingFirst(t *testing.T) {
	r := fixtureResult()
	var b strings.Builder
	if err := Write(&b, r, "html"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	ov := strings.Index(page, `<table class="overview">`)
	first := strings.Index(page, `<section class="experiment"`)
	if ov < 0 || first < 0 || ov > first {
		t.Fatalf("overview at %d, first section at %d", ov, first)
	}
	for _, e := range r.Experiments {
		if !strings.Contains(page[ov:first], `href="#`+e.Name+`"`) {
			t.Errorf("the overview has no row for %s", e.Name)
		}
	}
	unused := page[strings.Index(page, `id="sum/unused"`):]
	unused = unused[:strings.Index(unused, "</section>")]
	firstFinding := unused[strings.Index(unused, "<li"):]
	if !strings.Contains(firstFinding[:strings.Index(firstFinding, "</li>")], "no-load-in-loop") {
		t.Errorf("sum/unused's first finding is not the one that decided it:\n%s", unused)
	}
}
