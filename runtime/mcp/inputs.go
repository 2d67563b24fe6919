//lint:file-ignore SA1019 sampling and roots are deprecated by protocol 2026-07-28 (SEP-2577) but still asked of clients that declare them, which is what these helpers are for.

package mcp

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNoRoots is returned by ListRoots (and Ask) when the client cannot be asked for its roots:
// it did not declare the roots capability, or it cannot be reached (stateless HTTP on a
// protocol before 2026-07-28).
var ErrNoRoots = errors.New("mcp: the client does not support roots")

// Keys of the input requests toolgen's own helpers send: Elicit's, Sample's and ListRoots'.
// toolgen_approval, the approval of a //tool:confirm call, cannot be asked by a handler.
const (
	elicitInput = "toolgen_elicit"
	sampleInput = "toolgen_sample"
	rootsInput  = "toolgen_roots"
)

// An Input is one question Ask puts to the client: Request is an *mcp.ElicitParams (a
// question to the user), an *mcp.CreateMessageParams (a completion of the client's model) or
// an *mcp.ListRootsParams (the client's roots), and Key names it. On protocol 2026-07-28 the
// key is the key of the input request the client answers (inputRequests, SEP-2322), which
// some clients and specifications expect by name; before, requests have no key.
type Input struct {
	Key     string
	Request mcp.InputRequest
}

// ElicitInput asks the user, under key, what message says; requestedSchema is as Elicit's.
func ElicitInput(key, message string, requestedSchema any) Input {
	return Input{Key: key, Request: &mcp.ElicitParams{Message: message, RequestedSchema: requestedSchema}}
}

// SampleInput asks the client's model, under key, for a completion of params.
func SampleInput(key string, params *mcp.CreateMessageParams) Input {
	return Input{Key: key, Request: params}
}

// RootsInput asks the client, under key, for its roots (roots/list).
func RootsInput(key string) Input {
	return Input{Key: key, Request: &mcp.ListRootsParams{}}
}

// Ask puts every input to the client of the MCP request a handler's ctx belongs to (a tool
// call, a prompt or a resource) and returns the answers by key: an *mcp.ElicitResult for an
// elicitation (its content validated against the schema when accepted), an
// *mcp.CreateMessageResult for a sampling request, an *mcp.ListRootsResult for roots. It
// fails with ErrNotMCPCall outside an MCP request and with ErrNoElicitation, ErrNoSampling or
// ErrNoRoots when the client did not declare what an input needs (on 2026-07-28 the server
// then answers the request with a MissingRequiredClientCapability error, -32021, when the
// handler returns that error as it is). Keys must be distinct and not toolgen_approval.
//
// On protocols up to 2025-11-25 each input is a request to the client, sent in order. On
// 2026-07-28, which forbids requests from the server, the request instead returns every input
// at once to the client (an input-required result, SEP-2322), with a sealed state holding
// the answers so far, and the client sends the request again with the answers: the handler
// runs again from the start, and Ask then returns them. So a handler that asks must return
// Ask's error as it is, and do nothing before Ask that must not happen twice. An answer is
// given back only to the input it answers (the same key and request), in whatever order the
// run asks: an input that differs between runs is asked again, and so is one whose answer
// the client left out (or sent of the wrong kind).
func Ask(ctx context.Context, inputs ...Input) (map[string]mcp.InputResponse, error) {
	a := askerFrom(ctx)
	if a == nil {
		return nil, ErrNotMCPCall
	}
	for i, in := range inputs {
		if in.Key == "" || in.Key == approvalInput {
			return nil, fmt.Errorf("mcp: input key %q cannot be asked by a handler", in.Key)
		}
		if slices.ContainsFunc(inputs[:i], func(o Input) bool { return o.Key == in.Key }) {
			return nil, fmt.Errorf("mcp: input key %q asked twice at once", in.Key)
		}
		if err := a.can(in); err != nil {
			return nil, err
		}
	}
	var answers map[string]mcp.InputResponse
	var err error
	switch {
	case a.task != nil:
		answers, err = a.task.ask(ctx, inputs)
	case a.round == nil:
		return a.askNow(ctx, inputs)
	default:
		answers, err = a.round.ask(inputs)
	}
	if err != nil {
		return nil, err
	}
	for _, in := range inputs {
		switch q := in.Request.(type) {
		case *mcp.ElicitParams:
			if res := answers[in.Key].(*mcp.ElicitResult); res.Action == "accept" {
				if err := validateAnswer(q.RequestedSchema, res.Content); err != nil {
					return nil, err
				}
			}
		case *mcp.CreateMessageParams:
			answers[in.Key] = sampled(answers[in.Key])
		}
	}
	return answers, nil
}

