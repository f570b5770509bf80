package netplay

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// WatchOptions tunes Watch. Zero values get the documented defaults.
type WatchOptions struct {
	// OnStep is called after every applied step, from the spectator's
	// goroutine (also for the steps replayed when a watch resumes).
	OnStep func(m *table.Machine)
	// Out is the directory for the transcript (default: the match's
	// directory under Data). The file is <table id>.okey, as a seat's.
	Out string
	// Stall: how long without progress before the spectator asks the
	// members again (default 2 s; it also asks at once when it starts).
	Stall time.Duration
	// Withhold: how long without progress before it stops, saying which
	// seat the table waits for (default 10 min).
	Withhold time.Duration
	// ReadyTimeout bounds the wait for a member to be connected (default
	// 10 s); the spectator then follows anyway.
	ReadyTimeout time.Duration
	// Code is the invite code of a private table: the spectator proves
	// to each member that it holds its secret (protocol.md 7.12) before
	// it asks for the chain. Nil: a public table.
	Code *invite.Code
	// OnChat is called with each chat message read from the members
	// (protocol.md 7.13): a spectator reads the chat, it never posts.
	OnChat func(ChatLine)
}

// spectatorFile marks a match directory that a spectator keeps (no seat,
// no secret): Unfinished does not offer it for a resume of play.
const spectatorFile = "spectator"

// ErrSeated is returned by Watch for a table this peer sits at.
var ErrSeated = errors.New("lan: this peer sits at the table: it plays it, it does not watch it")

// Watch follows a started table as a spectator (protocol.md 5.9, 7.12):
// no seat, no key, no secret; the same envelopes and machine as the seats,
// catch-up from the members that admit spectators (every member of a
// public table), and the same transcript, saved in the same folder layout
// as a seat's (Data/matches/<table id>/: announcement.json, transcript,
// done, and <table id>.okey), plus a marker file "spectator". A watch that
// stops (ctx ended, a crash) resumes with the same Data. The Outcome's Seat
// is table.NoSeat.
func (c *Client) Watch(ctx context.Context, a lobby.Announcement, opt WatchOptions) (*Outcome, error) {
	if a.State != lobby.StateStarted {
		return nil, fmt.Errorf("%w: table %s is %s, not started", ErrAnnouncement, a.Table, a.State)
	}
	cfg, err := TableConfig(a)
	if err != nil {
		return nil, err
	}
	for _, s := range cfg.Seats {
		if string(s.ID) == c.ID() {
			return nil, fmt.Errorf("%w (table %s)", ErrSeated, a.Table)
		}
	}
	dir := c.matchDir(a.Table)
	if err := c.admitWatch(dir, a, cfg); err != nil {
		return nil, err
	}
	store, err := table.OpenDirStore(dir, cfg)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	log := c.log.With("table", a.Table, "spectator", true)
	link := &lateTransport{}
	var via table.Transport = link
	if opt.Code != nil {
		// A private table: prove the code's secret to each member first.
		creator, err := peer.Decode(a.Creator)
		if err != nil {
			return nil, fmt.Errorf("%w: creator %q", ErrAnnouncement, a.Creator)
		}
		self, err := peer.Decode(c.ID())
		if err != nil {
			return nil, err
		}
		pr := opt.Code.Secret.SpectatorProof(a.Table, []byte(creator), []byte(self))
		via = &provingTransport{lateTransport: link, proof: p2p.SpectatorRequest(pr), shown: map[table.PeerID]bool{}}
	}
	s, err := table.NewSpectator(table.SpectatorConfig{Table: cfg, Transport: via, Store: store,
		Log: log.With("component", "table"), Stall: opt.Stall, Withhold: opt.Withhold, OnStep: opt.OnStep,
		PollFrom: int(sha256.Sum256([]byte(c.ID()))[0])}) // spectators spread over the seats
	if err != nil {
		return nil, err
	}
	resumed := s.Machine().Step()
	start := time.Now()
	if s.Machine().Done() {
		// Resumed after the match's end (the spectator stopped before it
		// marked its folder done): its store holds the whole chain and no
		// member has anything to send it, so it joins no table (it used
		// to wait ReadyTimeout, 10 s, for a member that had left).
		return c.watchEnd(ctx, log, s, cfg, opt, dir, a, resumed, start, func() {})
	}
	rt := opt.ReadyTimeout
	if rt == 0 {
		rt = 10 * time.Second
	}
	if opt.Code != nil {
		// Beyond the LAN: reach the creator from the code (best effort).
		dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		if _, err := c.node.DialCode(dctx, *opt.Code); err != nil {
			log.Info("creator not reached yet", "err", err)
		}
		cancel()
	}
	tt, err := c.node.WatchTable(ctx, a.Table, a.Roster(), Validator(cfg), p2p.WithReadyTimeout(rt))
	if err != nil {
		return nil, err
	}
	defer tt.Close()
	link.TableTransport = tt
	stopChat := followChat(ctx, log, tt, a, dir, opt.OnChat)
	defer stopChat()
	log.Info("watching", "players", len(cfg.Seats), "ruleset", cfg.Ruleset, "resumed", resumed)
	return c.watchEnd(ctx, log, s, cfg, opt, dir, a, resumed, start, stopChat)
}

