package kompact

// ArtifactClass is the kind of an artifact (docs/fidelity.md).
type ArtifactClass string

// The artifact classes, in report order.
const (
	ArtifactPath       ArtifactClass = "path"
	ArtifactCommand    ArtifactClass = "command"
	ArtifactError      ArtifactClass = "error"
	ArtifactURL        ArtifactClass = "url"
	ArtifactIdentifier ArtifactClass = "identifier"
	ArtifactTodo       ArtifactClass = "todo"
)

// ArtifactClasses returns the classes in report order: path, command, error, url, identifier,
// todo.
func ArtifactClasses() []ArtifactClass {
	return []ArtifactClass{ArtifactPath, ArtifactCommand, ArtifactError, ArtifactURL, ArtifactIdentifier, ArtifactTodo}
}

// Artifact is one distinct artifact of a range of messages: a path, a command, an error, a URL,
// an identifier or a TODO item.
type Artifact struct {
	Class ArtifactClass `json:"class"`
	Text  string        `json:"text"`
	// Message names the message it first appears in: its id, or #N (its 1-based position in the
	// session) when it has none.
	Message string `json:"message"`
	// Sent is true when it appears in a part the compaction request sends (a text part, of any
	// role, of a message the request shows); false when it appears only in parts the request
	// leaves out: tool-call arguments, think parts, data and media parts, messages left out to
	// fit the context window.
	Sent bool `json:"sent"`
	// User is true when it appears in the text of a user message.
	User bool `json:"-"`
	// Thought is true when it appears only in think parts: the appendix does not present it as
	// a fact.
	Thought bool `json:"-"`
	// Count is how many times it appears.
	Count int `json:"-"`
	// First and Last are the positions of the messages it first and last appears in.
	First, Last int `json:"-"`
}
