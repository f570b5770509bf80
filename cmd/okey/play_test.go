package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/verdict"
)

func TestPlayAndReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	if err := os.WriteFile(junk, []byte("not a transcript"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--bots", "5"}, "--bots must be 1, 2 or 3"},
		{[]string{"play", "--bots", "3", "--players", "2"}, "does not match"},
		{[]string{"play", "--bots", "1", "--preset", "nope"}, "unknown preset"},
		{[]string{"play", "--bots", "1", "--strategy", "nope"}, "unknown strategy"},
		{[]string{"play", "--bots", "1", "--level", "grandmaster"}, "unknown level"},
		{[]string{"play", "--bots", "1", "--level", "hard", "--strategy", "greedy"}, "not both"},
		{[]string{"play", "extra"}, "takes no arguments"},
		{[]string{"play", "--bots", "1", "--timer", "3"}, "--timer 3: want 5 to 600 seconds"},
		{[]string{"play", "--bots", "1", "--preset", "classic:timer=30", "--timer", "20"}, "set the turn timer once"},
		{[]string{"play", "--resume", "--data", filepath.Join(dir, "d")}, "--resume: no unfinished match against bots"},
		{[]string{"replay"}, "usage: okey replay"},
		{[]string{"replay", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"replay", junk}, "not an okey transcript"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, nil, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, errb.String())
		}
		if !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errb.String(), tc.want)
		}
	}
}

// TestLobbyOffersUnfinishedLAN: the lobby adapter lists a LAN table this
// peer left unfinished (from netplay.Client.Unfinished) with the other players'
// names, hands its announcement back for the resume, and finds the bot of
// this computer that sat at it.
func TestLobbyOffersUnfinishedLAN(t *testing.T) {
	data := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := netplay.Open(ctx, netplay.Options{Data: data, Name: "ayse", NoMDNS: true, Listen: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	k, err := p2p.LoadOrCreateIdentity(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	other, _ := peer.IDFromPrivateKey(k)
	id := lobby.RandomTableID("t")
	a := lobby.Announcement{V: lobby.AnnouncementVersion, Table: id, Creator: c.ID(), Seq: 3, Preset: "classic", Seats: 2,
		Members: []lobby.Seat{{ID: c.ID(), Name: "ayse", Nonce: lobby.NewNonce().String(), Ready: true},
			{ID: other.String(), Name: "mehmet", Nonce: lobby.NewNonce().String(), Ready: true}}, State: lobby.StateStarted}
	b, err := a.Encode()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(data, netplay.MatchesDir, id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "announcement.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	lb := newLanLobby(ctx, c, slog.New(slog.DiscardHandler), "greedy", nil, false, nil)
	un := lb.Unfinished()
	if len(un) != 1 || !un[0].Unfinished || un[0].Local || un[0].ID != id || !strings.Contains(un[0].Note, "mehmet") ||
		strings.Contains(un[0].Note, "ayse") {
		t.Fatalf("Unfinished: %+v", un)
	}
	if got, ok := lb.unfinishedLAN(id); !ok || got.Table != id {
		t.Fatalf("unfinishedLAN: %+v %v", got, ok)
	}
}

// TestLobbyExitSaysTheMatchIsSaved (issue 24 §22): leaving a LAN match
// prints that the match is saved, as leaving a match against bots does,
// with status 0; a match played to its end before still gives its verdict
// and status.
func TestLobbyExitSaysTheMatchIsSaved(t *testing.T) {
	i18n.Set(i18n.English) // other tests run commands that set the language
	line := i18n.T("okey: left the table; the match is saved: okey play offers it in the lobby to resume")
	var out strings.Builder
	if st := lobbyExit(&out, nil, line); st != 0 || out.String() != line+"\n" {
		t.Fatalf("status %d, %q", st, out.String())
	}
	out.Reset()
	if st := lobbyExit(&out, nil, ""); st != 0 || out.Len() != 0 {
		t.Fatalf("nothing played, nothing left: status %d, %q", st, out.String())
	}
	files := transcripts(t)
	tr, _, err := verdict.Read(files["cheat"])
	if err != nil {
		t.Fatal(err)
	}
	o := &netplay.Outcome{Report: *table.Verify(tr), Transcript: files["cheat"]}
	out.Reset()
	if st := lobbyExit(&out, o, line); st != 1 || !strings.Contains(out.String(), "CHEATING") || !strings.Contains(out.String(), "the match is saved") {
		t.Fatalf("status %d, %q", st, out.String())
	}
}
