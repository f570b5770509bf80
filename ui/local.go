package ui

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// LocalOptions describes a match of the player against bots in this
// process: every seat a full peer with its own keys, over an in-memory
// network.
type LocalOptions struct {
	Ruleset string        // canonical ruleset text (ignored when resuming)
	Name    string        // the player's name (seat 0; ignored when resuming)
	Bots    []table.Mover // one per other seat
	BotName []string      // their names (ignored when resuming)
	// Strategy names the bots' strategy; it is saved with the match so that
	// a resumed match gets bots of the same kind.
	Strategy string
	// Data is the directory every seat's state is saved in (a directory per
	// match under Data/matches, see LocalMatch), so that a match the player
	// left can be resumed; "" keeps it in memory.
	Data string
	// Resume is the directory of an unfinished match (LocalMatch.Dir) to
	// continue instead of starting a new one. Bots must then hold one mover
	// per bot seat of that match.
	Resume string
	// Pace is how long a bot waits before it moves, so that a person can
	// follow the table (0: no wait).
	Pace time.Duration
	Log  *slog.Logger
	// Identities are the seats' lasting keys for a new match, by seat (the
	// player's, then each bot's), so that the record of many matches adds
	// up; nil gives every seat a key of its own for this match. The match
	// file keeps only their Refs, and a resumed match loads each key again
	// with Identity.
	Identities []LocalIdentity
	// Player moves for the player's seat instead of the person at g (nil:
	// the person); g still shows the table.
	Player table.Mover
	// Identity loads the key kept at ref (a LocalIdentity's Ref), for a
	// match resumed; nil when no match uses lasting keys.
	Identity func(ref string) (ed25519.PrivateKey, error)
}

// LocalIdentity is a seat's lasting key and where it is kept.
type LocalIdentity struct {
	Ref string             // where the key is kept, e.g. a folder under the data directory
	Key ed25519.PrivateKey // never logged, never written to the match file
}

// LocalOutcome is how a local match ended.
type LocalOutcome struct {
	Config     table.Config
	Dir        string // the match's directory ("" in memory)
	Transcript string // the player's transcript ("" in memory)
	Report     *table.Report
	Err        error // the player's peer failed, or the player left
}

type paced struct {
	m table.Mover
	d time.Duration
}

func (p paced) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	time.Sleep(p.d)
	return p.m.Move(h, v)
}

// LocalMatch is an unfinished match against bots saved under a data
// directory (table.UnfinishedLocal).
type LocalMatch = table.LocalMatch

// localMatchLine describes the match in one line.
func localMatchLine(m LocalMatch) string {
	return i18n.T("%s vs %s, started %s", RulesetName(m.Ruleset), strings.Join(m.Names[1:], ", "), ShortTime(m.Started))
}

// UnfinishedLocal lists the matches against bots under data that were left
// before their end, the newest first (table.UnfinishedLocal).
func UnfinishedLocal(data string) ([]LocalMatch, error) { return table.UnfinishedLocal(data) }

