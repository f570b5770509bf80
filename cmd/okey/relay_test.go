package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a strings.Builder safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRelayUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"relay", "extra"},
		{"relay", "--data", dir, "--allow", "nope"},
		{"relay", "--data", dir, "--listen", "garbage"},
		{"relay", "--data", dir, "--announce", "garbage"},
		{"relay", "--data", dir, "--rate", "10"},
		{"relay", "--bogus"},
	} {
		if code, _, errs := runOkey(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errs)
		} else if !strings.HasPrefix(errs, "okey: relay: ") && !strings.Contains(errs, "flag provided but not defined") {
			t.Errorf("%v: stderr %q", args, errs)
		}
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, relayAllowFile), []byte("not a peer id\n"), 0o600)
	if code, _, errs := runOkey(t, "", "relay", "--data", bad); code != 2 || !strings.Contains(errs, "not a peer id") {
		t.Errorf("a broken allow-list: exit %d %q", code, errs)
	}
}

// TestRelayRunsAndStops: okey relay prints its addresses with its peer id,
// keeps its identity in --data, and exits 0 when stopped.
func TestRelayRunsAndStops(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	old := relayStopContext
	relayStopContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	t.Cleanup(func() { relayStopContext = old })
	var out, errb syncBuffer
	done := make(chan int)
	go func() {
		done <- run([]string{"relay", "--data", dir, "--listen", "/ip4/127.0.0.1/tcp/0"}, strings.NewReader(""), &out, &errb)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "/ip4/127.0.0.1/tcp/") {
		if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q %q", out.String(), errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "relay: /ip4/127.0.0.1/tcp/") || !strings.Contains(lines[0], "/p2p/12D3") {
		t.Fatalf("output %q", lines)
	}
	if _, err := os.Stat(filepath.Join(dir, "identity.key")); err != nil {
		t.Fatalf("identity not kept: %v", err)
	}
}
