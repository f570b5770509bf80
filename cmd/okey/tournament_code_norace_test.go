package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/internal/testlog"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/tournament"
)

// folderRecords decodes a tournament folder's records file (nil while it
// is not there).
func folderRecords(dir string) []*tournament.Record {
	b, err := os.ReadFile(filepath.Join(dir, "tournament"))
	if err != nil {
		return nil
	}
	raws, err := tournament.DecodeFile(b)
	if err != nil {
		return nil
	}
	var out []*tournament.Record
	for _, raw := range raws {
		if r, err := tournament.Decode(raw); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// TestTournamentCLICode: okey tournament create (a code tournament by
// default) prints its invite code; a stranger on the same network, given
// the creator's address but no code, registers first and is left off the
// roster; a friend who pastes the code (join --code -) takes the last
// place, and the tournament ends honest and complete with the creator, its
// bot and the friend. The secret is in no log and no folder, only in the
// creator's data directory (0600). (Over loopback libp2p: too slow under
// the race detector.)
func TestTournamentCLICode(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English) // other tests run commands that set the language
	dir := t.TempDir()
	var out testlog.Buffer
	var errb bytes.Buffer
	creator := make(chan int, 1)
	base := []string{"--bot", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--linger", "3s", "-v"}
	go func() {
		creator <- runTournament(append([]string{"create", "--name", "host", "--players", "3", "--rounds", "1", "--bots", "1",
			"--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data"), "--wait", "150s", "--log", filepath.Join(dir, "creator.log")}, base...),
			nil, &out, &errb)
	}()
	var text string
	waitUntil(t, 30*time.Second, "the invite code", func() bool {
		for _, l := range strings.Split(out.String(), "\n") {
			if c, ok := strings.CutPrefix(l, invitePrefix); ok {
				text = c
				return true
			}
		}
		return false
	})
	code, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(code.Addrs) == 0 {
		t.Fatalf("the code has no address: %s", text)
	}
	tid := code.Table
	// A stranger with the creator's address and the tournament's id, but
	// no code, registers first.
	var sout, serr bytes.Buffer
	stranger := make(chan int, 1)
	go func() {
		stranger <- runTournament(append([]string{"join", "--player", "stranger", "--id", tid, "--peer", fmt.Sprintf("%s/p2p/%s", code.Addrs[0], code.Creator),
			"--dir", filepath.Join(dir, "s"), "--data", filepath.Join(dir, "sdata"), "--wait", "60s", "--log", filepath.Join(dir, "stranger.log")}, base...),
			nil, &sout, &serr)
	}()
	defer func() { <-stranger }()
	waitUntil(t, 60*time.Second, "the stranger's registration at the creator", func() bool {
		return slices.ContainsFunc(folderRecords(filepath.Join(dir, "t")), func(r *tournament.Record) bool {
			return r.Kind == tournament.KindRegister && r.Name == "stranger"
		})
	})
	var jout, jerr bytes.Buffer
	friend := runTournament(append([]string{"join", "--name", "friend", "--code", "-",
		"--dir", filepath.Join(dir, "j"), "--data", filepath.Join(dir, "jdata"), "--wait", "150s", "--log", filepath.Join(dir, "friend.log")}, base...),
		strings.NewReader("\n"+text+"\n"), &jout, &jerr)
	if friend != 0 {
		t.Fatalf("the friend: exit %d\n%s\n%s", friend, jout.String(), jerr.String())
	}
	if c := <-creator; c != 0 || !strings.Contains(out.String(), "verdict: honest and complete") {
		t.Fatalf("the creator: exit %d\n%s\n%s", c, out.String(), errb.String())
	}
	var roster *tournament.Record
	names := map[[32]byte]string{}
	for _, r := range folderRecords(filepath.Join(dir, "t")) {
		switch r.Kind {
		case tournament.KindRoster:
			roster = r
		case tournament.KindRegister:
			names[r.Signer] = r.Name
		}
	}
	var on []string
	for _, e := range roster.Entries {
		on = append(on, names[e.Key])
	}
	slices.Sort(on)
	if fmt.Sprint(on) != "[friend host host-bot1]" {
		t.Fatalf("roster %v, want the creator, its bot and the friend", on)
	}
	// The secret: in the creator's data directory only.
	secret := hex.EncodeToString(code.Secret.Bytes())
	var files []string
	for _, d := range []string{"t", "j", "s"} {
		filepath.Walk(filepath.Join(dir, d), func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				files = append(files, p)
			}
			return nil
		})
	}
	files = append(files, filepath.Join(dir, "creator.log"), filepath.Join(dir, "friend.log"), filepath.Join(dir, "stranger.log"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte(secret)) || bytes.Contains(b, []byte(text)) || bytes.Contains(b, code.Secret.Bytes()) {
			t.Errorf("%s holds the secret or the code", f)
		}
	}
	kept := filepath.Join(dir, "data", "tournaments", tid, "invite")
	if st, err := os.Stat(kept); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the kept secret: %v %v", st, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "creator.log")); !bytes.Contains(b, []byte("tournament record")) {
		t.Fatal("the creator's log is empty: the secret check looked at nothing")
	}
}

// waitUntil polls cond every 50 ms until it holds, failing after d.
func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
	}
}
