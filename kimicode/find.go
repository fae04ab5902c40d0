package kimicode

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// bundleAnchors say where each text starts in Kimi Code's dist/main.mjs: after the
// anchor, the next string literal is the text.
var bundleAnchors = []struct{ name, anchor string }{
	{"compaction-instruction.md", "compaction_instruction_default = "},
	{"compaction-summary-prefix.md", "compaction_summary_prefix_default = "},
	{"context-recovery-footer.md", "context_recovery_footer_default = "},
	{"elision-note.txt", "function buildCompactionElisionText("},
	{"continuation-note.txt", "function buildCompactionContinuationText("},
}

// Finder finds Kimi Code's texts in an installation: $KIMI_CODE_PATH (the package's folder,
// holding dist/main.mjs, or that file), else the package in npm's global folder.
type Finder struct {
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// NpmRoot returns npm's global folder (`npm root -g` when nil).
	NpmRoot func() (string, error)
}

// Find returns the texts of the installation, or the built-in wording and a warning
// saying why a request made with it is not Kimi Code's.
func (f *Finder) Find() (*Texts, string) {
	bundle, err := f.bundle()
	if err == nil {
		var t *Texts
		if t, err = ReadBundle(bundle); err == nil && t.Genuine {
			return t, ""
		}
		if err == nil {
			err = fmt.Errorf("%s is not Kimi Code 2.1.0's: its compaction texts have other SHA-256s", bundle)
		}
	}
	return Builtin(), "warning: the request is not Kimi Code's: kompact uses its own wording of the compaction texts (" +
		err.Error() + "); install Kimi Code 2.1.0 (npm install -g @moonshot-ai/kimi-code@2.1.0) or set KIMI_CODE_PATH to its package folder"
}

func (f *Finder) bundle() (string, error) {
	getenv := f.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if p := getenv("KIMI_CODE_PATH"); p != "" {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, "dist", "main.mjs")
		}
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("KIMI_CODE_PATH: %w", err)
		}
		return p, nil
	}
	root := f.NpmRoot
	if root == nil {
		root = npmRoot
	}
	dir, err := root()
	if err != nil {
		return "", fmt.Errorf("no KIMI_CODE_PATH, and npm's global folder is unknown: %w", err)
	}
	p := filepath.Join(dir, "@moonshot-ai", "kimi-code", "dist", "main.mjs")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("no KIMI_CODE_PATH, and Kimi Code is not in npm's global folder (%s)", dir)
	}
	return p, nil
}

func npmRoot() (string, error) {
	out, err := exec.Command("npm", "root", "-g").Output()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// ReadBundle reads the texts from a Kimi Code dist/main.mjs.
func ReadBundle(path string) (*Texts, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	src := string(b)
	bodies := map[string]string{}
	for _, a := range bundleAnchors {
		i := strings.Index(src, a.anchor)
		if i < 0 {
			return nil, fmt.Errorf("%s holds no %q", path, strings.TrimSpace(a.anchor))
		}
		s, err := jsLiteral(src[i+len(a.anchor):])
		if err != nil {
			return nil, fmt.Errorf("%s, after %q: %w", path, strings.TrimSpace(a.anchor), err)
		}
		bodies[a.name] = s
	}
	return NewTexts(bodies, path), nil
}

// jsLiteral reads the first JavaScript string literal of src ("…" or `…`); a template
// literal's ${String(x)} becomes the texts' variable ${omitted_tokens}.
func jsLiteral(src string) (string, error) {
	start := strings.IndexAny(src, "\"`")
	if start < 0 || start > 200 {
		return "", errors.New("no string literal")
	}
	q := src[start]
	var b strings.Builder
	for i := start + 1; i < len(src); i++ {
		c := src[i]
		switch {
		case c == q:
			return b.String(), nil
		case c == '\\' && i+1 < len(src):
			n, adv, err := jsEscape(src[i+1:])
			if err != nil {
				return "", err
			}
			b.WriteString(n)
			i += adv
		case q == '`' && strings.HasPrefix(src[i:], "${"):
			end := strings.IndexByte(src[i:], '}')
			if end < 0 {
				return "", errors.New("an unclosed ${")
			}
			b.WriteString("${omitted_tokens}")
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return "", errors.New("an unclosed string literal")
}

// singleEscapes are JavaScript's one-character escapes.
var singleEscapes = map[byte]string{'n': "\n", 't': "\t", 'r': "\r", 'b': "\b", 'f': "\f", 'v': "\v", '0': "\x00"}

// jsEscape decodes the escape after a backslash: the text and the bytes it took.
func jsEscape(s string) (string, int, error) {
	if c, ok := singleEscapes[s[0]]; ok {
		return c, 1, nil
	}
	switch s[0] {
	case 'x':
		if len(s) >= 3 {
			n, err := strconv.ParseUint(s[1:3], 16, 8)
			return string(rune(n)), 3, err
		}
	case 'u':
		if len(s) >= 5 && s[1] != '{' {
			n, err := strconv.ParseUint(s[1:5], 16, 16)
			return string(rune(n)), 5, err
		}
		if end := strings.IndexByte(s, '}'); end > 2 {
			n, err := strconv.ParseUint(s[2:end], 16, 32)
			return string(rune(n)), end + 1, err
		}
	default:
		return s[:1], 1, nil
	}
	return "", 0, errors.New("a bad escape")
}
