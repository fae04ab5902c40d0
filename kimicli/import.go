package kimicli

import "kompact"

// ImportContext reads data, a context.jsonl, as an import of it makes a
// session (ParseContext, then ContextFile.KimiSession): the session, nil when
// the file has no record at all, and each line that was skipped, described
// ("line 3: ..."). It is the kimi-cli reader the HTTP server is given
// (httpapi.Config.KimiContext).
func ImportContext(data []byte) (*kompact.Session, []string) {
	c := ParseContext(data)
	skipped := make([]string, len(c.Skipped))
	for i, s := range c.Skipped {
		skipped[i] = s.String()
	}
	if len(c.Records) == 0 {
		return nil, skipped
	}
	return c.KimiSession(), skipped
}
