package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

func tkey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(fmt.Sprintf("verify tournament %d", i)))
	return ed25519.NewKeyFromSeed(seed[:])
}

// playTournament runs n bots (player 0 creates) in one process and returns
// their folders.
func playTournament(t *testing.T, n int, format string) []string {
	t.Helper()
	return playTournamentV(t, n, format, 0)
}

// playTournamentV is playTournament with the records' version (0: the
// current one).
func playTournamentV(t *testing.T, n int, format string, version int) []string {
	t.Helper()
	bus := participant.NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
	defer cancel()
	dirs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("peer-%d", i)
		dirs[i] = filepath.Join(t.TempDir(), id)
		c := participant.Config{Dir: dirs[i], Key: tkey(i), Name: fmt.Sprintf("bot%d", i), PeerID: id, Net: bus.Join(id),
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: 60 * time.Second, Retry: 200 * time.Millisecond}
		if i == 0 {
			c.Create = &participant.Create{Name: "cup", Format: format, Ruleset: "classic:points=2", Players: n, Version: version}
		}
		p, err := participant.New(c)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = p.Run(ctx) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("participant %d: %v", i, err)
		}
	}
	return dirs
}

func verifyDir(t *testing.T, dir string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runVerify([]string{dir}, nil, &out, &errb)
	return code, out.String() + errb.String()
}

func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	ents, _ := os.ReadDir(src)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644)
	}
	return dst
}

