package pattern

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Limits past which an expression is left to the regexp package. They bound generation time
// and the size of the emitted function, not correctness: the automaton is exact at any size.
const (
	maxProgInsts = 2000 // instructions of the compiled NFA
	maxIntervals = 256  // distinct rune intervals the expression tells apart
	maxStates    = 128  // DFA states
	maxArms      = 1024 // range tests emitted over all states
)

// Special transition targets; real states are numbered from 0.
const (
	targetDead   = -1 // no match can start or continue here: return false
	targetAccept = -2 // a match has been found: return true
)

// interval is an inclusive range of runes that every instruction of the program treats alike.
type interval struct{ lo, hi rune }

// edge sends the runes in [lo, hi] to target (a state index, targetDead or targetAccept).
type edge struct {
	lo, hi rune
	target int
}

// dfaState is one state of the automaton: its outgoing edges, sorted and covering every rune,
// and whether ending the input here is a match (a pending `$`).
type dfaState struct {
	edges       []edge
	acceptAtEnd bool
}

// automaton is a deterministic finite automaton that decides "does s contain a match", reading
// s rune by rune from state 0. matchesEmpty is set when the empty match at position 0 already
// succeeds, so every string matches.
type automaton struct {
	states       []dfaState
	matchesEmpty bool
}

// buildAutomaton turns a compiled regexp program into an automaton by subset construction. It
// reports false when the program uses an assertion the automaton does not model (line anchors
// under (?m), word boundaries) or when a limit is exceeded.
//
// Because only the existence of a match matters, greediness and capture groups are irrelevant,
// and the unanchored search is modelled by re-entering the program's start at every position,
// which the usual `.*?` prefix does. The result runs in time linear in the input, like the
// regexp package itself, with no backtracking.
func buildAutomaton(prog *syntax.Prog) (*automaton, bool) {
	if len(prog.Inst) > maxProgInsts {
		return nil, false
	}
	ranges := make([][]interval, len(prog.Inst)) // per rune-consuming instruction
	var bounds []rune
	for pc := range prog.Inst {
		inst := &prog.Inst[pc]
		switch inst.Op {
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^(syntax.EmptyBeginText|syntax.EmptyEndText) != 0 {
				return nil, false
			}
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			ranges[pc] = instRanges(inst)
			for _, iv := range ranges[pc] {
				bounds = append(bounds, iv.lo, iv.hi+1)
			}
		}
	}
	alphabet := partition(bounds)
	if len(alphabet) > maxIntervals {
		return nil, false
	}

	b := &builder{prog: prog, ranges: ranges, index: map[string]int{}}
	initial, initialMatches := b.closure([]uint32{uint32(prog.Start)}, true)
	if initialMatches {
		return &automaton{matchesEmpty: true}, true
	}
	b.restart, _ = b.closure([]uint32{uint32(prog.Start)}, false)
	b.add(initial, true)

	arms := 0
	for i := 0; i < len(b.sets); i++ {
		set := b.sets[i]
		var edges []edge
		for _, iv := range alphabet {
			target := b.step(set, iv.lo)
			if len(b.sets) > maxStates {
				return nil, false
			}
			if n := len(edges); n > 0 && edges[n-1].target == target {
				edges[n-1].hi = iv.hi
				continue
			}
			edges = append(edges, edge{iv.lo, iv.hi, target})
		}
		arms += len(edges)
		if arms > maxArms {
			return nil, false
		}
		b.states[i].edges = edges
		b.states[i].acceptAtEnd = b.acceptsAtEnd(set, b.atStart[i])
	}
	return &automaton{states: minimize(b.states)}, true
}

// minimize merges equivalent states (Moore's partition refinement), so that, for example, the
// initial state of an unanchored expression and the "start over" state it returns to become
// one. States keep the order of their first appearance, and state 0 stays the initial one.
func minimize(states []dfaState) []dfaState {
	class := make([]int, len(states))
	for i, st := range states {
		if st.acceptAtEnd {
			class[i] = 1
		}
	}
	for classes := -1; ; {
		// A state's signature is its class and the classes its runes lead to.
		index := map[string]int{}
		next := make([]int, len(states))
		for i, st := range states {
			var sb strings.Builder
			sb.WriteString(strconv.Itoa(class[i]))
			for _, e := range st.edges {
				fmt.Fprintf(&sb, ";%d:%d", e.lo, classOf(class, e.target))
			}
			key := sb.String()
			if _, ok := index[key]; !ok {
				index[key] = len(index)
			}
			next[i] = index[key]
		}
		class = next
		if len(index) == classes {
			break
		}
		classes = len(index)
	}

	out := make([]dfaState, 0, len(states))
	seen := map[int]bool{}
	for i, st := range states {
		if seen[class[i]] {
			continue
		}
		seen[class[i]] = true
		var edges []edge
		for _, e := range st.edges {
			target := classOf(class, e.target)
			if n := len(edges); n > 0 && edges[n-1].target == target {
				edges[n-1].hi = e.hi
				continue
			}
			edges = append(edges, edge{e.lo, e.hi, target})
		}
		out = append(out, dfaState{edges: edges, acceptAtEnd: st.acceptAtEnd})
	}
	return out
}

// classOf maps a transition target through the state classes, leaving the special targets.
func classOf(class []int, target int) int {
	if target < 0 {
		return target
	}
	return class[target]
}

