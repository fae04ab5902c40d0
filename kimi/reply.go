package kimi

import (
	"context"

	"kompact"
)

// The errors of a chat reply that holds nothing to append.
const (
	EmptyReplyMessage     = "The agent's model returned an empty reply."
	ThinkOnlyReplyMessage = "The agent's model returned only thinking, without any reply text."
	ToolCallReplyMessage  = "The agent's model answered with a tool call; kompact offers the model no tools, so there is no reply text."
)

// Reply asks a's LLM for the next message of a conversation: a's system
// prompt, then history, sent with a's own request settings (ChatRequest).
// It returns the assistant message to append: the answer's text and think
// parts. An answer without text that is not blank (see pystr.IsBlank) is
// an EEmptyResponse error, whatever else it holds; nothing is appended for
// it.
func Reply(ctx context.Context, llm kompact.LLM, a *kompact.Agent, history []kompact.Message) (kompact.Message, error) {
	m, _, err := ReplyWithUsage(ctx, llm, a, history)
	return m, err
}

// ReplyWithUsage is Reply that also returns the usage the provider reported
// for the turn, nil when it reported none: kimi-cli records its total as the
// session's token count after the turn (TokenAccount.AfterTurn).
func ReplyWithUsage(ctx context.Context, llm kompact.LLM, a *kompact.Agent, history []kompact.Message) (kompact.Message, *kompact.Usage, error) {
	if llm == nil {
		return kompact.Message{}, nil, kompact.Errorf(kompact.EInternal, "no LLM client configured")
	}
	msgs := make([]kompact.Message, 0, len(history)+1)
	if a.SystemPrompt != "" {
		msgs = append(msgs, kompact.Message{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart(a.SystemPrompt)}})
	}
	msgs = append(msgs, history...)
	answer, err := llm.Complete(ctx, kompact.ChatRequest(a), msgs, nil)
	if err != nil {
		return kompact.Message{}, nil, err
	}
	if err := checkReply(answer); err != nil {
		return kompact.Message{}, nil, err
	}
	reply := kompact.Message{Role: kompact.RoleAssistant, Content: make([]kompact.Part, 0, len(answer.Parts))}
	for _, p := range answer.Parts {
		if p.Type == kompact.PartText || p.Type == kompact.PartThink {
			reply.Content = append(reply.Content, p)
		}
	}
	return reply, answer.Usage, nil
}

// checkReply refuses a chat answer without reply text: one whose text
// parts are all blank (see Answer.kind), whatever else it holds.
func checkReply(a kompact.Answer) error {
	return refuse(a, replyRefusals)
}

// replyRefusals are the chat answers checkReply refuses: all but
// answerText.
var replyRefusals = map[answerKind]refusal{
	answerToolCall:  {ToolCallReplyMessage, "Send the message again, or give the agent a model that answers in text."},
	answerThinkOnly: {ThinkOnlyReplyMessage, "Send the message again, or raise the agent's llm.max_tokens so the model has room to answer after reasoning."},
	answerBlank:     emptyReply,
	answerEmpty:     emptyReply,
}

var emptyReply = refusal{EmptyReplyMessage, "Send the message again; if it persists, check the agent's llm.model and the provider's status."}
