package web

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/ui/tablemodel"
)

// Frames is the table seen from no seat, in the page: a spectator's (okey
// watch --web: the frames come as the table plays, ui.WatchFeed's) or a
// transcript's replay (okey replay --web: ui.LoadReplay's frames). Each
// frame is what the terminal's replay and spectator screens draw: the
// indicator, every discard pile, the stock, 101's melds, the scores and
// the log, and of a rack only what the table opened to all, until the
// hand's audit makes every tile public (Frame.All): then that hand's racks
// show. The page steps through the frames (the replay's keys); a
// spectator's page follows the table while it shows the last frame.
type Frames struct {
	mu     sync.Mutex
	r      *ui.Replay
	at     int
	live   bool // a spectator's: frames still come
	follow bool
	ended  bool                  // the watch ended (live) or the replay's report is final
	why    string                // how a watch ended, when not by the verdict
	msg    string                // the message line: a refusal of what the page sent
	chat   []tablemodel.ChatLine // a watched table's latest chat messages (chatKept)
	subs   map[chan []byte]bool
	state  []byte
	done   chan struct{}
	quit   sync.Once
}

// NewReplayPage is the page of a transcript's replay.
func NewReplayPage(r *ui.Replay) *Frames {
	f := &Frames{r: r, ended: true, subs: map[chan []byte]bool{}, done: make(chan struct{})}
	f.publish()
	return f
}

// NewWatchPage is a spectator's page of the table of names and ruleset;
// Add brings it the table's frames, End how the watch ended.
func NewWatchPage(names []string, ruleset string) *Frames {
	r := &ui.Replay{Names: names, Ruleset: ruleset, Report: &table.Report{}}
	f := &Frames{r: r, live: true, follow: true, subs: map[chan []byte]bool{}, done: make(chan struct{})}
	f.publish()
	return f
}

// Add takes a spectator's update: a frame, a chat message of the table,
// and the audits that open the racks of hands already played
// (ui.WatchView.Add's rule).
func (f *Frames) Add(u ui.WatchUpdate) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if u.Chat != nil {
		f.chat = append(f.chat, *u.Chat)
		if len(f.chat) > chatKept {
			f.chat = slices.Delete(f.chat, 0, len(f.chat)-chatKept)
		}
		f.publishLocked()
		return
	}
	for _, hl := range u.Audited {
		all := engine.NewView(table.NoSeat)
		for s, j := range hl.Tiles {
			all.Learn(engine.Slot(s), engine.Tile(j).Face())
		}
		for i := range f.r.Frames {
			if f.r.Frames[i].Hand == int(hl.Hand) {
				f.r.Frames[i].All = all
			}
		}
	}
	if u.Frame != nil {
		f.r.Frames = append(f.r.Frames, *u.Frame)
		if f.follow {
			f.at = len(f.r.Frames) - 1
		}
	}
	f.publishLocked()
}

// End shows how the watch ended: the transcript's verdict, or (rep nil)
// why it stopped.
func (f *Frames) End(rep *table.Report, why string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ended, f.why = true, why
	if rep != nil {
		f.r.Report = rep
	}
	f.publishLocked()
}

// Done is closed when the viewer leaves the page.
func (f *Frames) Done() <-chan struct{} { return f.done }

func (f *Frames) left() bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

// Quit closes the page.
func (f *Frames) Quit() { f.quit.Do(func() { close(f.done) }) }

func (f *Frames) subscribe() (chan []byte, func()) {
	c := make(chan []byte, 4)
	f.mu.Lock()
	f.subs[c] = true
	if f.state != nil {
		c <- f.state
	}
	f.mu.Unlock()
	return c, func() { f.mu.Lock(); delete(f.subs, c); f.mu.Unlock() }
}

// do steps as the page asks: the replay's keys.
func (f *Frames) do(c command) {
	if c.Op == "leave" {
		f.Quit()
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.r.Frames)
	if !boardOps[c.Op] {
		// Refused on the message line, as the table's page refuses.
		f.refuseLocked(i18n.T("the page sent a command okey does not know"))
		return
	}
	f.msg = ""
	if n == 0 {
		f.publishLocked()
		return
	}
	switch c.Op {
	case "forward", "close":
		f.at = min(f.at+1, n-1)
	case "back":
		f.at = max(f.at-1, 0)
	case "first":
		f.at = 0
	case "last":
		f.at = n - 1
	case "nexthand", "prevhand":
		f.at = f.seekHand(c.Op == "nexthand")
	}
	// A spectator at the last frame follows the table again.
	f.follow = f.at == n-1
	f.publishLocked()
}

