package netplay

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/p2p/relay"
	"github.com/okey-game/okey/table"
)

// LobbyOptions configures a player's LobbyService.
type LobbyOptions struct {
	// Strategy is what the house bots play when the table's creator names
	// no level; Mover and Level are the house bots' (HouseBotOptions).
	Strategy string
	Mover    func(strategy string, seed uint64, is101 bool) (table.Mover, error)
	Level    func(strategy string) string
	// Listen and Reach are the player's node's (the bots listen alike);
	// Relays the relays it uses at the start (AddRelay adds).
	Listen []string
	Reach  bool
	Relays []string
	Log    *slog.Logger
	// Explain turns a network error into one sentence for the player (the
	// front end's; nil: the error's own text).
	Explain func(error) string
	// Open opens a house bot's client (nil: Open; tests use a mocknet).
	Open func(ctx context.Context, o Options) (*Client, error)
}

// LobbyService is a player's lobby as every front end shows it (the
// terminal's lobby screen and the web page's): the tables on the LAN and
// the unfinished matches, create (public or by invite code), join, ready,
// leave and close, the relay line, and the house bots that fill seats at a
// table the player opens (HouseBots). Its methods that talk to other peers
// may block; call them off a screen's goroutine.
type LobbyService struct {
	c       *Client
	ctx     context.Context
	log     *slog.Logger
	explain func(error) string
	strat   string
	bots    *HouseBots

	mu     sync.Mutex
	relays []string // the relays the player's node and its bots use
	unfin  map[string]lobby.Announcement
	local  map[string]table.LocalMatch
}

// NewLobbyService is the lobby of the player whose client is c; its bots
// play until ctx ends.
func NewLobbyService(ctx context.Context, c *Client, o LobbyOptions) *LobbyService {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Explain == nil {
		o.Explain = func(err error) string { return err.Error() }
	}
	s := &LobbyService{c: c, ctx: ctx, log: o.Log, explain: o.Explain, strat: o.Strategy, relays: slices.Clone(o.Relays)}
	s.bots = NewHouseBots(ctx, c, HouseBotOptions{Strategy: o.Strategy, Mover: o.Mover, Level: o.Level, Listen: o.Listen,
		Reach: o.Reach, Relays: s.BotRelays, Log: o.Log, Open: o.Open})
	return s
}

// Client is the player's client.
func (s *LobbyService) Client() *Client { return s.c }

// Bots are the house bots this lobby starts.
func (s *LobbyService) Bots() *HouseBots { return s.bots }

// Self is the player's name, peer id and reachable addresses.
func (s *LobbyService) Self() (string, string, []string) {
	return s.c.Name(), s.c.ID(), s.c.ReachableAddrs()
}

// Changes signals a change of the lobby's tables.
func (s *LobbyService) Changes() <-chan struct{} { return s.c.Lobby().Changes() }

// Tables lists the tables announced on the LAN (and those reached by code).
func (s *LobbyService) Tables() []table.LobbyTable {
	var out []table.LobbyTable
	for _, a := range s.c.Lobby().Tables() {
		rs := a.Preset
		if r, err := Ruleset(a); err == nil {
			rs = r.String()
		}
		t := table.LobbyTable{ID: a.Table, Ruleset: rs, Seats: a.Seats, State: a.State, Private: a.Private, Spectators: a.Spectators}
		if p := a.Progress; p != nil {
			t.Hand, t.Scores = p.Hand, p.Scores
		}
		for _, m := range a.Members {
			t.Members = append(t.Members, table.LobbyMember{ID: m.ID, Name: m.Name, Ready: m.Ready})
		}
		out = append(out, t)
	}
	return out
}

