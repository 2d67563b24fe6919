package mcp

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/fifo"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/canonical"
)

// ErrNotMCPCall is returned by Elicit outside a tools/call served by this package.
var ErrNotMCPCall = errors.New("mcp: not inside a tools/call served by runtime/mcp")

// ErrNoElicitation is returned by Elicit when the client cannot be asked: it did not declare
// the elicitation capability, or it cannot be reached (stateless HTTP on a protocol before
// 2026-07-28, where the server cannot send requests to the client).
var ErrNoElicitation = errors.New("mcp: the client does not support elicitation")

// errInputRequired ends a handler's run when Elicit needs the client's answer on protocol
// 2026-07-28: the call returns the question (an input-required result) and the client calls
// again with the answer. Permanent: retrying cannot answer it.
var errInputRequired = runtime.Permanent(errors.New("mcp: waiting for the client's answer; the call runs again with it"))

// Elicit asks the user, through the MCP client, for input during a tool call: message says
// what is asked, requestedSchema (a flat JSON Schema object of primitive properties, as MCP
// elicitation allows; nil for a plain confirmation) what to fill in. It returns the user's
// action ("accept", "decline" or "cancel") and, on accept, the content, validated against
// requestedSchema. It fails with ErrNotMCPCall outside an MCP call and ErrNoElicitation when
// the client cannot be asked.
//
// On protocols up to 2025-11-25 the server sends elicitation/create and waits for the answer.
// On 2026-07-28, which forbids requests from the server, the call instead returns the
// question to the client (an input-required result, SEP-2322) and the client calls the tool
// again with the answer: the handler runs again from the start, and Elicit then returns the
// answer. So a handler that elicits must return Elicit's error as it is, and do nothing
// before Elicit that must not happen twice. An answer is given back only to the question it
// was given to (the same message and schema), in whatever order the run asks: a question that
// differs between runs is asked again. The input request's key is toolgen_elicit: ElicitNamed
// names it, Ask asks several questions (and sampling, roots) at once.
func Elicit(ctx context.Context, message string, requestedSchema any) (action string, content map[string]any, err error) {
	return ElicitNamed(ctx, elicitInput, message, requestedSchema)
}

// validateAnswer checks a client's elicitation answer against the schema asked with it: the
// SDK does so for elicitation/create, not for answers that come with a call.
func validateAnswer(schema any, content map[string]any) error {
	if schema == nil {
		return nil
	}
	data, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	if err := resolved.Validate(content); err != nil {
		return fmt.Errorf("mcp: the client's answer does not match the requested schema: %w", err)
	}
	return nil
}

// peer is what a call knows of its client: the protocol revision it speaks and whether it
// declared elicitation, from its session's initialize or, on 2026-07-28, from the request's
// _meta (the SDK puts those into the session's InitializeParams; a call served beside the SDK
// reads them itself, fastcall.go).
type peer struct {
	protocol string
	elicit   bool
	// tasks: the request declared the MCP tasks extension and came the way this server
	// serves it (beside the SDK, protocol 2026-07-28), so a //tool:task call becomes a task.
	tasks bool
}

// peerOf is the client of ss as its initialize (or, on 2026-07-28, its request) described it.
// A stateless HTTP request on an older protocol has no declared capabilities, so it cannot
// be asked.
func peerOf(ss *mcp.ServerSession) peer {
	if ss == nil {
		return peer{}
	}
	p := ss.InitializeParams()
	if p == nil {
		return peer{}
	}
	return peer{protocol: p.ProtocolVersion, elicit: p.Capabilities != nil && p.Capabilities.Elicitation != nil}
}

// multiRound reports whether the client speaks protocol 2026-07-28 or later, where the server
// asks by returning input requests instead of sending requests.
func (p peer) multiRound() bool { return p.protocol >= "2026-07-28" }

// multiRound reports whether ss speaks protocol 2026-07-28 or later.
func multiRound(ss *mcp.ServerSession) bool { return peerOf(ss).multiRound() }

// approvalInput is the key of the input request of an approval (the other keys toolgen sends
// are in inputs.go).
const approvalInput = "toolgen_approval"

// approvalSchema is the form a user answers an approval with.
var approvalSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"approve": map[string]any{"type": "boolean", "title": "Approve", "description": "Run this call"},
		"reason":  map[string]any{"type": "string", "title": "Reason", "description": "Why not (told to the model when you deny)"},
	},
	"required": []string{"approve"},
}

