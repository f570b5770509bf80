package netplay

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// BotsDir is the folder under a player's data directory that holds the
// house bots' data directories, one per bot name (bot1, bot2, ...).
const BotsDir = "bots"

// HouseBotOptions configures a player's house bots.
type HouseBotOptions struct {
	// Strategy is the bots' strategy when a table is filled with none
	// named, and when a resumed bot's saved one is gone.
	Strategy string
	// Mover gives the mover of a strategy for a seat at a table of Okey
	// 101 (is101) or of another ruleset (the strategies are the front
	// end's to name). An error refuses the strategy.
	Mover func(strategy string, seed uint64, is101 bool) (table.Mover, error)
	// Level names a strategy's level for the table's members to read
	// ("bot1 (hard)"; "": none; nil: no level shown).
	Level func(strategy string) string
	// Listen, Reach and Relays are the player's node's: each bot listens
	// on the same interfaces (on ports of its own, BotListen) with the
	// same reach and relays (those of the moment a bot starts; nil: none),
	// so that a member on another computer reaches it as it reaches the
	// player.
	Listen []string
	Reach  bool
	Relays func() []string
	Log    *slog.Logger
	// Open opens a bot's client (nil: Open). Tests put a bot on a mocknet.
	Open func(ctx context.Context, o Options) (*Client, error)
}

// HouseBots are the bots that fill seats at a table a player opens: each a
// peer of its own on the player's computer, with its own identity under
// DATA/bots/NAME, that finds the table through the player's node. They
// run until ctx ends or their match does.
type HouseBots struct {
	c    *Client
	ctx  context.Context
	o    HouseBotOptions
	wg   sync.WaitGroup
	mu   sync.Mutex
	busy map[string]bool // bot names in use
}

// NewHouseBots returns the house bots of the player whose client is c.
func NewHouseBots(ctx context.Context, c *Client, o HouseBotOptions) *HouseBots {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Open == nil {
		o.Open = Open
	}
	if o.Level == nil {
		o.Level = func(string) string { return "" }
	}
	if o.Relays == nil {
		o.Relays = func() []string { return nil }
	}
	return &HouseBots{c: c, ctx: ctx, o: o, busy: map[string]bool{}}
}

// Fill seats n bots of strategy ("": the default) at the player's table
// id, each in the background; a private table's bots come by its code.
func (h *HouseBots) Fill(id, strategy string, n int) {
	if strategy == "" {
		strategy = h.o.Strategy
	}
	for range n {
		name, _ := h.claim("")
		h.start(name, id, strategy, false)
	}
}

// Resume restarts the bots of this computer that sat at table id, each at
// the level it was seated with.
func (h *HouseBots) Resume(id string) {
	ents, err := os.ReadDir(filepath.Join(h.c.Data(), BotsDir))
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(h.c.Data(), BotsDir, e.Name(), MatchesDir, id)); err != nil {
			continue
		}
		name, ok := h.claim(e.Name())
		if !ok {
			continue
		}
		strategy := h.savedStrategy(filepath.Join(h.c.Data(), BotsDir, name), id)
		h.start(name, id, strategy, true)
	}
}

func (h *HouseBots) start(name, id, strategy string, resume bool) {
	h.wg.Go(func() {
		defer h.release(name)
		if err := h.run(name, id, strategy, resume); err != nil && h.ctx.Err() == nil {
			h.o.Log.Warn("bot", "name", name, "err", err)
		}
	})
}

// Wait waits for the bots to end (after ctx ended), at most max.
func (h *HouseBots) Wait(max time.Duration) {
	done := make(chan struct{})
	go func() { h.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(max):
	}
}

// claim returns a free bot name (its data directory under DATA/bots):
// want if given and free, else the first free botK.
func (h *HouseBots) claim(want string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if want != "" {
		if h.busy[want] {
			return "", false
		}
		h.busy[want] = true
		return want, true
	}
	for k := 1; ; k++ {
		if nm := fmt.Sprintf("bot%d", k); !h.busy[nm] {
			h.busy[nm] = true
			return nm, true
		}
	}
}

func (h *HouseBots) release(name string) {
	h.mu.Lock()
	delete(h.busy, name)
	h.mu.Unlock()
}

