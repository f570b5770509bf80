package netplay

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// PlayOptions tunes Play. Zero values get the documented defaults.
type PlayOptions struct {
	// OnStep is called after every applied step, from the protocol's
	// goroutine (also for the steps replayed when a match resumes, unless
	// OnReplay is set).
	OnStep func(m *table.Machine, v *engine.View)
	// OnReplay, when set, is called instead of OnStep for each step a
	// resumed match replays from its saved state (old news: a screen need
	// not show the hands that ended before), and OnStep is then called once
	// with the state resumed at, before any new step.
	OnReplay func(m *table.Machine, v *engine.View)
	// OnPresence is called with the members' presence when it changes
	// (from another goroutine), and once when the table is ready.
	OnPresence func([]p2p.MemberStatus)
	// Out is the directory for the transcript (default: the match's
	// directory under Data). The file is <table id>.okey.
	Out string
	// Pace is how long a bot mover takes per move (zero: no wait; see
	// Pace). Never set it for a person's mover.
	Pace Pace
	// Withhold is how long the table waits for a silent seat before it ends
	// the match naming that seat (default 2 minutes; table.PeerConfig).
	Withhold time.Duration
	// MoveWithhold replaces Withhold while the table waits for a player's
	// move, where a person may be thinking (default: with a turn timer in
	// the ruleset, the timer plus Withhold; otherwise the larger of Withhold
	// and 10 minutes).
	MoveWithhold time.Duration
	// Stall is how long the table waits without progress before it asks
	// the others for what it missed (default 2 s).
	Stall time.Duration
	// Linger bounds how long, after this peer finished, it keeps the table
	// open to serve members that are still catching up (default 30 s). It
	// leaves earlier, as soon as every other member has finished.
	Linger time.Duration
	// WaitLog is how long without progress before the table logs whom it
	// waits for (default 5 s).
	WaitLog time.Duration
	// ReadyTimeout bounds the wait for every member to join the table's
	// topic (default 30 s); after it the match starts (or resumes) anyway
	// and an absent member is treated like a silent one (Withhold).
	ReadyTimeout time.Duration
	// OnChat is called with each chat message accepted at the table, this
	// peer's own included (from another goroutine; protocol.md 7.13).
	OnChat func(ChatLine)
	// OnChatReady is called once the table is open with the function that
	// posts in its chat (it fails once the table is closed).
	OnChatReady func(ChatSend)
}

// Outcome is how a match ended for this peer.
type Outcome struct {
	Result     table.Result
	Transcript string // path of the transcript file
	Report     table.Report
	Config     table.Config
	Seat       int
	// Resumed is the step the match resumed at (0: a fresh start).
	Resumed uint32
	// Elapsed is the time Play took, from JoinTable to the end of the match
	// (without the linger).
	Elapsed time.Duration
	// Timing has this seat's latencies (steps replayed on resume excluded).
	Timing Timing
}

// Timing is what a seat measured during a match.
type Timing struct {
	// Deals has, per hand, the time from the first shuffle message to this
	// seat knowing every tile of its rack.
	Deals []time.Duration
	// Draws has, per draw from the stock by this seat, the time from its
	// draw being applied to the drawn tile's face being known (the other
	// seats' shares arrive in between).
	Draws []time.Duration
	// Hands has, per hand that ended while this seat played live, the time
	// from its first shuffle (or from the resume, for the hand resumed in)
	// to its end.
	Hands []time.Duration
	// Applied has, per step this seat applied live (not replayed from its
	// state), the step's number and the wall-clock time it was applied: the
	// seats of one machine share a clock, so the spread of a step's times
	// across seats is the time the step took to reach them all.
	Applied []StepTime
}

// StepTime is when a step was applied.
type StepTime struct {
	Step uint32
	At   time.Time
}

