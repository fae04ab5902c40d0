package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"kompact"
	"kompact/sqlite"
)

// serveChildEnv makes the test binary a `kompact serve` whose LLM blocks
// until its call is cancelled (TestServeSecondInterrupt's child).
const serveChildEnv = "KOMPACT_TEST_SERVE_CHILD"

// blockingLLM answers no call: it says on stderr that one started and
// waits for its context to end.
type blockingLLM struct{}

func (blockingLLM) Complete(ctx context.Context, _ kompact.RequestConfig, _ []kompact.Message, _ func(kompact.Progress)) (kompact.Answer, error) {
	os.Stderr.WriteString("test: the LLM call started\n")
	<-ctx.Done()
	return kompact.Answer{}, ctx.Err()
}

// TestServeSecondInterrupt: Ctrl-C on serve while a compaction runs says
// what the shutdown waits for; a second Ctrl-C stops the server at once,
// with the compaction not committed and the session as it was.
func TestServeSecondInterrupt(t *testing.T) {
	if os.Getenv(serveChildEnv) != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		c := &serveCommand{env: &env{stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}, llm: blockingLLM{}}
		status, err := c.Run(ctx, strings.Fields(os.Getenv(serveChildEnv)))
		stop()
		if err != nil {
			reportError(os.Stderr, err)
		}
		os.Exit(status)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "k.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeSecondInterrupt$")
	cmd.Env = append(os.Environ(), serveChildEnv+"=--addr 127.0.0.1:0 --db "+db, "HOME="+dir, "KOMPACT_CONFIG=", "KOMPACT_TOKEN=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var log []string
	await := func(what string, re *regexp.Regexp) []string {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("serve ended before %s:\n%s", what, strings.Join(log, "\n"))
				}
				log = append(log, l)
				if m := re.FindStringSubmatch(l); m != nil {
					return m
				}
			case <-timeout:
				t.Fatalf("no %s in 20 s:\n%s", what, strings.Join(log, "\n"))
			}
		}
	}
	base := "http://" + await("banner", regexp.MustCompile(`serving http://(\S+) `))[1]
	post := func(path, body string) (*http.Response, error) {
		return http.Post(base+path, "application/json", strings.NewReader(body))
	}
	r, err := post("/v1/sessions/import", `{"id":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"},{"role":"assistant","content":"d"}]}`)
	if err != nil || r.StatusCode != 201 {
		t.Fatalf("import: %v %v", r, err)
	}
	r.Body.Close()
	go func() {
		if r, err := post("/v1/sessions/s/actions/compact_conversation", `{}`); err == nil {
			r.Body.Close()
		}
	}()
	await("LLM call", regexp.MustCompile(`^test: the LLM call started$`))
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	await("word of what the shutdown waits for", regexp.MustCompile(`stopping: waiting for 1 running compaction .*press Ctrl-C again to stop now`))
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	await("stop", regexp.MustCompile(`^kompact: stopped$`))
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve: %v\n%s", err, strings.Join(log, "\n"))
	}
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.GetSession(context.Background(), "s")
	if err != nil || len(s.Messages) != 4 {
		t.Fatalf("the session after the stop: %v %v", s, err)
	}
	if revs, err := st.ListRevisions(context.Background(), "s"); err != nil || len(revs) != 0 {
		t.Errorf("revisions after the stop: %v %v", revs, err)
	}
}