// maxShownArgs bounds the arguments an approval question shows.
const maxShownArgs = 2000

// approvalQuestion is what the user is asked to approve: the tool and what it is for, what
// this call does (its //tool:confirm reason) and its risk, and the arguments as the tool will
// get them (canonical JSON: a model cannot break the layout with newlines in them).
func approvalQuestion(tool runtime.Tool, reason string, risk runtime.Risk, args []byte) *mcp.ElicitParams {
	var b strings.Builder
	name := tool.Name
	if tool.Title != "" {
		name = fmt.Sprintf("%s (%s)", tool.Title, tool.Name)
	}
	fmt.Fprintf(&b, "Allow %s to run?", name)
	if tool.Description != "" {
		fmt.Fprintf(&b, "\nTool: %s", tool.Description)
	}
	if reason != "" {
		fmt.Fprintf(&b, "\nWhat this call does: %s.", strings.TrimSuffix(reason, "."))
	}
	if risk != "" {
		fmt.Fprintf(&b, "\nRisk: %s.", risk)
	}
	shown := string(args)
	if len(shown) > maxShownArgs {
		shown = strings.ToValidUTF8(shown[:maxShownArgs], "") + "…"
	}
	fmt.Fprintf(&b, "\nArguments: %s", shown)
	return &mcp.ElicitParams{Message: b.String(), RequestedSchema: approvalSchema}
}

// decisionOf turns the user's answer to an approval question into a decision: only an
// accepted form with approve true approves.
func decisionOf(res *mcp.ElicitResult) runtime.Decision {
	const by = userDecides
	if res == nil {
		return runtime.Decision{By: by, Reason: "no answer"}
	}
	if res.Action == "accept" {
		if approve, _ := res.Content["approve"].(bool); approve {
			return runtime.Decision{Approved: true, By: by}
		}
		reason, _ := res.Content["reason"].(string)
		return runtime.Decision{By: by, Reason: reason}
	}
	return runtime.Decision{By: by, Reason: "the user " + map[string]string{"decline": "declined", "cancel": "dismissed the question"}[res.Action]}
}

// userDecides is who decides a call the user answered through MCP elicitation.
const userDecides = "user (MCP elicitation)"

// elicitApprover asks the user synchronously (protocols up to 2025-11-25).
func elicitApprover(reg *runtime.Registry, ss *mcp.ServerSession) runtime.Approver {
	return runtime.ApproverFunc(func(ctx context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		tool, ok := reg.Tool(req.Tool)
		if !ok {
			tool.Name = req.Tool
		}
		res, err := ss.Elicit(ctx, approvalQuestion(tool, req.Reason, req.Risk, req.RawArgs))
		if err != nil {
			return runtime.Decision{}, err
		}
		return decisionOf(res), nil
	})
}

// round is the multi-round-trip state of one request on protocol 2026-07-28 (a tools/call, a
// prompts/get, a resources/read): the answers the client gave so far and what this run asks.
type round struct {
	mu      sync.Mutex
	answers []mcp.InputResponse // answers to the handler's inputs, in the order given
	// questions[i] is hashInput of the input answers[i] answers; used marks the answers this
	// run has taken.
	questions [][]byte
	used      []bool
	// pending are the inputs to return instead of a result: the handler's (Ask), or the
	// approval the registry's own approver passed on (under approvalInput, alone).
	pending  []Input
	approval *runtime.Decision // the user's decision, when the call was approved or denied
	argsHash []byte            // the arguments the decision was made on
	callHash []byte            // served.argsHash of this call, made once per round
}

func approvedByUser() *runtime.Decision {
	return &runtime.Decision{Approved: true, By: userDecides}
}

// question returns the inputs the run asked, if any. It locks: an abandoned handler or
// approver may still ask after the request stopped waiting for it.
func (r *round) question() []Input {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.pending)
}

