package fidelity

import (
	"slices"
	"strconv"
	"strings"

	"kompact"
	"kompact/internal/artifacts"
)

// Artifacts lists the distinct artifacts of msgs (docs/fidelity.md), the
// best-ranked First: those a user stated, then the most recent (by the
// last message they appear in), then the most frequent. Every message's
// text parts count as sent. It takes time linear in the size of msgs.
func Artifacts(msgs []kompact.Message) []kompact.Artifact { return artifactsOf(msgs, 0, 0) }

// artifactsOf lists the artifacts of msgs, which start at position offset
// of their session; messages before shownFrom (an index into msgs) are not
// sent.
func artifactsOf(msgs []kompact.Message, offset, shownFrom int) []kompact.Artifact {
	c := &collector{index: map[artifactKey]int{}, offset: offset}
	c.scan = artifacts.NewScanner(c.add)
	for i := range msgs {
		c.message(&msgs[i], i, i >= shownFrom)
	}
	list := c.foldIntoErrors()
	slices.SortStableFunc(list, compareArtifacts)
	return list
}

// foldIntoErrors returns the list with each identifier or path whose text
// is also an error's (a failing test's or package's name: TestApply)
// folded into that error, its occurrences counted there: one artifact,
// an error. Errors are few: each is looked up, not each other artifact.
func (c *collector) foldIntoErrors() []kompact.Artifact {
	var drop map[int]bool
	for _, e := range c.errors {
		for _, other := range [...]artifacts.Class{artifacts.Identifier, artifacts.Path} {
			if i, ok := c.index[artifactKey{other, c.list[e].Text}]; ok {
				merge(&c.list[e], c.list[i])
				if drop == nil {
					drop = map[int]bool{}
				}
				drop[i] = true
			}
		}
	}
	if len(drop) == 0 {
		return c.list
	}
	out := c.list[:0]
	for i, a := range c.list {
		if !drop[i] {
			out = append(out, a)
		}
	}
	return out
}

// merge counts b's occurrences, of the same text, in a.
func merge(a *kompact.Artifact, b kompact.Artifact) {
	if b.First < a.First {
		a.First, a.Message = b.First, b.Message
	}
	a.Last = max(a.Last, b.Last)
	a.Count += b.Count
	a.Sent = a.Sent || b.Sent
	a.User = a.User || b.User
	a.Thought = a.Thought && b.Thought
}

type artifactKey struct {
	class artifacts.Class
	text  string
}

// collector gathers the distinct artifacts of a range.
type collector struct {
	list  []kompact.Artifact
	index map[artifactKey]int
	// recent holds artifacts seen lately, by a hash of a few of their
	// bytes: a range repeats its artifacts, and a look here is cheaper
	// than one in index.
	recent [256]recentArtifact
	offset int
	// errors holds the indexes of the errors in list.
	errors []int
	// scan scans the texts for add.
	scan *artifacts.Scanner
	// at, sent, user and think describe the part being scanned.
	at                int
	msg               *kompact.Message
	sent, user, think bool
}

// message scans each part of m, the i-th message of the range, and its
// tool calls; shown says whether the request shows the message.
func (c *collector) message(m *kompact.Message, i int, shown bool) {
	c.at, c.msg = i, m
	src := artifacts.Prose
	if m.Role == kompact.RoleTool {
		src = artifacts.Output
	}
	for j := range m.Content {
		p := &m.Content[j]
		c.sent, c.user = false, false
		switch {
		case p.Type == kompact.PartText:
			c.sent, c.user = shown, m.Role == kompact.RoleUser
			c.scan.Scan(p.Text, src)
		case p.Type == kompact.PartThink:
			c.think = true
			c.scan.Scan(p.Think, artifacts.Prose)
			c.think = false
		case p.Type.IsMedia():
			if strings.HasPrefix(p.URL, "http://") || strings.HasPrefix(p.URL, "https://") {
				c.add(artifacts.URL, p.URL)
			}
		case p.Type == kompact.PartData:
			c.scan.ScanJSON(p.Data)
		}
	}
	c.sent, c.user = false, false
	for _, call := range m.ToolCalls {
		if call.Arguments != nil {
			c.scan.ScanJSONString(*call.Arguments)
		}
	}
}

// add records one occurrence of an artifact in the part being scanned.
func (c *collector) add(class artifacts.Class, text string) {
	r := &c.recent[recentSlot(class, text)]
	i, ok := r.i, r.class == class && r.text == text
	k := artifactKey{class, text}
	if !ok {
		i, ok = c.index[k]
	}
	if ok {
		r.class, r.text, r.i = class, text, i
		a := &c.list[i]
		a.Count++
		a.Last = c.at
		a.Sent = a.Sent || c.sent
		a.User = a.User || c.user
		a.Thought = a.Thought && c.think
		return
	}
	c.index[k] = len(c.list)
	if class == artifacts.Error {
		c.errors = append(c.errors, len(c.list))
	}
	r.class, r.text, r.i = class, text, len(c.list)
	c.list = append(c.list, kompact.Artifact{Class: kompact.ArtifactClass(class.String()), Text: text, Message: c.name(), Sent: c.sent, User: c.user,
		Thought: c.think, Count: 1, First: c.at, Last: c.at})
}

// recentArtifact is an entry of collector.recent: an artifact and its
// index in the list.
type recentArtifact struct {
	class artifacts.Class
	text  string
	i     int
}

// recentSlot picks an artifact's entry in collector.recent.
func recentSlot(class artifacts.Class, text string) uint8 {
	if text == "" {
		return uint8(class)
	}
	n := len(text)
	return uint8(n*31) ^ text[0]*7 ^ text[n/2]*13 ^ text[n-1] ^ uint8(class)<<5
}

// name names the message being scanned: its id, or #N.
func (c *collector) name() string {
	if c.msg.ID != "" {
		return c.msg.ID
	}
	return "#" + strconv.Itoa(c.offset+c.at+1)
}

// compareArtifacts ranks artifacts: user-stated first, then the most
// recent, then the most frequent, then by first appearance, class and text.
func compareArtifacts(a, b kompact.Artifact) int {
	switch {
	case a.User != b.User:
		if a.User {
			return -1
		}
		return 1
	case a.Last != b.Last:
		return b.Last - a.Last
	case a.Count != b.Count:
		return b.Count - a.Count
	case a.First != b.First:
		return a.First - b.First
	case a.Class != b.Class:
		return strings.Compare(string(a.Class), string(b.Class))
	}
	return strings.Compare(a.Text, b.Text)
}

// SpanArtifacts lists the artifacts of the messages a compaction of span p
// replaces (the leading system message, which stays, is not among them),
// ranked as Artifacts ranks them. Messages the request leaves out (see
// Span.Dropped) count as not sent.
func SpanArtifacts(p *kompact.Span) []kompact.Artifact {
	start := p.Start
	if p.KeepSystem {
		start = 1
	}
	if start > p.End {
		return nil
	}
	shown := max(p.Start+p.Dropped-start, 0)
	return artifactsOf(p.Session.Messages[start:p.End], start, shown)
}
