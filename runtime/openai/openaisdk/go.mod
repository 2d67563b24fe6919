module github.com/toolgen-go/toolgen/runtime/openai/openaisdk

go 1.26.0

require (
	github.com/openai/openai-go/v3 v3.95.0
	github.com/stretchr/testify v1.12.1
	github.com/toolgen-go/toolgen v0.0.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace github.com/toolgen-go/toolgen => ../../..
