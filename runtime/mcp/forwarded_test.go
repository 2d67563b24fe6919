package mcp_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// forwardingProxy serves target behind an httputil.ReverseProxy that appends the address it
// received from to X-Forwarded-For, keeping what came before (a chain of proxies).
func forwardingProxy(t *testing.T, target string) string {
	u, err := url.Parse(target)
	require.NoError(t, err)
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(u)
		pr.Out.Header["X-Forwarded-For"] = pr.In.Header["X-Forwarded-For"]
		pr.SetXForwarded()
	}})
	t.Cleanup(func() {
		proxy.CloseClientConnections()
		proxy.Close()
	})
	return proxy.URL
}

// needLoopbackAddresses skips a test on a system that does not serve 127.0.0.2 and 127.0.0.3
// (macOS serves only 127.0.0.1 unless told).
func needLoopbackAddresses(t *testing.T) {
	for _, addr := range []string{"127.0.0.2:0", "127.0.0.3:0"} {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Skipf("clients from several addresses need %s on loopback: %v", addr, err)
		}
		_ = l.Close()
	}
}

// fromAddress returns an HTTP client whose connections come from local (a loopback address
// of 127.0.0.0/8, all of which Linux serves), sending header with every request.
func fromAddress(local string, header map[string]string) *http.Client {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		for k, v := range header {
			r.Header.Set(k, v)
		}
		return (&http.Transport{DialContext: dialer.DialContext}).RoundTrip(r)
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// openFrom opens a session through client and returns the answer's status and body.
func openFrom(t *testing.T, client *http.Client, url string) (int, string) {
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(initialize))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// Behind a reverse proxy every request comes from the proxy's address; with the proxy in
// TrustedProxies the per-client cap counts each client by the address the proxy forwarded,
// and a client that forges X-Forwarded-For is still counted as itself. Before, every client
// shared the proxy's MaxPerClient: a second client got 429.
func TestThePerClientCapCountsEachClientBehindATrustedProxy(t *testing.T) {
	needLoopbackAddresses(t)
	limits := toolmcp.SessionLimits{MaxPerClient: 1, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	lb := forwardingProxy(t, handlerURL(t, toolmcp.WithSessionLimits(limits)))
	ann, bob := fromAddress("127.0.0.2", nil), fromAddress("127.0.0.3", nil)
	forger := fromAddress("127.0.0.2", map[string]string{"X-Forwarded-For": "127.0.0.9"})

	status, body := openFrom(t, ann, lb)
	require.Equal(t, http.StatusOK, status, body)
	status, body = openFrom(t, ann, lb)
	assert.Equal(t, http.StatusTooManyRequests, status, "ann holds her one session: %s", body)
	status, body = openFrom(t, forger, lb)
	assert.Equal(t, http.StatusTooManyRequests, status, "ann forging X-Forwarded-For is still ann: %s", body)
	status, body = openFrom(t, bob, lb)
	assert.Equal(t, http.StatusOK, status, "bob, behind the same proxy, has his own share: %s", body)

	// Not trusted, the proxy is one client: its forwarded addresses are ignored.
	untrusted := forwardingProxy(t, handlerURL(t, toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxPerClient: 1})))
	status, body = openFrom(t, ann, untrusted)
	require.Equal(t, http.StatusOK, status, body)
	status, _ = openFrom(t, bob, untrusted)
	assert.Equal(t, http.StatusTooManyRequests, status, "every client is the proxy")
}