// Play runs one match at a started table (an announcement whose roster is
// full and ready) with mover choosing this seat's moves. It persists under
// Data (and resumes when state for that table exists), joins the table's
// topic (waiting until every member has), runs the table protocol, saves the
// transcript, verifies it, and returns. A match that another seat broke
// (including a seat that stayed silent past Withhold) is an Outcome whose
// Result.Violation names it, not an error; an error is this peer's own
// failure (ctx ended, I/O), and the state is kept for a later resume.
func (c *Client) Play(ctx context.Context, a lobby.Announcement, mover table.Mover, opt PlayOptions) (*Outcome, error) {
	if mover == nil {
		return nil, errors.New("lan: Play: nil mover")
	}
	if a.State != lobby.StateStarted {
		return nil, fmt.Errorf("%w: table %s is %s, not started", ErrAnnouncement, a.Table, a.State)
	}
	cfg, err := TableConfig(a)
	if err != nil {
		return nil, err
	}
	seat := -1
	for i, s := range cfg.Seats {
		if string(s.ID) == c.ID() {
			seat = i
		}
	}
	if seat < 0 {
		return nil, fmt.Errorf("%w: this peer is not seated at table %s", ErrAnnouncement, a.Table)
	}
	if opt.Linger == 0 {
		opt.Linger = 30 * time.Second
	}
	if opt.WaitLog == 0 {
		opt.WaitLog = 5 * time.Second
	}
	if opt.ReadyTimeout == 0 {
		opt.ReadyTimeout = 30 * time.Second
	}
	if opt.MoveWithhold == 0 {
		// A person may be at any seat: give a move the turn timer plus the
		// usual margin, or ten minutes at least when the table has no timer.
		w := opt.Withhold
		if w == 0 {
			w = 2 * time.Minute // table.PeerConfig's default
		}
		if t := cfg.Rules().TurnSeconds; t > 0 {
			opt.MoveWithhold = time.Duration(t)*time.Second + w
		} else {
			opt.MoveWithhold = max(w, 10*time.Minute)
		}
	}
	dir := c.matchDir(a.Table)
	c.reachByCode(ctx, a)
	if err := c.admit(dir, a, cfg, seat); err != nil {
		return nil, err
	}
	store, err := table.OpenDirStore(dir, cfg)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	key, err := privateKey(c.key)
	if err != nil {
		return nil, err
	}
	log := c.log.With("table", a.Table)
	w := &watch{log: log, node: c.node, cfg: cfg, seat: seat, user: opt.OnStep, replay: opt.OnReplay, replaying: true, progressed: -1,
		progress: func(hand int, scores []int) {
			if err := c.Lobby().SetProgress(a.Table, hand, scores); err != nil {
				log.Debug("the table's progress is not announced", "err", err)
			}
		}}
	link := &lateTransport{}
	// The table is watched when this seat serves a spectator, or the
	// lobby announces some (the creator's count).
	mover = paceMover(mover, opt.Pace, func() bool {
		if link.TableTransport != nil && link.TableTransport.Spectators() > 0 {
			return true
		}
		an, ok := c.Lobby().Table(a.Table)
		return ok && an.Spectators > 0
	}, nil)
	p, err := table.NewPeer(table.PeerConfig{Table: cfg, Seat: seat, Key: key, Transport: link, Mover: mover,
		Store: store, Log: log.With("component", "table"), Stall: opt.Stall, Withhold: opt.Withhold, MoveWithhold: opt.MoveWithhold, OnStep: w.onStep})
	if err != nil {
		return nil, err
	}
	w.resumed(p.Machine())
	resumed := p.Machine().Step()
	if resumed > 0 {
		log.Info("resuming match", "step", resumed, "hand", p.Machine().HandNumber())
		if opt.OnReplay != nil && opt.OnStep != nil {
			opt.OnStep(p.Machine(), p.View())
		}
	}
	start := time.Now()
	// Members that never join the topic are left to the table protocol,
	// which waits for them and, after Withhold, names the silent seat.
	tt, err := c.node.JoinTable(ctx, a.Table, a.Roster(), Validator(cfg), p2p.WithReadyTimeout(opt.ReadyTimeout))
	if err != nil {
		return nil, err
	}
	defer tt.Close()
	link.TableTransport = tt
	c.admitSpectators(tt, a)
	stopChat := followChat(ctx, log, tt, a, dir, opt.OnChat)
	defer stopChat()
	if opt.OnChatReady != nil {
		opt.OnChatReady(sender(ctx, tt))
	}
	if a.Creator == c.node.ID().String() {
		// The lobby announces how many spectators this seat serves
		// (protocol.md 7.5 and 7.12: a lower bound of the table's).
		id := a.Table
		c.Lobby().SetSpectatorCount(func(table string) int {
			if table != id {
				return 0
			}
			return tt.Spectators()
		})
		defer c.Lobby().SetSpectatorCount(nil)
	}
	log.Info("table ready", "seat", seat, "players", len(cfg.Seats), "ruleset", cfg.Ruleset, "took", time.Since(start).Round(time.Millisecond))

	pctx, stopPresence := context.WithCancel(ctx)
	var pwg sync.WaitGroup
	pwg.Go(func() { w.presence(pctx, tt, opt, p.LinkChanged) })
	res, err := p.Run(ctx)
	stopPresence()
	pwg.Wait()
	elapsed := time.Since(start)
	if err != nil {
		return nil, fmt.Errorf("lan: table %s: %w", a.Table, err)
	}
	if res.Ended() == nil {
		c.linger(ctx, log, link, cfg, seat, p.Chain(), opt.Linger)
	}
	tr, path, err := saveTranscript(cfg, p.Chain(), res, opt.Out, dir, a.Table)
	if err != nil {
		return nil, err
	}
	stopChat()
	saveChat(log, dir, path)
	rep := table.Verify(tr)
	if err := atomicfile.Write(filepath.Join(dir, doneFile), []byte(path+"\n")); err != nil {
		return nil, err
	}
	if err := c.Lobby().ForgetTable(a.Table); err != nil {
		log.Warn("the table's record was not removed", "err", err)
	}
	c.node.ForgetTable(a.Table) // the relays need not admit us for it any more
	o := &Outcome{Result: res, Transcript: path, Report: *rep, Config: cfg, Seat: seat, Resumed: resumed, Elapsed: elapsed, Timing: w.timing}
	if v := res.Violation; v != nil {
		log.Warn("match ended by a violation", "seat", v.Seat, "name", cfg.Seats[v.Seat].Name, "rule", v.Rule, "err", v.Err)
	}
	if st := res.Stalled; st != nil {
		log.Warn("match ended unfinished: a seat stopped answering", "seat", st.Seat, "name", cfg.Seats[st.Seat].Name, "waiting for", st.Kind.String(), "waited", st.Waited.Round(time.Second))
	}
	if f := res.Failure; f != nil {
		log.Warn("match ended unfinished: the rules cannot go on", "err", f.Err)
	}
	log.Info("transcript saved", "path", path, "honest", rep.Honest, "steps", rep.Steps)
	return o, nil
}

