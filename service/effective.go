package service

import (
	"kompact"
)

// EffectiveRequest merges the request configuration of a compaction call for
// session s: the agent's settings, then the compaction settings_overrides,
// then the model (the session's compaction_model, else the agent's
// compaction_model, else settings_overrides' model, else the agent's model),
// then the fields that are never sent (the model field, tool fields and
// reserved fields; see RequestField) removed unconditionally.
func EffectiveRequest(a *kompact.Agent, s *kompact.Session) kompact.RequestConfig {
	fields := make(map[string]any, len(a.LLM.Settings)+len(a.Compaction.SettingsOverrides))
	for k, v := range a.LLM.Settings {
		fields[k] = v
	}
	for k, v := range a.Compaction.SettingsOverrides {
		fields[k] = v
	}
	model := a.LLM.Model
	if m, ok := a.Compaction.SettingsOverrides["model"].(string); ok && m != "" {
		model = m
	}
	if a.Compaction.CompactionModel != "" {
		model = a.Compaction.CompactionModel
	}
	if s != nil && s.CompactionModel != "" {
		model = s.CompactionModel
	}
	for k := range fields {
		if !kompact.IsSentField(k) {
			delete(fields, k)
		}
	}
	return kompact.RequestConfig{API: a.LLM.API, BaseURL: a.LLM.BaseURL, APIKeyEnv: a.LLM.APIKeyEnv, Model: model, Fields: fields, MaxAnswerBytes: a.LLM.MaxAnswerBytes}
}
