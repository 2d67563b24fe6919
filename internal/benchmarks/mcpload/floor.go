package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
)

// The floor: what serving a call costs with no MCP implementation at all. A plain net/http
// handler, and over stdio a loop that reads a line and writes a line, answer each request with
// canned bytes: the answers toolgen's server gives to the load client's requests, with the
// request's id in them. They decode no JSON: the method, the id, the protocol and which of the
// two argument documents came are found by byte searches. Anything a server does beyond this
// is its own cost; the floor is what HTTP or a pipe and the process cost alone.

// The canned results, on each protocol, of the valid and the invalid call.
const (
	floorValid = `"content":[{"type":"text","text":"{\"city\":\"Tokyo\",\"unit\":\"celsius\",\"temperature\":17,\"conditions\":\"partly cloudy\"}"}],` +
		`"structuredContent":{"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy"}`
	floorInvalid = `"content":[{"type":"text","text":"invalid arguments for get_weather: /unit: must be a string, got 42\nCorrect the arguments and call get_weather again."}],"isError":true`
	floorMeta    = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"floor","version":"1"}},`
	floorCaps    = `"capabilities":{"tools":{}}`
)

var (
	floorAnswers = map[bool]map[bool]string{ // by 2026-07-28, then by invalid
		false: {false: `{` + floorValid + `}`, true: `{` + floorInvalid + `}`},
		true:  {false: `{` + floorMeta + floorValid + `,"resultType":"complete"}`, true: `{` + floorMeta + floorInvalid + `,"resultType":"complete"}`},
	}
	floorInitialize = `{` + floorCaps + `,"protocolVersion":"` + protocol20251125 + `","serverInfo":{"name":"floor","version":"1"}}`
	floorDiscover   = `{"resultType":"complete",` + floorMeta + `"supportedVersions":["` + protocol20260728 + `","` + protocol20251125 + `"],` + floorCaps + `}`
)

// floorAnswer is the answer to the JSON-RPC message msg, or nil for a notification.
func floorAnswer(msg []byte, buf []byte) []byte {
	id := floorField(msg, `"id":`)
	if id == nil {
		return nil
	}
	var result string
	switch method := floorField(msg, `"method":`); string(method) {
	case `"initialize"`:
		result = floorInitialize
	case `"server/discover"`:
		result = floorDiscover
	default:
		stateless := bytes.Contains(msg, []byte(`"io.modelcontextprotocol/protocolVersion":"`+protocol20260728+`"`))
		result = floorAnswers[stateless][bytes.Contains(msg, invalidArgs)]
	}
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, id...)
	buf = append(buf, `,"result":`...)
	buf = append(buf, result...)
	return append(buf, '}')
}

// floorField is the value after key (a number, or a string without escapes), nil without it.
func floorField(msg []byte, key string) []byte {
	i := bytes.Index(msg, []byte(key))
	if i < 0 {
		return nil
	}
	v := msg[i+len(key):]
	end := bytes.IndexAny(v, ",}")
	if end < 0 {
		return nil
	}
	return v[:end]
}

// floorServer is the floor over HTTP (stateful: initialize's answer names a session, which is
// then ignored) and over stdio.
func floorServer(stateless bool) (http.Handler, func(context.Context) error) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || r.Method != http.MethodPost {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		out := floorAnswer(body, make([]byte, 0, 512))
		if out == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if !stateless && bytes.Contains(body, []byte(`"method":"initialize"`)) {
			w.Header().Set("Mcp-Session-Id", "floor")
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	})
	return h, func(context.Context) error {
		in := bufio.NewReaderSize(os.Stdin, 64<<10)
		out := bufio.NewWriterSize(os.Stdout, 64<<10)
		var buf []byte
		for {
			line, err := in.ReadSlice('\n')
			if len(line) > 0 {
				if buf = floorAnswer(line, buf[:0]); buf != nil {
					_, _ = out.Write(append(buf, '\n'))
					if err := out.Flush(); err != nil {
						return err
					}
				}
			}
			if err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
	}
}
