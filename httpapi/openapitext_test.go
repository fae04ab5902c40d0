package httpapi_test

import (
	"encoding/json"
	"fmt"
	"testing"
)

// nameMaps are the keys of an OpenAPI document whose object maps names
// to values: a key inside one is a name (a property called "summary"),
// not one of the document's own fields.
var nameMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "schemas": true,
	"examples": true, "headers": true, "content": true, "responses": true,
	"paths": true, "securitySchemes": true, "parameters": true, "requestBodies": true,
	"links": true, "callbacks": true, "encoding": true, "mapping": true,
	"variables": true, "webhooks": true,
}

// dataKeys hold a value of the API itself (an example, a default), not
// the document's text.
var dataKeys = map[string]bool{"example": true, "value": true, "default": true, "const": true, "enum": true}

// TestOpenAPIText: the served document has no null-valued key (a YAML
// flow mapping cut at a comma turns the rest of a description into a key
// with no value) and every description and summary is a string; every
// tag has a description and the licence a URL, as linters ask.
func TestOpenAPIText(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	r := e.do("GET", "/v1/openapi.json", nil)
	if r.status != 200 {
		t.Fatalf("GET /v1/openapi.json: %d", r.status)
	}
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, f := range openAPITextFaults(doc, "#", false, false) {
		t.Error(f)
	}
	tags, _ := doc["tags"].([]any)
	for i, tag := range tags {
		if d, _ := tag.(map[string]any)["description"].(string); d == "" {
			t.Errorf("#/tags/%d has no description", i)
		}
	}
	info, _ := doc["info"].(map[string]any)
	license, _ := info["license"].(map[string]any)
	// The project's licence (issue 40 §5), by its SPDX identifier (OpenAPI
	// 3.1 takes an identifier or a url, not both).
	if license["name"] != "Apache-2.0" || license["identifier"] != "Apache-2.0" || license["url"] != nil {
		t.Errorf("#/info/license is %v; want Apache-2.0 by its identifier", license)
	}
}

// openAPITextFaults lists the null-valued keys under v, and the
// description and summary fields that are not strings; names says v's
// keys are names, data that v is the API's data (where only nulls count).
func openAPITextFaults(v any, at string, names, data bool) []string {
	var faults []string
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			p := at + "/" + k
			if c == nil {
				faults = append(faults, fmt.Sprintf("%s is null", p))
				continue
			}
			if !names && !data && (k == "description" || k == "summary") {
				if _, ok := c.(string); !ok {
					faults = append(faults, fmt.Sprintf("%s is not a string: %v", p, c))
				}
			}
			faults = append(faults, openAPITextFaults(c, p, !names && !data && nameMaps[k], data || (!names && dataKeys[k]))...)
		}
	case []any:
		for i, c := range v {
			faults = append(faults, openAPITextFaults(c, fmt.Sprintf("%s/%d", at, i), false, data)...)
		}
	}
	return faults
}
