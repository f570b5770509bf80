package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/verdict"
)

func TestBotUsageErrors(t *testing.T) {
	cases := map[string][]string{
		"create and join":  {"--create", "--join", "abc"},
		"bad join id":      {"--join", "no/slashes"},
		"bad preset":       {"--preset", "poker"},
		"bad players":      {"--players", "7"},
		"bad strategy":     {"--strategy", "oracle"},
		"negative pace":    {"--pace", "-1s"},
		"bad level":        {"--level", "oracle"},
		"level+strategy":   {"--level", "easy", "--strategy", "greedy"},
		"bad matches":      {"--matches", "0"},
		"bad peer":         {"--peer", "/ip4/127.0.0.1/tcp/1"},
		"bad listen":       {"--listen", "nonsense"},
		"bad name":         {"--name", " x"},
		"short withhold":   {"--withhold", "10ms"},
		"short move wait":  {"--move-withhold", "1ms"},
		"argument":         {"extra"},
		"unknown flag":     {"--frobnicate"},
		"partnerships n=3": {"--preset", "classic:partnerships", "--players", "3"},
		// issue 35: a strategy that cannot play the table's ruleset.
		"expert at 101":  {"--create", "--lan", "--preset", "101", "--strategy", "expert"},
		"random at 101":  {"--preset", "101", "--strategy", "random"},
		"b101 classic":   {"--create", "--lan", "--strategy", "b101"},
		"b101 and level": {"--strategy", "b101", "--level", "easy"},
	}
	for name, args := range map[string][]string{
		"two tables":     {"a", "b"},
		"bad table id":   {"no/slashes"},
		"bad wait":       {"--wait", "0s"},
		"short withhold": {"--withhold", "1ms"},
		"bad peer":       {"--peer", "/ip4/127.0.0.1/tcp/1"},
		"bad listen":     {"--listen", "nonsense"},
		"bad code":       {"--code", "okey1nonsense"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"watch", "--no-ui", "--data", t.TempDir()}, args...), nil, &out, &errb); code != 2 ||
			out.Len() != 0 || !strings.Contains(errb.String(), "okey: watch: ") {
			t.Errorf("watch %s: exit %d, stdout %q, stderr %q; want 2", name, code, out.String(), errb.String())
		}
	}
	for name, args := range cases {
		var out, errb bytes.Buffer
		if code := run(append([]string{"bot", "--data", t.TempDir()}, args...), nil, &out, &errb); code != 2 {
			t.Errorf("%s: exit %d, want 2 (stderr %q)", name, code, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%s: wrote to stdout: %q", name, out.String())
		}
		if !strings.Contains(errb.String(), "okey: bot: ") && name != "unknown flag" {
			t.Errorf("%s: stderr %q", name, errb.String())
		}
	}
}

// TestBotPlaysOverLoopback runs two `okey bot` commands in process over
// real TCP on 127.0.0.1 (no mDNS): one opens a 2-seat table, the other
// finds it through --peer and joins it automatically. Both exit 0 with a
// summary line and byte-identical transcripts that `okey verify` accepts.
func TestBotPlaysOverLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole match")
	}
	botsOverLoopback(t, "turkish-rummy:rounds=1", true)
}

// TestBot101PlaysOverLoopback: the same with Okey 101 (its own bot, whatever
// --strategy says): three rounds, without the race detector (the classic
// family's run above covers the network paths under it).
func TestBot101PlaysOverLoopback(t *testing.T) {
	lane.NoRace(t)
	if testing.Short() {
		t.Skip("plays a whole match")
	}
	botsOverLoopback(t, "101:rounds=3", false)
}

