package transports

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"

	"github.com/mark3labs/mcp-go/client/transport"
)

// TestAnswersWaitForAPlace: a server that sends a thousand requests and
// never reads the answers gets at most maxAnswering of them answered at
// once: the reader waits for a place instead of starting a goroutine per
// request, and everything ends when the connection does.
func TestAnswersWaitForAPlace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newRPCPeer(func(ctx context.Context, _ []byte) error { // the server reads nothing
			<-ctx.Done()
			return ctx.Err()
		})
		p.SetRequestHandler(func(_ context.Context, r transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
			return nil, errors.New("declined") // at once, as the engine declines a flood
		})
		before := runtime.NumGoroutine()
		read := make(chan int, 1)
		go func() {
			n := 0
			for i := range 1000 {
				if err := p.dispatch(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"elicitation/create","params":{}}`, i)); err != nil {
					t.Error(err)
				}
				n++
			}
			read <- n
		}()
		synctest.Wait()
		goroutines := runtime.NumGoroutine() - before
		var readAll bool
		select {
		case <-read:
			readAll = true
		default:
		}
		p.fail(errors.New("connection closed")) // ends every answer and the reader's wait
		if goroutines > maxAnswering+1 {
			t.Errorf("%d goroutines for a server that reads no answers, want at most %d and the reader", goroutines, maxAnswering)
		}
		if readAll {
			t.Fatal("the reader read all the requests while no answer could be sent")
		}
		if n := <-read; n != 1000 {
			t.Fatalf("the reader stopped after %d requests", n)
		}
	})
}
