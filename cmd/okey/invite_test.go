package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/p2p/invite"
)

func someCode(t *testing.T, addr string) string {
	t.Helper()
	_, pub, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPublicKey(pub)
	s, _ := invite.NewSecret()
	text, err := invite.Code{Table: "0123456789abcdef", Creator: id, Secret: s, Addrs: []ma.Multiaddr{ma.StringCast(addr)}}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func TestBotCodeUsage(t *testing.T) {
	good := someCode(t, "/ip4/127.0.0.1/tcp/9")
	typo := []byte(good)
	typo[10], typo[11] = typo[11], typo[10]
	if typo[10] == typo[11] {
		typo[12] = 'x'
	}
	for name, tc := range map[string]struct {
		args  []string
		stdin string
		says  string
	}{
		"typo":          {args: []string{"--code", string(typo)}, says: "check does not match"},
		"not a code":    {args: []string{"--code", "hello"}, says: "not an okey invite code"},
		"code + create": {args: []string{"--code", good, "--create"}, says: "--code excludes"},
		"code + join":   {args: []string{"--code", good, "--join", "abc"}, says: "--code excludes"},
		"lan alone":     {args: []string{"--lan"}, says: "--lan goes with --create"},
		"empty stdin":   {args: []string{"--code", "-"}, stdin: "\n  \n", says: "no code"},
		"bad stdin":     {args: []string{"--code", "-"}, stdin: "okey1abc\n", says: "--code"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"bot", "--data", t.TempDir()}, tc.args...), strings.NewReader(tc.stdin), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.says) || !strings.HasPrefix(errb.String(), "okey: bot: ") {
			t.Errorf("%s: exit %d, stderr %q; want 2 saying %q", name, code, errb.String(), tc.says)
		}
		if strings.Contains(errb.String(), good) {
			t.Errorf("%s: the code was echoed", name)
		}
	}
}

// TestBotCannotForm: a code whose creator cannot be reached ends with exit
// status 4, never 1.
func TestBotCannotForm(t *testing.T) {
	text := someCode(t, "/ip4/127.0.0.1/tcp/9") // the discard port: nothing listens
	var out, errb bytes.Buffer
	code := run([]string{"bot", "--data", t.TempDir(), "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--code", "-", "--wait", "3s"},
		strings.NewReader(text+"\n"), &out, &errb)
	if code != exitCannotForm || !strings.Contains(errb.String(), "cannot form") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if strings.Contains(errb.String(), text) {
		t.Fatal("the code was echoed")
	}
}

// TestBotByCode: `okey bot --create` prints the invite code on a line of its
// own, and `okey bot --code -` reading it from stdin takes the seat with no
// mDNS and no --peer; the match finishes and verifies on both.
func TestBotByCode(t *testing.T) {
	lane.NoRace(t) // a network match: cmd/okey starts no goroutine; netplay's tests race the bot's loop, and TestBotPlaysOverLoopback is the CLI's share
	if testing.Short() {
		t.Skip("plays a whole match")
	}
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	codes := make([]int, 2)
	var errA, errB, outB bytes.Buffer
	var outA bytes.Buffer
	logA := filepath.Join(t.TempDir(), "a.log")
	wg.Go(func() {
		codes[0] = run([]string{"bot", "--no-mdns", "--create", "--players", "2", "--preset", "turkish-rummy:rounds=1", "--withhold", "10m",
			"--data", t.TempDir(), "--out", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0", "--log", logA}, nil, pw, &errA)
		pw.Close()
	})
	sc := bufio.NewScanner(pr)
	var code string
	for sc.Scan() {
		outA.WriteString(sc.Text() + "\n")
		if c, ok := strings.CutPrefix(sc.Text(), "invite: "); ok && code == "" {
			code = c
			wg.Go(func() {
				codes[1] = run([]string{"bot", "--no-mdns", "--code", "-", "--withhold", "10m", "--data", t.TempDir(), "--out", t.TempDir(),
					"--listen", "/ip4/127.0.0.1/tcp/0"}, strings.NewReader(code+"\n"), &outB, &errB)
			})
		}
	}
	wg.Wait()
	if code == "" {
		t.Fatalf("no invite line; stdout %q stderr %q", outA.String(), errA.String())
	}
	if _, err := invite.Parse(code); err != nil || len(code) > invite.MaxLen {
		t.Fatalf("code %q: %v", code, err)
	}
	for i, c := range codes {
		if c != 0 {
			t.Fatalf("bot %d: exit %d\nA: %s %s\nB: %s %s", i, c, outA.String(), errA.String(), outB.String(), errB.String())
		}
	}
	if !strings.Contains(outA.String(), "; verified; transcript ") || !strings.Contains(outB.String(), "; verified; transcript ") {
		t.Fatalf("summaries: %q %q", outA.String(), outB.String())
	}
	// The code holds the table's secret: never in a log.
	for _, l := range []string{errB.String(), readFile(t, logA)} {
		if strings.Contains(l, code) {
			t.Fatal("the invite code is in a log")
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPlayCodeUsage(t *testing.T) {
	for name, tc := range map[string]struct {
		args  []string
		stdin string
		says  string
	}{
		"not a code":  {args: []string{"--code", "hello"}, says: "not an okey invite code"},
		"empty stdin": {args: []string{"--code", "-"}, stdin: "", says: "no code"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"play", "--data", t.TempDir()}, tc.args...), strings.NewReader(tc.stdin), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.says) || !strings.HasPrefix(errb.String(), "okey: --code") {
			t.Errorf("%s: exit %d, stderr %q; want 2 saying %q", name, code, errb.String(), tc.says)
		}
	}
	// In Turkish too.
	var out, errb bytes.Buffer
	if code := run([]string{"--lang", "tr", "play", "--data", t.TempDir(), "--code", "okey1abcdefgh"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "davet kodunun denetimi tutmuyor") {
		t.Errorf("tr: exit %d, %q", code, errb.String())
	}
}
