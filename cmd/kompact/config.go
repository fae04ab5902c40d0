package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"kompact/config"
	"kompact/service"
)

// configCommand inspects agent configuration files: "config reference",
// "config show" and "config check".
type configCommand struct {
	*env
}

const configUsage = `Usage:
  kompact config reference              print the reference page of the default configuration (Markdown)
  kompact config show [--config FILE]   print the effective configuration as YAML (default: the built-in one)
  kompact config check FILE             check a configuration file (or --config FILE)

docs/config.md describes every field.
`

// Run runs a config subcommand.
func (c *configCommand) Run(_ context.Context, args []string) (int, error) {
	if len(args) == 0 {
		return exitUsage, usagef("config needs a subcommand: reference, show or check")
	}
	switch args[0] {
	case "reference":
		return c.reference(args[1:])
	case "show":
		return c.show(args[1:])
	case "check":
		return c.check(args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(c.stdout, configUsage)
		return exitOK, nil
	}
	return exitUsage, unknownName("config subcommand", args[0], []string{"reference", "show", "check"})
}

// reference prints the generated docs/reference/default-config.md.
func (c *configCommand) reference(args []string) (int, error) {
	fs := newFlagSet("config reference", "config reference > docs/reference/default-config.md", c.stderr)
	if _, err := parseArgs(fs, args, 0, "no arguments"); err != nil {
		return flagExit(err)
	}
	if _, err := c.stdout.Write(config.ReferenceMarkdown(config.Default())); err != nil {
		return exitError, fmt.Errorf("write reference: %w", err)
	}
	return exitOK, nil
}

// show prints the effective configuration: the built-in one, or the file
// named by --config, as loaded.
func (c *configCommand) show(args []string) (int, error) {
	fs := newFlagSet("config show", "config show [--config FILE]", c.stderr)
	file := fs.String("config", "", "the configuration file to show (default: the built-in configuration)")
	if _, err := parseArgs(fs, args, 0, "no arguments (name the file with --config FILE)"); err != nil {
		return flagExit(err)
	}
	cfg, from := config.Default(), "kompact's built-in configuration (config/default.yaml)"
	if *file != "" {
		var err error
		if cfg, err = config.Load(*file); err != nil {
			return exitError, err
		}
		from = *file
	}
	c.printWarnings(cfg)
	out, err := cfg.EffectiveYAML()
	if err != nil {
		return exitError, fmt.Errorf("format the configuration: %w", err)
	}
	header := "# The effective configuration of " + from + ", as kompact loaded it:\n" +
		"# defaults are written out, relative paths resolved, comments dropped.\n"
	if _, err := io.WriteString(c.stdout, header+string(out)); err != nil {
		return exitError, fmt.Errorf("write configuration: %w", err)
	}
	return exitOK, nil
}

// check loads a configuration file and says whether it is valid.
func (c *configCommand) check(args []string) (int, error) {
	fs := newFlagSet("config check", "config check FILE (or --config FILE)", c.stderr)
	file := fs.String("config", "", "the configuration file to check, named as the other commands name it (the same as FILE)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagExit(err)
	}
	switch {
	case *file == "" && len(pos) == 1:
		*file = pos[0]
	case *file == "" || len(pos) > 0:
		return exitUsage, &usageError{msg: fmt.Sprintf("config check takes exactly one configuration file (FILE or --config FILE), got %d", len(pos)+min(len(*file), 1)), topic: fs.Name()}
	}
	cfg, err := config.Load(*file)
	if err != nil {
		return exitError, err
	}
	c.printWarnings(cfg)
	names := cfg.Names()
	noun := "agents"
	if len(names) == 1 {
		noun = "agent"
	}
	fmt.Fprintf(c.stdout, "ok: %d %s (%s)\n", len(names), noun, strings.Join(names, ", "))
	return exitOK, nil
}

// printWarnings prints the file's warnings, then one for each agent whose
// window leaves automatic compaction always due (service.SmallWindowWarning)
// or may leave it never due (service.UnknownWindowWarning: nothing is
// looked up here).
func (c *configCommand) printWarnings(cfg *config.Config) {
	for _, w := range cfg.Warnings {
		fmt.Fprintf(c.stderr, "warning: %s\n", w)
	}
	for _, name := range cfg.Names() {
		for _, w := range []string{service.SmallWindowWarning(cfg.Agents[name]), service.UnknownWindowWarning(cfg.Agents[name], nil)} {
			if w != "" {
				fmt.Fprintf(c.stderr, "warning: %s\n", w)
			}
		}
	}
}
