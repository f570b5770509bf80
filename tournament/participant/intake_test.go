package participant

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/okey-game/okey/tournament"
)

// signed signs r with key (its Signer set from key).
func signed(t testing.TB, key ed25519.PrivateKey, r *tournament.Record) []byte {
	t.Helper()
	copy(r.Signer[:], key.Public().(ed25519.PublicKey))
	if err := r.Sign(key); err != nil {
		t.Fatal(err)
	}
	return r.Raw
}

// strangerKey is a key no roster holds.
func strangerKey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(fmt.Sprintf("tourney stranger %d", i)))
	return ed25519.NewKeyFromSeed(seed[:])
}

// intakeSetup publishes a 4-player tournament's announcement and
// registrations (and its roster when rostered) on a bus, and starts a
// participant that is not on the roster (a spectator of its records).
func intakeSetup(t *testing.T, rostered bool) (bus *MemBus, feed Net, p *Participant, tid [32]byte, roster []byte, dir string) {
	t.Helper()
	bus = NewMemBus()
	feed = bus.Join("feed")
	ann := &tournament.Record{Kind: tournament.KindAnnounce, Nonce: [32]byte{1}, Players: 4, Name: "cup", Format: "swiss:rounds=1", Ruleset: "classic:points=2"}
	feed.Publish(context.Background(), signed(t, testKey(0), ann))
	tid = ann.ID()
	var entries []tournament.Entry
	for i := 0; i < 4; i++ {
		reg := &tournament.Record{Kind: tournament.KindRegister, Tournament: tid, Name: fmt.Sprintf("bot%d", i), PeerID: fmt.Sprintf("peer-%d", i)}
		feed.Publish(context.Background(), signed(t, testKey(i), reg))
		entries = append(entries, tournament.Entry{Key: reg.Signer, Registration: reg.Hash()})
	}
	for a := 1; a < len(entries); a++ {
		for b := a; b > 0 && string(entries[b].Key[:]) < string(entries[b-1].Key[:]); b-- {
			entries[b], entries[b-1] = entries[b-1], entries[b]
		}
	}
	roster = signed(t, testKey(0), &tournament.Record{Kind: tournament.KindRoster, Tournament: tid, Entries: entries})
	if rostered {
		feed.Publish(context.Background(), roster)
	}
	dir = t.TempDir()
	p, err := New(Config{Dir: dir, Key: testKey(9), Name: "watcher", PeerID: "peer-9", Net: bus.Join("peer-9"), Tournament: tid, Retry: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return bus, feed, p, tid, roster, dir
}

// waitHeld waits until the participant holds raw.
func waitHeld(t *testing.T, p *Participant, raw []byte) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		for _, r := range p.Records() {
			if string(r) == string(raw) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the participant never took the record in (%d held)", len(p.Records()))
		}
	}
}

func heapNow() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestStrangerRecordsAfterRoster: once the roster is held, 1,000 draw
// commitments signed by strangers' own keys are neither stored nor able to
// damage the folder, and they cost the loop no step (no tournament.Check);
// a roster player's commitment after them is kept, appended to the file.
func TestStrangerRecordsAfterRoster(t *testing.T) {
	_, feed, p, tid, _, dir := intakeSetup(t, true)
	commit := func(key ed25519.PrivateKey) []byte {
		return signed(t, key, &tournament.Record{Kind: tournament.KindCommit, Tournament: tid, Round: 1, Attempt: 1, Commitment: [32]byte{7}})
	}
	// The roster is in once a roster player's commitment is.
	first := commit(testKey(2))
	feed.Publish(context.Background(), first)
	waitHeld(t, p, first)
	held := len(p.Records())
	before, _ := os.ReadFile(filepath.Join(dir, "tournament"))
	st0, heap0 := p.Stats(), heapNow()
	for i := 0; i < 1000; i++ {
		feed.Publish(context.Background(), commit(strangerKey(i)))
	}
	last := commit(testKey(1))
	feed.Publish(context.Background(), last)
	waitHeld(t, p, last)
	st, heap := p.Stats(), heapNow()
	after, _ := os.ReadFile(filepath.Join(dir, "tournament"))
	if n := len(p.Records()); n != held+1 {
		t.Fatalf("%d records held after 1,000 strangers' and one player's, want %d", n, held+1)
	}
	if len(after) != len(before)+4+len(last) || string(after[:len(before)]) != string(before) {
		t.Fatalf("the records file went from %d to %d bytes, want one record appended", len(before), len(after))
	}
	if st.Refused-st0.Refused < 1000 || st.Steps-st0.Steps > 2 {
		t.Fatalf("refused %d, steps %d for 1,000 strangers' records", st.Refused-st0.Refused, st.Steps-st0.Steps)
	}
	if rep := checkFolder(t, dir); rep.Status == tournament.StatusDamaged || rep.Status == tournament.StatusCheating {
		t.Fatalf("the folder: status %d, problems %+v", rep.Status, rep.Problems)
	}
	t.Logf("1,000 stranger records after the roster: loop busy %v, steps %d, heap %+.2f MiB",
		(st.Busy - st0.Busy).Round(time.Millisecond), st.Steps-st0.Steps, (float64(heap)-float64(heap0))/(1<<20))
}

// TestStrangerRegistrationsBounded: before the roster, 1,000 strangers'
// self-signed registrations (and a second one by one author) are bounded:
// one per author and maxRegistrations in all; the roster that follows is
// taken in.
func TestStrangerRegistrationsBounded(t *testing.T) {
	_, feed, p, tid, roster, _ := intakeSetup(t, false)
	st0, heap0 := p.Stats(), heapNow()
	twice := signed(t, testKey(1), &tournament.Record{Kind: tournament.KindRegister, Tournament: tid, Name: "again", PeerID: "peer-1"})
	feed.Publish(context.Background(), twice)
	for i := 0; i < 1000; i++ {
		feed.Publish(context.Background(), signed(t, strangerKey(i), &tournament.Record{Kind: tournament.KindRegister, Tournament: tid, Name: "s", PeerID: fmt.Sprintf("s-%d", i)}))
	}
	feed.Publish(context.Background(), roster)
	waitHeld(t, p, roster)
	st, heap := p.Stats(), heapNow()
	regs := 0
	for _, raw := range p.Records() {
		if string(raw) == string(twice) {
			t.Fatal("a second registration by one author was kept")
		}
		if r, _ := tournament.Decode(raw); r.Kind == tournament.KindRegister {
			regs++
		}
	}
	if regs > maxRegistrations {
		t.Fatalf("%d registrations kept, want at most %d", regs, maxRegistrations)
	}
	t.Logf("1,000 stranger registrations before the roster: %d kept, loop busy %v, steps %d, heap %+.2f MiB",
		regs, (st.Busy - st0.Busy).Round(time.Millisecond), st.Steps-st0.Steps, (float64(heap)-float64(heap0))/(1<<20))
}