func readRecords(t *testing.T, dir string) [][]byte {
	b, err := os.ReadFile(filepath.Join(dir, "tournament"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := tournament.DecodeFile(b)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func writeRecords(t *testing.T, dir string, recs [][]byte) {
	if err := os.WriteFile(filepath.Join(dir, "tournament"), tournament.EncodeFile(recs), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyTournamentFolder: a real 4-player tournament (one round of a
// short match), its folders verified; then each kind of damage or cheat.
func TestVerifyTournamentFolder(t *testing.T) {
	lane.NoRace(t) // verify over a tournament folder: cmd/okey starts no goroutine
	dirs := playTournament(t, 3, "swiss:rounds=1")
	code, first := verifyDir(t, dirs[0])
	t.Logf("okey verify:\n%s", first)
	if code != 0 || !strings.Contains(first, "final standings:") {
		t.Fatalf("honest folder: exit %d\n%s", code, first)
	}
	for _, d := range dirs[1:] {
		if _, out := verifyDir(t, d); out != first {
			t.Fatalf("participants' outputs differ:\n%s\n---\n%s", first, out)
		}
	}
	t.Run("chat file", func(t *testing.T) {
		// A table's chat kept beside its transcript (protocol.md 7.13) is
		// no part of the folder's verdict: okey verify ignores it.
		chatPath := filepath.Join(dirs[0], participant.ChatName(tournament.Ref{Round: 1, Table: 0}))
		if err := os.WriteFile(chatPath, append([]byte(chat.FileMagic), "\x05hello"...), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(chatPath)
		if code, out := verifyDir(t, dirs[0]); code != 0 || out != first {
			t.Fatalf("with %s: exit %d\n%s", chatPath, code, out)
		}
	})
	recs := readRecords(t, dirs[0])
	decoded := make([]*tournament.Record, len(recs))
	for i, raw := range recs {
		decoded[i], _ = tournament.Decode(raw)
	}
	keyOf := func(pub [32]byte) ed25519.PrivateKey {
		for i := 0; i < 4; i++ {
			if bytes.Equal(tkey(i).Public().(ed25519.PublicKey), pub[:]) {
				return tkey(i)
			}
		}
		t.Fatal("unknown key")
		return nil
	}

	t.Run("json", func(t *testing.T) {
		var out, errb bytes.Buffer
		if code := runVerify([]string{"--json", dirs[0]}, nil, &out, &errb); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
		}
		var j struct {
			ID      string `json:"id"`
			Creator string `json:"creator"`
			Status  int    `json:"status"`
			Players []struct {
				Key string `json:"key"`
			} `json:"players"`
			Rounds []struct {
				Draw     []int    `json:"draw"`
				Openings []string `json:"openings"`
				Tables   []struct {
					ID string `json:"id"`
				} `json:"tables"`
			} `json:"rounds"`
			Final []struct {
				Player int `json:"player"`
			} `json:"final"`
		}
		if err := json.Unmarshal(out.Bytes(), &j); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		hex := regexp.MustCompile(`^[0-9a-f]+$`)
		ids := []string{j.ID, j.Creator}
		for _, p := range j.Players {
			ids = append(ids, p.Key)
		}
		for _, r := range j.Rounds {
			ids = append(ids, r.Openings...)
			for _, tb := range r.Tables {
				if len(tb.ID) != 32 || !hex.MatchString(tb.ID) {
					t.Fatalf("table id %q", tb.ID)
				}
			}
		}
		for _, id := range ids {
			if len(id) != 64 || !hex.MatchString(id) {
				t.Fatalf("id or key %q is not 64 hex digits\n%s", id, out.String())
			}
		}
		if !strings.Contains(first, fmt.Sprintf("(id %s)", j.ID[:8])) || len(j.Players) != 3 || len(j.Rounds) != 1 || len(j.Final) != 3 || len(j.Rounds[0].Tables) != 1 {
			t.Fatalf("%s", out.String())
		}
	})
	t.Run("missing", func(t *testing.T) {
		d := copyDir(t, dirs[0])
		os.Remove(filepath.Join(d, "r1-t0.transcript"))
		code, out := verifyDir(t, d)
		if code != 3 || !strings.Contains(out, "missing") || strings.Contains(out, "CHEATING") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})
	t.Run("tampered match", func(t *testing.T) {
		d := copyDir(t, dirs[0])
		p := filepath.Join(d, "r1-t0.transcript")
		b, _ := os.ReadFile(p)
		b[len(b)/2] ^= 0x40
		os.WriteFile(p, b, 0o644)
		if code, out := verifyDir(t, d); code != 2 || strings.Contains(out, "CHEATING") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})
	t.Run("signed equivocation in a match", func(t *testing.T) {
		d := copyDir(t, dirs[0])
		p := filepath.Join(d, "r1-t0.transcript")
		b, _ := os.ReadFile(p)
		tr, err := table.ReadTranscript(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		env, _ := table.DecodeEnvelope(tr.Chain[3])
		var seatKey [32]byte
		copy(seatKey[:], tr.Config.Seats[env.Seat].Key)
		other := &table.Envelope{Table: env.Table, Hand: env.Hand, Step: env.Step, Seat: env.Seat, Kind: env.Kind, Prev: env.Prev, State: env.State,
			Body: append(append([]byte(nil), env.Body...), 0)}
		if err := other.Seal(keyOf(seatKey), tr.Config.Hash()); err != nil {
			t.Fatal(err)
		}
		tr.Evidence = append(tr.Evidence, other.Raw)
		var w bytes.Buffer
		table.WriteTranscript(&w, tr)
		os.WriteFile(p, w.Bytes(), 0o644)
		code, out := verifyDir(t, d)
		name := tr.Config.Seats[env.Seat].Name
		if code != 1 || !strings.Contains(out, "CHEATING: the match's transcript names "+name) {
			t.Fatalf("exit %d (want 1 naming %s)\n%s", code, name, out)
		}
	})
	t.Run("forged registration", func(t *testing.T) {
		d := copyDir(t, dirs[0])
		out := append([][]byte(nil), recs...)
		var victim [32]byte
		for i, r := range decoded {
			if r.Kind == tournament.KindRegister && r.Signer != decoded[0].Signer {
				victim = r.Signer
				forged := append([]byte(nil), r.Raw...)
				forged[len(forged)-70] ^= 1 // a byte of the peer id: the signature no longer holds
				out[i] = forged
				// The creator re-signs the roster to cite it.
				for j, ro := range decoded {
					if ro.Kind == tournament.KindRoster {
						nr := *ro
						nr.Entries = append([]tournament.Entry(nil), ro.Entries...)
						for k := range nr.Entries {
							if nr.Entries[k].Key == victim {
								nr.Entries[k].Registration = sha256.Sum256(forged)
							}
						}
						if err := nr.Sign(tkey(0)); err != nil {
							t.Fatal(err)
						}
						out[j] = nr.Raw
					}
				}
				break
			}
		}
		writeRecords(t, d, out)
		code, text := verifyDir(t, d)
		if code != 1 || !strings.Contains(text, "CHEATING: the creator signed a roster citing a registration") {
			t.Fatalf("exit %d\n%s", code, text)
		}
	})
	t.Run("re-drawn seating", func(t *testing.T) {
		// The creator replaces its own commitment and reveal by new ones
		// (another opening): the draw changes, the match's seats are no
		// longer the draw's; with the old ones kept too it is named.
		var redrawn [][]byte
		var extra [][]byte
		var cs, ops [][32]byte
		var players []tournament.Entry
		for _, r := range decoded {
			if r.Kind == tournament.KindRoster {
				players = r.Entries
			}
		}
		creator := decoded[0].Signer
		opening := sha256.Sum256([]byte("another opening"))
		for _, e := range players {
			for _, r := range decoded {
				if r.Kind == tournament.KindCommit && r.Signer == e.Key {
					c := r.Commitment
					if e.Key == creator {
						c = tournament.Commitment(r.Tournament, 1, 1, creator, opening)
					}
					cs = append(cs, c)
				}
				if r.Kind == tournament.KindReveal && r.Signer == e.Key {
					o := r.Opening
					if e.Key == creator {
						o = opening
					}
					ops = append(ops, o)
				}
			}
		}
		for _, r := range decoded {
			nr := *r
			switch {
			case r.Kind == tournament.KindCommit && r.Signer == creator:
				nr.Commitment = tournament.Commitment(r.Tournament, 1, 1, creator, opening)
			case r.Kind == tournament.KindClose:
				nr.Commits = tournament.CommitsHash(r.Tournament, 1, 1, cs)
				nr.Seed = tournament.Seed(r.Tournament, 1, 1, ops)
			case r.Kind == tournament.KindReveal:
				nr.Commits = tournament.CommitsHash(r.Tournament, 1, 1, cs)
				if r.Signer == creator {
					nr.Opening = opening
				}
			default:
				redrawn = append(redrawn, r.Raw)
				continue
			}
			if err := nr.Sign(keyOf(r.Signer)); err != nil {
				t.Fatal(err)
			}
			redrawn = append(redrawn, nr.Raw)
			if r.Signer == creator && r.Kind == tournament.KindCommit {
				extra = append(extra, r.Raw)
			}
		}
		d := copyDir(t, dirs[0])
		writeRecords(t, d, redrawn)
		code, text := verifyDir(t, d)
		before := tournament.Check(recs, nil).Rounds[0].Draw
		after := tournament.Check(redrawn, nil).Rounds[0].Draw
		if fmt.Sprint(before) == fmt.Sprint(after) {
			t.Skip("the new opening happens to give the same draw")
		}
		if code != 1 || !strings.Contains(text, "signed a table that is not the draw's") {
			t.Fatalf("exit %d\n%s", code, text)
		}
		writeRecords(t, d, append(redrawn, extra...))
		code, text = verifyDir(t, d)
		if code != 1 || !strings.Contains(text, "signed two different records for one place") {
			t.Fatalf("exit %d\n%s", code, text)
		}
	})
}
