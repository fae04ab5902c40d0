package memstore_test

import (
	"testing"

	"kompact"
	"kompact/internal/testing/memstore"
	"kompact/internal/testing/storetest"
)

// TestConformance: the memory store passes the stores' conformance suite.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) kompact.Store { return memstore.New(0) })
}
