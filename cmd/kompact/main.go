// Command kompact compacts LLM agent conversations the way kimi-cli does.
//
// Each subcommand lives in its own file. main is the only place that exits.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"kompact"
)

// Exit statuses, documented in the README.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
	exitNoop  = 3
	// exitWarnings: compact --strict got a result with warnings and wrote
	// nothing.
	exitWarnings = 4
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	status := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	stop()
	os.Exit(status)
}

// command is one subcommand. Run returns the exit status and, for a failure,
// the error to report.
type command interface {
	Run(ctx context.Context, args []string) (int, error)
}

// env is what every command may use besides its arguments.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// run runs the command line args and returns the exit status.
func run(ctx context.Context, args []string, e *env) int {
	stdout, stderr := e.stdout, e.stderr
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	var cmd command
	switch args[0] {
	case "compact":
		cmd = &compactCommand{env: e}
	case "request":
		cmd = &requestCommand{env: e}
	case "config":
		cmd = &configCommand{env: e}
	case "serve":
		cmd = &serveCommand{env: e}
	case "sessions":
		cmd = &sessionsCommand{env: e}
	case "version":
		fmt.Fprintln(stdout, "kompact", version)
		return exitOK
	case "help", "-h", "--help":
		usage(stdout)
		return exitOK
	default:
		fmt.Fprintf(stderr, "kompact: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	status, err := cmd.Run(ctx, args[1:])
	if err != nil {
		reportError(stderr, err)
	}
	return status
}

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func usage(w io.Writer) {
	fmt.Fprint(w, `kompact compacts LLM agent conversations the way kimi-cli does.

Usage:
  kompact compact [flags] SESSION.json   compact a session file with its agent's LLM
  kompact request [flags] SESSION.json   print the compaction request (a dry run)
  kompact config reference|show|check    the agent configuration
  kompact serve [flags]                  serve the HTTP API and the web page
  kompact sessions SUBCOMMAND [flags]    list, import, export or delete a server's sessions
  kompact version                        print the version

Run "kompact COMMAND -h" for a command's flags.

Exit status: 0 done, 1 error, 2 wrong usage, 3 nothing to compact, 4 warnings with --strict (nothing written).
`)
}

// reportError prints err and its fixes on stderr.
func reportError(w io.Writer, err error) {
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(w, "kompact: %s\n", ue.msg)
		return
	}
	fmt.Fprintf(w, "kompact: %s\n", err)
	for _, fix := range kompact.ErrorFixes(err) {
		fmt.Fprintf(w, "  fix: %s\n", fix)
	}
}

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: kompact %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and returns the positional arguments, allowing flags
// after them (kompact request s.json --model x).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{msg: strings.TrimSpace(err.Error())}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseArgs parses args with fs (see parseFlags) and checks that n
// positional arguments remain. After a wrong count it prints the usage and
// returns a usage error that says the command takes what ("exactly one
// session file").
func parseArgs(fs *flag.FlagSet, args []string, n int, what string) ([]string, error) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) != n {
		fs.Usage()
		noun := "arguments"
		if len(pos) == 1 {
			noun = "argument"
		}
		return nil, usagef("%s takes %s, got %d %s", fs.Name(), what, len(pos), noun)
	}
	return pos, nil
}

// flagExit is how a command whose command line does not parse ends: with
// status 0 and no error after -h (the usage is printed), else with status 2.
func flagExit(err error) (int, error) {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK, nil
	}
	return exitUsage, err
}

// readInput reads a file, or stdin for "-".
func (e *env) readInput(path string) ([]byte, error) {
	if path == "-" {
		data, err := io.ReadAll(e.stdin)
		if err != nil {
			return nil, fmt.Errorf("read stdin: %w", err)
		}
		return data, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "read session: %w", err).
			WithFixes("Pass the path of a session JSON file, or - to read it from standard input.")
	}
	return data, nil
}