// ElicitNamed is Elicit with the input request's key named: on protocol 2026-07-28 the
// question goes to the client under key (Elicit's is toolgen_elicit), as a specification or
// a client that reads the answers by name expects.
func ElicitNamed(ctx context.Context, key, message string, requestedSchema any) (action string, content map[string]any, err error) {
	answers, err := Ask(ctx, ElicitInput(key, message, requestedSchema))
	if err != nil {
		return "", nil, err
	}
	res := answers[key].(*mcp.ElicitResult)
	return res.Action, res.Content, nil
}

// ListRoots asks the client for its roots (roots/list) during an MCP request, as Ask does
// (on 2026-07-28 as the input request toolgen_roots). It fails with ErrNotMCPCall outside an
// MCP request and ErrNoRoots when the client cannot be asked. The roots are the client's
// word: treat them as untrusted input.
func ListRoots(ctx context.Context) (*mcp.ListRootsResult, error) {
	answers, err := Ask(ctx, RootsInput(rootsInput))
	if err != nil {
		return nil, err
	}
	return answers[rootsInput].(*mcp.ListRootsResult), nil
}

// asker is how a handler's request reaches its client: the session (nil for a stateless call
// served beside the SDK), the capabilities the client declared for this request, and, on
// protocol 2026-07-28, the round that collects the questions and holds the answers.
type asker struct {
	ss    *mcp.ServerSession
	caps  *mcp.ClientCapabilities
	round *round
	task  *taskAsker // the call runs as an MCP task: its questions go into the task
}

// askerKey keys the asker of a prompts/get or resources/read in its handler's ctx (a
// tools/call has its callContext).
type askerKey struct{}

func askerFrom(ctx context.Context) *asker {
	if c := callContextFrom(ctx); c != nil {
		return &asker{ss: c.req.Session, caps: c.req.ClientCapabilities(), round: c.round, task: c.task.Load()}
	}
	a, _ := ctx.Value(askerKey{}).(*asker)
	return a
}

// can reports whether the client can answer in, by the capabilities it declared.
func (a *asker) can(in Input) error {
	caps := a.caps
	if a.ss == nil && a.round == nil {
		caps = nil // a stateless call before 2026-07-28: no client to ask
	}
	if caps == nil {
		caps = &mcp.ClientCapabilities{}
	}
	switch in.Request.(type) {
	case *mcp.ElicitParams:
		if caps.Elicitation == nil {
			return ErrNoElicitation
		}
	case *mcp.CreateMessageParams:
		if caps.Sampling == nil {
			return ErrNoSampling
		}
	case *mcp.ListRootsParams:
		if caps.RootsV2 == nil && !caps.Roots.ListChanged {
			return ErrNoRoots
		}
	default:
		return fmt.Errorf("mcp: input %q: cannot ask a %T", in.Key, in.Request)
	}
	return nil
}

// askNow sends each input as a request to the client (protocols up to 2025-11-25).
func (a *asker) askNow(ctx context.Context, inputs []Input) (map[string]mcp.InputResponse, error) {
	answers := make(map[string]mcp.InputResponse, len(inputs))
	for _, in := range inputs {
		var res mcp.InputResponse
		var err error
		switch q := in.Request.(type) {
		case *mcp.ElicitParams:
			res, err = a.ss.Elicit(ctx, q)
		case *mcp.CreateMessageParams:
			res, err = a.ss.CreateMessage(ctx, q)
		case *mcp.ListRootsParams:
			res, err = a.ss.ListRoots(ctx, q)
		}
		if err != nil {
			return nil, err
		}
		answers[in.Key] = res
	}
	return answers, nil
}

