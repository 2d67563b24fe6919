package mcp

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Bounds of what the client key reads of a trusted proxy's forwarding headers. The client's
// address is what the nearest proxies appended, at the right; what a client sent itself is at
// the left, so a longer header is read from its right end only.
const (
	maxForwardedBytes = 1024 // of the headers' combined value, from the right
	maxForwardedHops  = 16   // addresses, from the right
)

// clientKey is the default SessionLimits.ClientKey: the authenticated user of r, else the
// address of its client (an IPv6 address's /64 network): its remote address or, when that is
// one of trusted, the address the proxy forwarded (forwardedClient).
func clientKey(r *http.Request, trusted []netip.Prefix) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil && ti.UserID != "" {
		return "user:" + ti.UserID
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return "addr:" + host
	}
	addr = addr.Unmap().WithZone("")
	if isTrusted(addr, trusted) {
		if fwd, ok := forwardedClient(r.Header, trusted); ok {
			addr = fwd
		}
	}
	if addr.Is6() {
		prefix, _ := addr.Prefix(64)
		return "net:" + prefix.String()
	}
	return "addr:" + addr.String()
}

func isTrusted(addr netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// forwardedClient returns the client address a trusted proxy forwarded in X-Forwarded-For
// or, without one, in the for= parameters of RFC 7239 Forwarded: the rightmost address that
// is not itself a trusted proxy. ok is false when the header is absent, an entry read before
// that address is not an IP address (malformed, "unknown", an obfuscated identifier), or the
// address is not within the bounds read: the request then counts as the proxy's own.
func forwardedClient(h http.Header, trusted []netip.Prefix) (addr netip.Addr, ok bool) {
	if xff := h.Values("X-Forwarded-For"); len(xff) > 0 {
		list, cut := tail(xff)
		return rightmostUntrusted(list, cut, trusted, parseXFF)
	}
	if fwd := h.Values("Forwarded"); len(fwd) > 0 {
		list, cut := tail(fwd)
		return rightmostUntrusted(list, cut, trusted, parseForwardedFor)
	}
	return netip.Addr{}, false
}

// tail joins the lines of a header as one list and returns its last maxForwardedBytes, and
// whether it was cut.
func tail(lines []string) (string, bool) {
	v := strings.Join(lines, ",")
	if len(v) <= maxForwardedBytes {
		return v, false
	}
	return v[len(v)-maxForwardedBytes:], true
}

// rightmostUntrusted walks the comma-separated entries of list from the right. An entry cut
// at the left end of the bound is not read.
func rightmostUntrusted(list string, cut bool, trusted []netip.Prefix, parse func(string) (netip.Addr, bool)) (netip.Addr, bool) {
	var leftmost netip.Addr
	for hop := 0; hop < maxForwardedHops; hop++ {
		i := strings.LastIndexByte(list, ',')
		if i < 0 && cut {
			return netip.Addr{}, false
		}
		entry := list[i+1:]
		list = list[:max(i, 0)]
		addr, ok := parse(strings.TrimSpace(entry))
		if !ok {
			return netip.Addr{}, false
		}
		if !isTrusted(addr, trusted) {
			return addr, true
		}
		leftmost = addr
		if i < 0 {
			// Every hop is a trusted proxy: the first of them is the client.
			return leftmost, true
		}
	}
	return netip.Addr{}, false
}

// parseXFF reads one X-Forwarded-For entry: an address, or an address and port.
func parseXFF(s string) (netip.Addr, bool) {
	if addr, err := netip.ParseAddr(s); err == nil {
		return addr.Unmap().WithZone(""), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	return netip.Addr{}, false
}

// parseForwardedFor reads the for= parameter of one Forwarded element (RFC 7239 §4, §6):
// `for=192.0.2.60`, `for="[2001:db8::1]:4711"`, `for="192.0.2.60:80"`.
func parseForwardedFor(element string) (netip.Addr, bool) {
	var value string
	found := false
	for pair := range strings.SplitSeq(element, ";") {
		name, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok {
			return netip.Addr{}, false
		}
		if strings.EqualFold(strings.TrimSpace(name), "for") {
			if found {
				return netip.Addr{}, false // two for= in one element
			}
			value, found = strings.TrimSpace(v), true
		}
	}
	if !found {
		return netip.Addr{}, false
	}
	if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
		value = value[1 : len(value)-1]
	}
	if strings.HasPrefix(value, "[") {
		end := strings.IndexByte(value, ']')
		if end < 0 || end+1 < len(value) && value[end+1] != ':' {
			return netip.Addr{}, false
		}
		addr, err := netip.ParseAddr(value[1:end])
		if err != nil || !addr.Is6() {
			return netip.Addr{}, false
		}
		return addr.Unmap().WithZone(""), true
	}
	// An IPv6 address must be bracketed (RFC 7239 §6); an IPv4 one may carry a port.
	host, _, err := net.SplitHostPort(value)
	if err != nil {
		host = value
	}
	addr, err := netip.ParseAddr(host)
	if err != nil || !addr.Is4() {
		return netip.Addr{}, false
	}
	return addr, true
}
