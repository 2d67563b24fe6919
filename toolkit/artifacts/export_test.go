package artifacts

import "time"

// SetClock replaces a MemoryStore's clock.
func SetClock(m *MemoryStore, now func() time.Time) { m.now = now }