// builder holds the subset construction: the NFA state sets found so far, by key.
type builder struct {
	prog    *syntax.Prog
	ranges  [][]interval
	restart []uint32 // closure of the start at a position > 0, joined to every step
	sets    [][]uint32
	atStart []bool
	states  []dfaState
	index   map[string]int
}

// add registers a state set and returns its index.
func (b *builder) add(set []uint32, atStart bool) int {
	key := setKey(set, atStart)
	if i, ok := b.index[key]; ok {
		return i
	}
	b.index[key] = len(b.sets)
	b.sets = append(b.sets, set)
	b.atStart = append(b.atStart, atStart)
	b.states = append(b.states, dfaState{})
	return len(b.sets) - 1
}

// step returns the target reached from set on rune r (a representative of its interval).
func (b *builder) step(set []uint32, r rune) int {
	var next []uint32
	for _, pc := range set {
		if containsRune(b.ranges[pc], r) {
			next = append(next, b.prog.Inst[pc].Out)
		}
	}
	closed, matched := b.closure(next, false)
	if matched {
		return targetAccept
	}
	closed = union(closed, b.restart)
	if len(closed) == 0 {
		return targetDead
	}
	return b.add(closed, false)
}

// closure follows the empty transitions from seeds at a position that is not the end of the
// input (the start of it when atStart). It returns the sorted set of instructions that wait
// for input: rune instructions, and `$` assertions kept pending until the end is known. matched
// reports that a Match instruction is reachable, which ends the search.
func (b *builder) closure(seeds []uint32, atStart bool) (set []uint32, matched bool) {
	seen := make(map[uint32]bool, len(seeds))
	stack := slices.Clone(seeds)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[pc] {
			continue
		}
		seen[pc] = true
		inst := &b.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstMatch:
			return nil, true
		case syntax.InstFail:
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Out, inst.Arg)
		case syntax.InstNop, syntax.InstCapture:
			stack = append(stack, inst.Out)
		case syntax.InstEmptyWidth:
			need := syntax.EmptyOp(inst.Arg)
			if atStart {
				need &^= syntax.EmptyBeginText
			}
			switch {
			case need&syntax.EmptyBeginText != 0:
				// `^` after the first position can never hold.
			case need&syntax.EmptyEndText != 0:
				set = append(set, pc)
			default:
				stack = append(stack, inst.Out)
			}
		default: // rune instructions
			set = append(set, pc)
		}
	}
	slices.Sort(set)
	return set, false
}

// acceptsAtEnd reports whether the input may end in a state holding set: whether a Match is
// reachable from its pending `$` assertions now that both `$` and, for the initial state, `^`
// hold.
func (b *builder) acceptsAtEnd(set []uint32, atStart bool) bool {
	var stack []uint32
	for _, pc := range set {
		if b.prog.Inst[pc].Op == syntax.InstEmptyWidth {
			stack = append(stack, pc)
		}
	}
	seen := map[uint32]bool{}
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[pc] {
			continue
		}
		seen[pc] = true
		inst := &b.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstMatch:
			return true
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Out, inst.Arg)
		case syntax.InstNop, syntax.InstCapture:
			stack = append(stack, inst.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&syntax.EmptyBeginText == 0 || atStart {
				stack = append(stack, inst.Out)
			}
		}
	}
	return false
}

// instRanges returns the runes a rune-consuming instruction accepts, as sorted intervals. A
// single rune under (?i) stands for its whole simple case-folding orbit ('k', 'K' and the
// Kelvin sign), exactly as syntax.Inst.MatchRune reads it.
func instRanges(inst *syntax.Inst) []interval {
	switch inst.Op {
	case syntax.InstRuneAny:
		return []interval{{0, unicode.MaxRune}}
	case syntax.InstRuneAnyNotNL:
		return []interval{{0, '\n' - 1}, {'\n' + 1, unicode.MaxRune}}
	}
	if len(inst.Rune) == 1 {
		r0 := inst.Rune[0]
		out := []interval{{r0, r0}}
		if inst.Op == syntax.InstRune && syntax.Flags(inst.Arg)&syntax.FoldCase != 0 {
			for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
				out = append(out, interval{r, r})
			}
			slices.SortFunc(out, func(a, b interval) int { return int(a.lo - b.lo) })
		}
		return out
	}
	out := make([]interval, 0, len(inst.Rune)/2)
	for i := 0; i+1 < len(inst.Rune); i += 2 {
		out = append(out, interval{inst.Rune[i], inst.Rune[i+1]})
	}
	return out
}

// partition splits [0, MaxRune] at every bound into the coarsest intervals inside which no
// instruction changes its answer.
func partition(bounds []rune) []interval {
	bounds = append(bounds, 0)
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	var out []interval
	for i, lo := range bounds {
		if lo > unicode.MaxRune {
			break
		}
		hi := rune(unicode.MaxRune)
		if i+1 < len(bounds) && bounds[i+1]-1 < hi {
			hi = bounds[i+1] - 1
		}
		out = append(out, interval{lo, hi})
	}
	return out
}

func containsRune(ivs []interval, r rune) bool {
	for _, iv := range ivs {
		if iv.lo <= r && r <= iv.hi {
			return true
		}
	}
	return false
}

// union merges two sorted sets.
func union(a, b []uint32) []uint32 {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func setKey(set []uint32, atStart bool) string {
	var sb strings.Builder
	if atStart {
		sb.WriteString("^")
	}
	for _, pc := range set {
		sb.WriteString(strconv.FormatUint(uint64(pc), 10))
		sb.WriteByte(',')
	}
	return sb.String()
}
