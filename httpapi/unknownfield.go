package httpapi

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"kompact"
	"kompact/internal/didyoumean"
)

// unknownField is the error of a request body field that the route's body
// (v, a pointer to a flat struct) does not take: the field it probably
// meant, when one is close, and the fields it takes. A message's own
// fields at the top of a body that holds messages say where they go.
func unknownField(quoted string, v any) error {
	name, err := strconv.Unquote(quoted)
	if err != nil {
		name = quoted
	}
	fields := bodyFields(v)
	msg := fmt.Sprintf("the request body has an unknown field %s", quoted)
	if s := didyoumean.Closest(name, fields); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	var fixes []string
	if fix := messageFieldFix(name, fields); fix != "" {
		fixes = append(fixes, fix)
	}
	if len(fields) > 0 {
		fixes = append(fixes, "This route's body takes "+fieldList(fields)+".")
	}
	return kompact.Errorf(kompact.EInvalid, "%s", msg).WithFixes(append(fixes, "See docs/http-api.md for this route's body.")...)
}

// messageFieldFix says where a message goes when name is one of a
// message's fields and the body takes messages, else "".
func messageFieldFix(name string, fields []string) string {
	switch name {
	case "role", "content", "tool_calls", "tool_call_id":
	default:
		return ""
	}
	switch {
	case slices.Contains(fields, "message"):
		return `The body is not a message: put one under "message" ({"message": {"role": "user", "content": "..."}}), or several in a list under "messages".`
	case slices.Contains(fields, "messages"):
		return `The body is not a message: put the messages in a list under "messages" ({"messages": [{"role": "user", "content": "..."}]}).`
	}
	return ""
}

// bodyFields returns the JSON names of the fields of the struct v points
// to, in order, or nil when v is not a pointer to a struct.
func bodyFields(v any) []string {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil
	}
	t = t.Elem()
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// fieldList names fields as a sentence does: "the field a", "the fields a
// and b", "the fields a, b and c".
func fieldList(fields []string) string {
	if len(fields) == 1 {
		return "the field " + fields[0]
	}
	return "the fields " + andList(fields)
}
