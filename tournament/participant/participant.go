// Package participant runs a tournament participant (protocol.md 9): it
// publishes its signed records (the announcement and roster when it
// creates, its registration, each round's draw commitment and reveal),
// forms its table of each round from the records alone, plays it, keeps the
// tournament folder (the records file and every table's transcript),
// fetches the transcripts it lacks from the other participants, and
// returns the checked standings. The verifiable rules are package
// tournament's; this package only drives them over a Net.
package participant

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// Offer says that a participant holds a finished table's transcript.
type Offer struct {
	From       string // the participant's peer id
	Tournament [32]byte
	Ref        tournament.Ref
}

// Net carries one tournament's records among its participants and fetches
// finished transcripts (protocol.md 9.8).
type Net interface {
	// Publish sends a record to every participant (itself excluded).
	Publish(ctx context.Context, record []byte) error
	// Records delivers others' records, in any order, possibly twice.
	Records() <-chan []byte
	// Have tells the others that this participant holds the transcript of
	// tournament tid's table ref.
	Have(ctx context.Context, tid [32]byte, ref tournament.Ref) error
	// Offers delivers others' Have.
	Offers() <-chan Offer
	// Fetch asks participant from for a table's transcript file.
	Fetch(ctx context.Context, from string, tid [32]byte, ref tournament.Ref) ([]byte, error)
	// Serve installs the handler that answers others' Fetch (nil, false
	// when this participant does not hold that transcript).
	Serve(h func(tid [32]byte, ref tournament.Ref) ([]byte, bool))
}

// Create is what a creator announces.
type Create struct {
	Name    string
	Format  string // canonical
	Ruleset string // canonical
	Players int
	// Nonce is the announcement's nonce (protocol.md 9.2); zero: a fresh
	// one from crypto/rand. A caller that needs the tournament id before
	// Run (AnnouncementID) draws it itself, from crypto/rand too.
	Nonce [32]byte
	// Version is the records' version (zero: tournament.CurrentVersion).
	// tournament.Version1 writes a folder as an okey before round results
	// did: for tests of how such folders verify.
	Version int
}

// AnnouncementID is the id of the tournament that a creator with key
// announces as cr (cr.Nonce set): the announcement is the same bytes Run
// signs and publishes (Ed25519 signatures are deterministic).
func AnnouncementID(key ed25519.PrivateKey, cr Create) ([32]byte, error) {
	ann := &tournament.Record{Version: cr.Version, Kind: tournament.KindAnnounce, Nonce: cr.Nonce, Players: cr.Players, Name: cr.Name, Format: cr.Format, Ruleset: cr.Ruleset}
	copy(ann.Signer[:], key.Public().(ed25519.PublicKey))
	if err := ann.Sign(key); err != nil {
		return [32]byte{}, err
	}
	return ann.ID(), nil
}

// Config describes one participant.
type Config struct {
	Dir string // the tournament folder (created); a participant started again on it resumes
	// State is a directory private to this participant, in its data
	// folder (created 0700): per tournament, its draw openings (secrets
	// until revealed: a file of mode 0600, never logged) and its tables'
	// resumable state. Empty: memory only, and a participant started
	// again cannot reveal what it committed to.
	State  string
	Key    ed25519.PrivateKey
	Name   string
	PeerID string
	Net    Net
	// Create, when set, makes this participant the creator (it plays too
	// unless NoPlay).
	Create *Create
	NoPlay bool
	// Admission, for a creator, makes the tournament a code tournament: the
	// roster takes only the registrations it admits (admit.go, protocol.md
	// 9.8). Nil: open registration, first come first served (a LAN party).
	Admission *Admission
	// Tournament, when not zero, is the tournament to join; else the first
	// announcement received.
	Tournament [32]byte
	// Mover returns the mover of this participant's seat in a round.
	Mover func(round int) table.Mover
	// Sit, when set, replaces Mover: it is called as this participant's
	// seat at a round's table is about to play (a person at the terminal
	// gets the table's screen) and gives the seat's mover and hooks.
	Sit func(ref tournament.Ref, cfg table.Config, seat int) Sitting
	// Plays, when set, says whether this participant's seat can play the
	// tournament's ruleset (canonical text): an error stops the
	// participant as soon as the announcement is known, before it
	// registers (Run returns it, wrapped).
	Plays func(ruleset string) error
	// TableNet returns this participant's transport for a table.
	TableNet func(ref tournament.Ref, cfg table.Config) (table.Transport, error)
	// Withhold bounds the silence at a table (table.PeerConfig.Withhold).
	Withhold time.Duration
	// MoveWithhold bounds the wait for a player's move at a table, where a
	// person may be thinking (table.PeerConfig.MoveWithhold; 0: Withhold).
	MoveWithhold time.Duration
	// Stall is table.PeerConfig.Stall.
	Stall time.Duration
	// DrawWait is how long the creator waits for a draw attempt's
	// commitments and reveals before it closes the attempt without the
	// players it lacks (protocol.md 9.4; default 2 minutes).
	DrawWait time.Duration
	// OnRound is called once with the report when a round's standings are
	// known (and when the final standings are).
	OnRound func(rep *tournament.Report, round int)
	// ResultsWait is how long the creator waits, once a round's tables are
	// all scored and one is unfinished, for a longer copy before it signs
	// the round's results (default 10 s).
	ResultsWait time.Duration
	// Retry is how often missing records are re-published and missing
	// transcripts asked for again (default 2 s).
	Retry time.Duration
	// Linger keeps the participant answering (records re-published,
	// transcripts served) this long after its final standings, for the
	// others still fetching.
	Linger time.Duration
	// Log receives the participant's events (default: discard).
	Log *slog.Logger

	// silentAt, in tests, makes the participant stop (Run returns
	// errSilent) when it is about to reveal for that round.
	silentAt int
	// endGrace, in tests, replaces EndGrace.
	endGrace time.Duration
}