// admitSpectators sets who may watch table a from this seat (protocol.md
// 7.12): any peer at a public table; at a private one (this peer created
// it with an admission secret, or joined it by invite code: its table
// record says), the spectators that prove they hold the secret.
func (c *Client) admitSpectators(tt *p2p.TableTransport, a lobby.Announcement) {
	rec, ok := c.Lobby().TableState(a.Table)
	var secret invite.Secret
	switch {
	case ok && !rec.Secret.IsZero():
		secret = rec.Secret
	case ok && rec.Code != "":
		code, err := invite.Parse(rec.Code)
		if err != nil {
			c.log.Warn("the table's record holds an unusable invite code: no spectator admitted", "table", a.Table)
			return
		}
		secret = code.Secret
	default:
		tt.AdmitSpectators(p2p.AnySpectator)
		return
	}
	creator, err := peer.Decode(a.Creator)
	if err != nil {
		return
	}
	tt.AdmitSpectatorsBySecret(creator, secret)
}

// Errors of Play's admission of a started table (see admit).
var (
	// ErrNotMyNonce: the started table's config does not carry, for this
	// peer's seat, the nonce this peer chose for that table.
	ErrNotMyNonce = errors.New("lan: the started table does not carry this peer's nonce for its seat")
	// ErrPlayedBefore: this peer has already signed under that table
	// config (a replay of an earlier match, or a match whose state is lost).
	ErrPlayedBefore = errors.New("lan: this table config was played before")
	// ErrMatchOver: the match's directory says it is over.
	ErrMatchOver = errors.New("lan: this match is over")
)

