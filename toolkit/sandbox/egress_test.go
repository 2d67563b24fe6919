package sandbox

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// proxyAnswer sends request to a proxy serving one end of a pipe and returns its answer.
func proxyAnswer(t *testing.T, e *Egress, request string) string {
	t.Helper()
	rules, err := parseEgress(e)
	require.NoError(t, err)
	p := newEgressProxy(context.Background(), e, rules)
	client, server := net.Pipe()
	go p.serve(server)
	go func() { io.WriteString(client, request) }()
	b, _ := io.ReadAll(client)
	client.Close()
	p.close()
	return string(b)
}

func TestEgressProxyBounds(t *testing.T) {
	e := &Egress{Allow: []string{"example.com"}}
	huge := "CONNECT example.com:443 HTTP/1.1\r\nX: " + strings.Repeat("a", egressMaxHeader) + "\r\n\r\n"
	assert.Contains(t, proxyAnswer(t, e, huge), "431 Request Header Fields Too Large")
	assert.Contains(t, proxyAnswer(t, e, "GET /relative HTTP/1.1\r\nHost: example.com\r\n\r\n"), "use it as HTTP_PROXY/HTTPS_PROXY")
	assert.Contains(t, proxyAnswer(t, e, "garbage\r\n\r\n"), "400 Bad Request")
	// Port 443 is allowed by default, 22 is not; the refusal names the host and port only.
	out := proxyAnswer(t, e, "CONNECT example.com:22 HTTP/1.1\r\n\r\n")
	assert.Contains(t, out, "example.com port 22 is not on the sandbox's egress allowlist")
	// A plain request for an unlisted host is refused with its reason in the body.
	out = proxyAnswer(t, e, "GET http://other.example/ HTTP/1.1\r\nHost: other.example\r\n\r\n")
	assert.Contains(t, out, "403 Forbidden")
	assert.Contains(t, out, "\r\n\r\nsandbox egress proxy: other.example port 80 is not on")
}

func TestEgressRules(t *testing.T) {
	rules, err := parseEgress(&Egress{Allow: []string{"Example.com.", "*.example.org:8443"}})
	require.NoError(t, err)
	p := &egressProxy{rules: rules}
	assert.True(t, p.allowed("example.com", 443))
	assert.True(t, p.allowed("example.com", 80))
	assert.False(t, p.allowed("example.com", 8080))
	assert.False(t, p.allowed("sub.example.com", 443))
	assert.True(t, p.allowed("a.b.example.org", 8443))
	assert.False(t, p.allowed("example.org", 8443))
	assert.False(t, p.allowed("evilexample.org", 8443))
}
