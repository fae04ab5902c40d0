package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"kompact/internal/didyoumean"
)

// commandInfo is one line of the command list.
type commandInfo struct {
	name, args, summary string
}

// commands lists the commands in the order "kompact help" shows them.
var commands = []commandInfo{
	{"compact", "[flags] SESSION.json", "compact a session file with its agent's LLM"},
	{"request", "[flags] SESSION.json", "print the compaction request compact would send (a dry run)"},
	{"prune", "[flags] SESSION.json", "clear the text of old, long tool results (no LLM call)"},
	{"eval", "[flags] [SESSION.json]", "measure which planted facts an agent's summaries keep, over several runs"},
	{"config", "reference|show|check", "the agent configuration"},
	{"serve", "[flags]", "serve the HTTP API and the web page"},
	{"sessions", "SUBCOMMAND [flags]", "list, import, export or delete a server's sessions"},
	{"version", "", "print the version"},
	{"help", "[COMMAND]", "print the command list, or a command's help"},
}

// usage prints the command list.
func usage(w io.Writer) {
	fmt.Fprint(w, "kompact compacts LLM agent conversations the way kimi-cli does.\n\nUsage:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-38s %s\n", strings.TrimSpace("kompact "+c.name+" "+c.args), c.summary)
	}
	fmt.Fprint(w, `
Run "kompact help COMMAND" (or "kompact COMMAND -h") for a command's flags.

Exit status: 0 done, 1 error, 2 wrong usage, 3 nothing to compact or prune, 4 warnings with --strict (nothing written).
`)
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "help" || arg == "-h" || arg == "--help"
}

// help runs "kompact help [COMMAND [SUBCOMMAND]]": the command list, or the
// command's own -h output, on stdout.
func help(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 || isHelp(args[0]) {
		usage(e.stdout)
		return exitOK
	}
	if args[0] == "version" {
		fmt.Fprintln(e.stdout, "Usage: kompact version\n\nPrints the version of kompact.")
		return exitOK
	}
	// The command's -h writes on its stderr: here, on stdout.
	he := &env{stdin: e.stdin, stdout: e.stdout, stderr: e.stdout, getenv: e.getenv}
	return runCommand(ctx, args[0], append(args[1:len(args):len(args)], "-h"), he, e.stderr)
}

// unknownCommand is the usage error for a command name that is not one.
func unknownCommand(name string) error {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return unknownName("command", name, names)
}

// unknownName is the usage error for a name (of a command, a subcommand)
// that is none of names, with a "did you mean" when one is close.
func unknownName(kind, name string, names []string) error {
	msg := fmt.Sprintf("unknown %s %q", kind, name)
	if s := didyoumean.Closest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	} else {
		msg += "; use one of: " + strings.Join(names, ", ")
	}
	return &usageError{msg: msg}
}

// printHelp prints a command's help: what it does, its synopsis and its
// flags, written with two dashes (one for single-letter flags) as the README
// writes them.
func printHelp(w io.Writer, fs *flag.FlagSet, synopsis string) {
	for _, c := range commands {
		if c.name == fs.Name() {
			fmt.Fprintf(w, "kompact %s: %s\n\n", c.name, c.summary)
		}
	}
	if lines := strings.Split(synopsis, "\n"); len(lines) > 1 {
		fmt.Fprint(w, "Usage:\n")
		for _, l := range lines {
			fmt.Fprintf(w, "  kompact %s\n", l)
		}
		fmt.Fprint(w, "\nFlags:\n")
	} else {
		fmt.Fprintf(w, "Usage: kompact %s\n\nFlags:\n", synopsis)
	}
	fs.VisitAll(func(f *flag.Flag) {
		typ, text := flag.UnquoteUsage(f)
		line := "  " + flagName(f.Name)
		if typ != "" {
			line += " " + typ
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			text += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n      %s\n", line, text)
	})
}

// flagName writes a flag as the README does: -o, --max-preserved.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// invalidValue matches the flag package's message for a value that does
// not parse.
var invalidValue = regexp.MustCompile(`^invalid (?:boolean )?value ("[^"]*") for (?:flag )?-([^:]+): (.*)$`)

// flagError turns an error of fs.Parse into a one-line usage error that
// names the flag as the help writes it: an unknown flag with the closest
// known one, a missing or malformed value with what the flag takes.
func flagError(fs *flag.FlagSet, err error) error {
	msg := strings.TrimSpace(err.Error())
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		msg = "unknown flag " + flagName(name)
		if s := didyoumean.Closest(name, names); s != "" {
			msg += "; did you mean " + flagName(s) + "?"
		}
	} else if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		msg = flagName(name) + " needs a value"
		if t := takes(fs.Lookup(name)); t != "" {
			msg += ": " + t
		}
	} else if m := invalidValue.FindStringSubmatch(msg); m != nil {
		reason := m[3]
		if t := takes(fs.Lookup(m[2])); t != "" {
			reason = "it takes " + t
		}
		msg = "invalid value " + m[1] + " for " + flagName(m[2]) + ": " + reason
	}
	return &usageError{msg: msg, topic: fs.Name()}
}

// takes says what kind of value f takes ("a whole number"), or "" when
// that goes without saying.
func takes(f *flag.Flag) string {
	if f == nil {
		return ""
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return "true or false"
	}
	switch typ, _ := flag.UnquoteUsage(f); typ {
	case "int", "int64", "uint", "uint64":
		return "a whole number"
	case "float", "float64":
		return "a number"
	case "duration":
		return "a duration such as 30s or 2m"
	}
	return ""
}