// admit decides whether this peer may sign under cfg, the config of the
// started announcement a, and records that it does, before the match
// starts (protocol.md 5.1 and 7.8):
//
//   - a resume: dir holds this very config's announcement and the match is
//     not over. It needs no nonce (the peer checked it when it started).
//   - a new match: dir holds no announcement, this peer's seat carries the
//     nonce its lobby chose for the table (ErrNotMyNonce otherwise), and the
//     config hash is not in the record of played configs (ErrPlayedBefore
//     otherwise). The announcement is saved in dir, then the hash recorded.
//
// Anything else (a finished match, or another match, under that table id)
// is refused: a new table is never taken for a resume of an old one.
func (c *Client) admit(dir string, a lobby.Announcement, cfg table.Config, seat int) error {
	c.playMu.Lock()
	defer c.playMu.Unlock()
	h := cfg.Hash()
	path := filepath.Join(dir, announcementFile)
	_, doneErr := os.Stat(filepath.Join(dir, doneFile))
	over := doneErr == nil
	old, err := readAnnouncement(path)
	switch {
	case err == nil:
		oc, err := TableConfig(old)
		switch {
		case err == nil && oc.Hash() == h && over:
			return fmt.Errorf("%w: table %s was played to the end (%s); a match is never played twice", ErrMatchOver, a.Table, dir)
		case err == nil && oc.Hash() == h:
			return c.recordPlayed(h) // a resume; the hash is recorded already unless a crash came between
		case over:
			return fmt.Errorf("%w: %s holds another match for table %s, finished; a new table must have a new id", ErrMatchOver, dir, a.Table)
		default:
			return fmt.Errorf("lan: %s holds another match for table %s, unfinished: resume it, or remove it to play this one", dir, a.Table)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("lan: %s: %w", path, err)
	}
	mine, ok := c.Lobby().Nonce(a.Table)
	theirs, err := a.Members[seat].ParsedNonce()
	switch {
	case !ok:
		return fmt.Errorf("%w: this peer chose no nonce for table %s (it did not create or join it since it started)", ErrNotMyNonce, a.Table)
	case err != nil || theirs != mine:
		return fmt.Errorf("%w: seat %d of table %s has nonce %s, this peer chose %s", ErrNotMyNonce, seat, a.Table, a.Members[seat].Nonce, mine)
	}
	played, err := c.playedBefore(h)
	if err != nil {
		return err
	}
	if played {
		return fmt.Errorf("%w: table %s, config %x", ErrPlayedBefore, a.Table, h[:8])
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := a.Encode()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteNew(path, b); err != nil {
		return fmt.Errorf("lan: save the started table: %w", err)
	}
	if err := c.recordPlayed(h); err != nil {
		return err
	}
	if err := c.Lobby().ForgetNonce(a.Table); err != nil {
		c.log.Warn("the table's record was not updated", "table", a.Table, "err", err)
	}
	return nil
}

// readPlayed reads the record of played config hashes. A record that does
// not parse is an error (never silently replaced: it guards against replays).
func (c *Client) readPlayed() ([][32]byte, error) {
	path := filepath.Join(c.data, playedFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lan: record of played matches: %w", err)
	}
	const line = 2*32 + 1 // 64 hex digits and a newline
	if len(b)%line != 0 {
		return nil, fmt.Errorf("lan: record of played matches %s is damaged (%d bytes): repair or remove it (without it this peer may sign an old match again)", path, len(b))
	}
	var out [][32]byte
	for i := 0; i < len(b); i += line {
		var h [32]byte
		if _, err := hex.Decode(h[:], b[i:i+line-1]); err != nil || b[i+line-1] != '\n' {
			return nil, fmt.Errorf("lan: record of played matches %s is damaged at line %d: repair or remove it (without it this peer may sign an old match again)", path, i/line+1)
		}
		out = append(out, h)
	}
	return out, nil
}

func (c *Client) playedBefore(h [32]byte) (bool, error) {
	played, err := c.readPlayed()
	return slices.Contains(played, h), err
}

// recordPlayed adds h to the record of played configs (if not there yet).
func (c *Client) recordPlayed(h [32]byte) error {
	played, err := c.readPlayed()
	if err != nil || slices.Contains(played, h) {
		return err
	}
	var b []byte
	for _, p := range append(played, h) {
		b = append(hex.AppendEncode(b, p[:]), '\n')
	}
	if err := atomicfile.Write(filepath.Join(c.data, playedFile), b); err != nil {
		return fmt.Errorf("lan: record of played matches: %w", err)
	}
	return nil
}

func inChain(chain [][]byte, e []byte) bool {
	for _, c := range chain {
		if bytes.Equal(c, e) {
			return true
		}
	}
	return false
}

// lateTransport lets the peer replay its stored steps (which needs no
// network) before the table's topic is joined; Run uses the topic. It also
// notes the highest step each member asked for: a member that asks for the
// step after the last one has finished (see linger).
type lateTransport struct {
	*p2p.TableTransport
	mu     sync.Mutex
	asked  map[table.PeerID]uint32    // highest requested step + 1
	served map[table.PeerID]uint32    // the step after the last one served to it
	seen   map[table.PeerID]time.Time // when it last asked
}

// Serve wraps the peer's handler to note what members and spectators ask
// for and what they were given.
func (t *lateTransport) Serve(h func(from table.PeerID, req []byte) [][]byte) {
	t.TableTransport.Serve(func(from table.PeerID, req []byte) [][]byte {
		frames := h(from, req)
		if step, ok := parseFetch(req); ok {
			t.mu.Lock()
			if t.asked == nil {
				t.asked, t.served, t.seen = map[table.PeerID]uint32{}, map[table.PeerID]uint32{}, map[table.PeerID]time.Time{}
			}
			t.asked[from] = max(t.asked[from], step+1)
			t.served[from] = max(t.served[from], step+uint32(len(frames)))
			t.seen[from] = time.Now()
			t.mu.Unlock()
		}
		return frames
	})
}

// spectatorBehind reports whether a peer that is not one of members asked
// within the last recent and was not yet given step last: a spectator
// catching up, which a member leaving now would strand (its other sources
// may have left already).
func (t *lateTransport) spectatorBehind(members []table.Seat, last uint32, recent time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for p, at := range t.seen {
		if slices.ContainsFunc(members, func(s table.Seat) bool { return s.ID == p }) {
			continue
		}
		if time.Since(at) <= recent && t.served[p] <= last {
			return true
		}
	}
	return false
}

// askedBeyond reports whether member asked for step n or later.
func (t *lateTransport) askedBeyond(member table.PeerID, n uint32) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.asked[member] > n
}

func parseFetch(req []byte) (uint32, bool) {
	const prefix = "okey/fetch/v1"
	if len(req) != len(prefix)+4 || string(req[:len(prefix)]) != prefix {
		return 0, false
	}
	return binary.BigEndian.Uint32(req[len(prefix):]), true
}

// fetchRequest is the table protocol's catch-up request (protocol.md 5.7).
func fetchRequest(step uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte("okey/fetch/v1"), step)
}

