package integration

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestBrowserNoRemoteMedia: viewing a session does not fetch its media
// from other origins: such an image or audio shows a button that loads it,
// while an inline data: image shows at once (issue 21, item 8).
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
	var shown struct{ Images, Audios, Buttons int }
	e.eval(`JSON.stringify({
		images: document.querySelectorAll('[data-id="m1"] img').length,
		audios: document.querySelectorAll('[data-id="m2"] audio').length,
		buttons: document.querySelectorAll('[data-testid="media-load"]').length})`, &shown)
	if shown.Images != 0 || shown.Audios != 0 || shown.Buttons != 2 {
		t.Errorf("remote media shown as %+v, want two load buttons", shown)
	}
	if n := fetched.Load(); n != 0 {
		t.Errorf("viewing the session made %d requests to another origin", n)
	}
	e.click(`[data-id="m1"] [data-testid="media-load"]`)
	e.waitFor("the remote image to be asked for", `document.querySelector('[data-id="m1"] img[data-testid="media-image"]') !== null`)
	deadline := time.Now().Add(5 * time.Second)
	for fetched.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := fetched.Load(); n != 1 {
		t.Errorf("after the click: %d requests, want 1", n)
	}
}
