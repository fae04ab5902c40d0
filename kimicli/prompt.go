package kimicli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"kompact"
	"kompact/kimi"
)

// PathEnv names the environment variable that points at a kimi-cli
// checkout, an installed kimi_cli package, or the compact.md file itself.
const PathEnv = "KIMI_CLI_PATH"

// promptRel is where compact.md sits inside an installed kimi_cli package.
var promptRel = filepath.Join("kimi_cli", "prompts", "compact.md")

// Finder looks for kimi-cli's compact.md. The zero value looks where
// Python installs packages on this machine; tests set the fields.
type Finder struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Home is the user's home directory; empty means os.UserHomeDir.
	Home string
	// Roots, when non-nil, replaces the built-in list of site-packages glob
	// patterns.
	Roots []string

	once     sync.Once
	found    kompact.Prompt
	foundErr error
}

func (f *Finder) getenv(k string) string {
	if f.Getenv != nil {
		return f.Getenv(k)
	}
	return os.Getenv(k)
}

// SitePackagePatterns returns the glob patterns of the directories where
// Python installations keep packages, most specific first: the active
// virtual environment, PYTHONPATH, uv and pipx tool environments, the user's
// site-packages, pyenv versions, then the system's.
func (f *Finder) SitePackagePatterns() []string {
	if f.Roots != nil {
		return f.Roots
	}
	home := f.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var pats []string
	if venv := f.getenv("VIRTUAL_ENV"); venv != "" {
		pats = append(pats, filepath.Join(venv, "lib", "python3*", "site-packages"))
	}
	for _, p := range filepath.SplitList(f.getenv("PYTHONPATH")) {
		if p != "" {
			pats = append(pats, p)
		}
	}
	if home != "" {
		pats = append(pats,
			filepath.Join(home, ".local", "share", "uv", "tools", "*", "lib", "python3*", "site-packages"),
			filepath.Join(home, ".local", "pipx", "venvs", "*", "lib", "python3*", "site-packages"),
			filepath.Join(home, ".local", "share", "pipx", "venvs", "*", "lib", "python3*", "site-packages"),
			filepath.Join(home, ".local", "lib", "python3*", "site-packages"),
			filepath.Join(home, ".pyenv", "versions", "*", "lib", "python3*", "site-packages"),
		)
	}
	pats = append(pats,
		"/usr/local/lib/python3*/site-packages",
		"/usr/local/lib/python3*/dist-packages",
		"/usr/lib/python3/dist-packages",
		"/usr/lib/python3*/site-packages",
		"/opt/homebrew/lib/python3*/site-packages",
	)
	return pats
}

// FindPrompt returns kimi-cli's compaction prompt from this machine, with
// Source kompact.PromptKimiCLI, or the zero Prompt when kimi-cli is not
// installed. When $KIMI_CLI_PATH is set it must lead to compact.md, or
// FindPrompt fails: an explicit setting is never silently ignored. Among
// installed copies, one whose hash matches the pinned genuine prompt wins.
func (f *Finder) FindPrompt() (kompact.Prompt, error) {
	if p := f.getenv(PathEnv); p != "" {
		path, err := resolveExplicit(p)
		if err != nil {
			return kompact.Prompt{}, err
		}
		return readPrompt(path, kompact.PromptKimiCLI)
	}
	var found []kompact.Prompt
	for _, pat := range f.SitePackagePatterns() {
		dirs, _ := filepath.Glob(pat)
		sort.Strings(dirs)
		for _, d := range dirs {
			path := filepath.Join(d, promptRel)
			if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
				continue
			}
			p, err := readPrompt(path, kompact.PromptKimiCLI)
			if err != nil {
				continue
			}
			if p.Genuine() {
				return p, nil
			}
			found = append(found, p)
		}
	}
	if len(found) > 0 {
		return found[0], nil
	}
	return kompact.Prompt{}, nil
}

// resolveExplicit turns the value of $KIMI_CLI_PATH into the path of
// compact.md: the file itself, or a kimi-cli checkout, an installed kimi_cli
// package or its prompts folder.
func resolveExplicit(p string) (string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", kompact.Errorf(kompact.EInvalid, "%s=%s: %w", PathEnv, p, err).
			WithFixes("Point " + PathEnv + " at a kimi-cli checkout, its installed kimi_cli package, or compact.md itself; or unset it.")
	}
	if st.Mode().IsRegular() {
		return p, nil
	}
	for _, rel := range []string{
		filepath.Join("src", promptRel),
		promptRel,
		filepath.Join("prompts", "compact.md"),
		"compact.md",
	} {
		c := filepath.Join(p, rel)
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			return c, nil
		}
	}
	return "", kompact.Errorf(kompact.EInvalid, "%s=%s holds no compact.md (looked for src/kimi_cli/prompts/compact.md, kimi_cli/prompts/compact.md, prompts/compact.md and compact.md)", PathEnv, p).
		WithFixes("Point " + PathEnv + " at a kimi-cli checkout, its installed kimi_cli package, or compact.md itself; or unset it.")
}

// ReadPromptFile reads a prompt body from path, the way kimi-cli reads its
// own: UTF-8 text with universal newlines.
func ReadPromptFile(path string) (kompact.Prompt, error) {
	return readPrompt(path, kompact.PromptFile)
}

func readPrompt(path string, src kompact.PromptSource) (kompact.Prompt, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return kompact.Prompt{}, kompact.Errorf(kompact.EInvalid, "read prompt: %w", err).
			WithFixes("Check that the prompt file exists and is readable.")
	}
	p, err := kimi.NewPrompt(data, src, path)
	if err != nil {
		return kompact.Prompt{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// AgentPrompt resolves the compaction prompt of agent a, in order: its
// inline prompt, its prompt_file, kimi-cli's installed compact.md (see
// FindPrompt), the built-in prompt. It fits service.Compactor.Prompt. The
// machine is searched for kimi-cli once per Finder.
func (f *Finder) AgentPrompt(a *kompact.Agent) (kompact.Prompt, error) {
	inline := kompact.Prompt{Body: a.Compaction.Prompt, Source: kompact.PromptInline}
	if inline.Body != "" {
		return inline, nil
	}
	if a.Compaction.PromptFile != "" {
		p, err := ReadPromptFile(a.Compaction.PromptFile)
		if err != nil {
			return kompact.Prompt{}, fmt.Errorf("agent %s: prompt_file: %w", a.Name, err)
		}
		return p, nil
	}
	f.search()
	if f.foundErr != nil {
		return kompact.Prompt{}, f.foundErr
	}
	return kimi.ResolvePrompt(f.found), nil
}

// search runs FindPrompt, once per Finder.
func (f *Finder) search() { f.once.Do(func() { f.found, f.foundErr = f.FindPrompt() }) }

// Prefetch starts the search for kimi-cli on another goroutine, so that it
// overlaps the caller's other work (reading a session); AgentPrompt then
// waits for it, if it needs it.
func (f *Finder) Prefetch() { go f.search() }