// Unfinished lists the LAN tables this player left before their end and
// the matches against bots on this computer.
func (s *LobbyService) Unfinished() []table.LobbyTable {
	var out []table.LobbyTable
	anns, err := s.c.Unfinished()
	if err != nil {
		s.log.Warn("unfinished LAN matches", "err", err)
	}
	locals, err := table.UnfinishedLocal(s.c.Data())
	if err != nil {
		s.log.Warn("unfinished matches against bots", "err", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unfin = map[string]lobby.Announcement{}
	s.local = map[string]table.LocalMatch{}
	for _, a := range anns {
		s.unfin[a.Table] = a
		rs := a.Preset
		if r, err := Ruleset(a); err == nil {
			rs = r.String()
		}
		var who []string
		for _, m := range a.Members {
			if m.ID != s.c.ID() {
				who = append(who, m.Name)
			}
		}
		var at time.Time // the match directory's last change: when it was last played
		if fi, err := os.Stat(filepath.Join(s.c.Data(), MatchesDir, a.Table)); err == nil {
			at = fi.ModTime()
		}
		out = append(out, table.LobbyTable{ID: a.Table, Ruleset: rs, Seats: a.Seats, State: "unfinished", Unfinished: true,
			Note: i18n.T("table %s with %s", a.Table, strings.Join(who, ", ")), Started: at})
	}
	for _, m := range locals {
		s.local[m.Dir] = m
		out = append(out, table.LobbyTable{ID: m.Dir, Ruleset: m.Ruleset, Seats: len(m.Names), State: "unfinished", Unfinished: true,
			Local: true, Note: i18n.T("with %s, started %s", strings.Join(m.Names[1:], ", "), i18n.ShortTime(m.Started)), Started: m.Started})
	}
	return out
}

// Drop moves an unfinished match against bots to DATA/dropped
// (table.DropLocal); a LAN match, whose other members may come back to it,
// stays.
func (s *LobbyService) Drop(t table.LobbyTable) error {
	if !t.Local {
		return errors.New(i18n.T("a LAN match cannot be dropped: its players may resume it"))
	}
	m, ok := s.LocalMatch(t.ID)
	if !ok {
		return errors.New(i18n.T("that match is no longer saved"))
	}
	_, err := table.DropLocal(s.c.Data(), m)
	return err
}

// UnfinishedLAN is the announcement of an unfinished LAN match Unfinished
// listed last.
func (s *LobbyService) UnfinishedLAN(id string) (lobby.Announcement, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.unfin[id]
	return a, ok
}

// LocalMatch is the unfinished match against bots in dir Unfinished listed
// last.
func (s *LobbyService) LocalMatch(dir string) (table.LocalMatch, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.local[dir]
	return m, ok
}

// Create opens a table and has bots house bots take seats at it, playing
// at level ("": the lobby's strategy).
func (s *LobbyService) Create(ctx context.Context, ruleset string, players, bots int, level string) (string, error) {
	return s.create(ctx, ruleset, players, bots, level, false)
}

// CreatePrivate opens a table that admits by invite code only (its bots
// on this computer take their seats with the code too).
func (s *LobbyService) CreatePrivate(ctx context.Context, ruleset string, players, bots int, level string) (string, error) {
	id, err := s.create(ctx, ruleset, players, bots, level, true)
	if err != nil {
		return "", s.netErr("creating a private table failed", err)
	}
	// The relays answer first, so that one that refuses the table is
	// known when the lobby says the table is open (RefusingRelays).
	wctx, cancel := context.WithTimeout(ctx, relayAnswerWait)
	s.c.Node().WaitRelayAnswers(wctx, id) // the node logs a refusal
	cancel()
	return id, nil
}

// relayAnswerWait bounds how long creating a private table waits for the
// relays' answers (the lobby's request has 20 s in all).
const relayAnswerWait = 10 * time.Second

// RefusingRelays are the relays (the last 8 characters of each id) that
// refused a table this player created: its code leaves them out.
func (s *LobbyService) RefusingRelays(id string) []string {
	refused := s.c.Node().RelayRefusals(id)
	out := make([]string, 0, len(refused))
	for _, r := range slices.Sorted(maps.Keys(refused)) {
		str := r.String()
		out = append(out, str[max(0, len(str)-8):])
	}
	return out
}

// CheckRelayLine tells whether text, as pasted, is a relay line.
func (s *LobbyService) CheckRelayLine(text string) error {
	if _, _, err := relay.ParseLine(text); err != nil {
		s.log.Info("not a relay line", "err", err)
		return errors.New(i18n.T("this is not the line okey relay prints: copy it again, whole"))
	}
	return nil
}

// AddRelay uses the relay of a relay line from now on, as --relay LINE:
// the player's open private tables register there, the bots the lobby
// starts use it, and it is kept in the relay setting for the next start.
func (s *LobbyService) AddRelay(_ context.Context, text string) error {
	line := strings.TrimSpace(text)
	ai, key, err := relay.ParseLine(line)
	if err != nil {
		return err
	}
	if err := s.c.Lobby().AddRelay(ai, key); err != nil {
		return s.netErr("using the relay failed", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.relays, line) {
		s.relays = append(s.relays, line)
	}
	saved, err := ResolveRelays(s.c.Data(), nil)
	if err == nil && !slices.Contains(saved, line) {
		_, err = ResolveRelays(s.c.Data(), append(saved, line))
	}
	if err != nil {
		s.log.Warn("the relay is used, but not kept for the next start", "err", err)
	}
	return nil
}

// BotRelays are the relays the lobby's bots use.
func (s *LobbyService) BotRelays() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.relays)
}

// CheckCode tells whether text, as pasted (wrapped, quoted), is a whole
// invite code.
func (s *LobbyService) CheckCode(text string) error {
	if _, err := invite.ParsePasted(text); err != nil {
		return errors.New(s.explain(err))
	}
	return nil
}

// JoinCode takes a seat at the table of an invite code (as pasted); it
// returns the table's id.
func (s *LobbyService) JoinCode(ctx context.Context, text string) (string, error) {
	code, err := invite.ParsePasted(text)
	if err != nil {
		return "", errors.New(s.explain(err))
	}
	a, err := s.c.Lobby().JoinByCode(ctx, code)
	if err != nil && !errors.Is(err, lobby.ErrAlreadySeated) {
		return "", s.netErr("join by code failed", err)
	}
	return a.Table, nil
}

// Revoke gives an open private table of this player a new invite code.
func (s *LobbyService) Revoke(id string) error {
	if err := s.c.Lobby().Revoke(id); err != nil {
		return s.netErr("revoking the invite code failed", err)
	}
	return nil
}

// Invite is the invite code of an open private table this player created
// ("" otherwise).
func (s *LobbyService) Invite(id string) string {
	a, ok := s.c.Lobby().Table(id)
	if !ok || a.State != lobby.StateOpen || !s.c.Lobby().Private(id) {
		return ""
	}
	text, err := s.c.Invite(id)
	if err != nil {
		return ""
	}
	return text
}

func (s *LobbyService) create(_ context.Context, ruleset string, players, bots int, level string, private bool) (string, error) {
	preset, opts, err := SplitRuleset(ruleset)
	if err != nil {
		return "", err
	}
	strategy := s.strat
	if level != "" {
		if strategy, err = bot.StrategyFor(level); err != nil {
			return "", err
		}
	}
	create := s.c.Lobby().CreateWithID
	if private {
		create = s.c.Lobby().CreatePrivate
	}
	a, err := create(lobby.RandomTableID(""), preset, opts, players)
	if err != nil {
		return "", err
	}
	s.bots.Fill(a.Table, strategy, bots)
	return a.Table, nil
}

// Join takes a seat at an open table of the LAN.
func (s *LobbyService) Join(ctx context.Context, id string) error {
	if _, err := s.c.Lobby().Join(ctx, id); err != nil {
		return s.netErr("join failed", err) // a private table says so in the player's language
	}
	return nil
}

// netErr is err for the lobby's message line: one sentence (Explain), its
// details in the log.
func (s *LobbyService) netErr(what string, err error) error {
	s.log.Warn(what, "err", err)
	return errors.New(s.explain(err))
}

// Leave gives up the player's seat at an open table.
func (s *LobbyService) Leave(ctx context.Context, id string) error { return s.c.Lobby().Leave(ctx, id) }

// CloseTable closes a table the player created: it is announced closed,
// so that those seated leave it (the bots of this computer seated there
// stop waiting).
func (s *LobbyService) CloseTable(_ context.Context, id string) error {
	return s.c.Lobby().CloseTable(id)
}

// Closed reports whether the table id was closed by its creator.
func (s *LobbyService) Closed(id string) bool { return s.c.Lobby().Closed(id) }

// SetReady says the player is ready (or no longer) at a table.
func (s *LobbyService) SetReady(ctx context.Context, id string, ready bool) error {
	_, err := s.c.Lobby().SetReady(ctx, id, ready)
	return err
}

// WatchLinks calls set with the player's link to each other member of a
// (direct, relayed, through a member, none, and the round-trip time) at
// once and every 2 seconds until ctx ends.
func (s *LobbyService) WatchLinks(ctx context.Context, a lobby.Announcement, set func([]table.SeatLink)) {
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		set(s.links(a))
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Links is the player's link to each other member of the table id as the
// lobby knows it (none: no such table, or no one else seated).
func (s *LobbyService) Links(id string) []table.SeatLink {
	a, ok := s.c.Lobby().Table(id)
	if !ok {
		return nil
	}
	return s.links(a)
}

func (s *LobbyService) links(a lobby.Announcement) []table.SeatLink {
	var ids []peer.ID
	names := map[peer.ID]string{}
	for _, m := range a.Members {
		if id, err := peer.Decode(m.ID); err == nil && m.ID != s.c.ID() {
			ids = append(ids, id)
			names[id] = m.Name
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var links []table.SeatLink
	for _, l := range s.c.Node().Links(ids) {
		links = append(links, table.SeatLink{Name: names[l.Peer], Kind: l.Kind.String(), RTT: l.RTT})
	}
	return links
}
