package fidelity_test

import (
	"slices"
	"testing"

	"kompact"
	"kompact/internal/artifacts"
)

// TestArtifactClassesMatchTheScanner: the vocabulary's classes are the
// scanner's, in its order, so that a class the rules find names itself in
// a report.
func TestArtifactClassesMatchTheScanner(t *testing.T) {
	var scanner []kompact.ArtifactClass
	for _, c := range artifacts.Classes {
		scanner = append(scanner, kompact.ArtifactClass(c.String()))
	}
	if got := kompact.ArtifactClasses(); !slices.Equal(got, scanner) {
		t.Errorf("kompact.ArtifactClasses() = %v, the scanner's classes are %v", got, scanner)
	}
}
