// Package tourney runs a tournament participant (protocol.md 9): it
// publishes its signed records (the announcement and roster when it
// creates, its registration, each round's draw commitment and reveal),
// forms its table of each round from the records alone, plays it, keeps the
// tournament folder (the records file and every table's transcript),
// fetches the transcripts it lacks from the other participants, and
// returns the checked standings. The verifiable rules are package
// tournament's; this package only drives them over a Net.
package tourney

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
}

// AnnouncementID is the id of the tournament that a creator with key
// announces as cr (cr.Nonce set): the announcement is the same bytes Run
// signs and publishes (Ed25519 signatures are deterministic).
func AnnouncementID(key ed25519.PrivateKey, cr Create) ([32]byte, error) {
	ann := &tournament.Record{Kind: tournament.KindAnnounce, Nonce: cr.Nonce, Players: cr.Players, Name: cr.Name, Format: cr.Format, Ruleset: cr.Ruleset}
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
}

// errSilent is Run's error when a test's participant goes silent.
var errSilent = errors.New("tourney: gone silent (test)")

// attemptKey names a round's draw attempt.
type attemptKey struct{ round, attempt int }

// Sitting is what Config.Sit gives for one table: the seat's mover, its
// table.PeerConfig.OnStep (may be nil), Left, closed
// when the player has left the table (the participant then stops: Run
// returns ErrLeft), and Done, called with the match's transcript (nil and
// the error when the seat stopped before the end) once it is over.
type Sitting struct {
	Mover  table.Mover
	OnStep func(m *table.Machine, v *engine.View)
	Left   <-chan struct{}
	Done   func(t *table.Transcript, err error)
}

// Participant is one running participant.
type Participant struct {
	c    Config
	pub  [32]byte
	mu   sync.Mutex
	recs [][]byte
	seen map[string]bool
	mine [][]byte // records this participant signed, re-published on Retry
	// matches caches verified transcripts by table.
	matches  map[tournament.Ref]*tournament.Match
	files    map[tournament.Ref][]byte
	playing  map[tournament.Ref]bool
	openings map[attemptKey][32]byte
	opened   map[attemptKey]time.Time // creator: when it first saw an attempt open
	shown    map[int]bool
	tid      [32]byte
	done     chan tableDone
	// resumed marks a participant started again on its folder: a creator
	// does not announce again.
	resumed bool
}

type tableDone struct {
	ref  tournament.Ref
	file []byte
	err  error
}

