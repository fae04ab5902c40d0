// Command gotest runs go test and says, once at the end, how many tests
// skipped and why: in package list mode go test shows nothing of a passing
// package but its "ok" line, so tests that skip for want of something from
// outside the checkout (../shared, PostgreSQL, Chromium, Ollama: see
// internal/testing/testenv) would otherwise pass unnoticed.
//
//	go run ./internal/cmd/gotest ./...
//	go run ./internal/cmd/gotest -race -count=1 ./...
//
// It takes go test's arguments, runs go test -json with them and prints
// what go test would print: the ok, FAIL and ? lines of the packages, the
// output of failed tests and build errors. Then come the skipped tests,
// grouped by their skip message, and go test's exit status. With -v,
// -bench, -fuzz or -json, where go test shows every test's output anyway,
// it runs go test as it is.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
)

func main() {
	args := os.Args[1:]
	if showsAllOutput(args) {
		exit(runGo(exec.Command("go", append([]string{"test"}, args...)...)), false)
	}
	cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
	cmd.Stderr = os.Stderr
	// Ctrl-C reaches go test too: outlive it to print what it printed.
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
	failed := Report(stdout, os.Stdout)
	exit(cmd.Wait(), failed)
}

// exit ends the program with exitCode, saying why when go test did not run.
func exit(err error, failed bool) {
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		fmt.Fprintln(os.Stderr, "gotest:", err)
	}
	os.Exit(exitCode(err, failed))
}

// runGo runs cmd with this process's standard streams.
func runGo(cmd *exec.Cmd) error {
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}

// showsAllOutput reports whether args hold a flag under which go test
// prints the output of passing tests too (or its own JSON).
func showsAllOutput(args []string) bool {
	for _, a := range args {
		if a == "-args" || a == "--args" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		if strings.HasPrefix(a, "-") && (name == "v" || name == "bench" || name == "fuzz" || name == "json") {
			return true
		}
	}
	return false
}

// exitCode is go test's exit status (err is what running it returned: 2
// when it did not run), and 1 when it said 0 but the report saw a failure.
func exitCode(err error, failed bool) int {
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		return 2
	case failed:
		return 1
	}
	return 0
}