// EndGrace is how long a seat waits, without progress, for a seat that has
// offered its transcript of the table (its own seat is over: it said so)
// before it stops too (protocol.md 9.8).
const EndGrace = 5 * time.Second

// errSilent is Run's error when a test's participant goes silent.
var errSilent = errors.New("tourney: gone silent (test)")

// attemptKey names a round's draw attempt.
type attemptKey struct{ round, attempt int }

// Sitting is what Config.Sit gives for one table: the seat's mover, its
// table.PeerConfig.OnStep (may be nil), Left, closed
// when the player has left the table (the participant then stops: Run
// returns ErrLeft), and Done, called with the match's transcript (nil and
// the error when the seat stopped before the end) once it is over. Chat,
// when set, is called with the table's transport as the seat sits (the
// table's chat, protocol.md 7.13: shown, and kept in the folder as
// ChatName beside the transcript, never part of it); what it returns is
// called when the seat's match is over.
type Sitting struct {
	Mover  table.Mover
	OnStep func(m *table.Machine, v *engine.View)
	Left   <-chan struct{}
	Done   func(t *table.Transcript, err error)
	Chat   func(tr table.Transport, cfg table.Config) (stop func())
}

// Participant is one running participant.
type Participant struct {
	c    Config
	pub  [32]byte
	mu   sync.Mutex
	recs [][]byte
	seen map[string]bool
	mine [][]byte // records this participant signed, re-published on Retry
	gate gate     // who may write records (intake.go)
	// matches caches verified transcripts by table; files are their
	// bytes, tables the copies they merge (copies.go).
	matches map[tournament.Ref]*tournament.Match
	files   map[tournament.Ref][]byte
	tables  map[tournament.Ref]*copies
	playing map[tournament.Ref]bool
	// played marks the tables this participant's seat played (or whose
	// transcript its folder held at start): a seat's table is never
	// fetched before that.
	played map[tournament.Ref]bool
	// seats are the tables this participant's seat is playing, watched for
	// the other seats' end.
	seats map[tournament.Ref]*seatWatch
	over  map[tournament.Ref][]int // roster players that offered a table
	// The loop's own (no lock): offers by table (roster peers, arrival
	// order), fetches asked per table and offerer, fetches in flight.
	offers   map[tournament.Ref][]string
	asked    map[tournament.Ref]map[string]*asking
	inflight map[tournament.Ref]bool
	activity map[tournament.Ref]time.Time // the last new offer or answer
	fetched  chan fetchDone
	stats    Stats
	openings map[attemptKey][32]byte
	opened   map[attemptKey]time.Time // creator: when it first saw an attempt open
	shown    map[int]bool
	scoredAt map[int]time.Time // creator: when each round was first scored
	version  int               // the announcement's record version (9.2)
	tid      [32]byte
	done     chan tableDone
	// resumed marks a participant started again on its folder: a creator
	// does not announce again.
	resumed bool
}

type tableDone struct {
	ref tournament.Ref
	t   *table.Transcript
	err error
}

// Stats count a participant's work on what it received, for tests and
// figures: records kept and refused, steps (each a tournament.Check of
// every record), and the time its loop was busy.
type Stats struct {
	Kept, Refused int
	Offers        int // offers taken (from roster peers)
	OffersRefused int
	Steps         int
	Fetches       int
	Busy          time.Duration
}

// Stats returns the participant's counters.
func (p *Participant) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// asking is what a participant asked of one offerer for one table.
type asking struct {
	tries int  // fetches started
	got   bool // one returned a file
}

// fetchDone is a fetch's outcome, handed back to the loop.
type fetchDone struct {
	ref  tournament.Ref
	from string
	c    *tcopy
	err  error
}

// New makes a participant.
func New(c Config) (*Participant, error) {
	p := &Participant{c: c, seen: map[string]bool{}, gate: newGate(), matches: map[tournament.Ref]*tournament.Match{},
		files: map[tournament.Ref][]byte{}, tables: map[tournament.Ref]*copies{}, playing: map[tournament.Ref]bool{},
		played: map[tournament.Ref]bool{}, seats: map[tournament.Ref]*seatWatch{}, over: map[tournament.Ref][]int{},
		offers: map[tournament.Ref][]string{}, asked: map[tournament.Ref]map[string]*asking{}, inflight: map[tournament.Ref]bool{}, activity: map[tournament.Ref]time.Time{},
		fetched:  make(chan fetchDone, maxFetches),
		openings: map[attemptKey][32]byte{}, opened: map[attemptKey]time.Time{},
		shown: map[int]bool{}, done: make(chan tableDone, 16), tid: c.Tournament}
	if p.c.endGrace == 0 {
		p.c.endGrace = EndGrace
	}
	copy(p.pub[:], c.Key.Public().(ed25519.PublicKey))
	if p.c.Log == nil {
		p.c.Log = slog.New(slog.DiscardHandler)
	}
	if p.c.Retry == 0 {
		p.c.Retry = 2 * time.Second
	}
	if p.c.DrawWait == 0 {
		p.c.DrawWait = 2 * time.Minute
	}
	if p.c.ResultsWait == 0 {
		p.c.ResultsWait = 10 * time.Second
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, err
	}
	if err := p.resume(); err != nil {
		return nil, err
	}
	return p, nil
}

