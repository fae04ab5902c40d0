package storeutil

import (
	"time"

	"kompact"
)

// PreviewSize returns the bytes p takes against the limits, or the error
// of a preview larger than lim.MaxBytes on its own.
func PreviewSize(p *kompact.Preview, lim kompact.PreviewLimits) (int64, error) {
	size := int64(len(p.Body))
	if size > lim.MaxBytes {
		return 0, kompact.PreviewTooLargeError(size, lim.MaxBytes)
	}
	return size, nil
}

// PreviewsCrowded reports whether n kept previews of total bytes leave no
// room for one more of size bytes: the one that expires first must go.
func PreviewsCrowded(n int, total, size int64, lim kompact.PreviewLimits) bool {
	return n > 0 && (n >= lim.MaxCount || total+size > lim.MaxBytes)
}

// PreviewIDTaken is the conflict of a preview whose id is kept already.
func PreviewIDTaken(id string) error {
	return kompact.Errorf(kompact.EConflict, "a preview has the id %q already", id)
}

// LivePreview returns p, taken from the store, unless it expired by now.
func LivePreview(p *kompact.Preview, now time.Time) (*kompact.Preview, error) {
	if !now.Before(p.ExpiresAt) {
		return nil, kompact.NoPreviewError(p.SessionID, p.ID)
	}
	return p, nil
}
