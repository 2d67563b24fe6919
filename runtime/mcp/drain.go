package mcp

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// DefaultDrainRetryAfter is the Retry-After a draining HTTPHandler sends, unless
// Drain.RetryAfter says otherwise.
const DefaultDrainRetryAfter = time.Second

// Drain shuts an HTTPHandler (WithDrain) down without failing a client's request: once it
// begins, every new request is refused with 503 Service Unavailable, a Retry-After and
// Connection: close, which clients and load balancers retry (on another replica, behind a
// balancer), while the requests in progress (tools/call among them) run to their end; Wait
// returns when none is left. Then http.Server.Shutdown has nothing left to cut short (see
// the example).
//
// A stateful session's standalone event stream (an HTTP GET) is not waited for: it lasts as
// long as its session, and Shutdown closes it. DELETEs, which end sessions, are still served.
// A Drain serves one handler; its zero value is ready to use.
type Drain struct {
	// RetryAfter is what the refusals' Retry-After says (DefaultDrainRetryAfter when zero).
	RetryAfter time.Duration

	mu       sync.Mutex
	draining bool
	inFlight int
	idle     chan struct{} // closed once draining with nothing in flight
}

// WithDrain has HTTPHandler refuse new requests, retryably, once d begins (see Drain).
func WithDrain(d *Drain) Option {
	return func(c *config) { c.server.drain = d }
}

// Begin starts the drain: from now on new requests are refused. Calling it again does
// nothing.
func (d *Drain) Begin() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return
	}
	d.draining, d.idle = true, make(chan struct{})
	if d.inFlight == 0 {
		close(d.idle)
	}
}

// Draining reports whether the drain has begun: a health check can fail on it, so that a
// load balancer stops sending requests before the refusals start.
func (d *Drain) Draining() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.draining
}

// Wait begins the drain, if it has not begun, and waits until no request it counts is in
// progress, or ctx is done (its error is returned then).
func (d *Drain) Wait(ctx context.Context) error {
	d.Begin()
	d.mu.Lock()
	idle := d.idle
	d.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// enter counts request r in progress, or refuses it (false) when draining; the caller calls
// leave when r is done. GET streams are not counted, DELETEs never refused.
func (d *Drain) enter(w http.ResponseWriter, r *http.Request) (counted, ok bool) {
	if r.Method == http.MethodDelete {
		return false, true
	}
	d.mu.Lock()
	draining := d.draining
	counted = !draining && r.Method != http.MethodGet
	if counted {
		d.inFlight++
	}
	d.mu.Unlock()
	if draining {
		retry := d.RetryAfter
		if retry <= 0 {
			retry = DefaultDrainRetryAfter
		}
		seconds := int((retry + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(seconds))
		w.Header().Set("Connection", "close")
		http.Error(w, fmt.Sprintf("Service Unavailable: this server is shutting down; send the request again in %d s (another server will answer it)", seconds), http.StatusServiceUnavailable)
		return false, false
	}
	return counted, true
}

func (d *Drain) leave() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.inFlight--; d.inFlight == 0 && d.draining {
		close(d.idle)
	}
}