// resume loads what an earlier run on the same folder and state left: the
// records file (this participant's own records among them, published
// again), the transcripts held, and its draw openings.
func (p *Participant) resume() error {
	path := filepath.Join(p.c.Dir, "tournament")
	raws, cut, err := readRecords(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tourney: %s: %w", p.c.Dir, err)
	}
	var ann *tournament.Record
	for _, raw := range raws {
		if r, err := tournament.Decode(raw); err == nil && r.Kind == tournament.KindAnnounce && r.Verify() && ann == nil {
			ann = r
		}
	}
	if ann == nil {
		return nil
	}
	if (p.c.Create != nil && ann.Signer != p.pub) || (p.tid != ([32]byte{}) && p.tid != ann.ID()) {
		return fmt.Errorf("tourney: %s holds another tournament's records", p.c.Dir)
	}
	p.tid = ann.ID()
	p.resumed = true
	for _, raw := range raws {
		if p.add(raw) {
			if r, _ := tournament.Decode(raw); r.Signer == p.pub {
				p.mine = append(p.mine, r.Raw)
			}
		}
	}
	if cut || len(p.recs) != len(raws) {
		// A crash cut the last append, or an earlier version kept records
		// this one refuses (a key outside the roster): the file keeps what
		// is held.
		if err := atomicfile.Write(path, tournament.EncodeFile(p.recs)); err != nil {
			return err
		}
	}
	for r := 1; r <= tournament.MaxRounds; r++ {
		for t := 0; t < (tournament.MaxPlayers+3)/4; t++ {
			ref := tournament.Ref{Round: r, Table: t}
			file, err := os.ReadFile(filepath.Join(p.c.Dir, TranscriptName(ref)))
			if err != nil {
				continue
			}
			tr, err := table.ReadTranscript(bytes.NewReader(file))
			if err != nil || tr.Config.ID != tournament.TableID(p.tid, ref.Round, ref.Table) {
				continue
			}
			if c, err := judge(tr); err == nil {
				p.offerCopy(ref, c)
				p.played[ref] = true
			}
		}
	}
	return p.loadOpenings()
}

// openingsPath is this participant's file of draw openings for its
// tournament: records of u8 round, u8 attempt, opening(32).
func (p *Participant) openingsPath() string {
	return filepath.Join(p.c.State, fmt.Sprintf("%x", p.tid), "openings")
}

func (p *Participant) loadOpenings() error {
	if p.c.State == "" {
		return nil
	}
	b, err := os.ReadFile(p.openingsPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(b)%34 != 0 {
		return fmt.Errorf("tourney: %s: damaged (%d bytes)", p.openingsPath(), len(b))
	}
	for ; len(b) > 0; b = b[34:] {
		p.openings[attemptKey{int(b[0]), int(b[1])}] = [32]byte(b[2:34])
	}
	return nil
}

// saveOpening keeps a new opening in the state directory (0600, synced)
// before its commitment is published, so that a participant started again
// can still reveal it.
func (p *Participant) saveOpening(k attemptKey, o [32]byte) error {
	p.openings[k] = o
	if p.c.State == "" {
		return nil
	}
	keys := make([]attemptKey, 0, len(p.openings))
	for k := range p.openings {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b attemptKey) int {
		if a.round != b.round {
			return a.round - b.round
		}
		return a.attempt - b.attempt
	})
	var b []byte
	for _, k := range keys {
		o := p.openings[k]
		b = append(append(b, byte(k.round), byte(k.attempt)), o[:]...)
	}
	if err := os.MkdirAll(filepath.Dir(p.openingsPath()), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(p.openingsPath(), b)
}

// Resumed reports whether the participant was started again on a folder
// that holds its tournament (New read it back).
func (p *Participant) Resumed() bool { return p.resumed }

// Records returns the records held, in arrival order.
func (p *Participant) Records() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][]byte(nil), p.recs...)
}

// add stores a record once; false when it is not new, not this
// tournament's, or not from a key that counts (intake.go): the creator's,
// and once the roster is held, its players' (registrations before the
// roster: one per author, maxRegistrations in all).
func (p *Participant) add(raw []byte) bool {
	p.mu.Lock()
	dup := p.seen[string(raw)]
	p.mu.Unlock()
	if dup {
		return false
	}
	ok := p.admit(raw)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !ok {
		p.stats.Refused++
		return false
	}
	p.stats.Kept++
	return true
}