// watchEnd runs the spectator s to the match's end (at once when its store
// holds the whole match) and saves its transcript, after stopChat.
func (c *Client) watchEnd(ctx context.Context, log *slog.Logger, s *table.Spectator, cfg table.Config, opt WatchOptions, dir string, a lobby.Announcement, resumed uint32, start time.Time, stopChat func()) (*Outcome, error) {
	res, err := s.Run(ctx)
	elapsed := time.Since(start)
	if err != nil {
		return nil, fmt.Errorf("lan: table %s: %w", a.Table, err)
	}
	tr, path, err := saveTranscript(cfg, s.Chain(), res, opt.Out, dir, a.Table)
	if err != nil {
		return nil, err
	}
	stopChat()
	saveChat(log, dir, path)
	rep := table.Verify(tr)
	if res.Ended() == nil || res.Violation != nil {
		// Over: finished, or ended on proof. A stall may still go on
		// (the seats may come back): the folder stays resumable.
		if err := atomicfile.Write(filepath.Join(dir, doneFile), []byte(path+"\n")); err != nil {
			return nil, err
		}
	}
	log.Info("transcript saved", "path", path, "honest", rep.Honest, "steps", rep.Steps)
	return &Outcome{Result: res, Transcript: path, Report: *rep, Config: cfg, Seat: table.NoSeat, Resumed: resumed, Elapsed: elapsed}, nil
}

// admitWatch decides whether this peer may watch the match of a in dir: a
// resume when dir holds this very config's announcement, marked as a
// spectator's, and the match is not over; a new watch when dir holds
// nothing (the announcement and the marker are saved). Anything else (a
// seat's folder, another match, a finished one) is refused.
func (c *Client) admitWatch(dir string, a lobby.Announcement, cfg table.Config) error {
	c.playMu.Lock()
	defer c.playMu.Unlock()
	path := filepath.Join(dir, announcementFile)
	old, err := readAnnouncement(path)
	switch {
	case err == nil:
		oc, err := TableConfig(old)
		_, specErr := os.Stat(filepath.Join(dir, spectatorFile))
		_, doneErr := os.Stat(filepath.Join(dir, doneFile))
		switch {
		case err != nil || oc.Hash() != cfg.Hash():
			return fmt.Errorf("lan: %s holds another match for table %s", dir, a.Table)
		case specErr != nil:
			return fmt.Errorf("lan: %s is a seat's folder for table %s, not a spectator's", dir, a.Table)
		case doneErr == nil:
			return fmt.Errorf("%w: table %s was watched to the end (%s)", ErrMatchOver, a.Table, dir)
		}
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("lan: %s: %w", path, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, spectatorFile), nil); err != nil {
		return err
	}
	b, err := a.Encode()
	if err != nil {
		return err
	}
	return atomicfile.WriteNew(path, b)
}

