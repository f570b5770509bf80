package participant

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// waitFor polls cond every 10 ms until it holds, failing the test after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
	}
}

// rosterOf returns the roster's keys among p's records, nil when there is
// none yet.
func rosterOf(p *Participant) [][32]byte {
	for _, raw := range p.Records() {
		if r, err := tournament.Decode(raw); err == nil && r.Kind == tournament.KindRoster {
			keys := [][32]byte{}
			for _, e := range r.Entries {
				keys = append(keys, e.Key)
			}
			return keys
		}
	}
	return nil
}

func hasRegistration(p *Participant, key [32]byte) bool {
	for _, raw := range p.Records() {
		if r, err := tournament.Decode(raw); err == nil && r.Kind == tournament.KindRegister && r.Signer == key {
			return true
		}
	}
	return false
}

func pubOf(k ed25519.PrivateKey) [32]byte { return [32]byte(k.Public().(ed25519.PublicKey)) }

// registration is key's signed registration to tid.
func registration(t *testing.T, key ed25519.PrivateKey, tid [32]byte, name string) *tournament.Record {
	t.Helper()
	r := &tournament.Record{Kind: tournament.KindRegister, Tournament: tid, Signer: pubOf(key), Name: name, PeerID: name}
	if err := r.Sign(key); err != nil {
		t.Fatal(err)
	}
	return r
}

