package sandbox

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// socksUpstream is a loopback server that greets and hangs up; its port.
func socksUpstream(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("upstream-hello\n"))
			c.Close()
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}

// socksExchange sends a SOCKS5 greeting offering methods and, when the proxy accepts, a
// request of cmd for the address atyp/addr and port; it returns the method chosen, the reply
// code (-1 without one) and what came through afterwards.
func socksExchange(t *testing.T, e *Egress, methods []byte, cmd, atyp byte, addr []byte, port int) (method byte, reply int, rest string) {
	t.Helper()
	rules, err := parseEgress(e)
	require.NoError(t, err)
	p := newEgressProxy(context.Background(), e, rules)
	defer p.close()
	client, server := net.Pipe()
	defer client.Close()
	go p.serve(server)
	client.SetDeadline(time.Now().Add(10 * time.Second))
	_, err = client.Write(append([]byte{5, byte(len(methods))}, methods...))
	require.NoError(t, err)
	var choice [2]byte
	_, err = io.ReadFull(client, choice[:])
	require.NoError(t, err)
	if choice[1] == socksNoAcceptable {
		return choice[1], -1, ""
	}
	req := []byte{5, cmd, 0, atyp}
	if atyp == socksAddrName {
		req = append(req, byte(len(addr)))
	}
	req = binary.BigEndian.AppendUint16(append(req, addr...), uint16(port))
	_, err = client.Write(req)
	require.NoError(t, err)
	var answer [10]byte
	_, err = io.ReadFull(client, answer[:])
	require.NoError(t, err)
	assert.Equal(t, []byte{5, answer[1], 0, 1, 0, 0, 0, 0, 0, 0}, answer[:], "the bound address shows nothing of the host")
	b, _ := io.ReadAll(client)
	return choice[1], int(answer[1]), string(b)
}

func TestEgressSOCKS5(t *testing.T) {
	port := socksUpstream(t)
	e := &Egress{
		Allow:          []string{fmt.Sprintf("good.test:%d", port), fmt.Sprintf("127.0.0.1:%d", port), fmt.Sprintf("*.metadata.test:%d", port)},
		AllowAddresses: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")},
		Approve:        func(_ context.Context, host string, _ int) bool { return host == "approved.test" },
		resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
			if strings.HasSuffix(host, ".metadata.test") {
				return []netip.Addr{netip.MustParseAddr("169.254.169.254")}, nil
			}
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		},
	}
	noAuth := []byte{socksNoAuth}
	t.Run("listed name", func(t *testing.T) {
		_, reply, rest := socksExchange(t, e, []byte{2, socksNoAuth}, socksConnect, socksAddrName, []byte("Good.Test."), port)
		assert.Equal(t, socksSucceeded, reply)
		assert.Equal(t, "upstream-hello\n", rest)
	})
	t.Run("listed address", func(t *testing.T) {
		_, reply, rest := socksExchange(t, e, noAuth, socksConnect, socksAddrIPv4, []byte{127, 0, 0, 1}, port)
		assert.Equal(t, socksSucceeded, reply)
		assert.Equal(t, "upstream-hello\n", rest)
	})
	t.Run("approved", func(t *testing.T) {
		_, reply, _ := socksExchange(t, e, noAuth, socksConnect, socksAddrName, []byte("approved.test"), port)
		assert.Equal(t, socksSucceeded, reply)
	})
	t.Run("unlisted", func(t *testing.T) {
		_, reply, rest := socksExchange(t, e, noAuth, socksConnect, socksAddrName, []byte("unlisted.test"), port)
		assert.Equal(t, socksNotAllowed, reply)
		assert.Empty(t, rest)
	})
	t.Run("other port", func(t *testing.T) {
		_, reply, _ := socksExchange(t, e, noAuth, socksConnect, socksAddrName, []byte("good.test"), port+1)
		assert.Equal(t, socksNotAllowed, reply)
	})
	t.Run("refused address", func(t *testing.T) {
		_, reply, rest := socksExchange(t, e, noAuth, socksConnect, socksAddrName, []byte("evil.metadata.test"), port)
		assert.Equal(t, socksHostUnreach, reply)
		assert.Empty(t, rest)
	})
	t.Run("unlisted IPv6", func(t *testing.T) {
		_, reply, _ := socksExchange(t, e, noAuth, socksConnect, socksAddrIPv6, net.IPv6loopback, port)
		assert.Equal(t, socksNotAllowed, reply)
	})
	t.Run("bind and UDP are refused", func(t *testing.T) {
		for _, cmd := range []byte{2, 3} {
			_, reply, _ := socksExchange(t, e, noAuth, cmd, socksAddrName, []byte("good.test"), port)
			assert.Equal(t, socksCmdUnsupported, reply, "command %d", cmd)
		}
	})
	t.Run("bad names", func(t *testing.T) {
		for _, name := range []string{"", "good.test:80", "a b", "x@good.test", "good.test\n"} {
			_, reply, _ := socksExchange(t, e, noAuth, socksConnect, socksAddrName, []byte(name), port)
			assert.Equal(t, socksGeneralFailure, reply, "%q", name)
		}
	})
	t.Run("authentication only", func(t *testing.T) {
		method, _, _ := socksExchange(t, e, []byte{2}, socksConnect, socksAddrName, []byte("good.test"), port)
		assert.Equal(t, byte(socksNoAcceptable), method)
	})
}

// The proxy refuses this host's own addresses, as it does loopback and private networks,
// unless AllowAddresses lists them: a command must not reach a service of the host through
// the host's public address.
func TestEgressRefusesTheHostsOwnAddresses(t *testing.T) {
	p := newEgressProxy(context.Background(), &Egress{}, nil)
	addrs, err := net.InterfaceAddrs()
	require.NoError(t, err)
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			ip, _ := netip.AddrFromSlice(n.IP)
			assert.False(t, p.addressAllowed(ip), "%s is this host's", ip)
		}
	}
	// A host with a public address of its own: that address is refused, its neighbour not.
	p.own = append(p.own, netip.MustParsePrefix("8.8.8.8/32"))
	assert.False(t, p.addressAllowed(netip.MustParseAddr("8.8.8.8")))
	assert.False(t, p.addressAllowed(netip.MustParseAddr("::ffff:8.8.8.8")), "an IPv4-mapped form is the same address")
	assert.True(t, p.addressAllowed(netip.MustParseAddr("8.8.4.4")))
	p.egress.AllowAddresses = []netip.Prefix{netip.MustParsePrefix("8.8.8.0/24")}
	assert.True(t, p.addressAllowed(netip.MustParseAddr("8.8.8.8")), "listed by the program")
}
