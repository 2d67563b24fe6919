package sandbox

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// SOCKS5 (RFC 1928), for programs that take ALL_PROXY=socks5h://… or speak something other
// than HTTP: CONNECT only, without authentication, the name sent to the proxy (ATYP 3) or an
// address. The same allowlist, approver and address checks as HTTP apply. SOCKS5 answers
// carry a code, not a text, so a refusal reads "connection not allowed by ruleset" (2) or
// "host unreachable" (4); the HTTP proxy on the same port says why in words.
const (
	socksVersion        = 5
	socksNoAuth         = 0
	socksNoAcceptable   = 0xff
	socksConnect        = 1
	socksAddrIPv4       = 1
	socksAddrName       = 3
	socksAddrIPv6       = 4
	socksSucceeded      = 0
	socksGeneralFailure = 1
	socksNotAllowed     = 2
	socksHostUnreach    = 4
	socksCmdUnsupported = 7
	socksAddrUnsupport  = 8
)

// handleSOCKS serves one SOCKS5 connection whose first byte is still in br; limit bounds what
// the greeting and the request may read (at most 2+255 and 4+1+255+2 bytes, well within it)
// and the read deadline the time they may take.
func (p *egressProxy) handleSOCKS(conn net.Conn, br *bufio.Reader, limit *headerLimit) {
	var head [2]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return
	}
	methods := make([]byte, head[1])
	if _, err := io.ReadFull(br, methods); err != nil {
		return
	}
	if !containsByte(methods, socksNoAuth) {
		conn.Write([]byte{socksVersion, socksNoAcceptable})
		return
	}
	if _, err := conn.Write([]byte{socksVersion, socksNoAuth}); err != nil {
		return
	}
	var req [4]byte // VER CMD RSV ATYP
	if _, err := io.ReadFull(br, req[:]); err != nil || req[0] != socksVersion {
		return
	}
	var host string
	switch req[3] {
	case socksAddrIPv4, socksAddrIPv6:
		b := make([]byte, map[byte]int{socksAddrIPv4: 4, socksAddrIPv6: 16}[req[3]])
		if _, err := io.ReadFull(br, b); err != nil {
			return
		}
		a, _ := netip.AddrFromSlice(b)
		host = a.String()
	case socksAddrName:
		n, err := br.ReadByte()
		if err != nil {
			return
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return
		}
		host = string(b)
	default:
		socksReply(conn, socksAddrUnsupport)
		return
	}
	var portBytes [2]byte
	if _, err := io.ReadFull(br, portBytes[:]); err != nil {
		return
	}
	port := int(binary.BigEndian.Uint16(portBytes[:]))
	if req[1] != socksConnect {
		socksReply(conn, socksCmdUnsupported) // BIND and UDP ASSOCIATE would open the namespace
		return
	}
	if port == 0 || !validSOCKSHost(host) {
		socksReply(conn, socksGeneralFailure)
		return
	}
	limit.n = int(^uint(0) >> 1)
	conn.SetReadDeadline(time.Time{})
	upstream, status, _ := p.open(host, port)
	if upstream == nil {
		code := byte(socksHostUnreach)
		if status == http.StatusForbidden {
			code = socksNotAllowed
		}
		socksReply(conn, code)
		return
	}
	defer upstream.Close()
	if err := socksReply(conn, socksSucceeded); err != nil {
		return
	}
	pipeIdle(conn, br, upstream)
}

// socksReply answers a request with code and, as the bound address, 0.0.0.0:0: the
// upstream's local address is the host's, which the sandbox does not show.
func socksReply(conn net.Conn, code byte) error {
	conn.SetWriteDeadline(time.Now().Add(egressHeaderTimeout))
	defer conn.SetWriteDeadline(time.Time{})
	_, err := conn.Write([]byte{socksVersion, code, 0, socksAddrIPv4, 0, 0, 0, 0, 0, 0})
	return err
}

// validSOCKSHost refuses names no resolver would take (empty, control characters, a port
// glued on), so that what reaches the allowlist and the approver is a plain host.
func validSOCKSHost(host string) bool {
	if host == "" {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if c <= ' ' || c >= 0x7f || c == '/' || c == '@' || (c == ':' && !isIP(host)) {
			return false
		}
	}
	return true
}

func isIP(host string) bool {
	_, err := netip.ParseAddr(host)
	return err == nil
}

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}
