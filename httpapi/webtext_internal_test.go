package httpapi

import (
	"io/fs"
	"regexp"
	"testing"
)

// markupSinkRE matches the DOM calls that parse a string as HTML.
var markupSinkRE = regexp.MustCompile(`\b(innerHTML|outerHTML|insertAdjacentHTML|createContextualFragment|document\.write(ln)?|DOMParser|srcdoc)\b`)

// TestWebModulesCreateOnlyTextNodes: the page's own modules never turn a
// string into markup (docs/web.md, "Only text nodes"); untrusted text only
// becomes text nodes and elements built one by one. TestBrowserMarkdown
// checks the same in the browser with payloads.
func TestWebModulesCreateOnlyTextNodes(t *testing.T) {
	web, err := fs.Sub(webFiles, "web")
	if err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(web, "*.js")
	if err != nil || len(names) == 0 {
		t.Fatalf("the page's modules: %v %v", names, err)
	}
	for _, name := range names {
		src, err := fs.ReadFile(web, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, loc := range markupSinkRE.FindAllIndex(src, -1) {
			line := 1
			for _, b := range src[:loc[0]] {
				if b == '\n' {
					line++
				}
			}
			t.Errorf("%s:%d uses %s; build elements with dom.js's h and text nodes instead", name, line, src[loc[0]:loc[1]])
		}
	}
}
