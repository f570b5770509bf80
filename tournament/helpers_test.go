package tournament

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"sort"
	"testing"
)

// key returns a deterministic test key.
func key(i int) (ed25519.PrivateKey, [32]byte) {
	seed := sha256.Sum256([]byte(fmt.Sprintf("tournament test key %d", i)))
	priv := ed25519.NewKeyFromSeed(seed[:])
	var pub [32]byte
	copy(pub[:], priv.Public().(ed25519.PublicKey))
	return priv, pub
}

func sign(t testing.TB, r *Record, priv ed25519.PrivateKey) []byte {
	t.Helper()
	if err := r.Sign(priv); err != nil {
		t.Fatal(err)
	}
	return r.Raw
}

// world is a test tournament: the creator is key 100, players keys 0..n-1.
type world struct {
	t       testing.TB
	tid     [32]byte
	format  Format
	ruleset string
	cpriv   ed25519.PrivateKey
	cpub    [32]byte
	privs   map[[32]byte]ed25519.PrivateKey
	roster  [][32]byte // roster order (ascending keys)
	records [][]byte
	matches map[Ref]*Match
	prior   map[int][32]byte // the hash of each round's results, once fixed
	version int              // the records' version: Version2, or Version1 (no results)
	// result decides a finished match: seat order -> scores (higher is
	// better in classic); places follow the scores.
	result func(round, table int, seats []int) []int
}

func newWorld(t testing.TB, n int, format, ruleset string) *world {
	return newWorldV(t, n, format, ruleset, Version2)
}

// newWorldV is newWorld with the records' version.
func newWorldV(t testing.TB, n int, format, ruleset string, version int) *world {
	w := &world{t: t, ruleset: ruleset, privs: map[[32]byte]ed25519.PrivateKey{}, matches: map[Ref]*Match{}, prior: map[int][32]byte{}, version: version}
	w.format, _ = ParseFormat(format)
	cpriv, cpub := key(100)
	w.cpriv, w.cpub = cpriv, cpub
	ann := &Record{Version: w.version, Kind: KindAnnounce, Signer: cpub, Nonce: sha256.Sum256([]byte("nonce")), Players: n, Name: "cup", Format: format, Ruleset: ruleset}
	w.records = append(w.records, sign(t, ann, cpriv))
	w.tid = ann.ID()
	var entries []Entry
	for i := 0; i < n; i++ {
		priv, pub := key(i)
		w.privs[pub] = priv
		reg := &Record{Version: w.version, Kind: KindRegister, Tournament: w.tid, Signer: pub, Name: fmt.Sprintf("p%d", i), PeerID: fmt.Sprintf("peer%d", i)}
		w.records = append(w.records, sign(t, reg, priv))
		entries = append(entries, Entry{Key: pub, Registration: reg.Hash()})
	}
	sort.Slice(entries, func(a, b int) bool { return bytes.Compare(entries[a].Key[:], entries[b].Key[:]) < 0 })
	for _, e := range entries {
		w.roster = append(w.roster, e.Key)
	}
	ros := &Record{Version: w.version, Kind: KindRoster, Tournament: w.tid, Signer: cpub, Entries: entries}
	w.records = append(w.records, sign(t, ros, cpriv))
	return w
}

func opening(round, attempt int, k [32]byte) [32]byte {
	return sha256.Sum256(append([]byte(fmt.Sprintf("opening %d %d", round, attempt)), k[:]...))
}

// drawRound adds every player's commitment and reveal for round's first
// attempt, and the creator's close that lets it stand.
func (w *world) drawRound(round int) {
	all := make([]int, len(w.roster))
	for i := range all {
		all[i] = i
	}
	w.attempt(round, 1, all, all, all, true)
}

