package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kompact/internal/testing/golden"
)

// TestReport feeds recorded go test -json streams (testdata/*.jsonl, from
// a throwaway module with passing, failing, panicking, exiting, skipping
// and unbuildable packages) to Report and compares what it prints, and
// whether it saw a failure, with testdata/*.golden.
func TestReport(t *testing.T) {
	streams, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(streams) == 0 {
		t.Fatalf("no streams in testdata: %v", err)
	}
	for _, path := range streams {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			failed := Report(bytes.NewReader(in), &out)
			out.WriteString("-- failed: " + strconv.FormatBool(failed) + "\n")
			golden.Check(t, name, out.Bytes())
		})
	}
}

// TestReportSummaryOnce: the summary counts every skipped test once, ends
// the output, and is absent when nothing skipped.
func TestReportSummaryOnce(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "passing.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if Report(bytes.NewReader(in), &out) {
		t.Error("a passing run reported a failure")
	}
	if n := strings.Count(out.String(), "tests skipped:"); n != 1 {
		t.Errorf("%d summaries in\n%s", n, out.String())
	}
	out.Reset()
	if Report(strings.NewReader(`{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}`+"\n"+`{"Action":"pass","Package":"p"}`+"\n"), &out) ||
		out.String() != "ok  \tp\t0.1s\n" {
		t.Errorf("a run without skips printed %q", out.String())
	}
}

func TestShowsAllOutput(t *testing.T) {
	for args, want := range map[string]bool{
		"./...":                  false,
		"-race -count=1 ./...":   false,
		"-v ./...":               true,
		"-test.v=true .":         true,
		"-run=^$ -bench=. .":     true,
		"--fuzz=FuzzX .":         true,
		"-json ./...":            true,
		"-run V ./...":           false,
		". -args -v":             false,
		"-short ./sessionjson/v": false,
	} {
		if got := showsAllOutput(strings.Fields(args)); got != want {
			t.Errorf("showsAllOutput(%s) = %v", args, got)
		}
	}
}

// TestExitCode: go test's exit status passes through; a failure seen in
// the stream makes a zero status 1.
func TestExitCode(t *testing.T) {
	if os.Getenv("GOTEST_EXIT") != "" {
		n, _ := strconv.Atoi(os.Getenv("GOTEST_EXIT"))
		os.Exit(n)
	}
	exitWith := func(n int) error {
		cmd := exec.Command(os.Args[0], "-test.run=^TestExitCode$")
		cmd.Env = append(os.Environ(), "GOTEST_EXIT="+strconv.Itoa(n))
		return cmd.Run()
	}
	for _, tc := range []struct {
		err    error
		failed bool
		want   int
	}{
		{nil, false, 0},
		{nil, true, 1},
		{exitWith(1), true, 1},
		{exitWith(2), false, 2},
		{errors.New("go: not found"), false, 2},
	} {
		if got := exitCode(tc.err, tc.failed); got != tc.want {
			t.Errorf("exitCode(%v, %v) = %d, want %d", tc.err, tc.failed, got, tc.want)
		}
	}
}
