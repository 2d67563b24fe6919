package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// Every server serves the same tool: examples/weather's get_weather, with the schemas toolgen
// generates for it, and answers the same JSON (structuredContent and its text).

// weatherTool is the generated tool; the peers take its name, description and schemas.
func weatherTool() runtime.Tool { return weather.Tools()[0] }

// peerArgs are get_weather's arguments as the peers decode them: the same fields and checks
// the schema states (city required, at least one character; unit an enum, celsius by
// default; days 0..7), written by hand as a user of the SDK would.
type peerArgs struct {
	City string       `json:"city"`
	Unit weather.Unit `json:"unit,omitempty"`
	Days int          `json:"days,omitempty"`
}

func (a *peerArgs) check() error {
	var problems []error
	if a.City == "" {
		problems = append(problems, errors.New("city: required, at least one character"))
	}
	switch a.Unit {
	case "":
		a.Unit = weather.Celsius
	case weather.Celsius, weather.Fahrenheit:
	default:
		problems = append(problems, fmt.Errorf("unit: %q is not celsius or fahrenheit", a.Unit))
	}
	if a.Days < 0 || a.Days > 7 {
		problems = append(problems, fmt.Errorf("days: %d is outside 0..7", a.Days))
	}
	return errors.Join(problems...)
}

func (a peerArgs) run(ctx context.Context) (weather.Weather, error) {
	return weather.GetWeather(ctx, weather.WeatherArgs{City: a.City, Unit: a.Unit, Days: a.Days})
}

// toolgenServer is toolgen's runtime/mcp on the go-sdk, as HTTPHandler and ServeStdio build it.
func toolgenServer(stateless bool) (http.Handler, func(context.Context) error) {
	reg := runtime.NewRegistry()
	if err := reg.Add(weatherTool()); err != nil {
		panic(err)
	}
	opts := []toolmcp.Option{toolmcp.WithSessionLimits(toolmcp.SessionLimits{Max: -1, MaxPerClient: -1})}
	if stateless {
		opts = append(opts, toolmcp.WithStateless())
	}
	return toolmcp.HTTPHandler(reg, opts...), func(ctx context.Context) error { return toolmcp.ServeStdio(ctx, reg) }
}

// gosdkServer is the tool written on the go-sdk alone: a typed tool (mcp.AddTool), which
// decodes the arguments to a map, applies defaults, validates them against the input schema
// and decodes them again into the struct, then checks them as peerArgs.check does.
func gosdkServer(stateless bool) (http.Handler, func(context.Context) error) {
	server := gosdkMCPServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	return h, func(ctx context.Context) error { return server.Run(ctx, &mcp.StdioTransport{}) }
}

func gosdkMCPServer() *mcp.Server {
	t := weatherTool()
	server := mcp.NewServer(&mcp.Implementation{Name: "gosdk", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema},
		func(ctx context.Context, _ *mcp.CallToolRequest, args peerArgs) (*mcp.CallToolResult, weather.Weather, error) {
			if err := args.check(); err != nil {
				return nil, weather.Weather{}, err
			}
			w, err := args.run(ctx)
			return nil, w, err
		})
	return server
}

// mcpgoServer is the tool on mark3labs/mcp-go: the raw schemas, the arguments bound to the
// struct and checked by hand.
func mcpgoServer(stateless bool) (http.Handler, func(context.Context) error) {
	t := weatherTool()
	server := mcpgoserver.NewMCPServer("mcpgo", "1", mcpgoserver.WithToolCapabilities(false))
	tool := mcpgo.NewToolWithRawSchema(t.Name, t.Description, t.InputSchema)
	tool.RawOutputSchema = t.OutputSchema
	server.AddTool(tool, func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args peerArgs
		if err := req.BindArguments(&args); err != nil {
			return mcpgo.NewToolResultError("invalid arguments: " + err.Error()), nil
		}
		if err := args.check(); err != nil {
			return mcpgo.NewToolResultError("invalid arguments: " + err.Error()), nil
		}
		w, err := args.run(ctx)
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		text, _ := json.Marshal(w)
		return mcpgo.NewToolResultStructured(w, string(text)), nil
	})
	h := mcpgoserver.NewStreamableHTTPServer(server, mcpgoserver.WithStateLess(stateless), mcpgoserver.WithDisableLocalhostProtection(true))
	return h, func(context.Context) error {
		return mcpgoserver.NewStdioServer(server).Listen(context.Background(), os.Stdin, os.Stdout)
	}
}

// goServers are the servers this program builds in Go, by name.
var goServers = map[string]func(stateless bool) (http.Handler, func(context.Context) error){
	"toolgen": toolgenServer,
	"gosdk":   gosdkServer,
	"mcpgo":   mcpgoServer,
	"floor":   floorServer,
}