// attempt adds, for round's attempt a among the players active (roster
// indices), the commitments of commit, the reveals of reveal (which must
// have committed) and, when closeIt, the creator's close as the creator
// would sign it holding those records: every active player kept and the
// seed when all revealed, else the ones it holds.
func (w *world) attempt(round, a int, active, commit, reveal []int, closeIt bool) *Record {
	cs := map[int][32]byte{}
	for _, i := range commit {
		k := w.roster[i]
		c := &Record{Version: w.version, Kind: KindCommit, Tournament: w.tid, Signer: k, Round: round, Attempt: a, Commitment: Commitment(w.tid, round, a, k, opening(round, a, k))}
		if round > 1 && w.version >= Version2 {
			c.Prior = w.prior[round-1]
			if c.Prior == ([32]byte{}) {
				c.Prior = sha256.Sum256([]byte("no results held"))
			}
		}
		w.records = append(w.records, sign(w.t, c, w.privs[k]))
		cs[i] = c.Commitment
	}
	var ch [32]byte
	if len(cs) == len(active) {
		var list [][32]byte
		for _, i := range active {
			list = append(list, cs[i])
		}
		ch = CommitsHash(w.tid, round, a, list)
	}
	for _, i := range reveal {
		k := w.roster[i]
		r := &Record{Version: w.version, Kind: KindReveal, Tournament: w.tid, Signer: k, Round: round, Attempt: a, Commits: ch, Opening: opening(round, a, k)}
		w.records = append(w.records, sign(w.t, r, w.privs[k]))
	}
	if !closeIt {
		return nil
	}
	c := &Record{Version: w.version, Kind: KindClose, Tournament: w.tid, Signer: w.cpub, Round: round, Attempt: a, Commits: ch}
	switch {
	case len(reveal) == len(active):
		c.Kept = append([]int(nil), active...)
		var ops [][32]byte
		for _, i := range active {
			ops = append(ops, opening(round, a, w.roster[i]))
		}
		c.Seed = Seed(w.tid, round, a, ops)
	case len(cs) == len(active):
		c.Kept = sorted(reveal)
	default:
		c.Kept = sorted(commit)
	}
	w.records = append(w.records, sign(w.t, c, w.cpriv))
	return c
}

func sorted(s []int) []int {
	out := append([]int(nil), s...)
	sort.Ints(out)
	return out
}

// playRound draws round and fills finished matches for its tables, as the
// check computes them.
func (w *world) playRound(round int) *Report {
	w.drawRound(round)
	rep := Check(w.records, w.matches)
	if len(rep.Rounds) < round {
		w.t.Fatalf("round %d not drawn: %+v", round, rep.Problems)
	}
	for _, tb := range rep.Rounds[round-1].Tables {
		m := &Match{TableID: tb.ID, Ruleset: w.ruleset, Silent: -1, Cheater: -1}
		for _, s := range tb.Seats {
			m.Keys = append(m.Keys, w.roster[s])
			m.Signed = append(m.Signed, true)
		}
		m.Scores = w.result(round, tb.Table, tb.Seats)
		for i := range m.Scores {
			place := 1
			for j := range m.Scores {
				if m.Scores[j] > m.Scores[i] {
					place++
				}
			}
			m.Places = append(m.Places, place)
		}
		m.Chain = fakeChain(tb.ID)
		w.matches[tb.Ref] = m
	}
	return w.fix(round)
}

// fakeChain is a test match's chain: one record named by its table.
func fakeChain(id [16]byte) [][32]byte { return [][32]byte{sha256.Sum256(id[:])} }

// fix adds the creator's results of round (9.5) from the matches held,
// as the creator signs them once every table is scored, and checks again.
func (w *world) fix(round int) *Report {
	rep := Check(w.records, w.matches)
	if w.version < Version2 || len(rep.Rounds) < round || !rep.Rounds[round-1].Scored || len(rep.Rounds[round-1].Tables) == 0 {
		return rep
	}
	res := &Record{Kind: KindResults, Tournament: w.tid, Signer: w.cpub, Round: round}
	for _, tb := range rep.Rounds[round-1].Tables {
		ch := w.matches[tb.Ref].Chain
		e := TableEnd{Length: len(ch)}
		if len(ch) > 0 {
			e.Last = ch[len(ch)-1]
		}
		res.Tables = append(res.Tables, e)
	}
	w.records = append(w.records, sign(w.t, res, w.cpriv))
	w.prior[round] = res.Hash()
	return Check(w.records, w.matches)
}
