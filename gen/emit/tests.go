package emit

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/gen/agreement"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
)

// tooltestPath is the import path of the test kit the generated tests call.
const tooltestPath = "github.com/toolgen-go/toolgen/runtime/tooltest"

// TestFile renders the generated tests of pkg (toolgen -tests): per tool, a test running its
// //tool:example calls that have an => EXPECTED result (TestToolNameExamples), and a fuzz
// target (FuzzToolName) seeded from its examples and from calls derived from its input
// schema now, at generate time (agreement.Seeds). Both are one call of runtime/tooltest with
// the examples and seeds as literals. Method tools are called on toolgenNew<Receiver>(), a
// variable the file declares as new(Receiver) and a test file of the package may set. Client
// tools, which have no handler, and MCP prompts and resources are left out. It returns nil
// when no tool is left.
func TestFile(pkg *model.Package) ([]byte, error) {
	var tools []*model.Tool
	for _, t := range pkg.Tools {
		if !t.Client && t.Serve == model.ServeTool {
			tools = append(tools, t)
		}
	}
	if len(tools) == 0 {
		return nil, nil
	}
	f := jen.NewFilePathName(pkg.Path, pkg.Name)
	f.HeaderComment(Header)
	header := "// " + generatedComment(Version)
	for _, src := range sourceFiles(pkg) {
		header += "\n// source: " + src
	}
	f.HeaderComment(header)
	f.ImportName(runtimePath, "runtime")
	f.ImportName(tooltestPath, "tooltest")
	f.ImportName("testing", "testing")

	receivers := map[string]bool{}
	names := map[string]bool{}
	for _, t := range tools {
		tools := jen.Id("Tools")
		if r := t.Handler.Receiver; r != nil {
			fn := "toolgenTest" + r.TypeName + "Tools"
			tools = jen.Id(fn)
			if !receivers[r.TypeName] {
				receivers[r.TypeName] = true
				newVar := "toolgenNew" + r.TypeName
				f.Add(docComment(fmt.Sprintf("%s makes the %s whose tools the generated tests call, a new one\n"+
					"for every call so that none sees the state another left: new(%s), unless a test file of\n"+
					"the package sets it, in an init function, to build one ready to use.", newVar, r.TypeName, r.TypeName)).
					Var().Id(newVar).Op("=").Func().Params().Op("*").Id(r.TypeName).Block(jen.Return(jen.New(jen.Id(r.TypeName)))))
				f.Line()
				call := jen.Id(newVar).Call().Dot("Tools").Call()
				if !hasToolsMethod(r) {
					call = jen.Id(r.TypeName + "Tools").Call(jen.Id(newVar).Call())
				}
				f.Add(docComment(fmt.Sprintf("%s returns the tools of %s().", fn, newVar)).
					Func().Id(fn).Params().Index().Qual(runtimePath, "Tool").Block(jen.Return(call)))
				f.Line()
				f.Line()
			}
		}
		name := testName(t.Name, names)
		if ex := examplesTest(pkg, t, name, tools); ex != nil {
			f.Add(ex)
			f.Line()
		}
		f.Add(fuzzTarget(pkg, t, name, tools))
		f.Line()
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("internal error: rendering generated tests for %s: %w (please report)", pkg.Path, err)
	}
	return buf.Bytes(), nil
}

// examplesTest is TestToolNameExamples, or nil when no example of t has an expected result.
func examplesTest(pkg *model.Package, t *model.Tool, name string, tools jen.Code) jen.Code {
	args := []jen.Code{jen.Id("t"), tools, jen.Lit(t.Name)}
	for _, ex := range t.Examples {
		if ex.Expected == "" {
			continue
		}
		fields := []jen.Code{field("At", jen.Lit(shortPos(pkg, ex.Pos)))}
		if ex.Scenario != "" {
			fields = append(fields, field("Scenario", jen.Lit(ex.Scenario)))
		}
		fields = append(fields, field("Args", testString(ex.Args)), field("Expected", testString(ex.Expected)))
		args = append(args, jen.Qual(tooltestPath, "Example").Custom(multiline("{", "}"), fields...))
	}
	if len(args) == 3 {
		return nil
	}
	fn := "Test" + name + "Examples"
	return docComment(fmt.Sprintf("%s calls %s with each //tool:example that has an => EXPECTED result\nand compares the result with it.", fn, t.Name)).
		Func().Id(fn).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Qual(tooltestPath, "RunExamples").Custom(multiline("(", ")"), args...),
	)
}