// boardOps are the commands a page seen from no seat may send (the
// replay's keys; leave is taken before them).
var boardOps = map[string]bool{"forward": true, "close": true, "back": true, "first": true, "last": true, "nexthand": true, "prevhand": true}

// refuse shows a refusal on the page's message line (a frame that is no
// command); nothing else changes.
func (f *Frames) refuse(msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refuseLocked(msg)
}

func (f *Frames) refuseLocked(msg string) {
	f.msg = msg
	f.publishLocked()
}

// seekHand is the first frame of the next (or this, else the previous)
// hand.
func (f *Frames) seekHand(next bool) int {
	fr := f.r.Frames
	h := fr[f.at].Hand
	if next {
		for i := f.at; i < len(fr); i++ {
			if fr[i].Hand != h {
				return i
			}
		}
		return len(fr) - 1
	}
	start := f.at
	for start > 0 && fr[start-1].Hand == h {
		start--
	}
	if start < f.at || start == 0 {
		return start
	}
	ph := fr[start-1].Hand
	for start > 0 && fr[start-1].Hand == ph {
		start--
	}
	return start
}

func (f *Frames) publish() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.publishLocked()
}

func (f *Frames) publishLocked() {
	b, err := json.Marshal(f.build())
	if err != nil {
		return
	}
	f.state = b
	for c := range f.subs {
		offer(c, b)
	}
}

// boardJSON is the frames' part of the state: where the page stands in
// them, and the verdict once there is one.
type boardJSON struct {
	Mode    string `json:"mode"` // watch or replay
	Where   string `json:"where"`
	At      int    `json:"at"`
	Frames  int    `json:"frames"`
	Follow  bool   `json:"follow,omitempty"`
	Verdict string `json:"verdict,omitempty"`
	Good    bool   `json:"good,omitempty"`
}

// labelsBoard are the frames' page's words.
func labelsBoard(l map[string]string) {
	for k, v := range map[string]string{
		"first": i18n.T("first"), "back": i18n.T("back"), "forward": i18n.T("forward"), "last": i18n.T("last"),
		"prevhand": i18n.T("previous hand"), "nexthand": i18n.T("next hand"),
		"boardkeys": i18n.T("keys: left/right step · up/down change hand · home/end · q leave"),
	} {
		l[k] = v
	}
}

