package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The client key of a request behind trusted proxies is the address they forwarded, never
// one a client chose: a request from an untrusted address is keyed by that address whatever
// it sends, and a header that cannot be read keys the request by the proxy's address.
func TestClientKeyTrustsOnlyTheProxies(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	long := strings.Repeat("203.0.113.9, ", 200) // 2.6 KB a client sent ahead of the proxies' part
	for _, c := range []struct {
		name, remote string
		header       map[string][]string
		user         string
		want         string
	}{
		{"no proxy trusted: the remote address", "192.0.2.1:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "", "addr:192.0.2.1"},
		{"a trusted proxy forwards", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "", "addr:198.51.100.7"},
		{"spoof: an untrusted client sends X-Forwarded-For", "192.0.2.1:5000", map[string][]string{"X-Forwarded-For": {"10.0.0.2, 198.51.100.7"}}, "", "addr:192.0.2.1"},
		{"spoof: an untrusted client sends Forwarded", "192.0.2.1:5000", map[string][]string{"Forwarded": {"for=198.51.100.7"}}, "", "addr:192.0.2.1"},
		{"spoof: what the client prepended is left of its own address", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"1.2.3.4, 198.51.100.7"}}, "", "addr:198.51.100.7"},
		{"a chain of trusted proxies", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"1.2.3.4, 198.51.100.7, 10.1.1.1, 10.2.2.2"}}, "", "addr:198.51.100.7"},
		{"header lines join as one list", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"1.2.3.4, 198.51.100.7", "10.1.1.1"}}, "", "addr:198.51.100.7"},
		{"every hop trusted: the first", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"10.9.9.9, 10.1.1.1"}}, "", "addr:10.9.9.9"},
		{"an address with a port", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7:4711"}}, "", "addr:198.51.100.7"},
		{"IPv6 by its /64", "[fd00::1]:5000", map[string][]string{"X-Forwarded-For": {"2001:db8:1:2:3:4:5:6"}}, "", "net:2001:db8:1:2::/64"},
		{"IPv4-mapped IPv6 is IPv4", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"::ffff:198.51.100.7"}}, "", "addr:198.51.100.7"},
		{"a trusted IPv4-mapped remote", "[::ffff:10.0.0.2]:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "", "addr:198.51.100.7"},
		{"Forwarded for=", "10.0.0.2:5000", map[string][]string{"Forwarded": {"for=198.51.100.7;proto=https;by=10.0.0.2"}}, "", "addr:198.51.100.7"},
		{"Forwarded quoted IPv6 and port", "10.0.0.2:5000", map[string][]string{"Forwarded": {`for=1.2.3.4, For="[2001:db8::1]:4711"`}}, "", "net:2001:db8::/64"},
		{"Forwarded quoted IPv4 and port, a chain", "10.0.0.2:5000", map[string][]string{"Forwarded": {`for="198.51.100.7:80", for=10.1.1.1`}}, "", "addr:198.51.100.7"},
		{"X-Forwarded-For before Forwarded", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}, "Forwarded": {"for=1.2.3.4"}}, "", "addr:198.51.100.7"},
		{"no header: the proxy", "10.0.0.2:5000", nil, "", "addr:10.0.0.2"},
		{"malformed: not an address", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7, evil"}}, "", "addr:10.0.0.2"},
		{"malformed: an empty entry", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7,"}}, "", "addr:10.0.0.2"},
		{"malformed: Forwarded unknown", "10.0.0.2:5000", map[string][]string{"Forwarded": {"for=unknown"}}, "", "addr:10.0.0.2"},
		{"malformed: Forwarded obfuscated", "10.0.0.2:5000", map[string][]string{"Forwarded": {"for=_hidden"}}, "", "addr:10.0.0.2"},
		{"malformed: Forwarded IPv6 unbracketed", "10.0.0.2:5000", map[string][]string{"Forwarded": {"for=2001:db8::1"}}, "", "addr:10.0.0.2"},
		{"malformed: Forwarded without for", "10.0.0.2:5000", map[string][]string{"Forwarded": {"proto=https"}}, "", "addr:10.0.0.2"},
		{"malformed: Forwarded two for=", "10.0.0.2:5000", map[string][]string{"Forwarded": {"for=1.2.3.4;for=198.51.100.7"}}, "", "addr:10.0.0.2"},
		{"malformed: Forwarded bad bracket", "10.0.0.2:5000", map[string][]string{"Forwarded": {`for="[2001:db8::1"`}}, "", "addr:10.0.0.2"},
		{"a long header is read from its right end", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {long + "198.51.100.7, 10.1.1.1"}}, "", "addr:198.51.100.7"},
		{"past the bound of hops: the proxy", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7" + strings.Repeat(", 10.1.1.1", maxForwardedHops)}}, "", "addr:10.0.0.2"},
		{"past the bound of bytes: the proxy", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7, " + strings.Repeat("10.1.1.1,", maxForwardedBytes/9+1) + "10.1.1.1"}}, "", "addr:10.0.0.2"},
		{"the authenticated user wins", "10.0.0.2:5000", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "ann", "user:ann"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", nil)
			r.RemoteAddr = c.remote
			for k, vs := range c.header {
				for _, v := range vs {
					r.Header.Add(k, v)
				}
			}
			if c.user != "" {
				r = withUser(t, r, c.user)
			}
			key := SessionLimits{TrustedProxies: trusted}.resolved().ClientKey
			assert.Equal(t, c.want, key(r))
			if c.user == "" {
				bare := httptest.NewRequest(http.MethodPost, "/", nil)
				bare.RemoteAddr = c.remote
				untrusting := SessionLimits{}.resolved().ClientKey
				assert.Equal(t, untrusting(bare), untrusting(r), "without TrustedProxies the headers are ignored")
			}
		})
	}
}

// withUser returns r as auth.RequireBearerToken passes it on for a token of user.
func withUser(t *testing.T, r *http.Request, user string) *http.Request {
	verify := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: user, Expiration: time.Now().Add(time.Hour)}, nil
	}
	var got *http.Request
	r.Header.Set("Authorization", "Bearer t")
	auth.RequireBearerToken(verify, nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r })).
		ServeHTTP(httptest.NewRecorder(), r)
	require.NotNil(t, got)
	return got
}