// docComment is a comment of one // line per line of text, followed by what it documents
// (jennifer writes a multi-line comment as a /* */ block).
func docComment(text string) *jen.Statement {
	s := jen.Null()
	for _, line := range strings.Split(text, "\n") {
		s.Comment(line).Line()
	}
	return s
}

// multiline lays out a list one item per line between open and close.
func multiline(open, close string) jen.Options {
	return jen.Options{Open: open, Close: close, Separator: ",", Multi: true}
}

// field is a keyed element of a composite literal, for literals whose fields keep the order
// given (jen.Dict sorts them).
func field(name string, value jen.Code) jen.Code { return jen.Id(name).Op(":").Add(value) }

// fuzzTarget is FuzzToolName.
func fuzzTarget(pkg *model.Package, t *model.Tool, name string, tools jen.Code) jen.Code {
	var examples [][]byte
	var seeds []jen.Code
	for _, ex := range t.Examples {
		examples = append(examples, []byte(ex.Args))
		seeds = append(seeds, seedLit("example "+shortPos(pkg, ex.Pos), []byte(ex.Args), nil))
	}
	for _, s := range agreement.Seeds(schema.Input(t), examples) {
		seeds = append(seeds, seedLit(s.Note, s.Args, s.Problems))
	}
	fields := []jen.Code{field("Tools", tools), field("Tool", jen.Lit(t.Name))}
	if t.Handler.Validate || t.Args.HoldsText() {
		fields = append(fields, field("UserChecks", jen.True()))
	}
	fields = append(fields, field("Seeds", jen.Index().Qual(tooltestPath, "Seed").Custom(multiline("{", "}"), seeds...)))
	fn := "Fuzz" + name
	return docComment(fmt.Sprintf("%s calls %s with its examples, calls derived from its schema and what the\n"+
		"fuzzer makes of them: no call may panic, a refused one lists every problem with its JSON\n"+
		"Pointer, an accepted one reaches the handler with the values sent.", fn, t.Name)).
		Func().Id(fn).Params(jen.Id("f").Op("*").Qual("testing", "F")).Block(
		jen.Qual(tooltestPath, "FuzzTool").Call(jen.Id("f"), jen.Qual(tooltestPath, "Fuzz").Custom(multiline("{", "}"), fields...)),
	)
}

// seedLit is one tooltest.Seed literal, on one line.
func seedLit(note string, args []byte, problems []string) jen.Code {
	fields := []jen.Code{field("Note", jen.Lit(note)), field("Args", testString(string(args)))}
	if problems != nil {
		var ps []jen.Code
		for _, p := range problems {
			ps = append(ps, jen.Lit(p))
		}
		fields = append(fields, field("Problems", jen.Index().String().Values(ps...)))
	}
	return jen.Values(fields...)
}

// testString renders text as a raw string literal where Go allows it (no backquote, carriage
// return or byte order mark), else quoted.
func testString(text string) jen.Code {
	if strings.ContainsAny(text, "`\r\uFEFF") {
		return jen.Lit(text)
	}
	return rawString([]byte(text))
}

// shortPos is pos as file:line, the file relative to the package directory, as go test
// prints the places of failures.
func shortPos(pkg *model.Package, pos model.Position) string {
	name := filepath.Base(pos.Filename)
	if rel, err := filepath.Rel(pkg.Dir, pos.Filename); err == nil && !strings.HasPrefix(rel, "..") {
		name = filepath.ToSlash(rel)
	}
	return fmt.Sprintf("%s:%d", name, pos.Line)
}

// testName is the tool name in Go's mixed caps (get_weather: GetWeather), for the names of
// its test and fuzz target; taken records the names given, and a name taken already gets a
// number.
func testName(tool string, taken map[string]bool) string {
	var b strings.Builder
	upper := true
	for _, r := range tool {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			upper = true
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	name := b.String()
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s%d", b.String(), i)
	}
	taken[name] = true
	return name
}
