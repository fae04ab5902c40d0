package sessionjson_test

import (
	"bytes"
	"testing"

	"kompact/sessionjson"
)

func TestMessageAt(t *testing.T) {
	doc := "\xEF\xBB\xBF{\"id\":\"s\",\"messages\":[{\"role\":\"user\",\"content\":\"a\"}, {\"role\":\"user\",\"content\":\"b\xffc\"}],\"agent\":\"x\"}"
	bad := int64(bytes.IndexByte([]byte(doc), 0xff))
	for _, c := range []struct {
		off  int64
		want string
	}{
		{bad, "messages[1]"},
		{int64(bytes.Index([]byte(doc), []byte(`"a"`))), "messages[0]"},
		{5, ""},
		{int64(len(doc) - 3), ""},
	} {
		if got := sessionjson.MessageAt(bytes.NewReader([]byte(doc)), c.off); got != c.want {
			t.Errorf("MessageAt(%d) = %q, want %q", c.off, got, c.want)
		}
	}
	if got := sessionjson.LineAt([]byte("a\nb\xffc\n"), 3); got != 2 {
		t.Errorf("LineAt = %d, want 2", got)
	}
}