// linger keeps the table open after this peer finished, serving catch-up
// requests, until every other member has finished too or d has passed.
//
// A finished member tells each other member so with a catch-up request for
// the step after the last one (a notice, answered with nothing), and asks
// each for the last step. A member has finished when its notice came, when
// it answers with the last step, or when it is connected but no longer
// serves the table (it closed it). A member leaves once every other member
// has finished and has its notice (or is gone), so that no member waits
// for one that left.
func (c *Client) linger(ctx context.Context, log *slog.Logger, tt *lateTransport, cfg table.Config, seat int, chain [][]byte, d time.Duration) {
	if len(chain) == 0 {
		return
	}
	last := uint32(len(chain) - 1)
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	n := len(cfg.Seats)
	done, notified, gone := make([]bool, n), make([]bool, n), make([]bool, n)
	refused := make([]int, n)
	fetch := func(id table.PeerID, step uint32) ([][]byte, error) {
		fctx, fcancel := context.WithTimeout(ctx, 2*time.Second)
		defer fcancel()
		return tt.Fetch(fctx, id, fetchRequest(step))
	}
	start := time.Now()
	for {
		all := true
		for i, s := range cfg.Seats {
			if i == seat {
				continue
			}
			pid, _ := peer.Decode(string(s.ID))
			if !done[i] && tt.askedBeyond(s.ID, last+1) {
				done[i] = true
			}
			if !done[i] {
				frames, err := fetch(s.ID, last)
				switch {
				case err == nil && len(frames) > 0 && bytes.Equal(frames[0], chain[last]):
					done[i] = true
				case err != nil && c.node.Connected(pid):
					// Connected but refusing: it closed the table. Three in a
					// row, so that a member restarting (not serving yet) is
					// not mistaken for one that finished.
					if refused[i]++; refused[i] >= 3 {
						done[i], gone[i] = true, true
					}
				default:
					refused[i] = 0
				}
			}
			if !notified[i] {
				if _, err := fetch(s.ID, last+1); err == nil {
					notified[i] = true
				} else if done[i] && (gone[i] || !c.node.Connected(pid)) {
					notified[i] = true // it finished and left: it needs no notice
				}
			}
			all = all && done[i] && notified[i]
		}
		// A spectator that asked in the last 3 s and does not have the last
		// step yet is served until it has (within d): the members may be
		// its only sources.
		if all && !tt.spectatorBehind(cfg.Seats, last, 3*time.Second) {
			log.Debug("every member finished", "waited", time.Since(start).Round(time.Millisecond))
			return
		}
		select {
		case <-ctx.Done():
			var behind []string
			for i, s := range cfg.Seats {
				if i != seat && !(done[i] && notified[i]) {
					behind = append(behind, s.Name)
				}
			}
			log.Info("leaving the table before every member confirmed the end", "behind", behind)
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// watch follows the match for the log and for Play's presence reports.
type watch struct {
	log       *slog.Logger
	node      *p2p.Node
	cfg       table.Config
	seat      int
	user      func(*table.Machine, *engine.View)
	replay    func(*table.Machine, *engine.View) // for the replayed steps instead of user (nil: user)
	replaying bool

	hands    int
	handSeen uint32
	started  bool

	last     atomic.Int64 // unix nanoseconds of the last applied step
	expected atomic.Int64 // seat expected to speak next, -1 when done

	timing      Timing
	dealStart   time.Time // first shuffle of the current hand (zero: none pending)
	dealHand    uint32
	dealDone    bool
	drawStart   time.Time // this seat's pending draw (zero: none)
	stockBefore int
	progress    func(hand int, scores []int) // the lobby's announcement of this table's progress
	progressed  int                          // hands ended when progress was last called (-1: never)
	handStart   time.Time                    // the current hand's first shuffle, or the resume (zero: none)
	handsTimed  int                          // hands ended when handStart was last settled
}

// measure records deal and draw latencies (protocol goroutine).
func (w *watch) measure(m *table.Machine, v *engine.View) {
	now := time.Now()
	w.timing.Applied = append(w.timing.Applied, StepTime{Step: m.Step(), At: now})
	if hs := len(m.Hands()); hs > w.handsTimed {
		if !w.handStart.IsZero() {
			w.timing.Hands = append(w.timing.Hands, now.Sub(w.handStart))
		}
		w.handsTimed, w.handStart = hs, time.Time{}
	}
	if seat, kind := m.Expect(); kind == table.KindShuffle && seat == 0 && (w.dealStart.IsZero() || w.dealHand != m.HandNumber()) {
		w.dealStart, w.dealHand, w.dealDone = now, m.HandNumber(), false
		if w.handStart.IsZero() {
			w.handStart = now
		}
	}
	mt := m.Match()
	if mt == nil || mt.Hand() == nil || mt.Hand().Phase() != engine.PhasePlay {
		w.drawStart = time.Time{}
		return
	}
	h := mt.Hand()
	known := true
	for _, f := range func() []engine.Face { _, f := v.Rack(h); return f }() {
		known = known && f != engine.NoFace
	}
	if !w.dealDone && !w.dealStart.IsZero() && w.dealHand == m.HandNumber() && known {
		w.timing.Deals = append(w.timing.Deals, now.Sub(w.dealStart))
		w.dealDone = true
	}
	seat, drawn := h.Turn()
	switch {
	case seat != w.seat || !drawn:
		w.drawStart = time.Time{}
	case w.drawStart.IsZero() && h.StockLen() < w.stockBefore:
		w.drawStart = now
	}
	if !w.drawStart.IsZero() && known {
		w.timing.Draws = append(w.timing.Draws, now.Sub(w.drawStart))
		w.drawStart = time.Time{}
		w.stockBefore = -1 // until the next turn
	}
	if seat == w.seat && !drawn {
		w.stockBefore = h.StockLen()
	}
}

// resumed ends the replay of stored steps.
func (w *watch) resumed(m *table.Machine) {
	w.replaying = false
	w.handsTimed = len(m.Hands())
	if m.Step() > 0 && !m.Done() {
		w.handStart = time.Now()
	}
	w.note(m)
}

func (w *watch) note(m *table.Machine) {
	w.last.Store(time.Now().UnixNano())
	if m.Done() {
		w.expected.Store(-1)
	} else {
		seat, _ := m.Expect()
		w.expected.Store(int64(seat))
	}
}

// onStep runs on the protocol's goroutine after every step.
func (w *watch) onStep(m *table.Machine, v *engine.View) {
	w.note(m)
	switch {
	case w.replaying && w.replay != nil:
		w.replay(m, v)
	case w.user != nil:
		w.user(m, v)
	}
	if w.replaying {
		return
	}
	w.measure(m, v)
	if hs := m.Hands(); len(hs) != w.progressed && !m.Done() && w.progress != nil {
		w.progressed = len(hs)
		scores := make([]int, len(w.cfg.Seats))
		if len(hs) > 0 {
			scores = hs[len(hs)-1].Scores
		}
		w.progress(len(hs)+1, scores)
	}
	seat, kind := m.Expect()
	w.log.Debug("step", "step", m.Step(), "hand", m.HandNumber(), "next_seat", seat, "next", kind.String())
	if mt := m.Match(); mt != nil && (!w.started || m.HandNumber() != w.handSeen) && mt.Hand() != nil {
		w.started, w.handSeen = true, m.HandNumber()
		w.log.Info("hand started", "hand", m.HandNumber())
	}
	if hs := m.Hands(); len(hs) > w.hands {
		w.hands = len(hs)
		h := hs[len(hs)-1]
		winner := "none (stock ran out)"
		if h.Result.Winner >= 0 {
			winner = w.cfg.Seats[h.Result.Winner].Name
		}
		w.log.Info("hand over", "hand", h.Hand, "winner", winner, "scores", fmt.Sprint(h.Scores))
	}
	if m.Done() && m.Aborted() == nil {
		w.log.Info("match over", "steps", m.Step(), "hands", w.hands)
	}
}

// presence reports members' presence, and logs whom the table waits for
// when it makes no progress; linkChanged hears of every change of a
// member's connections (the peer then catches up soon: what was in flight
// on a closed connection, as when a hole punch replaces a relayed one, is
// lost with it).
func (w *watch) presence(ctx context.Context, tt *p2p.TableTransport, opt PlayOptions, linkChanged func()) {
	name := func(id table.PeerID) string {
		for _, s := range w.cfg.Seats {
			if s.ID == id {
				return s.Name
			}
		}
		return string(id)
	}
	prev := map[table.PeerID]bool{}
	report := func(first bool) {
		ms := tt.Members()
		for _, m := range ms {
			if was, ok := prev[m.ID]; (ok || !first) && was != m.Connected {
				if m.Connected {
					w.log.Info("member back", "name", name(m.ID), "peer", string(m.ID))
				} else {
					w.log.Warn("member gone", "name", name(m.ID), "peer", string(m.ID))
				}
			}
			prev[m.ID] = m.Connected
		}
		if opt.OnPresence != nil {
			opt.OnPresence(ms)
		}
	}
	report(true)
	tick := time.NewTicker(opt.WaitLog / 2)
	defer tick.Stop()
	lastWaitLog := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tt.PresenceChanged():
			report(false)
			linkChanged()
		case <-tick.C:
			idle := time.Since(time.Unix(0, w.last.Load()))
			seat := int(w.expected.Load())
			if idle < opt.WaitLog || seat < 0 || seat == w.seat || time.Since(lastWaitLog) < opt.WaitLog {
				continue
			}
			lastWaitLog = time.Now()
			s := w.cfg.Seats[seat]
			if pid, err := peer.Decode(string(s.ID)); err == nil {
				// A member that died can look connected for a while: ask.
				w.node.CheckAlive(ctx, pid, 3*time.Second)
			}
			connected := false
			for _, m := range tt.Members() {
				if m.ID == s.ID {
					connected = m.Connected
				}
			}
			w.log.Info("waiting", "for", s.Name, "seat", seat, "connected", connected, "idle", idle.Round(time.Second))
		}
	}
}

// learnMembers asks the creator of a LAN table (joined without a code),
// when this peer is connected to it, for the other members' addresses
// (lobby.Lobby.LearnMemberAddrs), as a code joiner does: a member that no
// discovery announces (a bot of the creator's lobby, a peer given by
// --peer) is then dialled directly instead of being waited for until the
// ready timeout. Best effort, bounded by learnMembersTimeout.
func (c *Client) learnMembers(ctx context.Context, a lobby.Announcement) {
	creator, err := peer.Decode(a.Creator)
	if err != nil || creator == c.node.ID() || !c.node.Connected(creator) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, learnMembersTimeout)
	defer cancel()
	n, err := c.Lobby().LearnMemberAddrs(ctx, a.Table)
	if err != nil {
		c.log.Info("members' addresses not learnt", "table", a.Table, "err", err)
		return
	}
	c.log.Info("members' addresses learnt", "table", a.Table, "members", n)
}