// ask returns the answers given to inputs, when earlier rounds answered every one and this run
// has not taken them yet: an answer goes only to the input it was given to, however a run
// orders its questions (a mounted server's come concurrently). Else the inputs not answered
// are to be asked (with those other asks of the run put, under other keys), and ask fails with
// errInputRequired.
func (r *round) ask(inputs []Input) (map[string]mcp.InputResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.used == nil {
		r.used = make([]bool, len(r.answers))
	}
	answers := make(map[string]mcp.InputResponse, len(inputs))
	var taken []int
	var missing []Input
	for _, in := range inputs {
		h := hashInput(in)
		i := -1
		for j := range r.answers {
			if !r.used[j] && hmac.Equal(r.questions[j], h) {
				i = j
				break
			}
		}
		if i < 0 {
			missing = append(missing, in)
			continue
		}
		r.used[i] = true
		taken = append(taken, i)
		answers[in.Key] = r.answers[i]
	}
	if len(missing) == 0 {
		return answers, nil
	}
	for _, i := range taken {
		r.used[i] = false // for the run that asks them with the rest
	}
	if len(r.pending) == 0 || r.pending[0].Key != approvalInput {
		for _, in := range missing {
			if !slices.ContainsFunc(r.pending, func(p Input) bool { return p.Key == in.Key }) {
				r.pending = append(r.pending, in)
			}
		}
	}
	return nil, errInputRequired
}

// approver decides the call from the decision an earlier round brought, and asks when there
// is none: the question is kept to return to the client, and the call stops. An approval
// given for other arguments than those that would run (a middleware or a repair changed
// them between rounds) asks again, about these.
func (r *round) approver(reg *runtime.Registry) runtime.Approver {
	return runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		switch {
		case r.approval != nil && !r.approval.Approved:
			return *r.approval, nil
		case r.approval != nil && hmac.Equal(hashArgs(req.RawArgs), r.argsHash):
			return *r.approval, nil
		}
		r.approval = nil
		tool, ok := reg.Tool(req.Tool)
		if !ok {
			tool.Name = req.Tool
		}
		r.pending = []Input{{Key: approvalInput, Request: approvalQuestion(tool, req.Reason, req.Risk, req.RawArgs)}}
		r.argsHash = hashArgs(req.RawArgs)
		return runtime.Decision{}, fmt.Errorf("%w (%w)", errInputRequired, runtime.ErrApprovalAsked)
	})
}

// hashArgs hashes arguments in a canonical form (object keys sorted, numbers as written), so
// that a client that re-encodes them between rounds still matches.
func hashArgs(args []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) == nil {
		if canonical, err := json.Marshal(v); err == nil {
			args = canonical
		}
	}
	sum := sha256.Sum256(args)
	return sum[:]
}

// roundState is the requestState of an input-required result: sealed, bound to the tool, the
// arguments and the caller, valid for stateTTL and accepted once.
type roundState struct {
	Tool    string `json:"tool"`
	Call    []byte `json:"call"` // hashArgs of the call's arguments
	Args    []byte `json:"args"` // hashArgs of the arguments the user approved
	Scope   string `json:"scope"`
	Expires int64  `json:"exp"`
	Nonce   string `json:"nonce"`
	// Asked are the inputs asked: the approval (approvalInput) alone, or the handler's.
	Asked    []askedInput   `json:"asked"`
	Approved bool           `json:"approved,omitempty"`
	Answers  []sealedAnswer `json:"answers,omitempty"`
	// Questions are hashInput of the inputs Answers answer, then of the handler's inputs
	// asked, in the order of Asked.
	Questions [][]byte `json:"questions,omitempty"`
}

const stateTTL = 15 * time.Minute

// roundStates seals and opens round states and remembers the nonces already used.
type roundStates struct {
	sealer
	now func() time.Time // tests replace the clock

	mu    sync.Mutex
	spent map[string]bool // nonces used and not yet expired
	// order holds the spent nonces in the order they were used, each with its state's expiry:
	// open forgets them from the front, so each costs O(1) over its life however many are
	// held. A state expires at most stateTTL after it was signed, hence after it was used, so
	// a nonce stuck behind one not yet expired is forgotten at most stateTTL late.
	order fifo.Queue[spentNonce]
}

type spentNonce struct {
	nonce   string
	expires time.Time
}

func newRoundStates(key []byte) *roundStates {
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	return &roundStates{sealer: newSealer(key), spent: map[string]bool{}}
}

func (s *roundStates) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

