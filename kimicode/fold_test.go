package kimicode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"kompact"
)

// openSteps is a wire.jsonl of n loop steps that begin and never end.
func openSteps(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"metadata","protocol_version":"1.5"}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"type":"context.append_loop_event","agentId":"main","event":{"type":"step.begin","uuid":"s%d"}}`+"\n", i)
	}
	return b.Bytes()
}

// foldOps folds data and returns what the fold visited beyond reading the lines.
func foldOps(t *testing.T, data []byte) int {
	t.Helper()
	w := &Wire{}
	f := newFold(w, Builtin(), Limits{})
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) > 0 {
			if err := f.add(line, i+1); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.flushAll()
	f.finish()
	return f.ops
}

// TestFoldOpenStepsLinear (issue 38): 40,000 open loop steps (the red team's 3.3 MB that
// took 16.9 s) are closed in one pass: the fold visits a few steps per step, and twice the
// steps cost twice the work. Before, every step closed at the end looked at every step
// still open and moved the context after it (about n²/2 visits: 800 million here).
func TestFoldOpenStepsLinear(t *testing.T) {
	const n = 40000
	ops, ops2 := foldOps(t, openSteps(n)), foldOps(t, openSteps(2*n))
	if ops > 4*n {
		t.Errorf("%d open steps: the fold visited %d steps and messages, want at most %d", n, ops, 4*n)
	}
	if ops2 > 2*ops+16 {
		t.Errorf("twice the open steps cost %d, more than twice %d", ops2, ops)
	}
	w, err := ReadWire(bytes.NewReader(openSteps(n)), Builtin())
	if err != nil || len(w.Context) != 0 {
		t.Fatalf("context %d, %v; want none (empty steps go)", len(w.Context), err)
	}
}

// TestFoldCompactionsBounded (issue 38): 16,000 tiny compactions whose kept user messages
// are elided each time cost the fold at most its work allowance, then are ETooLarge (they
// burnt 61 s before); the same compactions of user messages that fit cost nothing.
func TestFoldCompactionsBounded(t *testing.T) {
	build := func(text string) []byte {
		var b bytes.Buffer
		for i := range 16000 {
			fmt.Fprintf(&b, `{"type":"context.append_message","message":{"role":"user","content":[{"type":"text","text":"%s%d"}],"origin":{"kind":"user"}}}`+"\n", text, i)
			b.WriteString(`{"type":"context.apply_compaction","contextSummary":"s"}` + "\n")
		}
		return b.Bytes()
	}
	w := &Wire{}
	f := newFold(w, Builtin(), Limits{})
	var err error
	for i, line := range bytes.SplitAfter(build("u"), []byte("\n")) {
		if w.Lines = i + 1; len(line) > 0 {
			if err = f.add(line, i+1); err != nil {
				break
			}
		}
	}
	if kompact.ErrorCodeOf(err) != kompact.ETooLarge {
		t.Fatalf("error %v, want ETooLarge", err)
	}
	if max := DefaultMaxWork + WorkPerLine*w.Lines + 2*KeptBudget; f.work > max {
		t.Errorf("the fold worked %d, more than its allowance %d", f.work, max)
	}
	// User messages of one token never pass KeptBudget: no compaction walks them.
	var b bytes.Buffer
	for range 16000 {
		b.WriteString(`{"type":"context.append_message","message":{"role":"user","content":[],"origin":{"kind":"user"}}}` + "\n")
		b.WriteString(`{"type":"context.apply_compaction","contextSummary":"s"}` + "\n")
	}
	if ops := foldOps(t, b.Bytes()); ops > 2*16000+4 {
		t.Errorf("16,000 compactions that elide nothing: %d visits, want about 16,000", ops)
	}
}

// TestReadWireLimits (issue 38): the fold stops at Limits.MaxMessages (ETooLarge, at the
// line that passes it, without reading on) and when its context is done.
func TestReadWireLimits(t *testing.T) {
	_, err := ReadWireContext(context.Background(), bytes.NewReader(openSteps(50)), Builtin(), Limits{MaxMessages: 10})
	if kompact.ErrorCodeOf(err) != kompact.ETooLarge || !strings.Contains(err.Error(), "more than 10 messages") {
		t.Fatalf("error %v, want ETooLarge naming the limit", err)
	}
	r := &countingReader{r: bytes.NewReader(openSteps(100000))}
	if _, err := ReadWireContext(context.Background(), r, Builtin(), Limits{MaxMessages: 10}); err == nil {
		t.Fatal("no error")
	}
	if r.n > 2<<20 {
		t.Errorf("the fold read %d bytes of a file past its limit at line 12", r.n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadWireContext(ctx, bytes.NewReader(openSteps(5000)), Builtin(), Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

type countingReader struct {
	r *bytes.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestFoldSameAsBefore: the linear fold makes the context the fold it replaces made, on
// random files of user messages (short and long: elided rebuilds), injections, loop steps
// (empty, with parts, tool calls and results, ended or not) and compactions.
func TestFoldSameAsBefore(t *testing.T) {
	texts := Builtin()
	for seed := range 150 {
		data := randomWire(rand.New(rand.NewSource(int64(seed))))
		w, err := ReadWire(bytes.NewReader(data), texts)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		want := refFoldContext(t, data, texts)
		if len(w.Context) != len(want) {
			t.Fatalf("seed %d: %d messages, want %d", seed, len(w.Context), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(w.Context[i], want[i]) {
				t.Fatalf("seed %d: message %d\n got %+v\nwant %+v", seed, i, w.Context[i], want[i])
			}
		}
	}
}

func randomWire(r *rand.Rand) []byte {
	var b bytes.Buffer
	line := func(v any) {
		j, _ := json.Marshal(v)
		b.Write(append(j, '\n'))
	}
	text := func() string {
		n := r.Intn(40)
		if r.Intn(8) == 0 {
			n = r.Intn(60000)
		}
		return strings.Repeat(string(rune('a'+r.Intn(26))), n) + strings.Repeat("é", r.Intn(3))
	}
	var open []string
	step := 0
	for range 40 + r.Intn(200) {
		switch k := r.Intn(12); {
		case k < 3:
			origin := map[string]string{"kind": []string{"user", "user", "injection", ""}[r.Intn(4)]}
			line(map[string]any{"type": "context.append_message", "message": map[string]any{"role": "user",
				"content": []any{map[string]string{"type": "text", "text": text()}}, "origin": origin}})
		case k == 3:
			line(map[string]any{"type": "context.append_message", "message": map[string]any{"role": "assistant",
				"content": []any{map[string]string{"type": "text", "text": text()}}}})
		case k == 4:
			step++
			id := fmt.Sprint("s", step)
			open = append(open, id)
			line(map[string]any{"type": "context.append_loop_event", "event": map[string]any{"type": "step.begin", "uuid": id}})
		case k == 5 && len(open) > 0:
			line(map[string]any{"type": "context.append_loop_event", "event": map[string]any{"type": "content.part",
				"stepUuid": open[r.Intn(len(open))], "part": map[string]string{"type": "text", "text": text()}}})
		case k == 6 && len(open) > 0:
			id := open[r.Intn(len(open))]
			call := fmt.Sprint(id, "c", r.Intn(3))
			line(map[string]any{"type": "context.append_loop_event", "event": map[string]any{"type": "tool.call",
				"stepUuid": id, "toolCallId": call, "name": "Bash", "args": map[string]string{"c": text()}}})
			if r.Intn(2) == 0 {
				line(map[string]any{"type": "context.append_loop_event", "event": map[string]any{"type": "tool.result",
					"toolCallId": call, "result": map[string]any{"output": text(), "isError": r.Intn(3) == 0}}})
			}
		case k == 7 && len(open) > 0:
			i := r.Intn(len(open))
			line(map[string]any{"type": "context.append_loop_event", "event": map[string]any{"type": "step.end", "uuid": open[i]}})
			open = append(open[:i], open[i+1:]...)
		case k == 8:
			line(map[string]any{"type": "context.apply_compaction", "contextSummary": "summary " + text()})
			open = nil
		}
	}
	return b.Bytes()
}

// refFold is the fold before issue 38, kept to compare with.
type refFold struct {
	ctx     []Message
	steps   map[string]int
	results map[string]Message
}

func refFoldContext(t *testing.T, data []byte, texts *Texts) []Message {
	f := &refFold{steps: map[string]int{}, results: map[string]Message{}}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		switch r.Type {
		case "context.append_message":
			m, err := decodeMessage(r.Message)
			if err != nil {
				t.Fatal(err)
			}
			f.ctx = append(f.ctx, m)
		case "context.apply_compaction":
			f.flushAll()
			f.ctx = Rebuild(f.ctx, r.ContextSummary, texts).Messages
		case "context.append_loop_event":
			var e loopEvent
			if err := json.Unmarshal(r.Event, &e); err != nil {
				t.Fatal(err)
			}
			switch e.Type {
			case "step.begin":
				f.steps[e.UUID] = len(f.ctx)
				f.ctx = append(f.ctx, Message{Role: "assistant"})
			case "content.part":
				p, _ := decodePart(e.Part)
				f.ctx[f.steps[e.StepUUID]].Parts = append(f.ctx[f.steps[e.StepUUID]].Parts, p)
			case "tool.call":
				i := f.steps[e.StepUUID]
				f.ctx[i].ToolCalls = append(f.ctx[i].ToolCalls, ToolCall{ID: e.ToolCallID, Name: e.Name, Arguments: string(e.Args)})
			case "tool.result":
				f.results[e.ToolCallID] = toolMessage(e)
			case "step.end":
				f.flush(e.UUID)
			}
		}
	}
	f.flushAll()
	return f.ctx
}

func (f *refFold) flush(uuid string) {
	i, ok := f.steps[uuid]
	if !ok {
		return
	}
	delete(f.steps, uuid)
	a := f.ctx[i]
	if len(a.Parts) == 0 && len(a.ToolCalls) == 0 {
		f.ctx = append(f.ctx[:i], f.ctx[i+1:]...)
		for k, j := range f.steps {
			if j > i {
				f.steps[k] = j - 1
			}
		}
		return
	}
	for _, c := range a.ToolCalls {
		if m, ok := f.results[c.ID]; ok {
			f.ctx = append(f.ctx, m)
			delete(f.results, c.ID)
		}
	}
}

func (f *refFold) flushAll() {
	for len(f.steps) > 0 {
		last, at := "", -1
		for k, i := range f.steps {
			if i > at {
				last, at = k, i
			}
		}
		f.flush(last)
	}
}

// TestReadWireRefusesInvalidUTF8 (issue 40 §1): a wire.jsonl with a byte that is not
// UTF-8 is refused with the byte's offset in the file and its line, for every reader of
// the file (compact, request and sessions import with --kimi-code, the import route).
// Before, the fold decoded it with encoding/json, which turned the bytes into U+FFFD.
func TestReadWireRefusesInvalidUTF8(t *testing.T) {
	data := openSteps(2)
	user := []byte(`{"type":"context.append_message","agentId":"main","message":{"role":"user","content":[{"type":"text","text":"caf` + "\xe9" + `"}]}}` + "\n")
	at := len(data) + bytes.IndexByte(user, 0xe9)
	data = append(data, user...)
	_, err := ReadWireContext(context.Background(), bytes.NewReader(data), Builtin(), Limits{})
	want := fmt.Sprintf("at byte %d, in line 4", at)
	if kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(fmt.Sprint(err), want) {
		t.Fatalf("error %v, want EInvalid naming %q", err, want)
	}
}
