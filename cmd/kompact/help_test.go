package main

import (
	"strings"
	"testing"

	"kompact/internal/testing/golden"
)

// TestUsageErrorsGolden pins what a newcomer sees after a mistake on the
// command line: one line that says what is wrong (with the flag, command or
// subcommand they probably meant), one line that says where the help is,
// status 2, and never the flag list.
func TestUsageErrorsGolden(t *testing.T) {
	var transcript strings.Builder
	for _, args := range [][]string{
		{"compact", "--max-preseved", "3", "session.json"},
		{"compact", "--modle", "m", "session.json"},
		{"compact", "--agnet", "kimi", "session.json"},
		{"compact", "--bogus", "session.json"},
		{"compact"},
		{"compact", "a.json", "b.json"},
		{"compact", "--max-preserved", "three", "session.json"},
		{"compact", "--json=maybe", "session.json"},
		{"compact", "--up-to", "m4", "--end", "m6", "session.json"},
		{"request", "session.json", "--model"},
		{"request", "--upto", "m4", "session.json"},
		{"compcat", "session.json"},
		{"sesions", "list"},
		{"config"},
		{"config", "chek", "kompact.yaml"},
		{"config", "show", "--conifg", "kompact.yaml"},
		{"sessions"},
		{"sessions", "imprt", "session.json"},
		{"sessions", "list", "--ulr", "http://127.0.0.1:8484"},
		{"serve", "--adr", "127.0.0.1:9000"},
		{"serve", "--max-body", "1MB"},
		{"serve", "--max-import-body", "0"},
		{"help", "compcat"},
	} {
		status, stdout, stderr := runCLI(t, "", map[string]string{"HOME": t.TempDir()}, args...)
		if status != exitUsage {
			t.Errorf("%v: status %d, want %d", args, status, exitUsage)
		}
		if stdout != "" {
			t.Errorf("%v: stdout %q, want nothing", args, stdout)
		}
		if lines := strings.Count(stderr, "\n"); lines != 2 || !strings.HasSuffix(stderr, " for usage.\n") {
			t.Errorf("%v: want the problem and the pointer to the help in two lines, got:\n%s", args, stderr)
		}
		if strings.Contains(stderr, "Flags:") || strings.Contains(stderr, "Usage:") {
			t.Errorf("%v: the help is printed with the error:\n%s", args, stderr)
		}
		transcript.WriteString("$ kompact " + strings.Join(args, " ") + "\n" + stderr + "\n")
	}
	golden.Check(t, "usage-errors", []byte(transcript.String()))
}

// TestHelpCommand checks that "kompact help CMD" prints on stdout what
// "kompact CMD -h" prints, and "kompact help" the command list.
func TestHelpCommand(t *testing.T) {
	status, list, stderr := runCLI(t, "", nil, "help")
	if status != exitOK || stderr != "" {
		t.Fatalf("help: status %d, stderr %q", status, stderr)
	}
	for _, c := range commands {
		if !strings.Contains(list, "kompact "+c.name) {
			t.Errorf("the command list lacks %s:\n%s", c.name, list)
		}
		// Every summary starts in the same column.
		if i := strings.Index(list, c.summary); i < 0 || i-strings.LastIndexByte(list[:i], '\n')-1 != 41 {
			t.Errorf("the summary of %s is not in column 42:\n%s", c.name, list)
		}
	}
	for _, topic := range [][]string{{"compact"}, {"request"}, {"serve"}, {"sessions"}, {"config"}, {"config", "show"}} {
		status, stdout, stderr := runCLI(t, "", nil, append([]string{"help"}, topic...)...)
		if status != exitOK || stderr != "" || stdout == "" {
			t.Errorf("help %v: status %d, stdout %q, stderr %q", topic, status, stdout, stderr)
			continue
		}
		// kompact config -h prints its help on stdout, as config help does;
		// the other commands print -h on stderr.
		status, hout, herr := runCLI(t, "", nil, append(topic, "-h")...)
		if status != exitOK || hout+herr != stdout {
			t.Errorf("%v -h: status %d, prints %q, want what help prints: %q", topic, status, hout+herr, stdout)
		}
	}
	_, stdout, _ := runCLI(t, "", nil, "help", "compact")
	for _, want := range []string{"Usage: kompact compact [flags] SESSION.json", "--max-preserved N", "--agent string", "-o string"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help compact lacks %q:\n%s", want, stdout)
		}
	}
	golden.Check(t, "help-compact", []byte(stdout))
	// A command with subcommands gives each its own usage line.
	_, stdout, _ = runCLI(t, "", nil, "help", "sessions")
	if !strings.Contains(stdout, "Usage:\n  kompact sessions list\n  kompact sessions import [--kimi | --kimi-code] [--id ID] [--agent NAME] FILE\n  kompact sessions export [--kimi] [-o OUT] ID\n  kompact sessions export --kimi-code [--cwd DIR] [-o SESSION_DIR] ID\n  kompact sessions delete ID\n\nFlags:\n") {
		t.Errorf("help sessions:\n%s", stdout)
	}
}
