//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIsolatedEgress: with Egress, a command reaches listed hosts through the proxy and
// nothing else: not the host's loopback directly, no resolver, no raw socket, no other port,
// no listed name that resolves to a refused address; an unlisted host goes to the approver.
// Every server is on the host's loopback; names resolve through a fake resolver.
func TestIsolatedEgress(t *testing.T) {
	upstream, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer upstream.Close()
	go func() {
		for {
			c, err := upstream.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("upstream-hello\n"))
			c.Close()
		}
	}()
	port := upstream.Addr().(*net.TCPAddr).Port
	resolver, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(t, err)
	defer resolver.Close()

	var mu sync.Mutex
	var asked []string
	egress := &Egress{
		Allow:          []string{fmt.Sprintf("good.test:%d", port), fmt.Sprintf("*.metadata.test:%d", port)},
		AllowAddresses: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")},
		Approve: func(_ context.Context, host string, p int) bool {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, fmt.Sprintf("%s:%d", host, p))
			return host == "approved.test"
		},
		resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
			if strings.HasSuffix(host, ".metadata.test") {
				return []netip.Addr{netip.MustParseAddr("169.254.169.254")}, nil
			}
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		},
	}
	l, _ := openIsolated(t, LocalOptions{Egress: egress})
	connect := func(hostport string) string {
		return fmt.Sprintf(`bash -c 'p=${HTTPS_PROXY#http://}; exec 3<>/dev/tcp/${p%%:*}/${p##*:}; printf "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" >&3; cat <&3' 2>&1; echo`, hostport, hostport)
	}

	t.Run("listed", func(t *testing.T) {
		_, out := runIn(t, l, ".", connect(fmt.Sprintf("good.test:%d", port)))
		assert.Contains(t, out, "200 Connection established")
		assert.Contains(t, out, "upstream-hello")
	})
	// SOCKS5 from the shell, to ALL_PROXY (socks5h://): greeting, then CONNECT by name.
	socks := func(name string, port int) string {
		return fmt.Sprintf(`bash -c 'p=${ALL_PROXY#socks5h://}; exec 3<>/dev/tcp/${p%%%%:*}/${p##*:}; printf "\x05\x01\x00" >&3; head -c2 <&3 | od -An -tx1; printf "\x05\x01\x00\x03\x%02x%s\x%02x\x%02x" >&3; od -An -tx1 -w64 <&3' 2>&1; echo`,
			len(name), name, port>>8, port&0xff)
	}
	t.Run("SOCKS5 listed", func(t *testing.T) {
		_, out := runIn(t, l, ".", socks("good.test", port))
		// The reply (bound address 0.0.0.0:0), then what the upstream sent, in hexadecimal.
		assert.Contains(t, out, " 05 00\n 05 00 00 01 00 00 00 00 00 00 "+hexBytes("upstream-hello"), out)
	})
	t.Run("SOCKS5 refused", func(t *testing.T) {
		_, out := runIn(t, l, ".", socks("unlisted.test", port)+";"+socks("evil.metadata.test", port))
		assert.Contains(t, out, " 05 02 00 01", "not allowed by ruleset: %s", out)
		assert.Contains(t, out, " 05 04 00 01", "host unreachable: %s", out)
		assert.NotContains(t, out, hexBytes("upstream"))
	})
	t.Run("direct", func(t *testing.T) {
		_, out := runIn(t, l, ".", fmt.Sprintf(`bash -c 'echo hi > /dev/tcp/127.0.0.1/%d' 2>/dev/null && echo connected; echo done`, port))
		assert.Equal(t, "done\n", out)
	})
	t.Run("resolver", func(t *testing.T) {
		rport := resolver.LocalAddr().(*net.UDPAddr).Port
		_, out := runIn(t, l, ".", fmt.Sprintf(`getent hosts good.test >/dev/null 2>&1 && echo resolved; bash -c 'echo query > /dev/udp/127.0.0.1/%d' 2>/dev/null; echo done`, rport))
		assert.Equal(t, "done\n", out)
		resolver.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		var b [64]byte
		_, _, err := resolver.ReadFrom(b[:])
		assert.Error(t, err, "a datagram left the sandbox")
	})
	t.Run("raw socket", func(t *testing.T) {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("python3 is needed to open a raw socket")
		}
		_, out := runIn(t, l, ".", `python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, 1)' 2>/dev/null && echo opened; echo done`)
		assert.Equal(t, "done\n", out)
	})
	t.Run("other port", func(t *testing.T) {
		_, out := runIn(t, l, ".", connect(fmt.Sprintf("good.test:%d", port+1)))
		assert.Contains(t, out, "403 Forbidden")
		assert.Contains(t, out, "is not on the sandbox's egress allowlist")
		assert.NotContains(t, out, "upstream-hello")
	})
	t.Run("refused address", func(t *testing.T) {
		_, out := runIn(t, l, ".", connect(fmt.Sprintf("evil.metadata.test:%d", port)))
		assert.Contains(t, out, "502 Bad Gateway")
		assert.Contains(t, out, "resolves to 169.254.169.254")
	})
	t.Run("approver", func(t *testing.T) {
		mu.Lock()
		asked = nil // the other port was asked about too
		mu.Unlock()
		_, out := runIn(t, l, ".", connect(fmt.Sprintf("approved.test:%d", port))+";"+connect(fmt.Sprintf("unlisted.test:%d", port)))
		assert.Contains(t, out, "upstream-hello")
		assert.Contains(t, out, "403 Forbidden")
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []string{fmt.Sprintf("approved.test:%d", port), fmt.Sprintf("unlisted.test:%d", port)}, asked)
	})
}

func TestEgressOptions(t *testing.T) {
	_, err := OpenLocal(t.TempDir(), LocalOptions{Egress: &Egress{}, Network: true})
	assert.ErrorContains(t, err, "cannot be combined with Network")
	_, err = OpenLocal(t.TempDir(), LocalOptions{Egress: &Egress{Allow: []string{"example.com:http"}}})
	assert.ErrorContains(t, err, "the port must be a number")
	_, err = OpenLocal(t.TempDir(), LocalOptions{Egress: &Egress{Allow: []string{"a.*.com"}}})
	assert.ErrorContains(t, err, "want a host such as example.com")
}

// hexBytes is s as od -An -tx1 writes it.
func hexBytes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%02x", s[i])
	}
	return b.String()
}