func (p *Participant) admit(raw []byte) bool {
	r, err := tournament.Decode(raw)
	if err != nil {
		return false
	}
	p.mu.Lock()
	switch {
	case r.Kind == tournament.KindAnnounce && p.tid != ([32]byte{}) && r.ID() != p.tid,
		r.Kind != tournament.KindAnnounce && (p.tid == ([32]byte{}) || r.Tournament != p.tid),
		r.Kind != tournament.KindAnnounce && p.version != 0 && r.Version != p.version, // 9.2: the announcement's version
		!p.gate.admits(r):
		p.mu.Unlock()
		return false
	}
	p.mu.Unlock()
	if !r.Verify() {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen[string(raw)] || !p.gate.admits(r) {
		return false
	}
	if r.Kind == tournament.KindAnnounce {
		if p.tid == ([32]byte{}) {
			p.tid = r.ID()
		}
		if r.ID() != p.tid {
			return false
		}
		p.version = r.Version
	}
	p.gate.take(r)
	p.seen[string(raw)] = true
	p.recs = append(p.recs, append([]byte(nil), raw...))
	return true
}

func (p *Participant) publish(ctx context.Context, r *tournament.Record) error {
	if r.Kind != tournament.KindAnnounce {
		r.Version = p.version // every record has its announcement's version (9.2)
	}
	if err := r.Sign(p.c.Key); err != nil {
		return err
	}
	p.c.Log.Info("tournament record", "kind", r.Kind.String(), "round", r.Round)
	if p.add(r.Raw) {
		if err := appendRecord(p.c.Dir, r.Raw, true); err != nil {
			return err
		}
	}
	p.mu.Lock()
	p.mine = append(p.mine, r.Raw)
	p.mu.Unlock()
	return p.c.Net.Publish(ctx, r.Raw)
}

// Run drives the participant until the final standings are known (every
// transcript fetched and checked) or ctx ends.
func (p *Participant) Run(ctx context.Context) (*tournament.Report, error) {
	p.c.Net.Serve(func(tid [32]byte, ref tournament.Ref) ([]byte, bool) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if tid != p.tid {
			return nil, false
		}
		b, ok := p.files[ref]
		return b, ok
	})
	if cr := p.c.Create; cr != nil && !p.resumed {
		nonce := cr.Nonce
		if nonce == ([32]byte{}) {
			rand.Read(nonce[:])
		}
		ann := &tournament.Record{Version: cr.Version, Kind: tournament.KindAnnounce, Signer: p.pub, Nonce: nonce, Players: cr.Players,
			Name: cr.Name, Format: cr.Format, Ruleset: cr.Ruleset}
		if err := ann.Sign(p.c.Key); err != nil {
			return nil, err
		}
		p.tid = ann.ID()
		if err := p.publish(ctx, ann); err != nil {
			return nil, err
		}
	}
	tick := time.NewTicker(p.c.Retry)
	defer tick.Stop()
	var final *tournament.Report
	var lingerEnd <-chan time.Time
	dirty := true
	wake := time.Now()
	for {
		if final == nil && dirty {
			dirty = false
			before := len(p.Records())
			rep, err := p.step(ctx)
			p.mu.Lock()
			p.stats.Steps++
			p.mu.Unlock()
			if len(p.Records()) != before {
				dirty = true // it published: look again at once
			}
			if err != nil {
				return rep, err
			}
			if rep != nil {
				if p.c.Linger <= 0 {
					return rep, nil
				}
				final = rep
				t := time.NewTimer(p.c.Linger)
				defer t.Stop()
				lingerEnd = t.C
			}
		}
		p.mu.Lock()
		p.stats.Busy += time.Since(wake)
		p.mu.Unlock()
		select {
		case <-lingerEnd:
			return final, nil
		case <-ctx.Done():
			if final != nil {
				return final, nil
			}
			return p.report(), ctx.Err()
		case raw := <-p.c.Net.Records():
			wake = time.Now()
			// Take what is queued with it before looking again: a burst
			// costs one step, not one per record.
			for n := 0; ; n++ {
				if p.add(raw) {
					dirty = true
					if err := appendRecord(p.c.Dir, raw, false); err != nil {
						return nil, err
					}
				}
				more := false
				if n < maxBurst {
					select {
					case raw = <-p.c.Net.Records():
						more = true
					default:
					}
				}
				if !more {
					break
				}
			}
		case o := <-p.c.Net.Offers():
			wake = time.Now()
			if p.offer(o) {
				dirty = true
			}
		case f := <-p.fetched:
			wake = time.Now()
			delete(p.inflight, f.ref)
			p.activity[f.ref] = time.Now()
			dirty = true
			if f.c != nil {
				p.asked[f.ref][f.from].got = true
				if err := p.keep(ctx, f.ref, f.c); err != nil {
					return p.report(), err
				}
			}
		case d := <-p.done:
			wake = time.Now()
			dirty = true
			if d.err != nil {
				return p.report(), d.err
			}
			p.mu.Lock()
			p.played[d.ref], p.playing[d.ref] = true, false
			p.mu.Unlock()
			if c, err := judge(d.t); err == nil {
				if err := p.keep(ctx, d.ref, c); err != nil {
					return p.report(), err
				}
			}
		case <-tick.C:
			wake = time.Now()
			dirty = true
			p.mu.Lock()
			mine := append([][]byte(nil), p.mine...)
			held := make([]tournament.Ref, 0, len(p.files))
			for r := range p.files {
				held = append(held, r)
			}
			p.mu.Unlock()
			for _, raw := range mine {
				p.c.Net.Publish(ctx, raw)
			}
			for _, r := range held {
				p.c.Net.Have(ctx, p.tid, r)
			}
		}
	}
}

// maxBurst bounds the records taken in one go before the loop looks again.
const maxBurst = 1024

// offer takes an offer in: only from a roster player (its registration's
// peer id), for a table that can exist; true when it is new. An offer of a
// table this participant's seat is playing, from another seat of it, says
// that seat is over (seatWatch).
func (p *Participant) offer(o Offer) bool {
	p.mu.Lock()
	idx, ok := p.gate.rosterPeer(o.From)
	if o.Tournament != p.tid || !ok || o.Ref.Round < 1 || o.Ref.Round > tournament.MaxRounds || o.Ref.Table < 0 ||
		o.Ref.Table >= (tournament.MaxPlayers+3)/4 {
		p.stats.OffersRefused++
		p.mu.Unlock()
		return false
	}
	p.stats.Offers++
	if w := p.seats[o.Ref]; w != nil {
		w.end(idx)
	}
	if !slices.Contains(p.over[o.Ref], idx) {
		p.over[o.Ref] = append(p.over[o.Ref], idx)
	}
	p.mu.Unlock()
	if slices.Contains(p.offers[o.Ref], o.From) {
		return false
	}
	p.offers[o.Ref] = append(p.offers[o.Ref], o.From)
	p.activity[o.Ref] = time.Now()
	return true
}

// keep takes a judged copy of ref's transcript in (offerCopy) and, when the
// merged transcript changed, stores it in the folder and tells the others.
func (p *Participant) keep(ctx context.Context, ref tournament.Ref, c *tcopy) error {
	file, changed := p.offerCopy(ref, c)
	if !changed {
		return nil
	}
	if err := atomicfile.Write(filepath.Join(p.c.Dir, TranscriptName(ref)), file); err != nil {
		return err
	}
	return p.c.Net.Have(ctx, p.tid, ref)
}