// PlayLocal plays a match for g's player (seat 0) against bots, then
// verifies the transcript and shows the result on g. It returns when the
// match ends or g's player leaves; a match the player left stays saved
// under o.Data, and PlayLocal with o.Resume continues it.
func PlayLocal(ctx context.Context, g LocalFront, o LocalOptions) (*LocalOutcome, error) {
	var (
		cfg  table.Config
		keys []ed25519.PrivateKey
		err  error
		dir  = o.Resume
	)
	if dir != "" {
		if _, cfg, keys, err = table.LoadLocal(dir, o.Identity); err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(dir, table.LocalDoneFile)); err == nil {
			return nil, fmt.Errorf("ui: the match in %s is over already", dir)
		}
		if len(o.Bots) != len(cfg.Seats)-1 {
			return nil, fmt.Errorf("ui: the match in %s has %d bots, got %d", dir, len(cfg.Seats)-1, len(o.Bots))
		}
	} else {
		if len(o.BotName) != len(o.Bots) {
			return nil, errors.New("ui: one name per bot")
		}
		if cfg, keys, err = table.LocalConfig(o.Ruleset, len(o.Bots)+1, 0); err != nil {
			return nil, err
		}
		cfg.Seats[0].Name = o.Name
		for i, nm := range o.BotName {
			cfg.Seats[i+1].Name = nm
		}
		var refs []string
		if o.Identities != nil {
			if len(o.Identities) != len(cfg.Seats) {
				return nil, fmt.Errorf("ui: %d identities for %d seats", len(o.Identities), len(cfg.Seats))
			}
			for i, id := range o.Identities {
				if len(id.Key) != ed25519.PrivateKeySize || id.Ref == "" {
					return nil, fmt.Errorf("ui: seat %d: no identity key", i)
				}
				keys[i] = id.Key
				cfg.Seats[i].Key = id.Key.Public().(ed25519.PublicKey)
				cfg.Seats[i].ID = table.LocalPeerID(cfg.Seats[i].Key)
				refs = append(refs, id.Ref)
			}
		}
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		if o.Data != "" {
			dir = filepath.Join(o.Data, "matches", table.LocalPrefix+time.Now().Format("20060102-150405")+"-"+hex.EncodeToString(cfg.ID[:4]))
			if err := table.SaveLocal(dir, cfg, keys, refs, o.Strategy); err != nil {
				return nil, err
			}
		}
	}
	n := len(cfg.Seats)
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	out := &LocalOutcome{Config: cfg, Dir: dir}
	if dir != "" {
		g.SetRackFile(filepath.Join(dir, RackFile))
	}
	stores := make([]table.Store, n)
	for i := range stores {
		if dir == "" {
			stores[i] = table.NewMemStore(cfg)
			continue
		}
		ds, err := table.OpenDirStore(filepath.Join(dir, fmt.Sprintf("seat-%d", i)), cfg)
		if err != nil {
			return nil, err
		}
		defer ds.Close()
		stores[i] = ds
		if i == 0 {
			out.Transcript = ds.TranscriptPath()
		}
	}
	net := table.NewMemNet(table.Faults{}, 0)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-g.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	// The steps a resumed peer replays are not news: the screen starts
	// from the state they lead to.
	var live atomic.Bool
	peers := make([]*table.Peer, n)
	for i := 0; i < n; i++ {
		pc := table.PeerConfig{Table: cfg, Seat: i, Key: keys[i], Transport: net.Join(cfg.Seats[i].ID), Store: stores[i],
			// A person may think for long: nobody is blamed for a slow move.
			Withhold: 7 * 24 * time.Hour, Stall: 500 * time.Millisecond, Log: log.With("seat", i)}
		if i == 0 {
			pc.Mover = g
			if o.Player != nil {
				pc.Mover = o.Player
			}
			pc.OnStep = func(m *table.Machine, v *engine.View) {
				if live.Load() {
					g.OnStep(m, v)
				} else {
					g.OnReplay(m, v)
				}
			}
		} else {
			pc.Mover = o.Bots[i-1]
			if o.Pace > 0 {
				pc.Mover = paced{o.Bots[i-1], o.Pace}
			}
		}
		if peers[i], err = table.NewPeer(pc); err != nil {
			return nil, fmt.Errorf("ui: seat %d: %w", i, err)
		}
	}
	// The player's screen follows from the state resumed (if any) on.
	g.OnStep(peers[0].Machine(), peers[0].View())
	live.Store(true)
	if st := peers[0].Machine().Step(); st > 0 {
		log.Info("resuming a match against bots", "dir", dir, "step", st)
		g.Say(i18n.T("match resumed at hand %d", peers[0].Machine().HandNumber()+1))
	}
	results := make([]table.Result, n)
	errs := make([]error, n)
	var botFailed atomic.Pointer[error]
	var wg sync.WaitGroup
	for i := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = peers[i].Run(ctx)
			switch {
			case i == 0:
				// The player's peer is done: stop the bots too.
				cancel()
			case ctx.Err() == nil && (errs[i] != nil || results[i].Ended() != nil):
				// A bot stopped in mid-match: the player would wait for
				// it for ever. End here; the match stays resumable.
				err := errs[i]
				if err == nil {
					err = results[i].Ended()
				}
				err = fmt.Errorf("%s stopped: %w", cfg.Seats[i].Name, err)
				log.Warn("bot stopped", "seat", i, "err", err)
				botFailed.CompareAndSwap(nil, &err)
				cancel()
			}
		}()
	}
	wg.Wait()
	out.Err = errs[0]
	if e := botFailed.Load(); e != nil && errs[0] != nil {
		out.Err, errs[0] = *e, *e
	}
	if out.Err == nil && results[0].Ended() != nil {
		out.Err = results[0].Ended()
	}
	if left(g) {
		out.Err = ErrQuit
		return out, nil
	}
	end := &MatchEnd{Err: out.Err, Transcript: out.Transcript}
	if m := results[0].Machine; m != nil {
		s := TakeSnapshot(m, nil, -1)
		end.Ranking, end.Scores = tablemodel.Ranking(s)
	}
	if errs[0] == nil && dir != "" {
		// Over (finished or a cheater named): nothing to resume.
		if err := os.WriteFile(filepath.Join(dir, table.LocalDoneFile), []byte(out.Transcript+"\n"), 0o600); err != nil {
			log.Warn("done marker", "err", err)
		}
	}
	g.Say(i18n.T("checking the transcript..."))
	t, err := stores[0].Load()
	switch {
	case err != nil:
		end.Verdict = i18n.T("the transcript could not be read: %s", Explain(err))
	case t == nil:
		end.Verdict = i18n.T("no transcript")
	default:
		rep := table.Verify(t)
		out.Report = rep
		end.Verified = rep.Honest
		end.Unfinished = rep.Status() == table.StatusUnfinished
		end.Verdict = Verdict(rep)
	}
	g.Finish(end)
	return out, nil
}