// sampled returns a sampling answer as a CreateMessageResult: the SDK decodes an answer that
// came with a request as a CreateMessageWithToolsResult, whose first content it keeps.
func sampled(res mcp.InputResponse) *mcp.CreateMessageResult {
	switch r := res.(type) {
	case *mcp.CreateMessageResult:
		return r
	case *mcp.CreateMessageWithToolsResult:
		out := &mcp.CreateMessageResult{Meta: r.Meta, Model: r.Model, Role: r.Role, StopReason: r.StopReason}
		if len(r.Content) > 0 {
			out.Content = r.Content[0]
		}
		return out
	}
	return nil
}

// Kinds of input, as a round's state records them.
const (
	kindElicit = "elicit"
	kindSample = "sample"
	kindRoots  = "roots"
)

func kindOf(req mcp.InputRequest) string {
	switch req.(type) {
	case *mcp.ElicitParams:
		return kindElicit
	case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
		return kindSample
	case *mcp.ListRootsParams:
		return kindRoots
	}
	return ""
}

// fits returns res when it answers an input of kind, else nil.
func fits(kind string, res mcp.InputResponse) mcp.InputResponse {
	ok := false
	switch r := res.(type) {
	case *mcp.ElicitResult:
		ok = kind == kindElicit && r != nil
	case *mcp.CreateMessageResult:
		ok = kind == kindSample && r != nil
	case *mcp.CreateMessageWithToolsResult:
		ok = kind == kindSample && r != nil
	case *mcp.ListRootsResult:
		ok = kind == kindRoots && r != nil
	}
	if !ok {
		return nil
	}
	return res
}

// hashInput identifies an input by its key, kind and request, in canonical JSON (a request
// the SDK decoded and one a handler built agree).
func hashInput(in Input) []byte {
	data, _ := json.Marshal([]any{in.Key, kindOf(in.Request), in.Request}) // a request that does not encode hashes as null
	return hashArgs(data)
}

// askedInput is an input a round's state asked: its key and kind.
type askedInput struct {
	Key  string `json:"key"`
	Kind string `json:"kind"`
}

// sealedAnswer is an answer a round's state holds.
type sealedAnswer struct {
	Kind  string          `json:"kind"`
	Value json.RawMessage `json:"value"`
}

func sealAnswers(answers []mcp.InputResponse) []sealedAnswer {
	out := make([]sealedAnswer, len(answers))
	for i, a := range answers {
		kind := kindElicit
		switch a.(type) {
		case *mcp.CreateMessageResult, *mcp.CreateMessageWithToolsResult:
			kind = kindSample
		case *mcp.ListRootsResult:
			kind = kindRoots
		}
		value, _ := json.Marshal(a) // the SDK's results always encode
		out[i] = sealedAnswer{kind, value}
	}
	return out
}