// offerCopy merges a copy of ref's transcript with those held (copies.go)
// and returns the merged file, and whether it changed.
func (p *Participant) offerCopy(ref tournament.Ref, c *tcopy) ([]byte, bool) {
	p.mu.Lock()
	cs := p.tables[ref]
	if cs == nil {
		cs = &copies{}
		p.tables[ref] = cs
	}
	if held := p.files[ref]; bytes.Equal(held, c.file) {
		p.mu.Unlock()
		return held, false
	}
	p.mu.Unlock()
	t := cs.add(c)
	rep := table.Verify(t)
	var b bytes.Buffer
	if err := table.WriteTranscript(&b, t); err != nil {
		return nil, false
	}
	file := b.Bytes()
	p.mu.Lock()
	defer p.mu.Unlock()
	if bytes.Equal(p.files[ref], file) {
		return file, false
	}
	p.matches[ref], p.files[ref] = matchOf(t, rep), file
	return file, true
}

// ChatName is a table's chat file in the folder, beside its transcript
// (protocol.md 7.13): the folder's check never reads it.
func ChatName(ref tournament.Ref) string {
	return fmt.Sprintf("r%d-t%d.chat", ref.Round, ref.Table)
}

// TranscriptName is a table's transcript file in the folder (9.6).
func TranscriptName(ref tournament.Ref) string {
	return fmt.Sprintf("r%d-t%d.transcript", ref.Round, ref.Table)
}

func (p *Participant) report() *tournament.Report {
	p.mu.Lock()
	m := make(map[tournament.Ref]*tournament.Match, len(p.matches))
	for k, v := range p.matches {
		m[k] = v
	}
	p.mu.Unlock()
	return tournament.Check(p.Records(), m)
}

// step does what the records call for now; it returns the final report
// when the tournament is over.
func (p *Participant) step(ctx context.Context) (*tournament.Report, error) {
	if p.tid == ([32]byte{}) {
		return nil, nil
	}
	rep := p.report()
	if rep.Name == "" {
		return nil, nil // no announcement yet
	}
	if p.c.Plays != nil {
		if err := p.c.Plays(rep.Ruleset); err != nil {
			return nil, fmt.Errorf("tourney: this seat cannot play %s: %w", rep.Ruleset, err)
		}
	}
	me := -1
	for i, pl := range rep.Players {
		if pl.Key == p.pub {
			me = i
		}
	}
	recs := p.decoded()
	// Registration.
	if p.c.Create == nil || !p.c.NoPlay {
		if !hasRecord(recs, tournament.KindRegister, p.pub, 0, 0) && len(rep.Players) == 0 {
			r := &tournament.Record{Kind: tournament.KindRegister, Tournament: p.tid, Signer: p.pub, Name: p.c.Name, PeerID: p.c.PeerID}
			return nil, p.publish(ctx, r)
		}
	}
	// The roster, when this participant created the tournament.
	if p.c.Create != nil && len(rep.Players) == 0 && !hasKind(recs, tournament.KindRoster) {
		var regs []*tournament.Record
		keys := map[[32]byte]bool{}
		for _, r := range recs {
			if r.Kind == tournament.KindRegister && !keys[r.Signer] && p.admits(r) {
				keys[r.Signer] = true
				regs = append(regs, r)
			}
		}
		if len(regs) >= p.c.Create.Players {
			regs = regs[:p.c.Create.Players] // first come (and admitted), first served
			var entries []tournament.Entry
			for _, r := range regs {
				entries = append(entries, tournament.Entry{Key: r.Signer, Registration: r.Hash()})
			}
			sort.Slice(entries, func(a, b int) bool { return bytes.Compare(entries[a].Key[:], entries[b].Key[:]) < 0 })
			ros := &tournament.Record{Kind: tournament.KindRoster, Tournament: p.tid, Signer: p.pub, Entries: entries}
			return nil, p.publish(ctx, ros)
		}
	}
	if len(rep.Players) == 0 {
		return nil, nil
	}
	// The creator fixes each round's tables once they are all scored
	// (protocol.md 9.5): the copies it holds, by length and last record.
	if p.c.Create != nil {
		if res := p.results(rep); res != nil {
			return nil, p.publish(ctx, res)
		}
	}
	// Standings to show, and the end.
	for _, rd := range rep.Rounds {
		if rd.Standings != nil && !p.shown[rd.Number] {
			p.shown[rd.Number] = true
			if p.c.OnRound != nil {
				p.c.OnRound(rep, rd.Number)
			}
		}
	}
	// Fetch what is missing, or not finished, from those who have it.
	p.startFetches(ctx, rep, me)
	if rep.Final != nil {
		if !p.settled(rep, len(rep.Rounds), me) {
			return nil, nil // a better copy of a table may still come
		}
		return rep, nil
	}
	// The current round: the first without standings.
	round := 1
	for round <= len(rep.Rounds) && rep.Rounds[round-1].Standings != nil {
		round++
	}
	if round > rep.Format.Rounds || round > len(rep.Rounds) {
		return nil, nil
	}
	rd := rep.Rounds[round-1]
	if rd.Draw == nil {
		if rd.Attempt == 0 {
			return nil, nil // the draw cannot be followed (a problem says why)
		}
		if !p.settled(rep, round-1, me) {
			return nil, nil // a better copy of an earlier table may still come
		}
		return nil, p.draw(ctx, recs, rep, me, round, rd.Attempt, rd.Active)
	}
	if me < 0 {
		return nil, nil // not on the roster: a spectator of its own records
	}
	for _, tb := range rep.Rounds[round-1].Tables {
		seat := -1
		for i, pl := range tb.Seats {
			if pl == me {
				seat = i
			}
		}
		p.mu.Lock()
		busy := p.playing[tb.Ref] || p.played[tb.Ref] || p.files[tb.Ref] != nil
		p.mu.Unlock()
		if seat < 0 || busy {
			continue
		}
		cfg, ok, err := tableConfig(rep, tb.Ref)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		p.mu.Lock()
		p.playing[tb.Ref] = true
		p.mu.Unlock()
		go p.play(ctx, tb.Ref, cfg, seat, round, tb.Seats)
	}
	return nil, nil
}

