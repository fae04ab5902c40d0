package kompact

// FieldKind says how kompact treats a request body field that an agent's configuration names
// (llm settings, extra_body or settings_overrides). This table is the one place that decides
// it: the configuration loader, EffectiveRequest and the OpenAI request encoder all ask it.
type FieldKind int

// The kinds of request field.
const (
	// FieldSetting is an ordinary body field (frequency_penalty, a provider's own switch, ...):
	// sent as configured.
	FieldSetting FieldKind = iota
	// FieldOwn is a setting with its own llm key (temperature, max_tokens, top_p): sent as
	// configured, and checked.
	FieldOwn
	// FieldModel is the model. It has its own llm key; settings_overrides may name a compaction
	// model with it.
	FieldModel
	// FieldTool could let the model call tools. It is accepted anywhere, with a warning, and
	// never sent: no request of kompact carries tools.
	FieldTool
	// FieldReserved is set by the transport for every request (messages, streaming, the number
	// of choices). Configuration may not set it.
	FieldReserved
)

// requestFields classifies the request fields that are not ordinary settings.
var requestFields = map[string]FieldKind{
	"temperature": FieldOwn,
	"max_tokens":  FieldOwn,
	"top_p":       FieldOwn,

	"model": FieldModel,

	"tools":               FieldTool,
	"tool_choice":         FieldTool,
	"parallel_tool_calls": FieldTool,
	"functions":           FieldTool,
	"function_call":       FieldTool,

	"messages":       FieldReserved,
	"stream":         FieldReserved,
	"stream_options": FieldReserved,
	"n":              FieldReserved,
}

// OwnFields are the FieldOwn fields, in the order the configuration lists them.
var OwnFields = []string{"temperature", "max_tokens", "top_p"}

// RequestField returns how kompact treats the request field name.
func RequestField(name string) FieldKind {
	return requestFields[name] // FieldSetting for any other name
}

// IsToolField reports whether name is a request field that could let the model call tools; no
// request of kompact carries one.
func IsToolField(name string) bool { return RequestField(name) == FieldTool }

// IsSentField reports whether a configured field name is sent in the request body as
// configured: ordinary settings and the FieldOwn ones. The model, tool fields and reserved
// fields never are.
func IsSentField(name string) bool {
	k := RequestField(name)
	return k == FieldSetting || k == FieldOwn
}