// botsOverLoopback plays one match of preset between two okey bot
// processes' worth of run calls over loopback TCP, checks both verified
// transcripts are the same, and with rerun that a second run has nothing
// to resume.
func botsOverLoopback(t *testing.T, preset string, rerun bool) {
	dataA, dataB := t.TempDir(), t.TempDir()
	k, err := p2p.LoadOrCreateIdentity(dataA)
	if err != nil {
		t.Fatal(err)
	}
	idA, _ := peer.IDFromPrivateKey(k)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	outA, outB := t.TempDir(), t.TempDir()
	summaryA := filepath.Join(t.TempDir(), "summary.json")
	// --pace 0s: with the spectator below the bots would take a person's
	// time per move (issue 37, 7).
	common := []string{"bot", "--no-mdns", "--players", "2", "--preset", preset, "--withhold", "10m", "--pace", "0s"}
	argsA := append(append([]string{}, common...), "--create", "--lan", "--name", "alice", "--data", dataA, "--out", outA,
		"--listen", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port), "--log", filepath.Join(t.TempDir(), "a.log"), "-v", "--summary", summaryA)
	argsB := append(append([]string{}, common...), "--name", "bob", "--data", dataB, "--out", outB, "--settle", "1s",
		"--listen", "/ip4/127.0.0.1/tcp/0", "--peer", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", port, idA))
	var wg sync.WaitGroup
	codes := make([]int, 2)
	outs := make([]bytes.Buffer, 2)
	errs := make([]bytes.Buffer, 2)
	for i, args := range [][]string{argsA, argsB} {
		wg.Go(func() { codes[i] = run(args, nil, &outs[i], &errs[i]) })
		if i == 0 {
			// B and the spectator dial A once it listens: a first dial
			// refused would put the spectator's retry past the short
			// match's end ("no started table found").
			waitListening(t, port)
		}
	}
	// With rerun, a spectator follows the match too (okey watch --no-ui):
	// it finds the started table through A, keeps the same transcript,
	// and exits 0 when it verifies honest and complete.
	var watchCode int
	var watchOut, watchErr bytes.Buffer
	outW, dataW := t.TempDir(), t.TempDir()
	if rerun {
		wg.Go(func() {
			watchCode = run([]string{"watch", "--no-ui", "--no-mdns", "--data", dataW, "--out", outW, "--wait", "2m",
				"--listen", "/ip4/127.0.0.1/tcp/0", "--peer", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", port, idA)}, nil, &watchOut, &watchErr)
		})
	}
	wg.Wait()
	if rerun {
		if watchCode != 0 || !strings.HasPrefix(watchOut.String(), "match 1: table ") || !strings.Contains(watchOut.String(), "; verified; transcript ") {
			t.Fatalf("okey watch: exit %d\nstdout:\n%s\nstderr:\n%s", watchCode, watchOut.String(), watchErr.String())
		}
		// A bare okey watch says which table it took (issue 37, 8).
		if !strings.Contains(watchErr.String(), "okey: watch: watching table ") || !strings.Contains(watchErr.String(), "okey watch TABLE picks another") {
			t.Errorf("okey watch without TABLE does not say which table it took:\n%s", watchErr.String())
		}
	}
	for i := range codes {
		if codes[i] != 0 {
			t.Fatalf("bot %d: exit %d\nstdout:\n%s\nstderr:\n%s", i, codes[i], outs[i].String(), errs[i].String())
		}
	}
	if !strings.Contains(errs[1].String(), "joined table") || !strings.Contains(errs[1].String(), "match over") {
		t.Errorf("bot B's log lacks events:\n%s", errs[1].String())
	}
	for i := range outs {
		if !strings.HasPrefix(outs[i].String(), "match 1: table ") || !strings.Contains(outs[i].String(), "; verified; transcript ") ||
			strings.Count(outs[i].String(), "\n") != 1 {
			t.Fatalf("bot %d summary: %q", i, outs[i].String())
		}
	}
	var data [2][]byte
	for i, dir := range []string{outA, outB} {
		files, err := filepath.Glob(filepath.Join(dir, "*.okey"))
		if err != nil || len(files) != 1 {
			t.Fatalf("transcripts in %s: %v %v", dir, files, err)
		}
		var vout, verr bytes.Buffer
		if code := run([]string{"verify", files[0]}, nil, &vout, &verr); code != 0 || !strings.Contains(vout.String(), "honest") {
			t.Fatalf("verify: exit %d: %s %s", code, vout.String(), verr.String())
		}
		if data[i], err = os.ReadFile(files[0]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(data[0], data[1]) {
		t.Fatal("the two bots' transcripts differ")
	}
	checkSummary(t, summaryA, outA)
	if !rerun {
		return
	}
	if files, err := filepath.Glob(filepath.Join(outW, "*.okey")); err != nil || len(files) != 1 {
		t.Fatalf("the spectator's transcripts: %v %v", files, err)
	} else if w, _ := os.ReadFile(files[0]); !bytes.Equal(w, data[0]) {
		t.Fatal("the spectator's transcript differs from the bots'")
	} else {
		watchAfterTheEnd(t, dataW, strings.TrimSuffix(filepath.Base(files[0]), ".okey"))
	}
	// A second run with the same data directories has nothing to resume:
	// the finished match is not played again (--wait ends the search).
	var o2, e2 bytes.Buffer
	if code := run([]string{"bot", "--no-mdns", "--data", dataB, "--out", outB, "--wait", "300ms", "--settle", "1h",
		"--listen", "/ip4/127.0.0.1/tcp/0"}, nil, &o2, &e2); code != exitCannotForm || !strings.Contains(e2.String(), "no table started") {
		t.Fatalf("rerun: exit %d: %s %s", code, o2.String(), e2.String())
	}
}

// watchAfterTheEnd runs okey watch again with the data directory of a
// spectator that watched table id to its end, once the table is gone
// (ended, out of the lobby, its seats stopped): with TABLE it gives the
// verdict of the transcript it holds at once (0, honest) instead of
// looking for the table (4); and a watch left unfinished (its done mark
// removed) resumes without TABLE from the folder and ends with the verdict
// of the chain it holds, instead of finding no table in the lobby (4).
func watchAfterTheEnd(t *testing.T, data, id string) {
	t.Helper()
	args := []string{"watch", "--no-ui", "--no-mdns", "--data", data, "--wait", "300ms", "--withhold", "2s", "--listen", "/ip4/127.0.0.1/tcp/0"}
	var out, errb bytes.Buffer
	if code := run(append(args, id), nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "watched to its end before: verified: honest") {
		t.Fatalf("watch %s after its end: exit %d\nstdout:\n%s\nstderr:\n%s", id, code, out.String(), errb.String())
	}
	if err := os.Remove(filepath.Join(data, netplay.MatchesDir, id, "done")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := run(args, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "; verified; transcript ") {
		t.Fatalf("watch resumed after the end: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	// Its folder holds the whole match: it waits for no member (the bots
	// are gone; it used to wait 10 s for one before it looked).
	if strings.Contains(errb.String(), "no member connected") {
		t.Errorf("watch resumed after the end waited for a member:\n%s", errb.String())
	}
}

// checkSummary checks bot A's --summary against its transcript in out.
func checkSummary(t *testing.T, path, out string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("--summary: %v", err)
	}
	var s netplay.BotSummary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("--summary: %v\n%s", err, b)
	}
	if s.Version != 1 || s.Status != 0 || s.Name != "alice" || len(s.Matches) != 1 {
		t.Fatalf("summary: %s", b)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.okey"))
	tr, _, err := verdict.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	rep := table.Verify(tr)
	m := s.Matches[0]
	if m.Hands != len(rep.Hands) || m.Hands == 0 || int(m.Steps) != rep.Steps || m.Players != 2 || m.ResumedAt != 0 ||
		m.Transcript != files[0] || m.Status != 0 || m.ElapsedMS <= 0 || m.MSPerHand != m.ElapsedMS/int64(m.Hands) {
		t.Errorf("summary's match %+v, transcript: %d hands, %d steps", m, len(rep.Hands), rep.Steps)
	}
	if len(m.HandMS) != m.Hands {
		t.Errorf("summary: %d hand times for %d hands", len(m.HandMS), m.Hands)
	}
	// Every step is applied live once, in order (none replayed: no resume).
	if len(m.Applied) != rep.Steps {
		t.Errorf("summary: %d applied steps, the transcript has %d", len(m.Applied), rep.Steps)
	}
	for i := 1; i < len(m.Applied); i++ {
		if m.Applied[i][0] != m.Applied[i-1][0]+1 || m.Applied[i][1] < m.Applied[i-1][1] {
			t.Fatalf("summary: applied steps out of order at %d: %v %v", i, m.Applied[i-1], m.Applied[i])
		}
	}
	if s.BytesSent <= 0 || s.BytesReceived <= 0 || s.PeakRSS < 1<<20 || s.CPUUserMS+s.CPUSystemMS <= 0 || s.WallMS < m.ElapsedMS {
		t.Errorf("summary's costs: %s", b)
	}
}

// waitListening waits until something accepts TCP connections on
// 127.0.0.1:port (a minute at most).
func waitListening(t *testing.T, port int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on port %d after a minute: %v", port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