// build is the state of the frame shown.
func (f *Frames) build() *stateJSON {
	st := &stateJSON{Lang: i18n.Current().String(), Labels: labels(), Timer: -1, Me: 0, Lifted: -1, Cursor: -1,
		Actions: map[string]actionJSON{}, Cols: tablemodel.RackCols, Rack: []rackTile{}, Seats: []seatJSON{}}
	labelsBoard(st.Labels)
	st.Msg, st.MsgBad = f.msg, f.msg != ""
	b := &boardJSON{Mode: "replay", At: f.at + 1, Frames: len(f.r.Frames)}
	if f.live {
		b.Mode, b.Follow = "watch", f.follow
	}
	st.Board = b
	st.Chat = watchChat(f.chat)
	if f.ended && f.r.Report != nil && (!f.live || f.why == "") {
		b.Verdict, b.Good = ui.Verdict(f.r.Report), f.r.Report.Honest
	} else if f.why != "" {
		b.Verdict = f.why
	}
	if len(f.r.Frames) == 0 {
		st.Turn = i18n.T("waiting for the table's first move")
		return st
	}
	fr := f.r.Frames[f.at]
	s := &tablemodel.Snapshot{Seat: table.NoSeat, Names: f.r.Names, Ruleset: f.r.Ruleset, Match: fr.Match, Match101: fr.Match101}
	st.Game = tablemodel.Game(s)
	st.Hand = fr.Hand + 1
	b.Where = i18n.T("hand %d · move %d of %d", fr.Hand+1, f.at+1, len(f.r.Frames))
	if fr.Match101 != nil {
		b.Where = i18n.T("round %d · move %d of %d", fr.Hand+1, f.at+1, len(f.r.Frames))
	}
	for i, name := range f.r.Names {
		st.Seats = append(st.Seats, seatJSON{Seat: i, Name: name, Pile: []*faceJSON{}})
	}
	// The log: the hand's lines up to this frame.
	for i := f.at; i >= 0 && f.r.Frames[i].Hand == fr.Hand; i-- {
		ls := f.r.Frames[i].Lines
		for k := len(ls) - 1; k >= 0; k-- {
			st.Log = append(st.Log, lineOf(ls[k], engine.NoFace))
		}
	}
	for i, j := 0, len(st.Log)-1; i < j; i, j = i+1, j-1 {
		st.Log[i], st.Log[j] = st.Log[j], st.Log[i]
	}
	st.Log = tail(st.Log, logShown)
	var board engine.Board
	var scores []int
	var okey engine.Face
	var turn int
	switch {
	case fr.Match101 != nil:
		g := fr.Match101.Game()
		board, scores, okey = g, fr.Match101.Scores(), g.Okey()
		turn, _, _ = g.Turn()
		if _, ind := g.Indicator(); ind != engine.NoFace {
			st.Ind, st.Okey = faceOf(ind, okey), faceOf(okey, okey)
		}
		st.Stock = len(g.Stock())
		labels101(st.Labels)
		st.Labels["bank"] = i18n.T("bank %d", st.Stock)
		st.R101 = &table101JSON{Round: i18n.T("round %d (%d of %d counted)", fr.Match101.HandNumber()+1, fr.Match101.Played(), fr.Match101.Rules().Rounds),
			Melds: melds101(g, s)}
		for i := range st.Seats {
			se := &st.Seats[i]
			for _, sl := range g.Pile(i) {
				se.Pile = append(se.Pile, faceOf(g.PublicFace(sl), okey))
			}
			se.Dealer = i == g.Dealer()
			se.Turn = i == turn && g.Phase() == engine.Phase101Play
			se.Word = tablemodel.SeatWord101(fr.Match101, i)
		}
	case fr.Match != nil:
		h := fr.Match.Hand()
		board, scores, okey = h, fr.Match.Scores(), h.Okey()
		turn, _ = h.Turn()
		_, ind := h.Indicator()
		st.Ind, st.Okey = faceOf(ind, okey), faceOf(okey, okey)
		st.Stock = h.StockLen()
		for i := range st.Seats {
			se := &st.Seats[i]
			for _, sl := range h.Pile(i) {
				se.Pile = append(se.Pile, faceOf(h.PublicFace(sl), okey))
			}
			se.Dealer = i == h.Dealer()
			se.Turn = i == turn && h.Phase() == engine.PhasePlay
			se.Shown = h.Shown(i)
		}
	default:
		return st
	}
	if turn >= 0 && turn < len(f.r.Names) && st.Seats[turn].Turn {
		st.Turn = i18n.T("%s to play", f.r.Names[turn])
	}
	for i := range st.Seats {
		se := &st.Seats[i]
		if i < len(scores) {
			se.Score = scores[i]
		}
		rack := board.Rack(i)
		se.Tiles = len(rack)
		// A rack: the faces the table opened to all, every face once the
		// hand's audit made them public.
		for _, sl := range rack {
			face := board.PublicFace(sl)
			if fr.All != nil {
				face = fr.All.Face(board, sl)
			}
			se.Open = append(se.Open, faceOf(face, okey))
		}
	}
	if fr.End != nil {
		st.HandEnd = handEndOf(fr.End, s)
	}
	return st
}

// melds101 are the melds on a 101 round's table, as s's seat sees them.
func melds101(r *engine.Game101, s *tablemodel.Snapshot) []meldJSON {
	okey := r.Okey()
	var out []meldJSON
	for i, md := range r.Melds() {
		mj := meldJSON{Meld: i, Handle: string(tablemodel.HandleOf(i)), Owner: s.Name(md.Owner), Mine: md.Owner == s.Seat, Tiles: lineJSON{}}
		for k, sl := range md.Tiles {
			sp := tablemodel.MeldTile(r, md, k, sl)
			mj.Tiles = append(mj.Tiles, spanJSON{F: faceOf(sp.Face, okey), T: starOf(sp)})
		}
		out = append(out, mj)
	}
	return out
}