// New makes a participant.
func New(c Config) (*Participant, error) {
	p := &Participant{c: c, seen: map[string]bool{}, matches: map[tournament.Ref]*tournament.Match{},
		files: map[tournament.Ref][]byte{}, playing: map[tournament.Ref]bool{}, openings: map[attemptKey][32]byte{}, opened: map[attemptKey]time.Time{},
		shown: map[int]bool{}, done: make(chan tableDone, 16), tid: c.Tournament}
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
	b, err := os.ReadFile(filepath.Join(p.c.Dir, "tournament"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	raws, err := tournament.DecodeFile(b)
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
	for r := 1; r <= tournament.MaxRounds; r++ {
		for t := 0; t < (tournament.MaxPlayers+3)/4; t++ {
			ref := tournament.Ref{Round: r, Table: t}
			file, err := os.ReadFile(filepath.Join(p.c.Dir, TranscriptName(ref)))
			if err != nil {
				continue
			}
			p.hold(ref, file)
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

// add stores a record once; false when it is not new or not this
// tournament's.
func (p *Participant) add(raw []byte) bool {
	p.mu.Lock()
	dup := p.seen[string(raw)]
	p.mu.Unlock()
	if dup {
		return false
	}
	r, err := tournament.Decode(raw)
	if err != nil || !r.Verify() {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen[string(raw)] {
		return false
	}
	if r.Kind == tournament.KindAnnounce {
		if p.tid == ([32]byte{}) {
			p.tid = r.ID()
		}
		if r.ID() != p.tid {
			return false
		}
	} else if p.tid != ([32]byte{}) && r.Tournament != p.tid {
		return false
	}
	p.seen[string(raw)] = true
	p.recs = append(p.recs, append([]byte(nil), raw...))
	return true
}

func (p *Participant) publish(ctx context.Context, r *tournament.Record) error {
	if err := r.Sign(p.c.Key); err != nil {
		return err
	}
	p.c.Log.Info("tournament record", "kind", r.Kind.String(), "round", r.Round)
	p.add(r.Raw)
	p.mu.Lock()
	p.mine = append(p.mine, r.Raw)
	p.mu.Unlock()
	if err := p.saveRecords(); err != nil {
		return err
	}
	return p.c.Net.Publish(ctx, r.Raw)
}

func (p *Participant) saveRecords() error {
	return atomicfile.Write(filepath.Join(p.c.Dir, "tournament"), tournament.EncodeFile(p.Records()))
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
		ann := &tournament.Record{Kind: tournament.KindAnnounce, Signer: p.pub, Nonce: nonce, Players: cr.Players,
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
	offers := map[tournament.Ref][]string{}
	var final *tournament.Report
	var lingerEnd <-chan time.Time
	dirty := true
	for {
		if final == nil && dirty {
			dirty = false
			before := len(p.Records())
			rep, err := p.step(ctx, offers)
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
		select {
		case <-lingerEnd:
			return final, nil
		case <-ctx.Done():
			if final != nil {
				return final, nil
			}
			return p.report(), ctx.Err()
		case raw := <-p.c.Net.Records():
			if p.add(raw) {
				dirty = true
				if err := p.saveRecords(); err != nil {
					return nil, err
				}
			}
		case o := <-p.c.Net.Offers():
			if o.Tournament != p.tid {
				continue
			}
			if !slices.Contains(offers[o.Ref], o.From) {
				offers[o.Ref] = append(offers[o.Ref], o.From)
				dirty = true
			}
		case d := <-p.done:
			dirty = true
			if d.err != nil {
				return p.report(), d.err
			}
			if err := p.keep(ctx, d.ref, d.file); err != nil {
				return p.report(), err
			}
		case <-tick.C:
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

// keep checks a transcript file for ref and, when it is that table's,
// stores it in the folder and tells the others.
func (p *Participant) keep(ctx context.Context, ref tournament.Ref, file []byte) error {
	// A file that is not that table's transcript is ignored, and asked
	// for again elsewhere.
	if !p.hold(ref, file) {
		return nil
	}
	if err := atomicfile.Write(filepath.Join(p.c.Dir, TranscriptName(ref)), file); err != nil {
		return err
	}
	return p.c.Net.Have(ctx, p.tid, ref)
}

// hold keeps a transcript file for ref in memory when it is that table's
// and no honest one is held yet.
func (p *Participant) hold(ref tournament.Ref, file []byte) bool {
	t, err := table.ReadTranscript(bytes.NewReader(file))
	if err != nil || t.Config.ID != tournament.TableID(p.tid, ref.Round, ref.Table) {
		return false
	}
	m := MatchOf(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	if prev := p.matches[ref]; prev != nil && prev.Status == tournament.StatusHonest {
		return false
	}
	p.matches[ref], p.files[ref] = m, file
	return true
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
func (p *Participant) step(ctx context.Context, offers map[tournament.Ref][]string) (*tournament.Report, error) {
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
			if r.Kind == tournament.KindRegister && !keys[r.Signer] {
				keys[r.Signer] = true
				regs = append(regs, r)
			}
		}
		if len(regs) >= p.c.Create.Players {
			regs = regs[:p.c.Create.Players] // first come, first served
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
	// Standings to show, and the end.
	for _, rd := range rep.Rounds {
		if rd.Standings != nil && !p.shown[rd.Number] {
			p.shown[rd.Number] = true
			if p.c.OnRound != nil {
				p.c.OnRound(rep, rd.Number)
			}
		}
	}
	if rep.Final != nil {
		return rep, nil
	}
	// Fetch what is missing from those who have it.
	p.fetchMissing(ctx, rep, offers)
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
		return nil, p.draw(ctx, recs, rep, me, round, rd.Attempt, rd.Active)
	}
	if me < 0 {
		return nil, nil // not on the roster: a spectator of its own records
	}
	for t, tb := range rep.Rounds[round-1].Tables {
		seat := -1
		for i, pl := range tb.Seats {
			if pl == me {
				seat = i
			}
		}
		p.mu.Lock()
		busy := p.playing[tb.Ref] || p.files[tb.Ref] != nil
		p.mu.Unlock()
		if seat < 0 || busy {
			continue
		}
		id, ruleset, seats, ok := rep.Seating(round, t)
		if !ok {
			continue
		}
		cfg := table.Config{ID: id, Ruleset: ruleset}
		for _, s := range seats {
			cfg.Seats = append(cfg.Seats, table.Seat{ID: table.PeerID(s.PeerID), Name: s.Name, Key: ed25519.PublicKey(append([]byte(nil), s.Key[:]...)), Nonce: s.Nonce})
		}
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("tourney: round %d table %d cannot form: %w", round, t+1, err)
		}
		p.mu.Lock()
		p.playing[tb.Ref] = true
		p.mu.Unlock()
		go p.play(ctx, tb.Ref, cfg, seat, round)
	}
	return nil, nil
}

// play runs this participant's seat at a table and reports its transcript.
func (p *Participant) play(ctx context.Context, ref tournament.Ref, cfg table.Config, seat, round int) {
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
	if p.c.Sit != nil {
		st := p.c.Sit(ref, cfg, seat)
		pc.Mover, pc.OnStep, done, left = st.Mover, st.OnStep, st.Done, st.Left
	} else {
		pc.Mover = p.c.Mover(round)
	}
	peer, err := table.NewPeer(pc)
	if err != nil {
		d.err = err
		if done != nil {
			done(nil, err)
		}
		return
	}
	p.c.Log.Info("tournament table", "round", ref.Round, "table", ref.Table+1, "seat", seat)
	res, err := peer.Run(ctx)
	p.c.Log.Info("tournament table over", "round", ref.Round, "table", ref.Table+1, "err", err)
	gone := false
	if left != nil {
		select {
		case <-left:
			gone = true
		default:
		}
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
	var b bytes.Buffer
	if err := table.WriteTranscript(&b, t); err != nil {
		d.err = err
		return
	}
	d.file = b.Bytes()
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

// fetchMissing asks, for every formed table whose transcript this
// participant lacks, the participants that offered it, in turn.
func (p *Participant) fetchMissing(ctx context.Context, rep *tournament.Report, offers map[tournament.Ref][]string) {
	for _, rd := range rep.Rounds {
		for _, tb := range rd.Tables {
			p.mu.Lock()
			have := p.files[tb.Ref] != nil || p.playing[tb.Ref]
			p.mu.Unlock()
			if have {
				continue
			}
			for len(offers[tb.Ref]) > 0 {
				from := offers[tb.Ref][0]
				offers[tb.Ref] = offers[tb.Ref][1:]
				fctx, cancel := context.WithTimeout(ctx, FetchTimeout)
				start := time.Now()
				b, err := p.c.Net.Fetch(fctx, from, p.tid, tb.Ref)
				cancel()
				p.c.Log.Info("tournament fetch", "round", tb.Round, "table", tb.Table+1, "from", from, "bytes", len(b), "took", time.Since(start).Round(time.Millisecond), "err", err)
				if err == nil {
					p.keep(ctx, tb.Ref, b)
					p.mu.Lock()
					got := p.files[tb.Ref] != nil
					p.mu.Unlock()
					if got {
						break
					}
				}
			}
		}
	}
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
			var o [32]byte
			rand.Read(o[:])
			if err := p.saveOpening(key, o); err != nil {
				return err
			}
			r := &tournament.Record{Kind: tournament.KindCommit, Tournament: p.tid, Signer: p.pub, Round: round, Attempt: a,
				Commitment: tournament.Commitment(p.tid, round, a, p.pub, o)}
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
	rep := table.Verify(t)
	m := &tournament.Match{Status: int(rep.Status()), TableID: t.Config.ID, Ruleset: t.Config.Ruleset, Silent: -1, Cheater: -1}
	for _, s := range t.Config.Seats {
		var k [32]byte
		copy(k[:], s.Key)
		m.Keys = append(m.Keys, k)
	}
	m.Signed = make([]bool, len(m.Keys))
	h := t.Config.Hash()
	for _, raw := range t.Chain {
		env, err := table.DecodeEnvelope(raw)
		if err != nil || env.Table != t.Config.ID || int(env.Seat) >= len(m.Keys) || m.Signed[env.Seat] {
			continue
		}
		if env.Verify(t.Config.Seats[env.Seat].Key, h) == nil {
			m.Signed[env.Seat] = true
		}
	}
	if n := len(rep.Hands); n > 0 {
		m.Scores = append([]int(nil), rep.Hands[n-1].Scores...)
	}
	if rep.Status() == table.StatusHonest {
		m.Places = make([]int, len(m.Keys))
		for _, s := range rep.Ranking {
			if s.Seat >= 0 && s.Seat < len(m.Places) {
				m.Places[s.Seat] = s.Place
			}
		}
	}
	if rep.Next != nil {
		m.Silent = rep.Next.Seat
	}
	if rep.Violation != nil {
		m.Cheater = rep.Violation.Seat
	}
	return m
}