// results returns the creator's results record for the first round whose
// tables are all scored and not yet fixed, or nil. A round with a table
// still unfinished waits ResultsWait from when it was first scored, for a
// longer copy to come.
func (p *Participant) results(rep *tournament.Report) *tournament.Record {
	if rep.Version < tournament.Version2 {
		return nil
	}
	for _, rd := range rep.Rounds {
		if !rd.Scored || rd.Results != nil || len(rd.Tables) == 0 {
			continue
		}
		if p.scoredAt == nil {
			p.scoredAt = map[int]time.Time{}
		}
		at, seen := p.scoredAt[rd.Number]
		if !seen {
			at = time.Now()
			p.scoredAt[rd.Number] = at
		}
		res := &tournament.Record{Kind: tournament.KindResults, Tournament: p.tid, Signer: p.pub, Round: rd.Number}
		p.mu.Lock()
		for _, tb := range rd.Tables {
			m := p.matches[tb.Ref]
			if m == nil {
				p.mu.Unlock()
				return nil
			}
			if m.Status == tournament.StatusUnfinished && time.Since(at) < p.c.ResultsWait {
				p.mu.Unlock()
				return nil
			}
			e := tournament.TableEnd{Length: len(m.Chain)}
			if e.Length > 0 {
				e.Last = m.Chain[e.Length-1]
			}
			res.Tables = append(res.Tables, e)
		}
		p.mu.Unlock()
		return res
	}
	return nil
}

// seatWatch follows this participant's seat at a table it plays: whom its
// chain waits for, and which other seats offered their transcript of the
// table (a seat offers it once its own play is over: it will sign nothing
// more). When the seat waited for is over (or, on this seat's own turn,
// every other seat is) and nothing moved for the grace, no one is left to
// answer: the seat stops, rather than wait out its withhold while the
// tournament goes on without it. Read and written under p.mu.
type seatWatch struct {
	roster []int // roster index by seat
	me     int
	ended  []bool
	expect int       // the seat the chain waits for; -1 unknown or over
	moved  time.Time // the chain's last step, or the last seat's end
	stop   context.CancelFunc
}

// end marks roster player idx's seat as over.
func (w *seatWatch) end(idx int) {
	for s, r := range w.roster {
		if r == idx && s != w.me && !w.ended[s] {
			w.ended[s] = true
			w.moved = time.Now()
		}
	}
}

// dead reports whether no seat that could answer is left.
func (w *seatWatch) dead() bool {
	if w.expect < 0 {
		return false
	}
	if w.expect != w.me {
		return w.ended[w.expect]
	}
	for s, e := range w.ended {
		if s != w.me && !e {
			return false
		}
	}
	return true
}

// watch stops the seat once its table is dead for the grace.
func (p *Participant) watch(ctx context.Context, w *seatWatch) {
	t := time.NewTicker(max(p.c.endGrace/4, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		p.mu.Lock()
		dead := w.dead() && time.Since(w.moved) >= p.c.endGrace
		p.mu.Unlock()
		if dead {
			w.stop()
			return
		}
	}
}

// play runs this participant's seat at a table and reports its transcript.
// roster gives each seat's roster index.
func (p *Participant) play(ctx context.Context, ref tournament.Ref, cfg table.Config, seat, round int, roster []int) {
	d := tableDone{ref: ref}
	defer func() {
		select {
		case p.done <- d:
		case <-ctx.Done():
		}
	}()
	tr, err := p.c.TableNet(ref, cfg)
	if err != nil {
		d.err = err
		return
	}
	defer tr.Close()
	var store table.Store
	if p.c.State != "" {
		ds, err := table.OpenDirStore(filepath.Join(p.c.State, fmt.Sprintf("%x", p.tid), "tables", fmt.Sprintf("r%d-t%d", ref.Round, ref.Table)), cfg)
		if err != nil {
			d.err = err
			return
		}
		defer ds.Close()
		store = ds
	}
	pc := table.PeerConfig{Table: cfg, Seat: seat, Key: p.c.Key, Transport: tr, Withhold: p.c.Withhold, MoveWithhold: p.c.MoveWithhold,
		Stall: p.c.Stall, Store: store}
	var done func(*table.Transcript, error)
	var left <-chan struct{}
	var onStep func(m *table.Machine, v *engine.View)
	if p.c.Sit != nil {
		st := p.c.Sit(ref, cfg, seat)
		pc.Mover, onStep, done, left = st.Mover, st.OnStep, st.Done, st.Left
		if st.Chat != nil {
			defer st.Chat(tr, cfg)()
		}
	} else {
		pc.Mover = p.c.Mover(round)
	}
	tctx, stop := context.WithCancel(ctx)
	defer stop()
	w := &seatWatch{roster: roster, me: seat, ended: make([]bool, len(roster)), expect: -1, moved: time.Now(), stop: stop}
	pc.OnStep = func(m *table.Machine, v *engine.View) {
		e, _ := m.Expect()
		if m.Done() {
			e = -1
		}
		p.mu.Lock()
		w.expect, w.moved = e, time.Now()
		p.mu.Unlock()
		if onStep != nil {
			onStep(m, v)
		}
	}
	peer, err := table.NewPeer(pc)
	if err != nil {
		d.err = err
		if done != nil {
			done(nil, err)
		}
		return
	}
	if m := peer.Machine(); !m.Done() {
		w.expect, _ = m.Expect()
	}
	p.mu.Lock()
	p.seats[ref] = w
	// The seats already over before this one sat down.
	for _, i := range p.over[ref] {
		w.end(i)
	}
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.seats, ref)
		p.mu.Unlock()
	}()
	go p.watch(tctx, w)
	p.c.Log.Info("tournament table", "round", ref.Round, "table", ref.Table+1, "seat", seat)
	res, err := peer.Run(tctx)
	p.c.Log.Info("tournament table over", "round", ref.Round, "table", ref.Table+1, "err", err)
	gone := false
	if left != nil {
		select {
		case <-left:
			gone = true
		default:
		}
	}
	if err != nil && ctx.Err() == nil && tctx.Err() != nil && !gone {
		// Stopped by watch: the seats that could answer are over.
		p.c.Log.Info("tournament table: the other seats are over; this seat stops", "round", ref.Round, "table", ref.Table+1)
		err = nil
	}
	if err != nil && (ctx.Err() != nil || gone) {
		// The participant stopped, or its player left the table: the
		// seat's state stays in the state directory, to resume.
		d.err = err
		if gone {
			d.err = fmt.Errorf("%w: %w", ErrLeft, err)
		}
		if done != nil {
			done(nil, err)
		}
		return
	}
	t := &table.Transcript{Config: cfg, Chain: peer.Chain()}
	if v := res.Violation; v != nil {
		for _, e := range v.Evidence {
			if !inChain(t.Chain, e) {
				t.Evidence = append(t.Evidence, e)
			}
		}
	}
	d.t = t
	if done != nil {
		done(t, err)
	}
}

