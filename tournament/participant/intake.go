package participant

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"github.com/okey-game/okey/tournament"
)

// Record intake (protocol.md 9.8): only the tournament's creator and, once
// the roster is held, the roster's players count. A record that is not kept
// is neither stored nor able to change what the participant does.
const (
	// maxRegistrations bounds the registrations kept before the roster
	// (one per author).
	maxRegistrations = 4 * tournament.MaxPlayers
	// maxPerAuthor bounds one author's records: a commitment and a reveal
	// (and, for the creator, a close) for every attempt of every round, and
	// the creator's results of every round.
	maxPerAuthor = 3*tournament.MaxRounds*65 + tournament.MaxRounds + 8
)

// gate is what the participant knows of who may write records: the
// announcement's creator, the roster's players and their peer ids.
type gate struct {
	creator    [32]byte
	announced  bool
	rostered   bool
	index      map[[32]byte]int                // roster key -> roster index
	cited      map[[32]byte]int                // cited registration hash -> roster index
	regs       map[[32]byte]*tournament.Record // registrations kept, by hash
	authors    map[[32]byte]int                // records kept per author
	peers      map[string]int                  // a roster player's peer id (its cited registration's) -> roster index
	registered map[[32]byte]bool               // authors of a registration kept
	nregs      int
}

func newGate() gate {
	return gate{index: map[[32]byte]int{}, cited: map[[32]byte]int{}, regs: map[[32]byte]*tournament.Record{},
		authors: map[[32]byte]int{}, peers: map[string]int{}, registered: map[[32]byte]bool{}}
}

// admits reports whether a decoded record of this tournament (its
// signature not yet checked) would be kept.
func (g *gate) admits(r *tournament.Record) bool {
	if r.Kind == tournament.KindAnnounce {
		return !g.announced
	}
	if !g.announced || g.authors[r.Signer] >= maxPerAuthor {
		return false
	}
	switch r.Kind {
	case tournament.KindRegister:
		if g.rostered {
			_, ok := g.cited[r.Hash()]
			return ok
		}
		return !g.registered[r.Signer] && g.nregs < maxRegistrations
	case tournament.KindRoster, tournament.KindClose, tournament.KindResults:
		return r.Signer == g.creator
	case tournament.KindCommit, tournament.KindReveal:
		_, ok := g.index[r.Signer]
		return g.rostered && ok
	}
	return false
}

// take records a kept record.
func (g *gate) take(r *tournament.Record) {
	g.authors[r.Signer]++
	switch r.Kind {
	case tournament.KindAnnounce:
		g.announced, g.creator = true, r.Signer
	case tournament.KindRegister:
		g.nregs++
		g.registered[r.Signer] = true
		g.regs[r.Hash()] = r
		if i, ok := g.cited[r.Hash()]; ok {
			g.peers[r.PeerID] = i
		}
	case tournament.KindRoster:
		if g.rostered {
			return // a second roster is kept as evidence only
		}
		g.rostered = true
		for i, e := range r.Entries {
			g.index[e.Key] = i
			g.cited[e.Registration] = i
			if reg := g.regs[e.Registration]; reg != nil && reg.Signer == e.Key {
				g.peers[reg.PeerID] = i
			}
		}
	}
}

// rosterPeer returns the roster index of the player whose registration
// carries peer id.
func (g *gate) rosterPeer(id string) (int, bool) {
	i, ok := g.peers[id]
	return i, ok
}

// appendRecord appends one record to the folder's records file (9.6),
// creating it with its magic: O(1) per record, never a rewrite. sync makes
// it durable before it returns (this participant's own records).
func appendRecord(dir string, raw []byte, sync bool) error {
	f, err := os.OpenFile(filepath.Join(dir, "tournament"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	var b []byte
	if st.Size() == 0 {
		b = []byte(tournament.FileMagic)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(raw)))
	b = append(b, raw...)
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if sync {
		if err := f.Sync(); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// readRecords reads a records file written by appends: a last frame cut
// short (a crash in the middle of an append) is dropped, and cut reports
// it; any other damage is an error.
func readRecords(path string) (raws [][]byte, cut bool, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	raws, err = tournament.DecodeFile(b)
	if err == nil {
		return raws, false, nil
	}
	if len(b) < len(tournament.FileMagic) || string(b[:len(tournament.FileMagic)]) != tournament.FileMagic {
		return nil, false, err
	}
	// Whole frames, then a cut one.
	rest := b[len(tournament.FileMagic):]
	var out [][]byte
	for len(rest) >= 4 {
		n := binary.BigEndian.Uint32(rest)
		if n > tournament.MaxRecord {
			return nil, false, err
		}
		if uint32(len(rest)-4) < n {
			break
		}
		out = append(out, rest[4:4+n])
		rest = rest[4+n:]
	}
	if len(rest) == 0 {
		return nil, false, fmt.Errorf("tourney: %s: %w", path, err)
	}
	return out, true, nil
}
