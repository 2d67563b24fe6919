//go:build linux

package sandbox

import (
	"context"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// startEgress starts the host side of a command's egress: a Unix socket pair whose sandbox
// end goes to the init stage, which sends over it each connection a command makes to
// egressListenAddr (the descriptor itself, so that nothing copies in the sandbox), and a
// proxy serving each. stop ends the proxy and its connections.
func (l *Local) startEgress(ctx context.Context) (sandboxEnd *os.File, stop func(), err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	hostEnd := os.NewFile(uintptr(fds[0]), "egress")
	sandboxEnd = os.NewFile(uintptr(fds[1]), "egress")
	ctx, cancel := context.WithCancel(ctx)
	proxy := newEgressProxy(ctx, l.opts.Egress, l.rules)
	received := make(chan struct{})
	go func() {
		defer close(received)
		oob := make([]byte, unix.CmsgSpace(4))
		buf := make([]byte, 1)
		for {
			_, oobn, _, _, err := unix.Recvmsg(int(hostEnd.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
			if err != nil || oobn == 0 {
				return // the sandbox ended, or stop closed the socket
			}
			conn, ok := connFromRights(oob[:oobn])
			if !ok {
				continue
			}
			go proxy.serve(conn)
		}
	}()
	stop = func() {
		cancel()
		// Shutdown, not Close: Recvmsg holds the descriptor, and only this wakes it.
		unix.Shutdown(int(hostEnd.Fd()), unix.SHUT_RDWR)
		<-received
		hostEnd.Close()
		proxy.close()
	}
	return sandboxEnd, stop, nil
}

// connFromRights makes a connection of the one descriptor a control message carries.
func connFromRights(oob []byte) (net.Conn, bool) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil || len(msgs) != 1 {
		return nil, false
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil {
		return nil, false
	}
	for _, fd := range fds[1:] {
		unix.Close(fd)
	}
	if len(fds) == 0 {
		return nil, false
	}
	f := os.NewFile(uintptr(fds[0]), "egress")
	defer f.Close()
	conn, err := net.FileConn(f)
	return conn, err == nil
}

// forwardEgress runs in the init stage: it listens on egressListenAddr in the sandbox's
// network namespace and passes every connection to the host over initEgressFD. The init
// stage holds no data of the connections: it hands them over and closes its copy.
func forwardEgress() error {
	ln, err := net.Listen("tcp4", egressListenAddr)
	if err != nil {
		return err
	}
	unix.CloseOnExec(initEgressFD)
	go func() {
		for {
			c, err := ln.(*net.TCPListener).AcceptTCP()
			if err != nil {
				return
			}
			if f, err := c.File(); err == nil {
				unix.Sendmsg(initEgressFD, []byte{0}, unix.UnixRights(int(f.Fd())), nil, 0)
				f.Close()
			}
			c.Close()
		}
	}()
	return nil
}
