// Command kompact compacts LLM agent conversations the way kimi-cli does.
//
// Each subcommand lives in its own file. main is the only place that exits.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"unicode/utf8"

	"kompact"
	"kompact/internal/atomicfile"
	"kompact/sessionjson"
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
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	if isHelp(args[0]) {
		return help(ctx, args[1:], e)
	}
	if args[0] == "version" {
		fmt.Fprintln(e.stdout, "kompact", version)
		return exitOK
	}
	return runCommand(ctx, args[0], args[1:], e, e.stderr)
}

// runCommand runs the subcommand name with args and reports its error on
// errw: an unknown name, or a usage error with the help of name to read.
func runCommand(ctx context.Context, name string, args []string, e *env, errw io.Writer) int {
	cmd := newCommand(name, e)
	if cmd == nil {
		reportError(errw, unknownCommand(name))
		return exitUsage
	}
	status, err := cmd.Run(ctx, args)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) && ue.topic == "" {
			ue.topic = name
		}
		reportError(errw, err)
	}
	return status
}

// newCommand returns the subcommand named name, or nil.
func newCommand(name string, e *env) command {
	switch name {
	case "compact":
		return &compactCommand{env: e}
	case "request":
		return &requestCommand{env: e}
	case "prune":
		return &pruneCommand{env: e}
	case "eval":
		return &evalCommand{env: e}
	case "config":
		return &configCommand{env: e}
	case "serve":
		return &serveCommand{env: e}
	case "sessions":
		return &sessionsCommand{env: e}
	}
	return nil
}

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// reportError prints err on stderr: a usage error as one line and where to
// read the command's help, any other error with its fixes.
func reportError(w io.Writer, err error) {
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(w, "kompact: %s\n", ue.msg)
		fmt.Fprintf(w, "Run %q for usage.\n", strings.TrimSpace("kompact help "+ue.topic))
		return
	}
	fmt.Fprintf(w, "kompact: %s\n", err)
	for _, fix := range kompact.ErrorFixes(err) {
		fmt.Fprintf(w, "  fix: %s\n", fix)
	}
}

// usageError is a mistake in the command line. topic is the command whose
// help explains it ("compact", "config show"); run fills in the command
// when it is empty.
type usageError struct{ msg, topic string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// newFlagSet returns a flag set that reports errors instead of exiting or
// printing them; -h prints the command's help (see printHelp) on stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() { printHelp(stderr, fs, synopsis) }
	return fs
}

// parseFlags parses args and returns the positional arguments, allowing flags
// after them (kompact request s.json --model x). A mistake is a usage error
// in one line (see flagError); -h prints the help and returns flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	help := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = help }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help()
				return nil, err
			}
			return nil, flagError(fs, err)
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
// positional arguments remain. A wrong count is a usage error that says the
// command takes what ("exactly one session file").
func parseArgs(fs *flag.FlagSet, args []string, n int, what string) ([]string, error) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) != n {
		noun := "arguments"
		if len(pos) == 1 {
			noun = "argument"
		}
		return nil, &usageError{msg: fmt.Sprintf("%s takes %s, got %d %s", fs.Name(), what, len(pos), noun), topic: fs.Name()}
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
	err := atomicfile.CheckRegular(path)
	var data []byte
	if err == nil {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "read session: %w", err).
			WithFixes("Pass the path of a session JSON file, or - to read it from standard input.")
	}
	return data, nil
}

// kimiFileError returns err, the failure to read the file at path ("-" for
// stdin) as a session document, as the advice to pass --kimi when the file is a kimi-cli
// context.jsonl: when its first line is a kimi-cli context line (a JSON
// object whose "role" is a message role or a kimi-cli record). The content
// decides, not the file name. cmdline, when not "", is the command to
// suggest, with FILE where the path goes.
func kimiFileError(err error, path string, data []byte, cmdline string) error {
	err = withPosition(err, data)
	if !sessionjson.LooksLikeKimiContext(data) {
		return err
	}
	fix := "Pass --kimi to read it as kimi-cli's session file."
	if cmdline != "" {
		fix = "Pass --kimi to read it as kimi-cli's session file: " + strings.ReplaceAll(cmdline, "FILE", path)
	}
	return kompact.Errorf(kompact.EInvalid, "%s is a kimi-cli context.jsonl file, not a session JSON document", inputName(path)).
		WithFixes(fix)
}

// withPosition says where in data the JSON syntax error in err is, as
// config errors do: "not valid JSON at line L, column C: …" (C counts
// characters, from 1). Other errors come back as they are.
func withPosition(err error, data []byte) error {
	var syn *json.SyntaxError
	var e *kompact.Error
	if !errors.As(err, &syn) || !errors.As(err, &e) || syn.Offset <= 0 || syn.Offset > int64(len(data)) {
		return err
	}
	// Offset counts the bytes read, the offending one included.
	before := data[:syn.Offset-1]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	at := fmt.Sprintf("not valid JSON at line %d, column %d:", line, col)
	msg := strings.Replace(err.Error(), "not valid JSON:", at, 1)
	return &kompact.Error{Code: e.Code, Message: msg, Fixes: e.Fixes, Err: err}
}

// sessionDocError is the error for a session JSON document passed with
// --kimi (read as a kimi-cli file, it would be all skipped lines), or nil
// when data is not one.
func sessionDocError(path string, data []byte) error {
	if _, err := sessionjson.DecodeSession(data); err != nil {
		return nil
	}
	return kompact.Errorf(kompact.EInvalid, "%s is a session JSON document, not a kimi-cli context.jsonl file", inputName(path)).
		WithFixes("Leave out --kimi to read it as a session document.")
}
