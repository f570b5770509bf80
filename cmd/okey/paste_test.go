package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wrapped is text cut into lines of width characters, as the lobby shows
// an invite code and a terminal copies it.
func wrapped(text string, width int) string {
	var lines []string
	for len(text) > width {
		lines = append(lines, text[:width])
		text = text[width:]
	}
	return strings.Join(append(lines, text), "\n") + "\n"
}

// TestCodeFromStdinWrapped: `okey bot --code -`, `okey watch --code -` and
// `okey play --code -` read a code wrapped over lines whole (each goes on
// to its next step, past the code), and so does --code with the code's
// line breaks in it.
func TestCodeFromStdinWrapped(t *testing.T) {
	text := someCode(t, "/ip4/127.0.0.1/tcp/9") // the discard port: nothing listens
	in := wrapped(text, 40)
	if strings.Count(in, "\n") < 2 {
		t.Fatalf("a code of %d characters", len(text))
	}
	t.Run("watch", func(t *testing.T) {
		for name, args := range map[string][]string{
			"stdin": {"--code", "-"},
			"flag":  {"--code", "  " + strings.ReplaceAll(in, "\n", "\n  ")},
		} {
			var out, errb bytes.Buffer
			code := run(append(append([]string{"watch", "--data", t.TempDir()}, args...), "fedcba9876543210"), strings.NewReader(in), &out, &errb)
			if code != 2 || !strings.Contains(errb.String(), "the code is for table 0123456789abcdef, not fedcba9876543210") {
				t.Errorf("%s: exit %d, stderr %q: the code was not read whole", name, code, errb.String())
			}
		}
	})
	t.Run("play", func(t *testing.T) {
		notDir := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(notDir, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := run([]string{"play", "--data", notDir, "--code", "-"}, strings.NewReader(in), &out, &errb)
		if code != 2 || strings.Contains(errb.String(), "--code") || !strings.Contains(errb.String(), "not a directory") {
			t.Errorf("exit %d, stderr %q: want the code read whole, then the data directory refused", code, errb.String())
		}
	})
	t.Run("bot", func(t *testing.T) {
		var out, errb bytes.Buffer
		code := run([]string{"bot", "--data", t.TempDir(), "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--code", "-", "--wait", "3s"},
			strings.NewReader(in), &out, &errb)
		if code != exitCannotForm || !strings.Contains(errb.String(), "cannot form") {
			t.Fatalf("exit %d, stderr %q: want the code read whole, then its creator unreachable", code, errb.String())
		}
		if strings.Contains(errb.String(), text[:40]) {
			t.Fatal("the code was echoed")
		}
	})
}

// TestBotCannotFormOneSentence: a table that cannot form (its creator
// unreachable: nothing listens at the code's address) ends with one line
// on stderr: one sentence saying what to do, "cannot form" once, no list
// of dial errors and no package prefixes; the details are in the log.
func TestBotCannotFormOneSentence(t *testing.T) {
	text := someCode(t, "/ip4/127.0.0.1/tcp/9") // the discard port: nothing listens
	logf := filepath.Join(t.TempDir(), "bot.log")
	var out, errb bytes.Buffer
	code := run([]string{"bot", "--data", t.TempDir(), "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--code", "-", "--wait", "3s", "--log", logf},
		strings.NewReader(text+"\n"), &out, &errb)
	msg := errb.String()
	if code != exitCannotForm || strings.Count(msg, "\n") != 1 || strings.Count(msg, "cannot form") != 1 {
		t.Fatalf("exit %d, stderr %q: want one line saying once that the table cannot form", code, msg)
	}
	for _, bad := range []string{"/ip4/", "dial", "(p2p:", "p2p:", "lan:", "deadline", text[:30]} {
		if strings.Contains(msg, bad) {
			t.Errorf("stderr %q holds %q", msg, bad)
		}
	}
	if !strings.Contains(msg, "relay") {
		t.Errorf("stderr %q: want what to do next (a relay)", msg)
	}
	if l := readFile(t, logf); !strings.Contains(l, "cannot reach the table's creator") || strings.Contains(l, text[:30]) {
		t.Errorf("the log lacks the details (or holds the code):\n%s", l)
	}
}
