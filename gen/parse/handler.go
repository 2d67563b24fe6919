package parse

import (
	"go/types"

	"github.com/toolgen-go/toolgen/gen/model"
)

// runtimePath is the import path of the package whose Result a handler may return as is.
const runtimePath = "github.com/toolgen-go/toolgen/runtime"

// handlerForms is the hint of every signature error: the forms DESIGN.md §2 allows.
const handlerForms = "a handler is one of func(ctx context.Context, args T) (R, error), " +
	"func(ctx context.Context, args T) error, func(args T) (R, error) or " +
	"func(ctx context.Context) (R, error), or a method of one of these forms, " +
	"where T is a struct type or a pointer to one"

// funcTool builds the tool of a func or method whose doc holds //tool: directives.
func (p *parser) funcTool(o *docOwner) *model.Tool {
	fd := o.fn
	t := p.newTool(o, fd.Name.Name, fd.Name.Pos())
	fn, _ := p.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return t
	}
	sig := fn.Type().(*types.Signature)
	t.Handler.Name = fd.Name.Name
	if sig.TypeParams().Len() > 0 {
		p.errorf(t.Pos, "wrap an instantiation in a plain func: func "+fd.Name.Name+"Int(ctx context.Context, args Args[int]) (R, error) { ... }",
			"handler %s must not be generic", fd.Name.Name)
		return t
	}
	if recv := sig.Recv(); recv != nil && !p.receiver(t, recv) {
		return t
	}
	p.signature(t, sig)
	return t
}

// receiver fills t.Handler.Receiver; the receiver must be a named, non-generic type of the
// package, so that the generated (*Type).Tools method can be declared on it.
func (p *parser) receiver(t *model.Tool, recv *types.Var) bool {
	rt := types.Unalias(recv.Type())
	ptr, isPtr := rt.(*types.Pointer)
	if isPtr {
		rt = types.Unalias(ptr.Elem())
	}
	named, ok := rt.(*types.Named)
	if !ok || named.Obj().Pkg() != p.pkg.Types {
		p.errorf(t.Pos, "", "handler %s: receiver type %s is not a named type of package %s", t.Handler.Name, p.typeString(recv.Type()), p.pkg.Name)
		return false
	}
	if named.TypeParams().Len() > 0 || named.TypeArgs().Len() > 0 {
		p.errorf(t.Pos, "declare the handler on a non-generic type, or wrap it in a plain func",
			"handler %s: methods of generic type %s cannot be tools", t.Handler.Name, named.Obj().Name())
		return false
	}
	t.Handler.Receiver = &model.Receiver{TypeName: named.Obj().Name(), Pointer: isPtr, Members: members(named)}
	return true
}

// members returns the names of the methods and fields of *named, promoted ones included.
func members(named *types.Named) []string {
	var names []string
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := range ms.Len() {
		names = append(names, ms.At(i).Obj().Name())
	}
	if st, ok := named.Underlying().(*types.Struct); ok {
		for i := range st.NumFields() {
			names = append(names, st.Field(i).Name())
		}
	}
	return names
}

// signature checks sig against the allowed handler forms and fills the handler, the args and
// the result of t.
func (p *parser) signature(t *model.Tool, sig *types.Signature) bool {
	params, results := sig.Params(), sig.Results()
	bad := func(why string) bool {
		p.errorf(t.Pos, handlerForms, "handler %s has an unsupported signature: %s", t.Handler.Name, why)
		return false
	}
	if sig.Variadic() {
		return bad("variadic parameters are not allowed")
	}
	var argsVar *types.Var
	switch params.Len() {
	case 0:
		return bad("it takes no parameters")
	case 1:
		if isContext(params.At(0).Type()) {
			t.Handler.Context = true
		} else {
			argsVar = params.At(0)
		}
	case 2:
		if !isContext(params.At(0).Type()) {
			return bad("the first of two parameters must be context.Context, found " + p.typeString(params.At(0).Type()))
		}
		t.Handler.Context = true
		argsVar = params.At(1)
	default:
		return bad("it takes more than two parameters")
	}

	switch results.Len() {
	case 1:
		if !isError(results.At(0).Type()) {
			return bad("the only result must be error, found " + p.typeString(results.At(0).Type()))
		}
		if !t.Handler.Context || argsVar == nil {
			return bad("a handler returning only error takes (ctx context.Context, args T)")
		}
		t.Handler.Returns = model.ReturnNone
	case 2:
		if !isError(results.At(1).Type()) {
			return bad("the second result must be error, found " + p.typeString(results.At(1).Type()))
		}
		if !p.result(t, results.At(0).Type()) {
			return false
		}
	default:
		return bad("it must return (R, error) or error")
	}

	if argsVar != nil {
		return p.args(t, argsVar)
	}
	t.Handler.Args = model.ArgsNone
	return true
}