func (s *roundStates) sign(st roundState) string {
	st.Expires = s.clock().Add(stateTTL).Unix()
	st.Nonce = rand.Text()
	data, _ := json.Marshal(st) // plain fields always encode
	return seal(s.round, data)
}

// open verifies a state the client echoed for a call of tool by scope, and spends it.
func (s *roundStates) open(token, tool, scope string) (roundState, error) {
	var st roundState
	data, err := unseal(s.round, token)
	if err != nil {
		return st, err
	}
	if json.Unmarshal(data, &st) != nil {
		return st, errNotSealedHere
	}
	expires := time.Unix(st.Expires, 0)
	now := s.clock()
	switch {
	case now.After(expires):
		return st, errors.New("expired")
	case st.Tool != tool || st.Scope != scope:
		return st, errors.New("issued for another call")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgetExpired(now)
	if s.spent[st.Nonce] {
		return st, errors.New("already used")
	}
	s.spent[st.Nonce] = true
	s.order.Push(spentNonce{st.Nonce, expires})
	return st, nil
}

// forgetExpired drops the expired nonces at the front of the queue (an expired state is
// refused as such before its nonce is looked at). It runs under s.mu.
func (s *roundStates) forgetExpired(now time.Time) {
	for {
		front, ok := s.order.Front()
		if !ok || !now.After(front.expires) {
			return
		}
		delete(s.spent, front.nonce)
		s.order.Pop()
	}
}

// spentCount reports how many nonces are remembered; tests use it.
func (s *roundStates) spentCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.spent)
}

// scope binds a round's state to the caller: its registry session when that outlives a
// connection (principal, header), else its authenticated user. A connection does not do:
// over stateless HTTP the answer comes on a new one.
func (s *served) scope(cc *callContext) string {
	if s.sessionKey.perRequest || strings.HasPrefix(cc.session, "conn:") {
		return "user:" + principal(cc.req)
	}
	return cc.session
}

// maxRounds bounds the questions one call may ask on protocol 2026-07-28.
const maxRounds = 16

// openRound reads the answers a call brings (protocol 2026-07-28) into cc.round (see
// roundStates.resume). It returns the result that ends the call instead when the state cannot
// say what it answers, and the protocol error when the state is not this call's.
//
// A call that brings no state is asked nothing here: the registry asks, through the round's
// approver, once it has bound the arguments and made their canonical form, which is what the
// user is shown and what the answer is checked against when the call comes back.
func (s *served) openRound(cc *callContext, call runtime.Call) (*mcp.CallToolResult, error) {
	cc.round = &round{}
	p := cc.req.Params
	if p.RequestState == "" {
		return nil, nil // a first round: nothing to resume (answers without a state are not taken)
	}
	problem, err := s.states.resume(cc.round, p.InputResponses, p.RequestState, call.Name, s.scope(cc), s.argsHash(cc, call))
	if err != nil {
		return nil, err
	}
	if problem != "" {
		return toolError("%s", problem), nil
	}
	return nil, nil
}

// argsHash identifies a call's arguments across its rounds: their canonical form (the
// tool's defaults applied, keys sorted), so that a client that leaves a default out on one
// round and spells it out on the next sends the same call.
func (s *served) argsHash(cc *callContext, call runtime.Call) []byte {
	if cc.round.callHash == nil {
		cc.round.callHash = s.canonicalHash(call)
	}
	return cc.round.callHash
}

// canonicalHash decodes the arguments (twice: canonical form, then hashArgs), which is why
// argsHash keeps it per round rather than paying it on both the resume and the ask.
func (s *served) canonicalHash(call runtime.Call) []byte {
	if tool, ok := s.reg.Tool(call.Name); ok {
		if canonical, err := canonical.Form(tool.InputSchema)(call.Args); err == nil {
			return hashArgs(canonical)
		}
	}
	return hashArgs(call.Args)
}

// ask returns the inputs the run asked (the handler's, or the approval the registry's approver
// passed on), with the state that brings the earlier answers back.
func (s *served) ask(cc *callContext, call runtime.Call, pending []Input) *mcp.CallToolResult {
	reqs, st := cc.round.sealRound(pending)
	st.Tool, st.Call, st.Scope = call.Name, s.argsHash(cc, call), s.scope(cc)
	return &mcp.CallToolResult{InputRequests: reqs, RequestState: s.states.sign(st)}
}
