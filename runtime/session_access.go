package runtime

// Session returns the state of session in the registry's session store, for hosts that read
// or seed what handlers keep there (a toolkit's todo list, the tools a search found) outside
// a call.
func (r *Registry) Session(session string) SessionState {
	return SessionState{store: r.sessionStore(), session: session}
}
