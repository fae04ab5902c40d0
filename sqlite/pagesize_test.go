package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"kompact"
)

// BenchmarkBodiesSize stores a 5,000-message session (~2.1 KB a body) in
// new databases of several page sizes and reports the bytes the bodies
// table takes per message (from the dbstat table).
func BenchmarkBodiesSize(b *testing.B) {
	msgs := benchSession(5000)
	for _, ps := range []int{4096, 8192, 16384, 32768, 65536} {
		b.Run(fmt.Sprint(ps), func(b *testing.B) {
			defer func(old int) { pageSize = old }(pageSize)
			pageSize = ps
			for i := range b.N {
				st, err := Open(filepath.Join(b.TempDir(), fmt.Sprint(i, ".db")))
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: msgs}); err != nil {
					b.Fatal(err)
				}
				var got int
				var bytes int64
				if err := st.w.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&got); err != nil || got != ps {
					b.Fatalf("page size %d (%v), want %d", got, err, ps)
				}
				if err := st.w.QueryRowContext(ctx, `SELECT sum(pgsize) FROM dbstat WHERE name = 'bodies'`).Scan(&bytes); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(bytes)/float64(len(msgs)), "bodyB/msg")
				st.Close()
			}
		})
	}
}
