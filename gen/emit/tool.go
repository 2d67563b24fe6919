package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/model"
)

// bindingName names the toolimpl.Binding of a plain function's tool, a package-level variable.
func bindingName(t *model.Tool) string { return "toolgenBinding" + toolIdent(t) }

// noArgsFunc is the decoder of the tools without arguments.
const noArgsFunc = "toolgenNoArgs"

// closureParams names the parameters of a binding's functions: ctx, the arguments' document
// and the arguments.
type closureParams struct{ ctx, data, args string }

var (
	shortParams = closureParams{"ctx", "data", "a"}
	// prefixedParams are used where a short name could shadow a package or type the function
	// body names (an args type from a package named data, say).
	prefixedParams = closureParams{"toolgenCtx", "toolgenData", "toolgenArgs"}
)

// paramsFor returns the parameter names of t's binding: the short ones unless the body would
// name, besides generated identifiers, a package or a type or handler spelled like one of them.
func (g *generator) paramsFor(t *model.Tool) closureParams {
	clash := false
	short := map[string]bool{shortParams.ctx: true, shortParams.data: true, shortParams.args: true}
	var visit func(*model.Type)
	seen := map[*model.Type]bool{}
	visit = func(ty *model.Type) {
		if ty == nil || seen[ty] || clash {
			return
		}
		seen[ty] = true
		if n := ty.Named; n != nil {
			// Another package is referred to by a name toolgen does not choose.
			clash = clash || n.Path != g.pkg.Path || short[n.Name]
			for _, a := range n.TypeArgs {
				visit(a)
			}
			return
		}
		visit(ty.Elem)
		visit(ty.Key)
	}
	visit(t.Args)
	if t.Handler.Receiver == nil && short[t.Handler.Name] {
		clash = true
	}
	if clash {
		return prefixedParams
	}
	return shortParams
}

// tool emits what a plain function's tool needs besides its Tools() entry: its binding, a
// package-level value. A method's binding is made by its Tools function (receiverBindings),
// so that each handler call reaches r.
func (g *generator) tool(t *model.Tool) error {
	if t.Handler.Receiver != nil {
		return nil
	}
	b, err := g.binding(t)
	if err != nil {
		return err
	}
	g.f.Var().Id(bindingName(t)).Op("=").Qual(toolimplPath, "Binding").Add(b)
	g.f.Line()
	return nil
}

// receiverBindings renders the bindings of the tools of a receiver group, in order: the
// elements of a []*toolimpl.Binding made by its Tools function, so that each handler call
// reaches r.
func (g *generator) receiverBindings(grp receiverGroup) ([]jen.Code, error) {
	var elems []jen.Code
	for _, t := range grp.tools {
		b, err := g.binding(t)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		elems = append(elems, b)
	}
	return elems, nil
}

// binding renders the toolimpl.Binding of one tool: New, which allocates a call with its
// arguments beside it; the arguments' decoder; their Validate method when the generator
// calls it; and a Run that calls the handler once and turns what it returns into a
// runtime.Result. The functions take the arguments as any (the pointer New made): no generic
// instantiation per tool.
func (g *generator) binding(t *model.Tool) (jen.Code, error) {
	names := g.paramsFor(t)
	ctxParam := jen.Id(names.ctx).Qual("context", "Context")
	d := jen.Dict{}
	var argsPtr jen.Code // *Args, for the type assertions
	if t.Args == nil {
		if !g.noArgs {
			// A tool without arguments still refuses unknown ones: the model should learn it
			// sent something the tool ignores.
			g.noArgs = true
			g.f.Commentf("%s refuses any argument, for the tools that take none.", noArgsFunc)
			g.f.Func().Id(noArgsFunc).Params(jen.Id("data").Index().Byte(), jen.Id("_").Any()).Error().Block(
				jen.Return(jen.Qual(toolimplPath, "NoArgs").Call(jen.Id("data"))))
			g.f.Line()
		}
		d[jen.Id("New")] = jen.Qual(toolimplPath, "NewCallSlot")
		d[jen.Id("Decode")] = jen.Id(noArgsFunc)
	} else {
		argsType, err := g.typeExpr(t.Args)
		if err != nil {
			return nil, err
		}
		argsPtr = jen.Op("*").Add(argsType)
		table, err := g.argsTable(t.Args)
		if err != nil {
			return nil, err
		}
		// The call and its arguments in one allocation.
		d[jen.Id("New")] = jen.Func().Params().Op("*").Qual(toolimplPath, "CallSlot").Block(
			jen.Id("c").Op(":=").New(jen.Qual(toolimplPath, "Slot").Types(argsType)),
			jen.Return(jen.Id("c").Dot("Hold").Call(jen.Op("&").Id("c").Dot("Args"))))
		d[jen.Id("Table")] = table
		if t.Handler.Validate {
			d[jen.Id("Validate")] = jen.Func().Params(ctxParam, jen.Id(names.args).Any()).Error().Block(
				jen.Return(jen.Id(names.args).Assert(argsPtr).Dot("Validate").Call(jen.Id(names.ctx))))
		}
	}
	run, err := g.runBody(t, names, argsPtr)
	if err != nil {
		return nil, err
	}
	d[jen.Id("Run")] = jen.Func().Params(ctxParam, jen.Id(names.args).Any()).Qual(runtimePath, "Result").Block(run...)
	return jen.Values(d), nil
}

