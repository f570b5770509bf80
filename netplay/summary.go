package netplay

import (
	"encoding/json"
	"time"

	"github.com/libp2p/go-libp2p/core/metrics"

	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p/lobby"
)

// BotSummary is what okey bot --summary writes when it exits: its matches
// and what this process cost (machine output, English, stable field names).
type BotSummary struct {
	Version int    `json:"version"` // 1
	Peer    string `json:"peer"`
	Name    string `json:"name"`
	// Status is the exit status.
	Status  int            `json:"status"`
	Matches []MatchSummary `json:"matches"`
	// BytesSent and BytesReceived count every byte of this process's
	// libp2p host, all protocols (lobby, table, sync), since it started.
	BytesSent     int64 `json:"bytes_sent"`
	BytesReceived int64 `json:"bytes_received"`
	// PeakRSS is getrusage's maxrss, in bytes.
	PeakRSS int64 `json:"peak_rss_bytes"`
	// CPUUserMS and CPUSystemMS are this process's CPU time.
	CPUUserMS   int64 `json:"cpu_user_ms"`
	CPUSystemMS int64 `json:"cpu_system_ms"`
	// WallMS is the time from start to exit.
	WallMS int64 `json:"wall_ms"`
	// LobbyAccepted, LobbyRejected and LobbyLimited count the lobby
	// messages this peer took, rejected, and dropped over their author's
	// rate (its own announcements included in the first).
	LobbyAccepted uint64 `json:"lobby_accepted"`
	LobbyRejected uint64 `json:"lobby_rejected"`
	LobbyLimited  uint64 `json:"lobby_limited"`
}

// MatchSummary is one match of a bot's summary.
type MatchSummary struct {
	Table      string `json:"table"`
	Seat       int    `json:"seat"`
	Players    int    `json:"players"`
	Ruleset    string `json:"ruleset"`
	Status     int    `json:"status"` // 0 honest, 1 a seat named, 2 a transcript that does not hold, 3 unfinished
	Hands      int    `json:"hands"`
	Steps      uint32 `json:"steps"`
	ResumedAt  uint32 `json:"resumed_at"` // 0: a fresh start
	ElapsedMS  int64  `json:"elapsed_ms"`
	MSPerHand  int64  `json:"ms_per_hand"` // elapsed_ms / hands (0 without hands)
	Transcript string `json:"transcript"`
	// HandMS has the time of each hand this seat played live (hand_ms).
	HandMS []int64 `json:"hand_ms"`
	// Applied has [step, unix microseconds] for every step this seat
	// applied live, for the propagation of moves across seats.
	Applied [][2]int64 `json:"applied"`
}

// NewMatchSummary is the summary of match a, played with outcome o and
// exit status status.
func NewMatchSummary(a lobby.Announcement, o *Outcome, status int) MatchSummary {
	s := MatchSummary{Table: a.Table, Seat: o.Seat, Players: len(o.Config.Seats), Ruleset: o.Config.Ruleset, Status: status,
		Hands: len(o.Report.Hands), Steps: uint32(o.Report.Steps), ResumedAt: o.Resumed, ElapsedMS: o.Elapsed.Milliseconds(),
		Transcript: o.Transcript, HandMS: []int64{}, Applied: [][2]int64{}}
	if s.Hands > 0 {
		s.MSPerHand = s.ElapsedMS / int64(s.Hands)
	}
	for _, d := range o.Timing.Hands {
		s.HandMS = append(s.HandMS, d.Milliseconds())
	}
	for _, st := range o.Timing.Applied {
		s.Applied = append(s.Applied, [2]int64{int64(st.Step), st.At.UnixMicro()})
	}
	return s
}

// Write fills the process's costs and writes the summary to path.
func (s *BotSummary) Write(path string, start time.Time, bw *metrics.BandwidthCounter, l *lobby.Lobby) error {
	if l != nil {
		s.LobbyAccepted, s.LobbyRejected, s.LobbyLimited = l.Accepted(), l.Rejected(), l.Limited()
	}
	if bw != nil {
		// libp2p's bandwidth meters (go-flow-metrics) take in the bytes
		// counted once a second: a match shorter than that would read 0.
		// One more sweep makes the totals whole.
		time.Sleep(1100 * time.Millisecond)
		t := bw.GetBandwidthTotals()
		s.BytesSent, s.BytesReceived = t.TotalOut, t.TotalIn
	}
	s.PeakRSS, s.CPUUserMS, s.CPUSystemMS = processCost()
	s.WallMS = time.Since(start).Milliseconds()
	if s.Matches == nil {
		s.Matches = []MatchSummary{}
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, append(b, '\n')); err != nil {
		return err
	}
	return nil
}
