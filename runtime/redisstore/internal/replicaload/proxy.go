package main

import (
	"bytes"
	"errors"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"sync/atomic"
	"syscall"
	"time"
)

// roundRobin is the load balancer's transport: each request goes to the next replica, and to
// the one after it when a replica refuses the connection (it is down) or answers 503 with a
// Retry-After (it is draining: toolmcp.Drain). Any other failure (a replica killed
// mid-request) reaches the client as the proxy's 502.
type roundRobin struct {
	backends []string // host:port
	next     atomic.Uint64
	http     *http.Transport
	// loseAnswers is the fraction of append calls whose answer the proxy throws away after
	// the replica ran them (as if the replica died right after): the client retries them.
	loseAnswers float64
	lost        atomic.Int64
	// pass503 passes a draining replica's 503 on to the client instead of sending the
	// request to the next replica; drained counts the requests sent on.
	pass503 bool
	drained atomic.Int64
}

func (rr *roundRobin) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	var lastErr error
	first := rr.next.Add(1)
	for i := range uint64(len(rr.backends)) {
		// Each try goes to another replica: the next in turn, then those after it.
		out := req.Clone(req.Context())
		out.URL.Host, out.Host = rr.backends[(first+i)%uint64(len(rr.backends))], ""
		out.Body = io.NopCloser(bytes.NewReader(body))
		// With GetBody the transport sends the request again on a new connection when a
		// kept-alive one was found closed before anything was written (a replica that
		// just shut down), rather than failing it.
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		res, err := rr.http.RoundTrip(out)
		if errors.Is(err, syscall.ECONNREFUSED) {
			lastErr = err
			continue
		}
		if err == nil && res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") != "" && !rr.pass503 {
			// A draining replica refused the request before it ran anything: the next
			// replica gets it, as a balancer retrying 503s does.
			_, _ = io.Copy(io.Discard, res.Body)
			_ = res.Body.Close()
			rr.drained.Add(1)
			lastErr = errors.New("every replica is draining")
			continue
		}
		if err == nil && rr.loseAnswers > 0 && bytes.Contains(body, []byte(`"tools/call"`)) &&
			bytes.Contains(body, []byte(`"append"`)) && rand.Float64() < rr.loseAnswers {
			_, _ = io.Copy(io.Discard, res.Body)
			_ = res.Body.Close()
			rr.lost.Add(1)
			return nil, errAnswerLost
		}
		return res, err
	}
	return nil, lastErr
}

// errAnswerLost is the proxy's error for an answer it threw away; the client gets 504.
var errAnswerLost = errors.New("the answer was lost on its way back")

// startProxy serves a round-robin reverse proxy in front of backends on a loopback port and
// returns its URL.
func startProxy(rr *roundRobin) (url string, stop func(), err error) {
	rr.http = &http.Transport{
		DialContext:         (&net.Dialer{Timeout: time.Second}).DialContext,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 128,
		IdleConnTimeout:     30 * time.Second,
	}
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.Out.URL.Scheme, pr.Out.URL.Host = "http", "backend" },
		Transport: rr,
		ErrorLog:  log.New(io.Discard, "", 0),
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			if errors.Is(err, errAnswerLost) {
				w.WriteHeader(http.StatusGatewayTimeout)
				return
			}
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/", func() { _ = srv.Close(); rr.http.CloseIdleConnections() }, nil
}
