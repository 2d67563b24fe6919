package mount

import (
	"fmt"
	"io"
	"mime"
	"net/http"
)

// limitedClient returns a client sending headers with every request and holding a JSON
// response body to MaxMessageBytes: the go-sdk reads such a body whole, where it holds an SSE
// event to its MaxEventSize. client's own Transport is wrapped, not changed.
func limitedClient(client *http.Client, headers map[string]string) *http.Client {
	c := &http.Client{}
	if client != nil {
		*c = *client
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = &limitedTransport{next: next, headers: headers}
	return c
}

type limitedTransport struct {
	next    http.RoundTripper
	headers map[string]string
}

func (t *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
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
