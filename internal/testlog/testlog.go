// Package testlog is the network tests' logger (p2p and its services,
// netplay): it collects a test's logs and prints them only when the test
// fails, or always when LAN_TEST_LOGS is set; pubsub's own debug chatter
// (every RPC) is dropped, its info and above kept.
package testlog

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"sync"
	"testing"
)

// Logger is t's logger. A goroutine logging after the test ended must not
// call t.Log: the lines go to a buffer, printed when the test ends.
func Logger(t testing.TB) *slog.Logger {
	var mu sync.Mutex
	var buf bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	})
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("LAN_TEST_LOGS") != "" {
			mu.Lock()
			t.Logf("logs:\n%s", buf.String())
			mu.Unlock()
		}
	})
	return slog.New(&quietPubsub{slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// quietPubsub raises the floor to info for a logger given pubsub's
// component attribute.
type quietPubsub struct{ slog.Handler }

func (h *quietPubsub) Handle(ctx context.Context, r slog.Record) error {
	return h.Handler.Handle(ctx, r)
}

func (h *quietPubsub) WithAttrs(as []slog.Attr) slog.Handler {
	for _, a := range as {
		if a.Key == "component" && a.Value.String() == "pubsub" {
			return &infoFloor{h.Handler.WithAttrs(as)}
		}
	}
	return &quietPubsub{h.Handler.WithAttrs(as)}
}

func (h *quietPubsub) WithGroup(name string) slog.Handler {
	return &quietPubsub{h.Handler.WithGroup(name)}
}

type infoFloor struct{ slog.Handler }

func (h *infoFloor) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelInfo && h.Handler.Enabled(ctx, l)
}

func (h *infoFloor) WithAttrs(as []slog.Attr) slog.Handler {
	return &infoFloor{h.Handler.WithAttrs(as)}
}

// Buffer is a bytes.Buffer safe for one goroutine writing (a command's
// output, a logger) while another reads it (the test). Its zero value is
// ready to use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is what has been written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
