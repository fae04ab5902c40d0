package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestBrowserNoRemoteMedia: viewing a session does not fetch its media
// from other origins (the page's Content-Security-Policy limits img-src
// and media-src to the page's own origin, data: and blob:), while an
// inline data: image still shows (issue 21, item 8).
func TestBrowserNoRemoteMedia(t *testing.T) {
	var fetched atomic.Int64
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		w.Header().Set("Content-Type", "image/png")
	}))
	defer remote.Close()
	e := newBrowserEnv(t, browserOptions{})
	e.importSession(`{"id":"media","messages":[
		{"id":"m1","role":"user","content":[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"` + remote.URL + `/track.png"}}]},
		{"id":"m2","role":"assistant","content":[{"type":"audio_url","audio_url":{"url":"` + remote.URL + `/a.mp3"}}]},
		{"id":"m3","role":"user","content":[{"type":"image_url","image_url":{"url":"` + pngDataURL(t) + `"}}]}]}`)
	e.open("/#/s/media")
	e.waitFor("the inline image to load", `(() => { const i = document.querySelector('[data-id="m3"] img[data-testid="media-image"]'); return i && i.complete && i.naturalWidth > 0; })()`)
	e.waitFor("the remote image to be settled", `(() => { const i = document.querySelector('[data-id="m1"] img[data-testid="media-image"]'); return i && i.complete; })()`)
	if n := fetched.Load(); n != 0 {
		t.Errorf("viewing the session made %d requests to another origin", n)
	}
}