// LocalFront is the front end that shows a local match to the player and
// asks it for its moves: the terminal's Game, or the web page's (package
// web). Its Move asks the player; Done is closed when the player leaves.
type LocalFront interface {
	table.Mover
	SetRackFile(path string)
	Done() <-chan struct{}
	OnStep(m *table.Machine, v *engine.View)
	OnReplay(m *table.Machine, v *engine.View)
	Say(s string)
	Finish(e *MatchEnd)
}

var _ LocalFront = (*Game)(nil)

// left reports whether the player left the front end.
func left(g LocalFront) bool {
	select {
	case <-g.Done():
		return true
	default:
		return false
	}
}

// Verdict is a one-line summary of a transcript's verification. An
// unfinished transcript (a player left, a seat stopped answering, a file cut
// short) is "unfinished, honest so far" and names no one: silence is never
// proof. Only a seat's own signed messages can make it "CHEATING".
func Verdict(r *table.Report) string {
	seat := func(s int) string {
		if s >= 0 && s < len(r.Seats) && r.Seats[s] != "" {
			return r.Seats[s]
		}
		return i18n.T("seat %d", s)
	}
	switch r.Status() {
	case table.StatusHonest:
		return i18n.T("verified: honest (%s, every proof and audit checked, %s)", i18n.T("%d messages", r.Steps), i18n.T("%d hands", len(r.Hands)))
	case table.StatusCheating:
		return i18n.T("CHEATING: %s broke %s at message %d", seat(r.Violation.Seat), RuleName(r.Violation.Rule), r.Violation.Step)
	case table.StatusInvalid:
		return i18n.T("the transcript does not hold (damaged or altered; no one is named): %s", Explain(r.Invalid))
	}
	done := i18n.T("unfinished, honest so far (%s, %s)", i18n.T("%d messages", r.Steps), i18n.T("%d finished hands", len(r.Hands)))
	switch {
	case r.Failure != nil:
		return i18n.T("%s: the rules could not go on (%s); no one is named", done, Explain(r.Failure.Err))
	case r.Next != nil:
		return i18n.T("%s: %s was to send the next message (a %s); no one is named", done, seat(r.Next.Seat), KindName(r.Next.Kind))
	}
	return i18n.T("%s; no one is named", done)
}

// verdictColour: honest in the good colour, a seat named or a file that does
// not hold in the bad one, unfinished (no one named) in the accent colour.
func verdictColour(p Palette, s table.Status) tcell.Color {
	switch s {
	case table.StatusHonest:
		return p.Good
	case table.StatusUnfinished:
		return p.Accent
	}
	return p.Bad
}

// DroppedDir is the folder under the data directory where a match left
// unfinished is moved when the player drops it (table.LocalDroppedDir).
const DroppedDir = table.LocalDroppedDir