// Watching returns the started announcement of table id when this peer
// watches it and the watch is unfinished (its folder is a spectator's and
// not done): Watch resumes it without the lobby.
func (c *Client) Watching(id string) (lobby.Announcement, bool) {
	dir := c.matchDir(id)
	if _, err := os.Stat(filepath.Join(dir, spectatorFile)); err != nil {
		return lobby.Announcement{}, false
	}
	if _, err := os.Stat(filepath.Join(dir, doneFile)); err == nil {
		return lobby.Announcement{}, false
	}
	a, err := readAnnouncement(filepath.Join(dir, announcementFile))
	if err != nil || a.Table != id {
		return lobby.Announcement{}, false
	}
	return a, true
}

// Watches lists the tables this peer watches and has not seen end (a
// spectator's folder not marked done), by table id: Watch resumes each
// without the lobby (Watching).
func (c *Client) Watches() ([]lobby.Announcement, error) {
	ids, err := c.matchIDs()
	if err != nil {
		return nil, err
	}
	var out []lobby.Announcement
	for _, id := range ids {
		if a, ok := c.Watching(id); ok {
			out = append(out, a)
		}
	}
	return out, nil
}

// HeldWatch is a watch this peer kept to the table's end: its started
// announcement, the transcript it saved and where.
type HeldWatch struct {
	Announcement lobby.Announcement
	Config       table.Config
	Transcript   *table.Transcript
	// Path is the transcript file saved when the watch ended, or, when
	// that file is gone or unreadable, the folder's own record of the
	// chain (table.DirStore), which the transcript is then read from.
	Path string
}

// Watched returns the watch of table id that this peer kept to the end
// (its folder is a spectator's and marked done), nil when there is none:
// a table that ended, and may have left the lobby, can still be judged
// by the transcript its spectator holds.
func (c *Client) Watched(id string) (*HeldWatch, error) {
	if p2p.ValidTableID(id) != nil {
		return nil, nil
	}
	dir := c.matchDir(id)
	if _, err := os.Stat(filepath.Join(dir, spectatorFile)); err != nil {
		return nil, nil
	}
	done, err := os.ReadFile(filepath.Join(dir, doneFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	a, err := readAnnouncement(filepath.Join(dir, announcementFile))
	if err != nil {
		return nil, fmt.Errorf("lan: %s: %w", dir, err)
	}
	if a.Table != id {
		return nil, fmt.Errorf("lan: %s holds the announcement of table %s", dir, a.Table)
	}
	cfg, err := TableConfig(a)
	if err != nil {
		return nil, err
	}
	h := &HeldWatch{Announcement: a, Config: cfg, Path: strings.TrimSuffix(string(done), "\n")}
	if f, err := os.Open(h.Path); err == nil {
		h.Transcript, err = table.ReadTranscript(f)
		f.Close()
		if err == nil {
			return h, nil
		}
		c.log.Warn("the saved transcript is unreadable: reading the folder's record", "path", h.Path, "err", err)
	}
	store, err := table.OpenDirStore(dir, cfg)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	if h.Transcript, err = store.Load(); err != nil {
		return nil, err
	}
	h.Path = store.TranscriptPath()
	return h, nil
}

// provingTransport is a spectator's transport at a private table: before
// it first asks a member for anything, and again after a member refused
// it (a member that restarted forgets who proved), it presents its
// spectator proof.
type provingTransport struct {
	*lateTransport
	proof []byte
	mu    sync.Mutex
	shown map[table.PeerID]bool
}

// Fetch implements table.Transport.
func (t *provingTransport) Fetch(ctx context.Context, p table.PeerID, req []byte) ([][]byte, error) {
	t.mu.Lock()
	shown := t.shown[p]
	t.mu.Unlock()
	if !shown {
		if _, err := t.lateTransport.Fetch(ctx, p, t.proof); err != nil {
			return nil, err
		}
		t.mu.Lock()
		t.shown[p] = true
		t.mu.Unlock()
	}
	frames, err := t.lateTransport.Fetch(ctx, p, req)
	if err != nil {
		t.mu.Lock()
		delete(t.shown, p)
		t.mu.Unlock()
	}
	return frames, err
}
