package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
)

// TestTournamentCLILoopback: okey tournament create with 5 bots in the
// process, on loopback with no mDNS: 6 players, two 3-seat tables, one
// round; each participant fetches the other table's transcript over
// /okey/tournament/1.0.0, and every folder verifies the same, byte for
// byte. (Too slow under the race detector: make test runs it without.)
func TestTournamentCLILoopback(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English) // other tests run commands that set the language
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := runTournament([]string{"create", "--bot", "--players", "6", "--rounds", "1", "--bots", "5", "--no-mdns",
		"--listen", "/ip4/127.0.0.1/tcp/0", "--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data"),
		"--linger", "3s", "--wait", "150s"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "verdict: honest and complete") || !strings.Contains(out.String(), "final standings:") {
		t.Fatalf("no final standings:\n%s", out.String())
	}
	folders := []string{filepath.Join(dir, "t")}
	for i := 1; i <= 5; i++ {
		folders = append(folders, filepath.Join(dir, "t", "bots", string(rune('0'+i))))
	}
	var first string
	for _, f := range folders {
		for _, tr := range []string{"r1-t0.transcript", "r1-t1.transcript"} {
			if _, err := os.Stat(filepath.Join(f, tr)); err != nil {
				t.Fatalf("%s lacks %s", f, tr)
			}
		}
		code, text := verifyDir(t, f)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", f, code, text)
		}
		if first == "" {
			first = text
		} else if text != first {
			t.Fatalf("okey verify differs between folders:\n%s\n---\n%s", first, text)
		}
	}
}

// TestTournamentCLILoopbackPerson: okey tournament create without --bot
// seats the person at the terminal: 3 players (the person and 2 bots of
// the process) over loopback; round 1's match opens the table screen with
// the person's seat among the other players, and leaving it (q, y) stops
// the participant with the resume message and exit status 3, its table
// state kept in the data directory; the same command run again resumes
// every participant of the process, mid-match, to the end.
func TestTournamentCLILoopbackPerson(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English) // other tests run commands that set the language
	screens := captureTournamentScreens(t)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runTournament([]string{"create", "--player", "ayse", "--players", "3", "--rounds", "1", "--bots", "2", "--no-mdns",
			"--listen", "/ip4/127.0.0.1/tcp/0", "--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data"),
			"--linger", "1s", "--wait", "150s"}, nil, &out, &errb)
	}()
	var scr tcell.SimulationScreen
	select {
	case scr = <-screens:
	case code := <-done:
		t.Fatalf("exit %d before a table screen\n%s\n%s", code, out.String(), errb.String())
	case <-time.After(150 * time.Second):
		t.Fatal("no table screen within 150 s")
	}
	text := func() string {
		cells, w, h := scr.GetContents()
		var b strings.Builder
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if c := cells[y*w+x]; len(c.Runes) > 0 {
					b.WriteString(string(c.Runes))
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	deadline := time.Now().Add(60 * time.Second)
	for !(strings.Contains(text(), "ayse-bot1") && strings.Contains(text(), "ayse-bot2")) {
		if time.Now().After(deadline) {
			t.Fatalf("the table screen does not show the other players:\n%s", text())
		}
		time.Sleep(100 * time.Millisecond)
	}
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	scr.InjectKey(tcell.KeyRune, 'y', tcell.ModNone)
	select {
	case code := <-done:
		if code != 3 || !strings.Contains(errb.String(), "left the tournament") {
			t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the command did not stop after the player left:\n%s", text())
	}
	if got, _ := filepath.Glob(filepath.Join(dir, "data", "tournaments", "*", "tables", "r1-t0", "transcript")); len(got) != 1 {
		t.Fatalf("no table state to resume: %v", got)
	}
	// The same command again, this time with the seat played by a bot:
	// every participant of the process resumes (the creator does not
	// announce again; each seat's match goes on from its saved chain), and
	// the tournament ends honest and complete.
	out.Reset()
	errb.Reset()
	code := runTournament([]string{"create", "--bot", "--player", "ayse", "--players", "3", "--rounds", "1", "--bots", "2", "--no-mdns",
		"--listen", "/ip4/127.0.0.1/tcp/0", "--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data"),
		"--linger", "1s", "--wait", "150s"}, nil, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "verdict: honest and complete") {
		t.Fatalf("resumed: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if strings.Contains(out.String(), "announced") || !strings.Contains(out.String(), "tournament resumed from") {
		t.Fatalf("the creator announced again:\n%s", out.String())
	}
}

// TestTournamentPersonTwoRounds: a whole tournament with the person's seat
// at the table screen: 3 players (the person and 2 bots), 2 rounds of
// classic:points=1,timer=5, where the screen's turn timer moves for the
// person (nobody presses a key but Escape, which closes each hand's and
// match's panel). Two table screens open, one a round, both matches finish
// and the command prints the final standings and exits 0. 75 to 120 s here
// (the person's turns take 5 s each): it runs with OKEY_TOURNAMENT_PERSON=1
// only (go test -run TournamentPersonTwoRounds ./cmd/okey/).
func TestTournamentPersonTwoRounds(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English) // other tests run commands that set the language
	if os.Getenv("OKEY_TOURNAMENT_PERSON") == "" {
		t.Skip("75 to 120 s: set OKEY_TOURNAMENT_PERSON=1")
	}
	screens := captureTournamentScreens(t)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runTournament([]string{"create", "--player", "ayse", "--players", "3", "--rounds", "2", "--bots", "2", "--no-mdns",
			"--preset", "classic:points=1,timer=5",
			"--listen", "/ip4/127.0.0.1/tcp/0", "--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data"),
			"--linger", "1s", "--wait", "900s"}, nil, &out, &errb)
	}()
	n := 0
	var scr tcell.SimulationScreen
	tick := time.NewTicker(3 * time.Second)
	for {
		select {
		case s := <-screens:
			n++
			scr = s
			t.Logf("table screen %d", n)
		case code := <-done:
			t.Logf("exit %d, %d screens\n%s\n%s", code, n, out.String(), errb.String())
			if code != 0 || n != 2 || !strings.Contains(out.String(), "final standings") {
				t.Fatal("want exit 0, two table screens and the final standings")
			}
			return
		case <-tick.C:
			if scr != nil {
				scr.InjectKey(tcell.KeyEscape, 0, tcell.ModNone)
			}
		}
	}
}

// captureTournamentScreens makes runTournament's table screens simulated
// ones, each sent on the channel returned, until the test ends.
func captureTournamentScreens(t *testing.T) <-chan tcell.SimulationScreen {
	screens := make(chan tcell.SimulationScreen, 8)
	tournamentScreen = func() tcell.Screen {
		s := tcell.NewSimulationScreen("UTF-8")
		screens <- s
		return s
	}
	t.Cleanup(func() { tournamentScreen = nil })
	return screens
}
