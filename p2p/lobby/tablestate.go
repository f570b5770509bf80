package lobby

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/p2p/invite"
)

// TableState is what a peer keeps with its data, per table id, while it
// forms or plays that table (protocol.md 7.10): its lobby nonce (kept until
// its match begins, so that a peer restarted after joining still has its
// seat), and for a table created for play beyond the LAN its admission
// secret (kept until the match is over, so that a restarted creator can
// still admit and derive its relay token) or, for a table joined by code,
// that code (so that a restarted joiner can reach the creator again).
type TableState struct {
	Table   string
	Nonce   Nonce         // zero: none (the match has begun)
	Secret  invite.Secret // zero: none (a LAN table)
	Code    string        // the invite code this peer joined by ("": none)
	Created bool          // this peer created the table
	Saved   time.Time
}

// stateJSON is a record's file: {"v":1,"table":ID,"created":BOOL,
// "nonce":HEX64|"","secret":HEX32|"","code":CODE|"","saved":UNIX}.
type stateJSON struct {
	V       int    `json:"v"`
	Table   string `json:"table"`
	Created bool   `json:"created"`
	Nonce   string `json:"nonce"`
	Secret  string `json:"secret"`
	Code    string `json:"code"`
	Saved   int64  `json:"saved"`
}

// stateMaxAge: a record not written for this long is forgotten when the
// lobby starts (a table joined and never started).
const stateMaxAge = 30 * 24 * time.Hour

// stateStore keeps TableStates, one file per table id in dir (mode 0600,
// written atomically). A nil store keeps nothing.
type stateStore struct{ dir string }

func (s *stateStore) path(table string) string { return filepath.Join(s.dir, table+".json") }

func (s *stateStore) save(r TableState) error {
	if s == nil {
		return nil
	}
	if err := p2p.ValidTableID(r.Table); err != nil {
		return err
	}
	j := stateJSON{V: 1, Table: r.Table, Created: r.Created, Code: r.Code, Saved: r.Saved.Unix()}
	if r.Nonce != (Nonce{}) {
		j.Nonce = r.Nonce.String()
	}
	if !r.Secret.IsZero() {
		j.Secret = hex.EncodeToString(r.Secret.Bytes())
	}
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("p2p: table record: %w", err)
	}
	if err := atomicfile.Write(s.path(r.Table), append(b, '\n')); err != nil {
		return fmt.Errorf("p2p: table record: %w", err)
	}
	return nil
}

func (s *stateStore) remove(table string) error {
	if s == nil {
		return nil
	}
	if err := os.Remove(s.path(table)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("p2p: table record: %w", err)
	}
	return nil
}

// decodeRecord parses a record file strictly.
func decodeRecord(b []byte) (TableState, error) {
	var j stateJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return TableState{}, err
	}
	if j.V != 1 {
		return TableState{}, fmt.Errorf("version %d", j.V)
	}
	if err := p2p.ValidTableID(j.Table); err != nil {
		return TableState{}, err
	}
	r := TableState{Table: j.Table, Created: j.Created, Code: j.Code, Saved: time.Unix(j.Saved, 0)}
	if j.Nonce != "" {
		n, err := ParseNonce(j.Nonce)
		if err != nil {
			return TableState{}, err
		}
		r.Nonce = n
	}
	if j.Secret != "" {
		raw, err := hex.DecodeString(j.Secret)
		if err != nil {
			return TableState{}, errors.New("secret is not hex")
		}
		if r.Secret, err = invite.SecretFromBytes(raw); err != nil {
			return TableState{}, err
		}
	}
	if j.Code != "" {
		c, err := invite.Parse(j.Code)
		if err != nil {
			return TableState{}, err
		}
		if c.Table != j.Table {
			return TableState{}, errors.New("code for another table")
		}
	}
	return r, nil
}

// load reads every record; a damaged one is reported and skipped (left in
// place), one older than stateMaxAge is removed.
func (s *stateStore) load(now time.Time, warn func(path string, err error)) map[string]TableState {
	out := map[string]TableState{}
	if s == nil {
		return out
	}
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			warn(s.dir, err)
		}
		return out
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(s.dir, name)
		b, err := wire.ReadPrivateFile(path, 4<<10)
		if err == nil {
			var r TableState
			if r, err = decodeRecord(b); err == nil && r.Table+".json" != name {
				err = errors.New("record for another table id")
			}
			if err == nil {
				if now.Sub(r.Saved) > stateMaxAge {
					os.Remove(path)
					continue
				}
				out[r.Table] = r
				continue
			}
		}
		warn(path, err)
	}
	return out
}
