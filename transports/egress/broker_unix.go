//go:build unix

package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
)

// The control protocol between the shim and the broker: the shim asks
// with one byte; the broker answers brokerOK with a descriptor (a fresh
// connection to the proxy's unix socket) or brokerFailed without one.
const (
	brokerAsk    = 'c'
	brokerOK     = 'k'
	brokerFailed = 'e'
)

// errNoProxyConn is a control socket that gave no connection.
var errNoProxyConn = errors.New("the egress broker gave no connection to the proxy")

// StartBroker starts the broker of one sandbox: mcpdeck's side of a
// connected pair of unix sockets whose other end, shimEnd, goes into the
// sandbox for the shim (--control-fd). For each ask the broker connects
// to the proxy's unix socket at socket and hands the shim that
// connection's descriptor. So the shim never makes a unix socket: the
// sandbox's socket filter binds it as it binds the server, which it
// starts directly. stop closes mcpdeck's end and waits for the broker.
func StartBroker(socket string) (shimEnd *os.File, stop func(), err error) {
	syscall.ForkLock.RLock() // no other goroutine's child inherits the pair before it is close-on-exec
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, fmt.Errorf("the egress broker: %w", err)
	}
	hostF := os.NewFile(uintptr(fds[0]), "egress-broker")
	hc, err := net.FileConn(hostF)
	_ = hostF.Close()
	if err != nil {
		_ = syscall.Close(fds[1])
		return nil, nil, fmt.Errorf("the egress broker: %w", err)
	}
	host := hc.(*net.UnixConn)
	var wg sync.WaitGroup
	wg.Go(func() { serveBroker(host, socket) })
	return os.NewFile(uintptr(fds[1]), "egress-control"), func() { _ = host.Close(); wg.Wait() }, nil
}

// serveBroker answers asks until the control socket ends.
func serveBroker(host *net.UnixConn, socket string) {
	var b [1]byte
	for {
		if _, err := host.Read(b[:]); err != nil {
			return
		}
		if b[0] != brokerAsk {
			return // not the shim's protocol: end it
		}
		if err := handOver(host, socket); err != nil {
			return
		}
	}
}

// handOver connects to the proxy's socket and sends the connection's
// descriptor, or brokerFailed; the error is the control socket's.
func handOver(host *net.UnixConn, socket string) error {
	var d net.Dialer
	uc, err := d.DialContext(context.Background(), "unix", socket) // the proxy's own socket: at once or never
	if err != nil {
		_, werr := host.Write([]byte{brokerFailed})
		return werr
	}
	defer uc.Close()
	f, err := uc.(*net.UnixConn).File()
	if err != nil {
		_, werr := host.Write([]byte{brokerFailed})
		return werr
	}
	defer f.Close()
	_, _, err = host.WriteMsgUnix([]byte{brokerOK}, syscall.UnixRights(int(f.Fd())), nil)
	return err
}

// controlDialer is the shim's side: each dial asks the broker over the
// control socket for a connection to the proxy, one at a time.
type controlDialer struct {
	mu sync.Mutex
	c  *net.UnixConn
}

// dial returns a connection to the proxy that the broker made.
func (d *controlDialer) dial() (net.Conn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.c.Write([]byte{brokerAsk}); err != nil {
		return nil, err
	}
	var b [1]byte
	oob := make([]byte, syscall.CmsgSpace(4))
	n, oobn, _, _, err := d.c.ReadMsgUnix(b[:], oob)
	if err != nil {
		return nil, err
	}
	msgs, _ := syscall.ParseSocketControlMessage(oob[:oobn])
	var fds []int
	for i := range msgs {
		got, _ := syscall.ParseUnixRights(&msgs[i])
		fds = append(fds, got...)
	}
	if n != 1 || b[0] != brokerOK || len(fds) != 1 {
		for _, fd := range fds {
			_ = syscall.Close(fd)
		}
		return nil, errNoProxyConn
	}
	f := os.NewFile(uintptr(fds[0]), "egress")
	defer f.Close()
	return net.FileConn(f)
}

// openControl takes the inherited control descriptor fd: a connection
// that is closed on exec (net.FileConn duplicates it so; the inherited
// number is closed), so the server the shim starts does not inherit it.
func openControl(fd int) (*controlDialer, error) {
	f := os.NewFile(uintptr(fd), "egress-control")
	if f == nil {
		return nil, fmt.Errorf("no control descriptor %d", fd)
	}
	c, err := net.FileConn(f)
	_ = f.Close()
	if err != nil {
		return nil, fmt.Errorf("the control descriptor %d: %w", fd, err)
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		_ = c.Close()
		return nil, fmt.Errorf("the control descriptor %d is not a unix socket", fd)
	}
	return &controlDialer{c: uc}, nil
}