// args converts the args parameter: a struct type or a pointer to one.
func (p *parser) args(t *model.Tool, v *types.Var) bool {
	at := types.Unalias(v.Type())
	t.Handler.Args = model.ArgsValue
	if ptr, ok := at.(*types.Pointer); ok {
		at = types.Unalias(ptr.Elem())
		t.Handler.Args = model.ArgsPointer
	}
	if _, ok := at.Underlying().(*types.Struct); !ok {
		if isInvalid(at) {
			p.errorf(t.Pos, "fix the type errors of the package first", "handler %s: the args type does not type-check", t.Handler.Name)
			return false
		}
		p.errorf(t.Pos, "declare a struct type for the arguments: a tool's arguments are a JSON object",
			"handler %s: args must be a struct or a pointer to one, found %s", t.Handler.Name, p.typeString(v.Type()))
		return false
	}
	root := "args"
	if n, ok := at.(*types.Named); ok {
		root = n.Obj().Name()
	}
	t.Args = p.convert(at, &site{root: root, pos: t.Pos})
	t.Handler.Validate = p.hasValidate(t, at)
	return true
}

// hasValidate reports whether the method set of *T has Validate(context.Context) error. A
// Validate with another signature would silently not run, so it is a warning, at the method:
// that is what to change, and tools sharing the args type then share one warning.
func (p *parser) hasValidate(t *model.Tool, at types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(at), true, p.pkg.Types, "Validate")
	m, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := m.Type().(*types.Signature)
	if sig.Params().Len() == 1 && isContext(sig.Params().At(0).Type()) &&
		sig.Results().Len() == 1 && isError(sig.Results().At(0).Type()) && !sig.Variadic() {
		return true
	}
	pos := p.l.Position(m.Pos())
	if !pos.IsValid() {
		pos = t.Pos
	}
	p.diags.Warnf(pos, "method Validate of %s is %s, not Validate(context.Context) error; it will not run",
		p.typeString(at), p.typeString(sig)).
		WithHint("change its signature to Validate(ctx context.Context) error so toolgen calls it after decoding")
	return false
}

// result classifies the first result: text, a runtime.Result, or structured JSON.
func (p *parser) result(t *model.Tool, rt types.Type) bool {
	u := types.Unalias(rt)
	switch {
	case types.Identical(u, types.Typ[types.String]):
		t.Handler.Returns = model.ReturnText
		return true
	case isRuntimeResult(u):
		t.Handler.Returns = model.ReturnResult
		return true
	case isInvalid(u):
		p.errorf(t.Pos, "fix the type errors of the package first", "handler %s: the result type does not type-check", t.Handler.Name)
		return false
	}
	if ptr, ok := u.(*types.Pointer); ok && isRuntimeResult(types.Unalias(ptr.Elem())) {
		p.errorf(t.Pos, "return runtime.Result by value", "handler %s returns *runtime.Result", t.Handler.Name)
		return false
	}
	t.Handler.Returns = model.ReturnStructured
	root := p.typeString(u)
	if n, ok := u.(*types.Named); ok {
		root = n.Obj().Name()
	}
	t.Result = p.convert(u, &site{root: root, pos: t.Pos, result: t.Handler.Name})
	return t.Result != nil
}

func isRuntimeResult(t types.Type) bool { return isNamed(t, runtimePath, "Result") }

func isContext(t types.Type) bool { return isNamed(types.Unalias(t), "context", "Context") }

func isError(t types.Type) bool {
	return types.Identical(types.Unalias(t), types.Universe.Lookup("error").Type())
}

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

func isInvalid(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.Invalid
}
