package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/model"
)

// tool emits the bound-call type, its Run method, the Bind function and the signature guard
// of one tool.
func (g *generator) tool(t *model.Tool) error {
	id := toolIdent(t)
	callType := "toolgenCall" + id
	h := t.Handler

	var argsType jen.Code
	if t.Args != nil {
		var err error
		if argsType, err = g.typeExpr(t.Args); err != nil {
			return err
		}
	}

	// The bound call: the receiver (methods) and the decoded arguments.
	var fields []jen.Code
	if h.Receiver != nil {
		fields = append(fields, jen.Id("recv").Op("*").Id(h.Receiver.TypeName))
	}
	if argsType != nil {
		fields = append(fields, jen.Id("args").Add(argsType))
	}
	g.f.Commentf("%s is a call of %s whose arguments passed validation.", callType, t.Name)
	g.f.Type().Id(callType).Struct(fields...)
	g.f.Line()

	argsRet := jen.Nil()
	if argsType != nil {
		argsRet = jen.Op("&").Id("c").Dot("args")
	}
	g.f.Func().Params(jen.Id("c").Op("*").Id(callType)).Id("Args").Params().Any().Block(jen.Return(argsRet))
	g.f.Line()

	run, err := g.runBody(t)
	if err != nil {
		return err
	}
	g.f.Func().Params(jen.Id("c").Op("*").Id(callType)).Id("Run").
		Params(jen.Id("ctx").Qual("context", "Context")).Qual(runtimePath, "Result").Block(run...)
	g.f.Line()

	// The Bind method: decode into c, then the args type's own Validate.
	var body []jen.Code
	if t.Args != nil {
		decodeName, err := g.argsDecoder(t.Args)
		if err != nil {
			return err
		}
		decodeCall := jen.Id(decodeName).Call(jen.Id("data"), jen.Op("&").Id("c").Dot("args"))
		if h.Validate {
			body = append(body,
				jen.If(jen.Err().Op(":=").Add(decodeCall), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.If(jen.Err().Op(":=").Id("c").Dot("args").Dot("Validate").Call(jen.Id("ctx")), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Qual(decodePath, "InvalidArgs").Call(jen.Err()))),
				jen.Return(jen.Nil()))
		} else {
			body = append(body, jen.Return(decodeCall))
		}
	} else {
		// A tool without arguments still refuses unknown ones: the model should learn it sent
		// something the tool ignores.
		body = append(body, jen.Return(jen.Qual(decodePath, "NoArgs").Call(jen.Id("data"))))
	}
	ctxParam := jen.Id("ctx")
	if t.Args == nil || !h.Validate {
		ctxParam = jen.Id("_")
	}
	g.f.Comment("Bind decodes and validates the arguments into c.")
	g.f.Func().Params(jen.Id("c").Op("*").Id(callType)).Id("Bind").
		Params(ctxParam.Qual("context", "Context"), jen.Id("data").Index().Byte()).Error().Block(body...)
	g.f.Line()

	// The framed call: what the registry allocates, with its per-call state inside, so that
	// a call through the registry allocates no more than one through Bind.
	framedType := "toolgenFramed" + id
	g.f.Commentf("%s is a call of %s allocated by the registry, with its call frame.", framedType, t.Name)
	g.f.Type().Id(framedType).Struct(jen.Id(callType), jen.Id("frame").Qual(runtimePath, "CallFrame"))
	g.f.Line()
	g.f.Func().Params(jen.Id("c").Op("*").Id(framedType)).Id("Frame").Params().Op("*").Qual(runtimePath, "CallFrame").
		Block(jen.Return(jen.Op("&").Id("c").Dot("frame")))
	g.f.Line()

	newCall := jen.Dict{}
	if h.Receiver != nil {
		newCall[jen.Id("recv")] = jen.Id("r")
	}
	bindBody := []jen.Code{
		jen.Id("c").Op(":=").Op("&").Id(callType).Values(newCall),
		jen.If(jen.Err().Op(":=").Id("c").Dot("Bind").Call(jen.Id("ctx"), jen.Id("data")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("c"), jen.Nil()),
	}
	newBody := []jen.Code{jen.Return(jen.Op("&").Id(framedType).Values(jen.Dict{jen.Id(callType): jen.Id(callType).Values(newCall)}))}
	if len(newCall) == 0 {
		newBody = []jen.Code{jen.Return(jen.Op("&").Id(framedType).Values())}
	}

	bindSig := jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("data").Index().Byte()).
		Params(jen.Qual(runtimePath, "BoundCall"), jen.Error())
	newSig := jen.Func().Params().Qual(runtimePath, "UnboundCall")
	bindName, newName := "toolgenBind"+id, "toolgenNew"+id
	if h.Receiver != nil {
		g.f.Commentf("%s returns the Bind function of %s for receiver r.", bindName, t.Name)
		g.f.Func().Id(bindName).Params(jen.Id("r").Op("*").Id(h.Receiver.TypeName)).Add(bindSig).Block(
			jen.Return(jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("data").Index().Byte()).
				Params(jen.Qual(runtimePath, "BoundCall"), jen.Error()).Block(bindBody...)))
		g.f.Line()
		g.f.Commentf("%s returns the NewCall function of %s for receiver r.", newName, t.Name)
		g.f.Func().Id(newName).Params(jen.Id("r").Op("*").Id(h.Receiver.TypeName)).Add(newSig).Block(
			jen.Return(jen.Func().Params().Qual(runtimePath, "UnboundCall").Block(newBody...)))
	} else {
		g.f.Commentf("%s decodes and validates the arguments of %s.", bindName, t.Name)
		g.f.Func().Id(bindName).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("data").Index().Byte()).
			Params(jen.Qual(runtimePath, "BoundCall"), jen.Error()).Block(bindBody...)
		g.f.Line()
		g.f.Commentf("%s allocates a call of %s for the registry to bind.", newName, t.Name)
		g.f.Func().Id(newName).Params().Qual(runtimePath, "UnboundCall").Block(newBody...)
	}
	g.f.Line()
	return nil
}

