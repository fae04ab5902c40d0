package httpapi

import (
	"embed"
	"io/fs"
	"net/http"
)

// The web page: static files, served at / without authentication (the page
// itself asks for the token and sends it with its API calls).
//
//go:embed web
var webFiles embed.FS

// webHandler serves the embedded web/ folder.
func webHandler() http.Handler {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic("httpapi: embedded web folder: " + err.Error())
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