// strangersFirst runs a 4-player tournament's registration over a MemBus:
// the creator announces (a code tournament when code), then three
// strangers with fresh keys register before anyone else: one plainly, one
// with a code holder's proof replayed, one with a proof under another
// secret. Only then do three code holders join with the code. It returns
// the roster's keys, the creator's, the strangers' and the holders'.
func strangersFirst(t *testing.T, code bool) (roster [][32]byte, creator [32]byte, strangers, holders [][32]byte) {
	bus := NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := t.TempDir()
	secret, err := invite.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	config := func(i int, n Net) Config {
		id := fmt.Sprintf("peer-%d", i)
		return Config{Dir: filepath.Join(base, id), Key: testKey(i), Name: fmt.Sprintf("friend%d", i), PeerID: id, Net: n,
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: 30 * time.Second, Retry: 50 * time.Millisecond, DrawWait: 60 * time.Second}
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	run := func(c Config) *Participant {
		p, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() { defer wg.Done(); p.Run(ctx) }()
		return p
	}
	cr := Create{Name: "friends", Format: "swiss:rounds=1", Ruleset: "classic:points=2", Players: 4}
	rand.Read(cr.Nonce[:])
	tid, err := AnnouncementID(testKey(0), cr)
	if err != nil {
		t.Fatal(err)
	}
	c0 := config(0, bus.Join("peer-0"))
	c0.Create = &cr
	creator = pubOf(testKey(0))
	if code {
		if c0.Admission, err = NewAdmission(c0.Net, testKey(0).Public().(ed25519.PublicKey), secret); err != nil {
			t.Fatal(err)
		}
	}
	p0 := run(c0)
	waitFor(t, 10*time.Second, "the creator's registration", func() bool { return hasRegistration(p0, creator) })

	iv := Invitation{Tournament: tid, Creator: creator, Secret: secret}
	other, _ := invite.NewSecret()
	for i := 0; i < 3; i++ {
		_, key, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		strangers = append(strangers, pubOf(key))
		n := bus.Join(fmt.Sprintf("stranger-%d", i)).(AdmissionNet)
		r := registration(t, key, tid, fmt.Sprintf("stranger%d", i))
		switch i {
		case 0:
			err = n.Publish(ctx, r.Raw)
		case 1: // a holder's proof, seen on the topic, replayed with its own key
			err = n.PublishAdmitted(ctx, r.Raw, iv.Proof(registration(t, testKey(1), tid, "friend1")))
		case 2: // a proof under a secret that is not the tournament's
			err = n.PublishAdmitted(ctx, r.Raw, Invitation{Tournament: tid, Creator: creator, Secret: other}.Proof(r))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 10*time.Second, "the strangers' registrations at the creator", func() bool {
		for _, k := range strangers {
			if !hasRegistration(p0, k) {
				return false
			}
		}
		return true
	})
	for i := 1; i <= 3; i++ {
		c := config(i, bus.Join(fmt.Sprintf("peer-%d", i)))
		c.Tournament = tid
		if c.Net, err = WithCode(c.Net, iv); err != nil {
			t.Fatal(err)
		}
		holders = append(holders, pubOf(c.Key))
		run(c)
	}
	waitFor(t, 30*time.Second, "a roster", func() bool { return rosterOf(p0) != nil })
	if code && c0.Admission.Refused() != 2 {
		t.Errorf("%d offers refused, want the 2 strangers' proofs", c0.Admission.Refused())
	}
	return rosterOf(p0), creator, strangers, holders
}

// TestCodeTournamentAdmitsOnlyHolders: three strangers' fresh keys register
// first; a code tournament's roster is still the creator and the three
// code holders, never a stranger (a replayed proof and a proof under
// another secret admit no one). Before tournaments had codes, the roster
// was first come, first served: the strangers took 3 of the 4 places.
func TestCodeTournamentAdmitsOnlyHolders(t *testing.T) {
	roster, creator, strangers, holders := strangersFirst(t, true)
	want := append([][32]byte{creator}, holders...)
	slices.SortFunc(want, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
	if fmt.Sprint(roster) != fmt.Sprint(want) {
		t.Fatalf("roster %x, want the creator and the code holders %x", roster, want)
	}
	for _, s := range strangers {
		if slices.Contains(roster, s) {
			t.Fatalf("stranger %x is on the roster", s[:4])
		}
	}
}

// TestOpenTournamentFirstCome: an open tournament (a LAN party, okey
// tournament create --open) keeps today's rule: the first registrations
// take the places, here the creator's and the three strangers'.
func TestOpenTournamentFirstCome(t *testing.T) {
	roster, creator, strangers, _ := strangersFirst(t, false)
	want := append([][32]byte{creator}, strangers...)
	slices.SortFunc(want, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
	if fmt.Sprint(roster) != fmt.Sprint(want) {
		t.Fatalf("roster %x, want the creator and the strangers %x", roster, want)
	}
}

// TestAdmissionOffer: the creator's gate admits a registration with its
// own proof; it refuses, changing nothing, a proof replayed with another
// key's registration, a proof of another tournament, one under another
// secret or another creator, a record that is not a registration; a sender
// past 3 failures is refused before its proof is looked at, others are
// not. The invitation never shows its secret.
func TestAdmissionOffer(t *testing.T) {
	bus := NewMemBus()
	secret, _ := invite.NewSecret()
	creator := testKey(0)
	a, err := NewAdmission(bus.Join("c"), creator.Public().(ed25519.PublicKey), secret)
	if err != nil {
		t.Fatal(err)
	}
	tid, otherTid := [32]byte{1}, [32]byte{2}
	iv := Invitation{Tournament: tid, Creator: pubOf(creator), Secret: secret}
	mine := registration(t, testKey(1), tid, "friend")
	theirs := registration(t, testKey(2), tid, "stranger")
	elsewhere := registration(t, testKey(1), otherTid, "friend")
	otherSecret, _ := invite.NewSecret()
	commit := &tournament.Record{Kind: tournament.KindCommit, Tournament: tid, Signer: pubOf(testKey(1)), Round: 1, Attempt: 1}
	if err := commit.Sign(testKey(1)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		from  string
		rec   []byte
		proof [32]byte
		want  bool
	}{
		{"a replayed proof", "s1", theirs.Raw, iv.Proof(mine), false},
		{"another tournament's proof", "s2", elsewhere.Raw, iv.Proof(mine), false},
		{"another secret", "s2", mine.Raw, Invitation{Tournament: tid, Creator: iv.Creator, Secret: otherSecret}.Proof(mine), false},
		{"another creator", "s2", mine.Raw, Invitation{Tournament: tid, Creator: pubOf(testKey(3)), Secret: secret}.Proof(mine), false},
		{"not a registration", "s3", commit.Raw, iv.Proof(commit), false},
		{"not a record", "s3", []byte("garbage"), [32]byte{}, false},
		{"the holder's own", "friend", mine.Raw, iv.Proof(mine), true},
	} {
		if got := a.Offer(c.from, c.rec, c.proof); got != c.want {
			t.Errorf("%s: admitted %v, want %v", c.name, got, c.want)
		}
	}
	if !a.admits(mine) || a.admits(theirs) || a.admits(elsewhere) {
		t.Fatal("the gate's record of admissions is wrong")
	}
	if !a.admits(registration(t, creator, tid, "creator")) {
		t.Fatal("the creator's own registration is not admitted")
	}
	// s2 failed 3 times: its next offer, even a valid one, is refused.
	ok := registration(t, testKey(4), tid, "late")
	if a.Offer("s2", ok.Raw, iv.Proof(ok)) {
		t.Fatal("a sender over its limit admitted")
	}
	if !a.Offer("s4", ok.Raw, iv.Proof(ok)) {
		t.Fatal("a fresh sender with a valid proof refused")
	}
	s := fmt.Sprintf("%v %+v %#v", iv, iv, iv)
	if strings.Contains(s, hex.EncodeToString(secret.Bytes())) || strings.Contains(s, fmt.Sprint(secret.Bytes())) {
		t.Fatalf("an invitation shows its secret: %s", s)
	}
	if _, err := WithCode(bus.Join("j"), Invitation{Tournament: tid}); err == nil {
		t.Fatal("an invitation without a secret accepted")
	}
}