// ErrLeft is Run's error when the player of a Sitting left the table: the
// participant stops, to be started again on the same folder and state.
var ErrLeft = errors.New("tourney: the player left the table")

func inChain(chain [][]byte, e []byte) bool {
	for _, c := range chain {
		if bytes.Equal(c, e) {
			return true
		}
	}
	return false
}

// tableConfig is the config of the table ref from the records (9.3); false
// when it is not formed.
func tableConfig(rep *tournament.Report, ref tournament.Ref) (table.Config, bool, error) {
	id, ruleset, seats, ok := rep.Seating(ref.Round, ref.Table)
	if !ok {
		return table.Config{}, false, nil
	}
	cfg := table.Config{ID: id, Ruleset: ruleset}
	for _, s := range seats {
		cfg.Seats = append(cfg.Seats, table.Seat{ID: table.PeerID(s.PeerID), Name: s.Name, Key: ed25519.PublicKey(append([]byte(nil), s.Key[:]...)), Nonce: s.Nonce})
	}
	if err := cfg.Validate(); err != nil {
		return table.Config{}, false, fmt.Errorf("tourney: round %d table %d cannot form: %w", ref.Round, ref.Table+1, err)
	}
	return cfg, true, nil
}

// maxFetches bounds the fetches in flight; maxTries the fetches of one
// table from one offerer that failed.
const (
	maxFetches = 4
	maxTries   = 3
)

// startFetches starts, for formed tables whose transcript this participant
// lacks or holds unfinished, a fetch from an offerer not asked yet: at most
// one in flight per table and maxFetches in all, each in its own goroutine
// (the loop goes on; the answer comes back on p.fetched). A table this
// participant's seat is at is never fetched before its seat has played it.
func (p *Participant) startFetches(ctx context.Context, rep *tournament.Report, me int) {
	for _, rd := range rep.Rounds {
		for _, tb := range rd.Tables {
			if len(p.inflight) >= maxFetches {
				return
			}
			ref := tb.Ref
			if p.inflight[ref] || len(p.offers[ref]) == 0 {
				continue
			}
			p.mu.Lock()
			m := p.matches[ref]
			wait := p.playing[ref] || (me >= 0 && slices.Contains(tb.Seats, me) && !p.played[ref])
			p.mu.Unlock()
			if wait || (m != nil && m.Status == tournament.StatusHonest) {
				continue
			}
			cfg, ok, _ := tableConfig(rep, ref)
			if !ok {
				continue
			}
			if p.asked[ref] == nil {
				p.asked[ref] = map[string]*asking{}
			}
			for _, from := range p.offers[ref] {
				a := p.asked[ref][from]
				if a == nil {
					a = &asking{}
					p.asked[ref][from] = a
				}
				if a.got || a.tries >= maxTries {
					continue
				}
				a.tries++
				p.inflight[ref] = true
				p.mu.Lock()
				p.stats.Fetches++
				p.mu.Unlock()
				go p.fetch(ctx, from, ref, cfg)
				break
			}
		}
	}
}

// settleTicks is how many Retry periods a table whose held copy is not
// finished stays open to new offers once no offerer is left to ask (every
// participant offers what it holds every Retry).
const settleTicks = 3

// settled reports whether every table of rounds 1..upto is finished, or
// unfinished with no fetch in flight, no offerer left to ask, and no new
// offer or answer for settleTicks Retry periods: the copy held is the
// furthest this participant can get.
func (p *Participant) settled(rep *tournament.Report, upto, me int) bool {
	for _, rd := range rep.Rounds[:min(upto, len(rep.Rounds))] {
		for _, tb := range rd.Tables {
			ref := tb.Ref
			p.mu.Lock()
			m := p.matches[ref]
			p.mu.Unlock()
			if m != nil && m.Status == tournament.StatusHonest {
				continue
			}
			if p.inflight[ref] || time.Since(p.activity[ref]) < settleTicks*p.c.Retry {
				return false
			}
			for _, from := range p.offers[ref] {
				if a := p.asked[ref][from]; a == nil || (!a.got && a.tries < maxTries) {
					return false
				}
			}
		}
	}
	return true
}

// fetch asks from for ref's transcript, judges what comes as a copy of the
// table cfg, and hands it to the loop.
func (p *Participant) fetch(ctx context.Context, from string, ref tournament.Ref, cfg table.Config) {
	fctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	start := time.Now()
	b, err := p.c.Net.Fetch(fctx, from, p.tid, ref)
	cancel()
	var c *tcopy
	if err == nil {
		c, err = judgeCopy(b, cfg)
	}
	p.c.Log.Info("tournament fetch", "round", ref.Round, "table", ref.Table+1, "from", from, "bytes", len(b), "took", time.Since(start).Round(time.Millisecond), "err", err)
	// p.fetched holds maxFetches: this never blocks, even once Run returned.
	p.fetched <- fetchDone{ref: ref, from: from, c: c, err: err}
}

