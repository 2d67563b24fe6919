// Package netguard refuses connections to this host, private networks, link-local (cloud
// metadata) and reserved addresses, checked on the resolved address a dialer is about to
// connect to. toolkit/web and the sandbox's egress proxy share it.
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// ErrBlocked is wrapped by the error of a connection the address guard refused.
var ErrBlocked = errors.New("address not allowed")

// blocked are the networks a guarded dialer never connects to unless allowed: this host, private
// networks, link-local (cloud metadata at 169.254.169.254 among them), carrier-grade NAT
// (Alibaba's metadata at 100.100.100.200 among them), multicast, and reserved ranges.
var blocked = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this network", unspecified
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // carrier-grade NAT
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, cloud metadata
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, broadcast
		"::/128",          // unspecified
		"::1/128",         // loopback
		"64:ff9b:1::/48",  // local-use NAT64
		"100::/64",        // discard
		"2001:db8::/32",   // documentation
		"fc00::/7",        // unique local (AWS metadata fd00:ec2::254 among them)
		"fe80::/10",       // link-local
		"ff00::/8",        // multicast
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// IPv6 forms that carry an IPv4 address, which is checked as well: whoever routes them
// (NAT64, a 6to4 or Teredo relay, a host that still speaks IPv4-compatible addresses)
// delivers to that IPv4 address.
var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")    // well-known NAT64: last four bytes
	compatible = netip.MustParsePrefix("::/96")           // IPv4-compatible (deprecated): last four bytes
	siit       = netip.MustParsePrefix("::ffff:0:0:0/96") // SIIT IPv4-translated: last four bytes
	sixToFour  = netip.MustParsePrefix("2002::/16")       // 6to4: bytes 2 to 5
	teredo     = netip.MustParsePrefix("2001::/32")       // Teredo: the client, last four bytes inverted
)

// embeddedIPv4 returns the IPv4 address an IPv6 address of one of the forms above carries.
func embeddedIPv4(addr netip.Addr) (netip.Addr, bool) {
	if !addr.Is6() {
		return netip.Addr{}, false
	}
	b := addr.As16()
	switch {
	case nat64.Contains(addr), siit.Contains(addr), compatible.Contains(addr): // :: and ::1 are blocked before
		return netip.AddrFrom4([4]byte(b[12:])), true
	case sixToFour.Contains(addr):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	case teredo.Contains(addr):
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}), true
	}
	return netip.Addr{}, false
}

// allowedAddr reports whether addr may be connected to: not in a blocked network, or in one
// of allow.
func Allowed(addr netip.Addr, allow []netip.Prefix) bool {
	addr = addr.Unmap().WithZone("") // a zone would make Contains false
	for _, p := range allow {
		if p.Contains(addr) {
			return true
		}
	}
	if !addr.IsValid() || inBlocked(addr) {
		return false
	}
	if v4, ok := embeddedIPv4(addr); ok && inBlocked(v4) {
		return false
	}
	return true
}

func inBlocked(addr netip.Addr) bool {
	for _, p := range blocked {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// guardControl is a net.Dialer Control hook: it runs after DNS resolution, on the address
// about to be connected, for the first request and every redirect, so neither a redirect nor
// a name that resolves (or re-resolves) to a private address gets through.
func Control(allow []netip.Prefix) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrBlocked, address)
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || !Allowed(ip, allow) {
			return fmt.Errorf("%w: %s is a local, private or reserved address", ErrBlocked, host)
		}
		return nil
	}
}
