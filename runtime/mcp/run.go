package mcp

import (
	"math"

	"github.com/toolgen-go/toolgen/runtime"
)

// MetaRun is the _meta key of a tools/call request that says which model run the call comes
// from: {"run_id", "agent_id", "model", "turn", "input_tokens", "output_tokens"}, each
// optional. runtime/mcp/mount sends the host's Call.Run under it, and a serving registry's
// handlers read it in CallInfo.Run, so that a proxy's mounted server knows the run its calls
// belong to.
const MetaRun = "io.toolgen/run"

// RunMeta returns run as the value of MetaRun, or nil when run is nil or zero.
func RunMeta(run *runtime.RunInfo) map[string]any {
	if run == nil || *run == (runtime.RunInfo{}) {
		return nil
	}
	m := map[string]any{}
	for k, v := range map[string]string{"run_id": run.RunID, "agent_id": run.AgentID, "model": run.Model} {
		if v != "" {
			m[k] = v
		}
	}
	for k, v := range map[string]int64{"turn": int64(run.Turn), "input_tokens": run.InputTokens, "output_tokens": run.OutputTokens} {
		if v != 0 {
			m[k] = v
		}
	}
	return m
}

// RunFromMeta returns the RunInfo a request's _meta holds under MetaRun, or nil when it holds
// none or an unfit one. The client is untrusted: the value must be an object of the six
// members with their types (texts of at most runtime.MaxRunText bytes, without control
// characters; whole numbers from 0 to 2^53); anything else, unknown members included, makes
// the whole of it ignored rather than half read. The call runs either way: what the run is
// is the client's word, for the handlers' records, never a permission.
func RunFromMeta(meta map[string]any) *runtime.RunInfo {
	m, ok := meta[MetaRun].(map[string]any)
	if !ok || len(m) == 0 {
		return nil
	}
	var run runtime.RunInfo
	for k, v := range m {
		switch k {
		case "run_id", "agent_id", "model":
			s, ok := v.(string)
			if !ok {
				return nil
			}
			switch k {
			case "run_id":
				run.RunID = s
			case "agent_id":
				run.AgentID = s
			default:
				run.Model = s
			}
		case "turn", "input_tokens", "output_tokens":
			f, ok := v.(float64)
			if !ok || f != math.Trunc(f) || f < 0 || f > 1<<53 || k == "turn" && f > math.MaxInt32 {
				return nil
			}
			switch k {
			case "turn":
				run.Turn = int(f)
			case "input_tokens":
				run.InputTokens = int64(f)
			default:
				run.OutputTokens = int64(f)
			}
		default:
			return nil
		}
	}
	if run.Check() != nil {
		return nil
	}
	return &run
}