// run seats the bot name (its identity in DATA/bots/name) at table id
// and plays its match; with resume, it continues the match it left there.
// The bot finds the table through the player's node (no mDNS of its own)
// but listens where that node listens, on its own random ports, with the
// same reach and relays: the other members, on other computers too, dial
// it as they dial the player (a bot on 127.0.0.1 only kept a table with a
// remote member waiting for it until the ready timeout).
func (h *HouseBots) run(name, id, strategy string, resume bool) error {
	dir := filepath.Join(h.c.Data(), BotsDir, name)
	display := name
	if lvl := h.o.Level(strategy); lvl != "" && !resume && h.c.Lobby() != nil {
		// The table shows its bots' level (issue 37, 9): "bot1 (hard)",
		// except at Okey 101, where every level plays b101.
		if an, ok := h.c.Lobby().Table(id); !ok || an.Preset != engine.Preset101 {
			display = fmt.Sprintf("%s (%s)", name, lvl)
		}
	}
	bc, err := h.o.Open(h.ctx, Options{Data: dir, Name: display, NoMDNS: true, Peers: h.c.Addrs(), Listen: BotListen(h.o.Listen),
		Reach: h.o.Reach, Relays: h.o.Relays(), Log: h.o.Log.With("bot", name)})
	if err != nil {
		return err
	}
	defer bc.Close()
	var a lobby.Announcement
	if resume {
		found := false
		un, err := bc.Unfinished()
		if err != nil {
			return err
		}
		for _, u := range un {
			if u.Table == id {
				a, found = u, true
			}
		}
		if !found {
			return nil
		}
	} else {
		so := SeatOptions{Join: id}
		if h.c.Lobby().Private(id) {
			// A private table of this player: the bot comes by its code.
			text, err := h.c.Invite(id)
			if err != nil {
				return err
			}
			code, err := invite.Parse(text)
			if err != nil {
				return err
			}
			so = SeatOptions{Code: &code}
		}
		if a, err = bc.FindSeat(h.ctx, so); err != nil {
			return err
		}
		// The level chosen when the table was created is the bots' level
		// for the whole match, a resume included.
		if err := saveStrategy(dir, a.Table, strategy); err != nil {
			h.o.Log.Warn("bot: the level could not be saved", "name", name, "err", err)
		}
	}
	mover, err := h.o.Mover(strategy, uint64(time.Now().UnixNano()), a.Preset == engine.Preset101)
	if err != nil {
		return err
	}
	// A person's time per move while the table is watched (issue 37, 7).
	_, err = bc.Play(h.ctx, a, mover, PlayOptions{Pace: Pace{Watched: HumanPace}})
	return err
}

// BotListen is where a house bot listens: the player's listen addresses
// with every TCP and UDP port made 0 (the bot's own random port; the
// player's fixed --listen port is taken), nil (the default: every
// interface) for nil.
func BotListen(listen []string) []string {
	if len(listen) == 0 {
		return nil
	}
	out := make([]string, 0, len(listen))
	for _, a := range listen {
		parts := strings.Split(a, "/")
		for i := 1; i+1 < len(parts); i++ {
			if parts[i] == "tcp" || parts[i] == "udp" {
				parts[i+1] = "0"
				i++
			}
		}
		out = append(out, strings.Join(parts, "/"))
	}
	return out
}

// levelsDir is where a bot of this computer keeps, per table, the strategy
// it was seated with (local, never in the transcript).
const levelsDir = "levels"

// saveStrategy records that the bot whose data directory is dir plays
// table with strategy.
func saveStrategy(dir, table, strategy string) error {
	if err := os.MkdirAll(filepath.Join(dir, levelsDir), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, levelsDir, filepath.Base(table)), []byte(strategy+"\n"))
}

// savedStrategyIn is the strategy the bot whose data directory is dir was
// seated with at table, or fallback when none was saved (a match from
// before levels were kept) or when known refuses the saved name.
func savedStrategyIn(dir, table, fallback string, known func(string) bool) string {
	b, err := os.ReadFile(filepath.Join(dir, levelsDir, filepath.Base(table)))
	if err != nil {
		return fallback
	}
	name := strings.TrimSpace(string(b))
	if !known(name) {
		return fallback
	}
	return name
}

// savedStrategy is savedStrategyIn with the bots' default for fallback and
// a name known when its mover plays a table that is not Okey 101.
func (h *HouseBots) savedStrategy(dir, table string) string {
	return savedStrategyIn(dir, table, h.o.Strategy, func(name string) bool {
		_, err := h.o.Mover(name, 0, false)
		return err == nil
	})
}
