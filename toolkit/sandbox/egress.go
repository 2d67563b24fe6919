package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/internal/netguard"
)

// egressListenAddr is where commands find the egress proxy: the sandbox's own loopback, the
// only interface its network namespace has.
const egressListenAddr = "127.0.0.1:3128"

// Egress lets isolated commands reach listed hosts, and nothing else, through a proxy the
// sandbox runs on the host (see the package doc). Commands find it in HTTP_PROXY,
// HTTPS_PROXY and ALL_PROXY; their network namespace has no other way out.
type Egress struct {
	// Allow lists the hosts commands may reach: "example.com" is that name, "*.example.com"
	// its subdomains (not itself); either may end in ":port", and without one allows ports
	// 80 and 443. An IP address may be listed as a host too. Names are matched without case.
	Allow []string
	// AllowAddresses are networks the proxy connects to although they are local, private or
	// reserved (a package mirror on the local network, say). By default a host, listed or
	// approved, that resolves to loopback, link-local (cloud metadata), a private network
	// or one of this host's own addresses is refused.
	AllowAddresses []netip.Prefix
	// Approve is asked about a host and port not on Allow, once per connection; true lets
	// it through (the address check still applies). Nil refuses every unlisted host.
	// It runs under the command's ctx and should return when that ends.
	Approve func(ctx context.Context, host string, port int) bool

	// resolve replaces DNS in tests, so that no test leaves loopback.
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
}

// The egress proxy's bounds: what a command's connections may cost the host.
const (
	egressMaxConns      = 32               // connections at once; more wait for a slot
	egressMaxHeader     = 16 << 10         // bytes of a request's line and headers
	egressHeaderTimeout = 10 * time.Second // to send the request's line and headers
	egressIdleTimeout   = 2 * time.Minute  // a tunnel with no byte either way is closed
	egressDialTimeout   = 10 * time.Second // to resolve the host and connect
)

// egressProxy serves the connections of one command's run.
type egressProxy struct {
	egress Egress
	rules  []egressRule
	own    []netip.Prefix // this host's addresses
	slots  chan struct{}
	ctx    context.Context

	mu    sync.Mutex
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

type egressRule struct {
	host     string // lower case, without a trailing dot; "*.example.com" keeps its star
	port     int    // 0: 80 and 443
	wildcard bool
}

// parseEgress checks the allowlist, so that a mistake is reported when the sandbox opens.
func parseEgress(e *Egress) ([]egressRule, error) {
	var rules []egressRule
	for _, entry := range e.Allow {
		r := egressRule{host: entry}
		if h, p, err := net.SplitHostPort(entry); err == nil {
			port, err := strconv.Atoi(p)
			if err != nil || port < 1 || port > 65535 {
				return nil, fmt.Errorf("sandbox: egress allowlist entry %q: the port must be a number from 1 to 65535", entry)
			}
			r.host, r.port = h, port
		}
		r.host = strings.TrimSuffix(strings.ToLower(r.host), ".")
		if rest, ok := strings.CutPrefix(r.host, "*."); ok {
			r.host, r.wildcard = rest, true
		}
		if r.host == "" || strings.ContainsAny(r.host, "*/ ") {
			return nil, fmt.Errorf("sandbox: egress allowlist entry %q: want a host such as example.com or *.example.com, optionally with :port", entry)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func (r egressRule) matches(host string, port int) bool {
	if r.port == 0 && port != 80 && port != 443 || r.port != 0 && port != r.port {
		return false
	}
	if r.wildcard {
		return strings.HasSuffix(host, "."+r.host)
	}
	return host == r.host
}

func newEgressProxy(ctx context.Context, e *Egress, rules []egressRule) *egressProxy {
	p := &egressProxy{egress: *e, rules: rules, slots: make(chan struct{}, egressMaxConns), ctx: ctx, conns: map[net.Conn]struct{}{}}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(n.IP); ok {
					p.own = append(p.own, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
				}
			}
		}
	}
	return p
}

// serve handles one connection of the command, and closes it.
func (p *egressProxy) serve(conn net.Conn) {
	p.mu.Lock()
	if p.conns == nil { // closed
		p.mu.Unlock()
		conn.Close()
		return
	}
	p.conns[conn] = struct{}{}
	p.wg.Add(1)
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.conns, conn)
		p.mu.Unlock()
		conn.Close()
		p.wg.Done()
	}()
	select {
	case p.slots <- struct{}{}:
		defer func() { <-p.slots }()
	case <-p.ctx.Done():
		return
	}
	p.handle(conn)
}

// close ends every connection and waits for their handlers.
func (p *egressProxy) close() {
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.wg.Wait()
}

// headerLimit lets through egressMaxHeader bytes until lifted.
type headerLimit struct {
	r io.Reader
	n int
}

func (l *headerLimit) Read(b []byte) (int, error) {
	if l.n <= 0 {
		return 0, errHeaderTooLarge
	}
	if len(b) > l.n {
		b = b[:l.n]
	}
	n, err := l.r.Read(b)
	l.n -= n
	return n, err
}

var errHeaderTooLarge = errors.New("header too large")

