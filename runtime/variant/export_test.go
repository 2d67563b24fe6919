package variant

// SetMaxDerivedSchemas changes how many schemas keep their derived variants, empties the
// cache, and returns a function restoring both.
func SetMaxDerivedSchemas(n int) (restore func()) {
	c := &derivedSchemas
	c.Lock()
	old, oldMap := maxDerivedSchemas, c.m
	maxDerivedSchemas, c.m = n, map[string]*derivedVariants{}
	c.Unlock()
	return func() {
		c.Lock()
		maxDerivedSchemas, c.m = old, oldMap
		c.Unlock()
	}
}

// DerivedSchemas is the number of schemas whose variants are kept.
func DerivedSchemas() int {
	derivedSchemas.RLock()
	defer derivedSchemas.RUnlock()
	return len(derivedSchemas.m)
}