// guardFunc is named so that the compiler's error reads as the advice it is: "cannot use
// GetWeather (value of type …) as … value in argument to toolgenHandlerChangedRunGoGenerate".
const guardFunc = "toolgenHandlerChangedRunGoGenerate"

// guards emits, at the top of the file, one call passing every handler to a function whose
// parameters have the signatures toolgen generated for. A handler changed since then fails
// the build there, and since the compiler reports errors in position order, that is the first
// error, before any in the generated code that uses the handler.
func (g *generator) guards() error {
	var params, handlers []jen.Code
	for _, t := range g.pkg.Tools {
		if t.Client {
			continue
		}
		sig, value, err := g.guard(t)
		if err != nil {
			return fmt.Errorf("tool %s: %w", t.Name, err)
		}
		params = append(params, sig)
		handlers = append(handlers, value)
	}
	if len(handlers) == 0 {
		return nil
	}
	g.f.Commentf("A compile error in the next line means a handler's signature changed since toolgen ran: run go generate.")
	g.f.Var().Id("_").Op("=").Id(guardFunc).Call(handlers...)
	g.f.Line()
	g.f.Commentf("%s takes every handler with the signature toolgen generated code for.", guardFunc)
	g.f.Func().Id(guardFunc).Params(params...).Bool().Block(jen.Return(jen.True()))
	g.f.Line()
	return nil
}

// handlerCall renders the call of the handler from inside Run.
func (g *generator) handlerCall(t *model.Tool) jen.Code {
	h := t.Handler
	var args []jen.Code
	if h.Context {
		args = append(args, jen.Id("ctx"))
	}
	switch h.Args {
	case model.ArgsValue:
		args = append(args, jen.Id("c").Dot("args"))
	case model.ArgsPointer:
		args = append(args, jen.Op("&").Id("c").Dot("args"))
	}
	if h.Receiver != nil {
		return jen.Id("c").Dot("recv").Dot(h.Name).Call(args...)
	}
	return g.qual(g.pkg.Path, h.Name).Call(args...)
}

// runBody renders Run: call the handler once and turn its results into a runtime.Result.
func (g *generator) runBody(t *model.Tool) ([]jen.Code, error) {
	if t.Client {
		return []jen.Code{jen.Return(jen.Qual(runtimePath, "ClientCallResult").Call(jen.Lit(t.Name)))}, nil
	}
	errResult := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(runtimePath, "ErrorResult").Call(jen.Err())))
	call := g.handlerCall(t)
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
	encode, err := g.encodeValue(t.Result, jen.Id("out"))
	// out is a local, so the encoders can take its address.
	if err != nil {
		return nil, err
	}
	body := []jen.Code{
		jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
		errResult,
		jen.Id("w").Op(":=").Qual(encodePath, "Acquire").Call(),
	}
	body = append(body, encode...)
	body = append(body, jen.Return(jen.Qual(encodePath, "Finish").Call(jen.Id("w"), jen.Lit(t.Name))))
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