func (p *egressProxy) handle(conn net.Conn) {
	conn.SetReadDeadline(time.Now().Add(egressHeaderTimeout))
	limit := &headerLimit{r: conn, n: egressMaxHeader}
	br := bufio.NewReader(limit)
	if first, err := br.Peek(1); err == nil && first[0] == socksVersion {
		p.handleSOCKS(conn, br, limit)
		return
	}
	req, err := http.ReadRequest(br)
	if err != nil {
		if errors.Is(err, errHeaderTooLarge) {
			refuse(conn, http.StatusRequestHeaderFieldsTooLarge, fmt.Sprintf("the request's line and headers exceed %d bytes", egressMaxHeader))
		} else {
			refuse(conn, http.StatusBadRequest, "the proxy could not read the request: send an HTTP request line such as CONNECT host:443 HTTP/1.1")
		}
		return
	}
	limit.n = int(^uint(0) >> 1)
	conn.SetReadDeadline(time.Time{})

	hostport := req.Host
	defaultPort := "80"
	if req.Method == http.MethodConnect {
		defaultPort = "443"
	} else if req.URL.Scheme != "http" || req.URL.Host == "" {
		refuse(conn, http.StatusBadRequest, "the proxy takes CONNECT host:port, or a plain http:// URL in the request line; use it as HTTP_PROXY/HTTPS_PROXY")
		return
	} else {
		hostport = req.URL.Host
	}
	host, portText, err := net.SplitHostPort(hostport)
	if err != nil {
		host, portText = hostport, defaultPort
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 1 || port > 65535 {
		refuse(conn, http.StatusBadRequest, fmt.Sprintf("%q is not a valid port", portText))
		return
	}
	upstream, status, why := p.open(host, port)
	if upstream == nil {
		refuse(conn, status, why)
		return
	}
	defer upstream.Close()
	if req.Method == http.MethodConnect {
		if _, err := io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
			return
		}
		if n := br.Buffered(); n > 0 { // the client did not wait for the answer
			b, _ := br.Peek(n)
			if _, err := upstream.Write(b); err != nil {
				return
			}
		}
	} else {
		// One request per connection: the next one may be for another host.
		req.Close = true
		req.Header.Del("Proxy-Authorization")
		req.Header.Del("Proxy-Connection")
		upstream.SetWriteDeadline(time.Now().Add(egressIdleTimeout))
		if err := req.Write(upstream); err != nil {
			refuse(conn, http.StatusBadGateway, fmt.Sprintf("sending the request to %s failed", host))
			return
		}
		upstream.SetWriteDeadline(time.Time{})
	}
	pipeIdle(conn, br, upstream)
}

// open connects to host and port when the allowlist or the approver lets it through and the
// address is one the proxy connects to; else it returns the HTTP status and the reason for
// the model.
func (p *egressProxy) open(host string, port int) (upstream net.Conn, status int, why string) {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if !p.allowed(host, port) {
		return nil, http.StatusForbidden, fmt.Sprintf("%s port %d is not on the sandbox's egress allowlist (and was not approved); ask the user to allow it", host, port)
	}
	upstream, err := p.dial(host, port)
	if err != nil {
		return nil, http.StatusBadGateway, err.Error()
	}
	return upstream, 0, ""
}

func (p *egressProxy) allowed(host string, port int) bool {
	for _, r := range p.rules {
		if r.matches(host, port) {
			return true
		}
	}
	return p.egress.Approve != nil && p.egress.Approve(p.ctx, host, port)
}

// dial resolves host and connects to the first address the guard allows. Its errors are
// for the model: they name the host and address, nothing of the host's configuration.
func (p *egressProxy) dial(host string, port int) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(p.ctx, egressDialTimeout)
	defer cancel()
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else {
		resolve := p.egress.resolve
		if resolve == nil {
			resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
				return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			}
		}
		if addrs, err = resolve(ctx, host); err != nil || len(addrs) == 0 {
			return nil, fmt.Errorf("%s could not be resolved", host)
		}
	}
	var refused []string
	var lastErr error
	for _, a := range addrs {
		if !p.addressAllowed(a) {
			refused = append(refused, a.String())
			continue
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	if lastErr == nil {
		return nil, fmt.Errorf("%s resolves to %s: a loopback, link-local (cloud metadata), private, reserved or this host's own address, which the sandbox's egress proxy does not connect to", host, strings.Join(refused, ", "))
	}
	return nil, fmt.Errorf("connecting to %s port %d failed", host, port)
}

func (p *egressProxy) addressAllowed(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	for _, pr := range p.egress.AllowAddresses {
		if pr.Contains(a) {
			return true
		}
	}
	for _, own := range p.own {
		if own.Contains(a) {
			return false
		}
	}
	return netguard.Allowed(a, nil)
}

// refuse answers with status and a text for the model, and the connection ends.
func refuse(conn net.Conn, status int, why string) {
	body := "sandbox egress proxy: " + why + "\n"
	conn.SetWriteDeadline(time.Now().Add(egressHeaderTimeout))
	fmt.Fprintf(conn, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\nX-Sandbox-Egress: %s\r\n\r\n%s",
		status, http.StatusText(status), len(body), strings.TrimSpace(strings.ReplaceAll(why, "\n", " ")), body)
}

// pipeIdle copies both ways until either side ends or nothing moves for egressIdleTimeout.
func pipeIdle(client net.Conn, clientR io.Reader, upstream net.Conn) {
	var idle sync.Mutex
	last := time.Now()
	touch := func() { idle.Lock(); last = time.Now(); idle.Unlock() }
	done := make(chan struct{}, 2)
	copyOne := func(dst net.Conn, src io.Reader) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				touch()
				if _, werr := dst.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		done <- struct{}{}
	}
	go copyOne(upstream, clientR)
	go copyOne(client, upstream)
	t := time.NewTicker(egressIdleTimeout / 8)
	defer t.Stop()
	for {
		select {
		case <-done:
			client.Close()
			upstream.Close()
			<-done
			return
		case <-t.C:
			idle.Lock()
			quiet := time.Since(last)
			idle.Unlock()
			if quiet > egressIdleTimeout {
				client.Close()
				upstream.Close()
			}
		}
	}
}