// DropLocal moves the unfinished match m to data/dropped, whole
// (table.DropLocal).
func DropLocal(data string, m LocalMatch) (string, error) { return table.DropLocal(data, m) }

// AskResume asks, at the start of a match against bots, what to do with the
// matches left unfinished under data (the newest first, on keys 1-9):
// resume one, start a new one (n, with newLabel), or drop one (d, then its
// key: DropLocal moves it to data/dropped, and the question comes back
// without it). It calls resume or startNew (off the UI goroutine), or quit
// when the player leaves (q).
func (g *Game) AskResume(data string, unfinished []LocalMatch, newLabel string, resume func(LocalMatch), startNew, quit func()) {
	g.askResume(data, unfinished, newLabel, "", resume, startNew, quit)
}

func (g *Game) askResume(data string, unfinished []LocalMatch, newLabel, note string, resume func(LocalMatch), startNew, quit func()) {
	lines, choices, shown := ResumeQuestion(unfinished, newLabel)
	if len(unfinished) == 0 {
		lines = []string{i18n.T("No match against bots is left unfinished.")}
	}
	if note != "" {
		lines = append(lines, "", note)
	}
	if len(shown) > 0 {
		choices = append(choices, Choice{Key: 'd', Label: i18n.T("drop a match (kept under %s in the data dir)", DroppedDir)})
	}
	g.Choose(i18n.T("unfinished matches"), lines, choices, func(i int) {
		switch {
		case i >= 0 && i < len(shown):
			resume(shown[i])
		case i == len(shown):
			startNew()
		case i == len(shown)+1:
			g.askDrop(data, unfinished, shown, newLabel, resume, startNew, quit)
		default:
			quit()
		}
	})
}

// askDrop asks which match to drop (enter takes none), drops it, and asks
// AskResume's question again.
func (g *Game) askDrop(data string, unfinished, shown []LocalMatch, newLabel string, resume func(LocalMatch), startNew, quit func()) {
	lines := []string{i18n.T("Drop which match? It moves to %s in the data dir, whole:", DroppedDir),
		i18n.T("its transcript still verifies (unfinished); it is no longer offered.")}
	var choices []Choice
	for i, m := range shown {
		choices = append(choices, Choice{Key: rune('1' + i), Label: i18n.T("drop %s", localMatchLine(m))})
	}
	g.ChooseWith(i18n.T("drop an unfinished match"), lines, choices, ChooseOptions{NoEnter: true, Quit: i18n.T("back")}, func(i int) {
		note := ""
		if i >= 0 && i < len(shown) {
			if _, err := DropLocal(data, shown[i]); err != nil {
				note = i18n.T("not dropped: %s", Explain(err))
			} else {
				note = i18n.T("dropped: %s", localMatchLine(shown[i]))
				unfinished = slices.DeleteFunc(slices.Clone(unfinished), func(m LocalMatch) bool { return m.Dir == shown[i].Dir })
			}
		}
		g.askResume(data, unfinished, newLabel, note, resume, startNew, quit)
	})
}

// maxResumeChoices is how many unfinished matches the question at the start
// offers by key (1-9); older ones are counted.
const maxResumeChoices = 9

// ResumeQuestion is the question at the start of a match against bots when
// matches were left unfinished: every one of them, the newest first, each
// on its own key (1, 2, ...; enter takes the newest), then n for a new
// match with newLabel. It returns the question's lines and choices, and
// the matches the first choices resume.
func ResumeQuestion(unfinished []LocalMatch, newLabel string) ([]string, []Choice, []LocalMatch) {
	shown := unfinished
	if len(shown) > maxResumeChoices {
		shown = shown[:maxResumeChoices]
	}
	lines := []string{i18n.T("You left a match against bots before its end:")}
	if len(unfinished) > 1 {
		lines = []string{i18n.T("You left %d matches against bots before their end (newest first):", len(unfinished))}
	}
	var choices []Choice
	for i, m := range shown {
		choices = append(choices, Choice{Key: rune('1' + i), Label: i18n.T("resume %s", localMatchLine(m))})
	}
	if more := len(unfinished) - len(shown); more > 0 {
		lines = append(lines, i18n.T("(and %s, not listed: they stay under matches in the data dir)", i18n.T("%d older matches", more)))
	}
	choices = append(choices, Choice{Key: 'n', Label: newLabel})
	return lines, choices, shown
}
