package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"kompact"
	"kompact/internal/testing/testenv"
)

// TestOutageClasses: which errors mean the database is out of order for
// now (an answer of 503) rather than a bug (500).
func TestOutageClasses(t *testing.T) {
	for err, want := range map[error]bool{
		&pgconn.PgError{Code: "53100"}:                                true, // disk_full
		&pgconn.PgError{Code: "53300"}:                                true, // too_many_connections
		&pgconn.PgError{Code: "57P01"}:                                true, // admin_shutdown
		&pgconn.PgError{Code: "08006"}:                                true, // connection_failure
		&pgconn.PgError{Code: "25006"}:                                true, // read_only_sql_transaction
		&pgconn.PgError{Code: "23505"}:                                false,
		&pgconn.PgError{Code: "42P01"}:                                false,
		io.ErrUnexpectedEOF:                                           true,
		fmt.Errorf("read: %w", &net.OpError{Op: "read", Err: io.EOF}): true,
		context.Canceled:                                              false,
		errors.New("something else"):                                  false,
	} {
		if got := outage(err) != ""; got != want {
			t.Errorf("outage(%v) = %v, want %v", err, got, want)
		}
	}
	e := wrap("append messages", &pgconn.PgError{Code: "53100", Message: "could not extend file"})
	if kompact.ErrorCodeOf(e) != kompact.EUnavailable {
		t.Errorf("a full disk: %v", e)
	}
}

// outageProxy forwards TCP connections to target until down is called;
// then it drops them all and refuses new ones.
type outageProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
}

func newOutageProxy(t *testing.T, target string) *outageProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &outageProxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(p.down)
	return p
}

func (p *outageProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(up, c); up.Close() }()
		go func() { _, _ = io.Copy(c, up); c.Close() }()
	}
}

func (p *outageProxy) down() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestDatabaseDown: while the database cannot be reached (its
// connections dropped, new ones refused), the store's calls answer
// unavailable, never internal (issue 21, item 7).
func TestDatabaseDown(t *testing.T) {
	u, err := url.Parse(testenv.PostgresSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := newOutageProxy(t, u.Host)
	u.Host = proxy.ln.Addr().String()
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()
	st, err := Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	proxy.down()
	_, err = st.AppendMessages(ctx, "s", []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("x")}}})
	if code := kompact.ErrorCodeOf(err); code != kompact.EUnavailable {
		t.Fatalf("append while the database is down: %s %v", code, err)
	}
	if _, err := st.GetSession(ctx, "s"); kompact.ErrorCodeOf(err) != kompact.EUnavailable {
		t.Fatalf("read while the database is down: %v", err)
	}
	if err := st.CheckWrite(ctx); kompact.ErrorCodeOf(err) != kompact.EUnavailable {
		t.Fatalf("CheckWrite while the database is down: %v", err)
	}
}

// TestOpenRefusedSaysEachAttemptOnce: a server that is not there is named
// once per line, although the driver tries it with TLS and without; the
// password stays out and the fix is given.
func TestOpenRefusedSaysEachAttemptOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a port nobody listens on
	_, err = Open(t.Context(), "postgres://u:s3cretpw@"+addr+"/db?connect_timeout=2")
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	msg := err.Error()
	if n := strings.Count(msg, "connection refused"); n != 1 {
		t.Errorf("the refusal is said %d times, want once:\n%s", n, msg)
	}
	if strings.Contains(msg, "s3cretpw") {
		t.Errorf("the error quotes the password: %s", msg)
	}
	if fixes := kompact.ErrorFixes(err); len(fixes) == 0 {
		t.Errorf("no fix for %q", msg)
	}
}