// handlerCall renders the call of the handler from inside a binding's Run, whose parameters
// are named by names (the arguments, of type argsPtr, as any); a method's receiver is r.
func (g *generator) handlerCall(t *model.Tool, names closureParams, argsPtr jen.Code) jen.Code {
	h := t.Handler
	var args []jen.Code
	if h.Context {
		args = append(args, jen.Id(names.ctx))
	}
	switch h.Args {
	case model.ArgsValue:
		args = append(args, jen.Op("*").Id(names.args).Assert(argsPtr))
	case model.ArgsPointer:
		args = append(args, jen.Id(names.args).Assert(argsPtr))
	}
	if h.Receiver != nil {
		return jen.Id("r").Dot(h.Name).Call(args...)
	}
	return g.qual(g.pkg.Path, h.Name).Call(args...)
}

// runBody renders Run: call the handler once and turn its results into a runtime.Result.
func (g *generator) runBody(t *model.Tool, names closureParams, argsPtr jen.Code) ([]jen.Code, error) {
	if t.Client {
		return []jen.Code{jen.Return(jen.Qual(toolimplPath, "ClientCallResult").Call(jen.Lit(t.Name)))}, nil
	}
	errResult := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(runtimePath, "ErrorResult").Call(jen.Err())))
	call := g.handlerCall(t, names, argsPtr)
	switch t.Handler.Returns {
	case model.ReturnNone:
		return []jen.Code{
			jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Qual(runtimePath, "ErrorResult").Call(jen.Err()))),
			jen.Return(jen.Qual(runtimePath, "TextResult").Call(jen.Lit("ok"))),
		}, nil
	case model.ReturnText:
		return []jen.Code{
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
			errResult,
			jen.Return(jen.Qual(runtimePath, "TextResult").Call(jen.Id("out"))),
		}, nil
	case model.ReturnResult:
		return []jen.Code{
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
			errResult,
			jen.Return(jen.Id("out")),
		}, nil
	}
	if name, ok, err := g.resultFunc(t.Result); err != nil {
		return nil, err
	} else if ok {
		return []jen.Code{
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
			jen.Return(jen.Id(name).Call(jen.Id("out"), jen.Err(), jen.Lit(t.Name))),
		}, nil
	}
	encode, err := g.encodeValue(t.Result, jen.Id("out"))
	// out is a local, so the encoders can take its address.
	if err != nil {
		return nil, err
	}
	body := []jen.Code{
		jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
		errResult,
		jen.Id("w").Op(":=").Qual(toolimplPath, "AcquireWriter").Call(),
	}
	body = append(body, encode...)
	body = append(body, jen.Return(jen.Qual(toolimplPath, "FinishWriter").Call(jen.Id("w"), jen.Lit(t.Name))))
	return body, nil
}

// guard renders the func type the generated code was written for and the handler as a value
// (a method expression for a method), for guards.
func (g *generator) guard(t *model.Tool) (sig, value jen.Code, err error) {
	h := t.Handler
	var argsType jen.Code
	if t.Args != nil {
		if argsType, err = g.typeExpr(t.Args); err != nil {
			return nil, nil, err
		}
	}
	var params []jen.Code
	if h.Receiver != nil {
		recv := jen.Id(h.Receiver.TypeName)
		if h.Receiver.Pointer {
			recv = jen.Op("*").Id(h.Receiver.TypeName)
		}
		params = append(params, recv)
	}
	if h.Context {
		params = append(params, jen.Qual("context", "Context"))
	}
	switch h.Args {
	case model.ArgsValue:
		params = append(params, argsType)
	case model.ArgsPointer:
		params = append(params, jen.Op("*").Add(argsType))
	}
	var results []jen.Code
	switch h.Returns {
	case model.ReturnText:
		results = append(results, jen.String())
	case model.ReturnResult:
		results = append(results, jen.Qual(runtimePath, "Result"))
	case model.ReturnStructured:
		rt, err := g.typeExpr(t.Result)
		if err != nil {
			return nil, nil, err
		}
		results = append(results, rt)
	}
	results = append(results, jen.Error())
	value = g.qual(g.pkg.Path, h.Name)
	if h.Receiver != nil {
		if h.Receiver.Pointer {
			value = jen.Parens(jen.Op("*").Id(h.Receiver.TypeName)).Dot(h.Name)
		} else {
			value = jen.Id(h.Receiver.TypeName).Dot(h.Name)
		}
	}
	return jen.Func().Params(params...).Params(results...), value, nil
}

// resultFunc returns the function that turns a handler's structured result and error into a
// runtime.Result, emitting it the first time: one per result type, shared by the tools that
// return it. ok is false for a result type Go cannot spell (an unnamed struct), whose tools
// encode inline.
func (g *generator) resultFunc(t *model.Type) (name string, ok bool, err error) {
	typ, err := g.typeExpr(t)
	if err != nil {
		return "", false, nil
	}
	name = "toolgenResult" + g.typeIdent(t)
	if g.resultFuncs[name] {
		return name, true, nil
	}
	g.resultFuncs[name] = true
	encode, err := g.encodeValue(t, jen.Id("out"))
	if err != nil {
		return "", false, err
	}
	body := []jen.Code{
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(runtimePath, "ErrorResult").Call(jen.Err()))),
		jen.Id("w").Op(":=").Qual(toolimplPath, "AcquireWriter").Call(),
	}
	body = append(body, encode...)
	body = append(body, jen.Return(jen.Qual(toolimplPath, "FinishWriter").Call(jen.Id("w"), jen.Id("tool"))))
	code := jen.Commentf("%s turns what a handler of tool returned into its result.", name).Line().
		Func().Id(name).Params(jen.Id("out").Add(typ), jen.Err().Error(), jen.Id("tool").String()).Qual(runtimePath, "Result").
		Block(body...)
	g.encodeDecls = append(g.encodeDecls, decl{name: name, code: code})
	return name, true, nil
}
