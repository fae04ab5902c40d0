package main

import (
	"kompact"
	"kompact/kimi"
	"kompact/kimicode"
)

// describePrompt is the prompt line of compact and request: which prompt (or texts) agent
// a's compaction type uses for plan info, and whether it is the genuine one.
func describePrompt(a *kompact.Agent, info kompact.PlanInfo) string {
	if a != nil && a.Compaction.Type == kimicode.Name {
		return kimicode.DescribePrompt(info.Prompt)
	}
	return kimi.DescribePrompt(info.Prompt)
}
