package mount

import (
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// limitedClient returns a client sending headers with every request to endpoint's origin
// (scheme, host and port) and holding a JSON response body to MaxMessageBytes: the go-sdk
// reads such a body whole, where it holds an SSE event to its MaxEventSize. A request
// redirected to another origin goes without headers, as net/http sends it no Authorization
// of its own: a redirect does not hand the credential to another host. client's own
// Transport is wrapped, not changed.
func limitedClient(client *http.Client, endpoint string, headers map[string]string) *http.Client {
	c := &http.Client{}
	if client != nil {
		*c = *client
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	t := &limitedTransport{next: next, headers: headers}
	if u, err := url.Parse(endpoint); err == nil {
		t.origin = origin(u)
	}
	c.Transport = t
	return c
}

type limitedTransport struct {
	next    http.RoundTripper
	headers map[string]string
	origin  string // the endpoint's, the only one headers are sent to ("": none)
}

// origin is u's scheme, host and port, the port given when the scheme implies it, so that
// http://h and http://h:80 are one origin.
func origin(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if host == "" {
		return ""
	}
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

func (t *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 && t.origin != "" && origin(req.URL) == t.origin {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body = &capped{ReadCloser: resp.Body, left: MaxMessageBytes}
	}
	return resp, nil
}

// capped fails a body read past its cap, rather than cutting it into JSON that might parse.
type capped struct {
	io.ReadCloser
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	// Read one byte past the cap at most, to tell a body of exactly the cap from a longer one.
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.ReadCloser.Read(p)
	if c.left -= int64(n); c.left < 0 {
		return 0, fmt.Errorf("the MCP server's response is over %d bytes", MaxMessageBytes)
	}
	return n, err
}