// FetchTimeout bounds one transcript fetch (9.8).
const FetchTimeout = 30 * time.Second

func (p *Participant) decoded() []*tournament.Record {
	var out []*tournament.Record
	for _, raw := range p.Records() {
		if r, err := tournament.Decode(raw); err == nil {
			out = append(out, r)
		}
	}
	return out
}

func hasKind(recs []*tournament.Record, k tournament.Kind) bool {
	for _, r := range recs {
		if r.Kind == k {
			return true
		}
	}
	return false
}

func hasRecord(recs []*tournament.Record, k tournament.Kind, key [32]byte, round, attempt int) bool {
	for _, r := range recs {
		if r.Kind == k && r.Signer == key && r.Round == round && r.Attempt == attempt {
			return true
		}
	}
	return false
}

// draw does this participant's part in round's draw attempt among active
// (roster indices): its commitment, then its reveal once it holds every
// active player's commitment; and, for the creator, the attempt's close
// (protocol.md 9.4): keeping everyone with the seed once every reveal is
// in, or, after DrawWait, keeping only the players whose records it holds.
func (p *Participant) draw(ctx context.Context, recs []*tournament.Record, rep *tournament.Report, me, round, a int, active []int) error {
	key := attemptKey{round, a}
	if me >= 0 && slices.Contains(active, me) {
		if !hasRecord(recs, tournament.KindCommit, p.pub, round, a) {
			var prior [32]byte
			if p.version >= tournament.Version2 && round > 1 {
				// The results this participant pairs from (9.4): its
				// standings after the last round are defined only with them.
				prev := rep.Rounds[round-2].Results
				if prev == nil {
					return nil
				}
				prior = prev.Hash()
			}
			var o [32]byte
			rand.Read(o[:])
			if err := p.saveOpening(key, o); err != nil {
				return err
			}
			r := &tournament.Record{Kind: tournament.KindCommit, Tournament: p.tid, Signer: p.pub, Round: round, Attempt: a,
				Commitment: tournament.Commitment(p.tid, round, a, p.pub, o), Prior: prior}
			return p.publish(ctx, r)
		}
		if !hasRecord(recs, tournament.KindReveal, p.pub, round, a) {
			cs, _, ok := attemptRecords(recs, rep.Players, round, a, active)
			o, have := p.openings[key]
			if ok && have {
				if p.c.silentAt == round {
					return errSilent
				}
				r := &tournament.Record{Kind: tournament.KindReveal, Tournament: p.tid, Signer: p.pub, Round: round, Attempt: a,
					Commits: tournament.CommitsHash(p.tid, round, a, cs), Opening: o}
				return p.publish(ctx, r)
			}
		}
	}
	if p.c.Create == nil {
		return nil
	}
	for _, r := range recs {
		if r.Kind == tournament.KindClose && r.Round == round && r.Attempt == a {
			return nil
		}
	}
	start, seen := p.opened[key]
	if !seen {
		start = time.Now()
		p.opened[key] = start
	}
	cs, reveals, all := attemptRecords(recs, rep.Players, round, a, active)
	c := &tournament.Record{Kind: tournament.KindClose, Tournament: p.tid, Signer: p.pub, Round: round, Attempt: a}
	var committed, revealed []int
	var ops [][32]byte
	var ch [32]byte
	if all {
		ch = tournament.CommitsHash(p.tid, round, a, cs)
	}
	for i, pl := range active {
		if reveals[i] == nil {
			continue
		}
		committed = append(committed, pl)
		if r := reveals[i]; r.Kind == tournament.KindReveal && r.Commits == ch && all &&
			tournament.Commitment(p.tid, round, a, r.Signer, r.Opening) == cs[i] {
			revealed = append(revealed, pl)
			ops = append(ops, r.Opening)
		}
	}
	switch {
	case all && len(revealed) == len(active):
		c.Kept, c.Commits, c.Seed = active, ch, tournament.Seed(p.tid, round, a, ops)
	case time.Since(start) < p.c.DrawWait:
		return nil
	case all:
		c.Kept, c.Commits = revealed, ch
	default:
		c.Kept = committed
	}
	if len(c.Kept) < len(active) {
		p.c.Log.Info("tournament draw closed without some players", "round", round, "attempt", a, "kept", len(c.Kept), "of", len(active))
	}
	return p.publish(ctx, c)
}

// attemptRecords returns, for round's attempt a among active, the
// commitments held (active order), and per active player its reveal when
// held, else its commitment record when held, else nil; all is true when
// every commitment is held.
func attemptRecords(recs []*tournament.Record, players []tournament.Player, round, a int, active []int) (cs [][32]byte, latest []*tournament.Record, all bool) {
	latest = make([]*tournament.Record, len(active))
	all = true
	for i, pl := range active {
		var c, rv *tournament.Record
		for _, r := range recs {
			if r.Round != round || r.Attempt != a || r.Signer != players[pl].Key {
				continue
			}
			if r.Kind == tournament.KindCommit && c == nil {
				c = r
			}
			if r.Kind == tournament.KindReveal && rv == nil {
				rv = r
			}
		}
		if c == nil {
			all = false
			cs = append(cs, [32]byte{})
			continue
		}
		cs = append(cs, c.Commitment)
		latest[i] = c
		if rv != nil {
			latest[i] = rv
		}
	}
	return cs, latest, all
}

// MatchOf verifies a table's transcript (protocol.md 6) and returns what
// the tournament check needs of it (9.7).
func MatchOf(t *table.Transcript) *tournament.Match {
	return matchOf(t, table.Verify(t))
}
