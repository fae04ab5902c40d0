package kimicode

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Session is a Kimi Code session folder (…/sessions/<workspace>/<session_id>/).
type Session struct {
	// Dir is the folder, WirePath its agents/main/wire.jsonl, both absolute.
	Dir, WirePath string
	// ID is state.json's id (session_<uuid>).
	ID string
	// Home is the Kimi Code home the session belongs to ("" when the folder is not
	// under a sessions/ folder).
	Home string
}

// OpenSession finds the session of path: its folder, or its agents/main/wire.jsonl.
func OpenSession(path string) (*Session, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if filepath.Base(abs) == "wire.jsonl" {
		abs = filepath.Dir(filepath.Dir(filepath.Dir(abs)))
	}
	s := &Session{Dir: abs, WirePath: filepath.Join(abs, "agents", "main", "wire.jsonl")}
	b, err := os.ReadFile(filepath.Join(abs, "state.json"))
	if err != nil {
		return nil, fmt.Errorf("%s is not a Kimi Code session folder (a folder with state.json and agents/main/wire.jsonl): %w", path, err)
	}
	var st struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(b, &st); err != nil || st.ID == "" {
		return nil, fmt.Errorf("%s: state.json has no session id", abs)
	}
	s.ID = st.ID
	if sessions := filepath.Dir(filepath.Dir(abs)); filepath.Base(sessions) == "sessions" {
		s.Home = filepath.Dir(sessions)
	}
	return s, nil
}

// ContextSize reads max_context_size of the model alias from the Kimi Code home's
// config.toml ([models.<alias>]); 0 when it is not there.
func ContextSize(home, alias string) (int, error) {
	f, err := os.Open(filepath.Join(home, "config.toml"))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	section, in := "", false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = strings.TrimSpace(strings.Trim(line, "[]"))
			in = section == "models."+alias || section == `models."`+alias+`"`
			continue
		}
		if k, v, ok := strings.Cut(line, "="); in && ok && strings.TrimSpace(k) == "max_context_size" {
			v = strings.TrimSpace(strings.SplitN(v, "#", 2)[0])
			n, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
			if err != nil {
				return 0, fmt.Errorf("%s: [%s] max_context_size %q is not a number", f.Name(), section, v)
			}
			return n, nil
		}
	}
	return 0, sc.Err()
}

// DefaultModel reads default_model (before any section) from the Kimi Code home's
// config.toml; "" when it is not there.
func DefaultModel(home string) (string, error) {
	b, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			break
		}
		if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == "default_model" {
			v = strings.TrimSpace(strings.SplitN(v, "#", 2)[0])
			if s, err := strconv.Unquote(v); err == nil {
				return s, nil
			}
			return strings.Trim(v, `'`), nil
		}
	}
	return "", nil
}

// WorkspaceHolding is the workspace folder of the Kimi Code home that holds session id
// (sessions/<workspace>/<id>), "" when none does.
func WorkspaceHolding(home, id string) string {
	entries, _ := os.ReadDir(filepath.Join(home, "sessions"))
	for _, e := range entries {
		if _, err := os.Lstat(filepath.Join(home, "sessions", e.Name(), id)); err == nil {
			return e.Name()
		}
	}
	return ""
}
