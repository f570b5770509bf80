package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/testlog"
	"github.com/okey-game/okey/p2p/relay"
)

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
	os.WriteFile(filepath.Join(bad, relay.AllowFile), []byte("not a peer id\n"), 0o600)
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
	var out, errb testlog.Buffer
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
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "relay: /ip4/127.0.0.1/tcp/") || !strings.Contains(lines[0], "/p2p/12D3") ||
		!strings.HasPrefix(lines[1], "relay line: "+strings.TrimPrefix(lines[0], "relay: ")+relay.KeyMarker) {
		t.Fatalf("output %q", lines)
	}
	if _, err := os.Stat(filepath.Join(dir, "identity.key")); err != nil {
		t.Fatalf("identity not kept: %v", err)
	}
}

// runRelayOnce starts okey relay with args, waits for its output, stops it
// and returns stdout and stderr.
func runRelayOnce(t *testing.T, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	old := relayStopContext
	relayStopContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	t.Cleanup(func() { relayStopContext = old })
	var out, errb testlog.Buffer
	done := make(chan int)
	go func() {
		done <- run(append([]string{"relay", "--listen", "/ip4/127.0.0.1/tcp/0"}, args...), strings.NewReader(""), &out, &errb)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(errb.String(), "relay started") {
		if time.Now().After(deadline) {
			t.Fatalf("the relay did not start: %q %q", out.String(), errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return out.String(), errb.String()
}

func relayLineOf(t *testing.T, out string) (string, relay.Key) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if line, ok := strings.CutPrefix(l, "relay line: "); ok {
			_, key, err := relay.ParseLine(line)
			if err != nil || key.IsZero() {
				t.Fatalf("relay line %q: %v", line, err)
			}
			return line, key
		}
	}
	return "", relay.Key{}
}

// TestRelayLineKey: okey relay prints one relay line with its key, keeps
// the key (0600) across restarts, never writes it to its log; --new-key
// replaces it, --no-key removes it (no line).
func TestRelayLineKey(t *testing.T) {
	dir := t.TempDir()
	out, errs := runRelayOnce(t, "--data", dir, "-v")
	line, key := relayLineOf(t, out)
	if line == "" {
		t.Fatalf("no relay line: %q", out)
	}
	if strings.Contains(errs, key.Text()) {
		t.Fatal("the key is in the log")
	}
	st, err := os.Stat(filepath.Join(dir, relay.KeyFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st, err)
	}
	out, _ = runRelayOnce(t, "--data", dir)
	if _, k := relayLineOf(t, out); k != key {
		t.Fatal("a restart changed the key")
	}
	out, _ = runRelayOnce(t, "--data", dir, "--new-key")
	if _, k := relayLineOf(t, out); k == key {
		t.Fatal("--new-key kept the key")
	}
	out, _ = runRelayOnce(t, "--data", dir, "--no-key")
	if l, _ := relayLineOf(t, out); l != "" {
		t.Fatalf("--no-key printed a line: %q", l)
	}
	if _, err := os.Stat(filepath.Join(dir, relay.KeyFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("--no-key left the key file: %v", err)
	}
	if code, _, errs := runOkey(t, "", "relay", "--data", dir, "--new-key", "--no-key"); code != 2 || !strings.Contains(errs, "--no-key") {
		t.Fatalf("--new-key --no-key: exit %d %q", code, errs)
	}
}
