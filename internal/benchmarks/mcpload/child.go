package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
)

// serve runs one server as a child process: over HTTP on a loopback port, or over stdin and
// stdout. Its first line on stderr says where it listens and where its allocation counters
// are read ("mcpload-ready http=URL stats=URL"); the parent measures its CPU from /proc.
func serve(name, transport string) error {
	build, ok := goServers[name]
	if !ok {
		return fmt.Errorf("no Go server %q", name)
	}
	handler, stdio := build(transport == "stateless")
	stats, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/stats", serveStats)
	mux.HandleFunc("/debug/pprof/", pprof.Index) // profiles of the server under load: go tool pprof URL/debug/pprof/profile
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	go func() { _ = http.Serve(stats, mux) }()
	if transport == "stdio" {
		fmt.Fprintf(os.Stderr, "mcpload-ready http=- stats=http://%s/\n", stats.Addr())
		return stdio(context.Background())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "mcpload-ready http=http://%s/mcp stats=http://%s/\n", ln.Addr(), stats.Addr())
	serving := http.NewServeMux()
	serving.Handle("/mcp", handler)
	return http.Serve(ln, serving)
}

// serverStats is what a Go child reports of its memory.
type serverStats struct {
	Mallocs    uint64 `json:"mallocs"`     // objects allocated so far
	TotalAlloc uint64 `json:"total_alloc"` // bytes allocated so far
	Live       uint64 `json:"live"`        // heap in use and goroutine stacks, after a collection when asked (?gc=1)
	HeapAlloc  uint64 `json:"heap_alloc"`  // of which live objects (a Go child's; 0 from node)
	Stacks     uint64 `json:"stacks"`      // and goroutine stacks
}

func serveStats(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("gc") != "" {
		runtime.GC()
		runtime.GC()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	_ = json.NewEncoder(w).Encode(serverStats{Mallocs: m.Mallocs, TotalAlloc: m.TotalAlloc, Live: m.HeapInuse + m.StackInuse,
		HeapAlloc: m.HeapAlloc, Stacks: m.StackInuse})
}