func openAnswers(sealed []sealedAnswer) ([]mcp.InputResponse, error) {
	out := make([]mcp.InputResponse, len(sealed))
	for i, s := range sealed {
		v, err := decodeAnswer(s.Kind, s.Value)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// decodeAnswer reads the JSON of an answer to an input of kind: from a round's state, or
// delivered by tasks/update.
func decodeAnswer(kind string, value json.RawMessage) (mcp.InputResponse, error) {
	var v mcp.InputResponse
	switch kind {
	case kindElicit:
		v = &mcp.ElicitResult{}
	case kindSample:
		v = &mcp.CreateMessageWithToolsResult{}
	case kindRoots:
		v = &mcp.ListRootsResult{}
	default:
		return nil, fmt.Errorf("an answer of kind %q", kind)
	}
	if err := json.Unmarshal(value, v); err != nil {
		return nil, err
	}
	return v, nil
}

// resume reads into rd the answers a request brings on protocol 2026-07-28: responses and
// the state a previous round of the request named name (a tool, a prompt, a resource) gave,
// for the caller scope and the arguments whose hash is args. A state that is not this
// caller's, for this name, unspent and unexpired, is a protocol error (invalid params: the
// client sent what no server of ours gave it for this request); a state for other arguments
// is dropped, so the request asks again about those it has now. It returns what to tell the
// caller instead of running when the state cannot say what it answers, or the approval it
// asked came back unanswered.
//
// An input whose answer is missing or of another kind is asked again (SEP-2322 has the server
// ask again for what it lacks), as are answers that come without a state: toolgen takes only
// answers to the questions it asked, and an approval's answer only with its state.
func (s *roundStates) resume(rd *round, responses mcp.InputResponseMap, state, name, scope string, args []byte) (problem string, err error) {
	if state == "" {
		return "", nil
	}
	st, err := s.open(state, name, scope)
	if err != nil {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("requestState cannot be used for this call of %s (%v); call it again without one", name, err)}
	}
	if !hmac.Equal(st.Call, args) {
		return "", nil // answers about other arguments: start over, asking again
	}
	unusable := fmt.Sprintf("The answer sent with this call of %s cannot be used (it does not say what it answers), so it was not run; call it again without one.", name)
	answers, err := openAnswers(st.Answers)
	if err != nil {
		return unusable, nil
	}
	approval := len(st.Asked) == 1 && st.Asked[0].Key == approvalInput
	asked := st.Asked
	if approval {
		asked = nil
	}
	if len(st.Questions) != len(answers)+len(asked) {
		return unusable, nil
	}
	rd.argsHash = st.Args
	if st.Approved {
		rd.approval = approvedByUser()
	}
	if approval {
		answer, _ := responses[approvalInput].(*mcp.ElicitResult)
		if answer == nil {
			return fmt.Sprintf("This call of %s came back without the answer to its question, so it was not run.", name), nil
		}
		d := decisionOf(answer)
		rd.approval = &d
		rd.answers, rd.questions = answers, st.Questions
		return "", nil
	}
	if len(answers)+len(asked) > maxRounds {
		return fmt.Sprintf("%s asked more than %d questions in one call; it was stopped.", name, maxRounds), nil
	}
	questions := slices.Clip(st.Questions[:len(answers)])
	for i, in := range asked {
		if answer := fits(in.Kind, responses[in.Key]); answer != nil {
			answers = append(answers, answer)
			questions = append(questions, st.Questions[len(st.Answers)+i])
		}
	}
	rd.answers, rd.questions = answers, questions
	return "", nil
}

// sealRound returns the input requests of the inputs a run asked and the state that brings
// its answers so far back (Tool, Call and Scope left to the caller).
func (r *round) sealRound(pending []Input) (mcp.InputRequestMap, roundState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := roundState{Args: r.argsHash, Approved: r.approval != nil && r.approval.Approved, Answers: sealAnswers(r.answers)}
	st.Questions = slices.Clip(r.questions[:len(r.answers)])
	reqs := mcp.InputRequestMap{}
	for _, in := range pending {
		reqs[in.Key] = in.Request
		st.Asked = append(st.Asked, askedInput{in.Key, kindOf(in.Request)})
		if in.Key != approvalInput {
			st.Questions = append(st.Questions, hashInput(in))
		}
	}
	return reqs, st
}

// missingCapability returns, for a request on protocol 2026-07-28 whose handler failed for
// want of a capability the client did not declare (ErrNoElicitation, ErrNoSampling,
// ErrNoRoots), the protocol error SEP-2575 has the server answer with: a
// MissingRequiredClientCapability error (-32021) naming the capability, which the go-sdk
// sends over HTTP with status 400. Else nil: the handler's error is the model's to read.
func missingCapability(err error) error {
	var capability string
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNoElicitation):
		capability = "elicitation"
	case errors.Is(err, ErrNoSampling):
		capability = "sampling"
	case errors.Is(err, ErrNoRoots):
		capability = "roots"
	default:
		return nil
	}
	// Not mcp.MissingRequiredClientCapabilityData: its ClientCapabilities always encodes roots.
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{capability: struct{}{}}})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: err.Error(), Data: data}
}
