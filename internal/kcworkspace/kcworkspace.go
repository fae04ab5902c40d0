// Package kcworkspace names a Kimi Code working folder's sessions folder, for kimicode
// and the tests' recorded vectors (internal/testing/kcvectors) alike.
package kcworkspace

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// ID is Kimi Code's folder name for the sessions of workDir (its
// encodeWorkDirKey): wd_<slug of the base name>_<first 12 hex of SHA-256 of the path>.
func ID(workDir string) string {
	norm := strings.TrimRight(strings.ReplaceAll(workDir, `\`, "/"), "/")
	name := norm[strings.LastIndex(norm, "/")+1:]
	if name == "" {
		name = norm
	}
	slug := strings.Trim(slugRun.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if len(slug) > 40 {
		slug = strings.Trim(slug[:40], "-")
	}
	if slug == "" || slug == "." || slug == ".." {
		slug = "workspace"
	}
	sum := sha256.Sum256([]byte(norm))
	return "wd_" + slug + "_" + hex.EncodeToString(sum[:])[:12]
}

var slugRun = regexp.MustCompile(`[^a-z0-9._-]+`)
