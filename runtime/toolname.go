package runtime

import "context"

// ToolName returns the name under which the registry running the call holds the tool its
// toolkit declared as declared, and whether it holds one. A handler writes the names of its
// toolkit's other tools with it ("docs is a directory; list_dir lists it"), so that its
// texts stay true when a host renames those tools (presets.Rename) or leaves them out: the
// text then names the tool as registered, or says nothing of a tool the model cannot call.
// Outside a call made through Registry.Invoke it returns declared and true (nothing is
// known of a registry, so the toolkit's own names stand).
//
//	if name, ok := runtime.ToolName(ctx, "list_dir"); ok {
//		hint = "; " + name + " lists it"
//	}
func ToolName(ctx context.Context, declared string) (string, bool) {
	st, ok := ctx.Value(callKey{}).(*callState)
	if !ok || st.info.reg == nil {
		return declared, true
	}
	return st.info.reg.NameOf(declared)
}

// NameOf returns the name under which the registry holds the tool declared as declared (see
// Tool.DeclaredName): declared itself when a tool of that name was not renamed, else the
// first name, in sorted order, of a tool renamed from it.
func (r *Registry) NameOf(declared string) (string, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e, ok := r.tools[declared]; ok && (e.tool.DeclaredName == "" || e.tool.DeclaredName == declared) {
		return declared, true
	}
	for _, name := range r.names {
		if r.tools[name].tool.DeclaredName == declared {
			return name, true
		}
	}
	return "", false
}
