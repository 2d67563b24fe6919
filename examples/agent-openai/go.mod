module github.com/toolgen-go/toolgen/examples/agent-openai

go 1.26.0

require (
	github.com/openai/openai-go/v3 v3.95.0
	github.com/toolgen-go/toolgen v0.0.0
	github.com/toolgen-go/toolgen/runtime/openai/openaisdk v0.0.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/go-faster/errors v0.7.1 // indirect
	github.com/go-faster/jx v1.2.0 // indirect
	github.com/segmentio/asm v1.2.1 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	golang.org/x/net v0.61.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace (
	github.com/toolgen-go/toolgen => ../..
	github.com/toolgen-go/toolgen/runtime/openai/openaisdk => ../../runtime/openai/openaisdk
)
