package toolimpl

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// ClientCallResult is what the generated Run of a client tool (//tool:client) returns: such a
// tool is declared to the model here but executed by the caller. The registry never calls
// that Run (it returns a Result with ClientCall set instead); a program that runs a bound
// client call by hand gets this error result.
func ClientCallResult(name string) runtime.Result {
	return runtime.Result{
		Text:    fmt.Sprintf("%s cannot be run here: it is executed by the client.", name),
		IsError: true,
		Err:     fmt.Errorf("tool %q is a client tool: the caller executes it, not the registry", name),
	}
}