// learnMembersTimeout bounds learnMembers' request to a connected creator.
const learnMembersTimeout = 3 * time.Second

// reachByCode helps the members of a table this peer joined by invite code
// find each other without discovery: it reaches the creator from the code
// kept in the table's record (after a restart too) and asks it for the
// other members' addresses (lobby.Lobby.LearnMemberAddrs). Best effort: a
// member it cannot dial is reached by gossip through the others.
func (c *Client) reachByCode(ctx context.Context, a lobby.Announcement) {
	rec, ok := c.Lobby().TableState(a.Table)
	if !ok || rec.Code == "" {
		c.learnMembers(ctx, a)
		return
	}
	code, err := invite.Parse(rec.Code)
	if err != nil || code.Creator.String() != a.Creator {
		c.log.Warn("the table's record holds an unusable invite code", "table", a.Table)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	how, err := c.node.DialCode(ctx, code)
	if err != nil {
		c.log.Info("creator not reached yet", "table", a.Table, "err", err)
		return
	}
	n, err := c.Lobby().LearnMemberAddrs(ctx, a.Table)
	if err != nil {
		c.log.Info("members' addresses not learnt; gossip goes through the creator", "table", a.Table, "err", err)
		return
	}
	c.log.Info("members' addresses learnt", "table", a.Table, "members", n, "creator_reached", how)
}

// saveTranscript writes the transcript of a match (its chain, and the
// evidence of a violation that is not in the chain) to out (dir when out
// is empty) as TABLE.okey, and returns it with its path.
func saveTranscript(cfg table.Config, chain [][]byte, res table.Result, out, dir, id string) (*table.Transcript, string, error) {
	tr := &table.Transcript{Config: cfg, Chain: chain}
	if v := res.Violation; v != nil {
		for _, e := range v.Evidence {
			if !inChain(tr.Chain, e) {
				tr.Evidence = append(tr.Evidence, e)
			}
		}
	}
	if out == "" {
		out = dir
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, "", err
	}
	path := filepath.Join(out, id+".okey")
	var buf bytes.Buffer
	if err := table.WriteTranscript(&buf, tr); err != nil {
		return nil, "", err
	}
	if err := atomicfile.Write(path, buf.Bytes()); err != nil {
		return nil, "", fmt.Errorf("lan: save transcript: %w", err)
	}
	return tr, path, nil
}
