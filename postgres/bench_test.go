package postgres

import (
	"testing"

	"kompact"
	"kompact/internal/testing/storetest"
)

// benchStore opens a store in a new schema of $KOMPACT_TEST_POSTGRES.
func benchStore(b *testing.B) kompact.Store {
	b.Helper()
	return openSchemaTB(b)
}

// BenchmarkAppend appends one ~2 KB message to a session of 100, 10k and
// 100k messages (storetest.BenchAppend).
func BenchmarkAppend(b *testing.B) { storetest.BenchAppend(b, benchStore) }

// BenchmarkCommit commits a compaction of the system message and the next
// 10 messages of a session of 100, 10k and 100k messages
// (storetest.BenchCommit).
func BenchmarkCommit(b *testing.B) { storetest.BenchCommit(b, benchStore) }

// BenchmarkRestore restores the list a compaction of half a session of
// 100, 10k and 100k messages replaced (storetest.BenchRestore).
func BenchmarkRestore(b *testing.B) { storetest.BenchRestore(b, benchStore) }

// BenchmarkSwapGatewayRecord swaps a gateway record with one message
// appended, in sessions of 100 and 10k messages (storetest.BenchSwap).
func BenchmarkSwapGatewayRecord(b *testing.B) { storetest.BenchSwap(b, benchStore) }
