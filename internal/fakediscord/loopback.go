package fakediscord

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// offLoopback lists every address a test tried to reach that is not on
// 127.0.0.1.
var offLoopback struct {
	sync.Mutex
	addrs []string
}

func noteAddr(hostport string) error {
	host, _, err := net.SplitHostPort(hostport)
	if err == nil && host == "127.0.0.1" {
		return nil
	}
	offLoopback.Lock()
	defer offLoopback.Unlock()
	offLoopback.addrs = append(offLoopback.addrs, hostport)
	return fmt.Errorf("test refuses to reach %s: not on 127.0.0.1", hostport)
}

type loopbackOnly struct{ next http.RoundTripper }

func (l loopbackOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := noteAddr(r.URL.Host); err != nil {
		return nil, err
	}
	return l.next.RoundTrip(r)
}

// Dialer is a WebSocket dialer that refuses any address but 127.0.0.1;
// give it to a discordgo session (Session.Dialer) under test.
var Dialer = &websocket.Dialer{
	HandshakeTimeout: 10 * time.Second,
	NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if err := noteAddr(addr); err != nil {
			return nil, err
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	},
}

// Main runs a test binary's tests with http.DefaultTransport (which
// discordgo's client uses) refusing anything but 127.0.0.1, and fails the
// run if any test tried to leave it. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(fakediscord.Main(m)) }
func Main(m *testing.M) int {
	http.DefaultTransport = loopbackOnly{http.DefaultTransport}
	code := m.Run()
	if len(offLoopback.addrs) > 0 {
		fmt.Fprintf(os.Stderr, "requests left 127.0.0.1: %v\n", offLoopback.addrs)
		code = 1
	}
	return code
}
