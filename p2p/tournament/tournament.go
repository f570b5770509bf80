package tournament

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/internal/wire"
)

// Tournaments (protocol.md 9.8): one gossip topic carries every
// tournament's signed records and the participants' offers of finished
// transcripts; a stream protocol fetches a transcript from a participant
// that offered it.
const (
	Topic    = "okey/tournament/1"
	Protocol = "/okey/tournament/1.0.0"
	// MaxMessage bounds a topic message: a type byte and a record
	// (tournament.MaxRecord, 8,192 bytes).
	MaxMessage = 1 + 8192
	// MaxTranscript bounds a fetched transcript.
	MaxTranscript = 32 << 20
	// MaxStreams is the most fetches a node serves at once.
	MaxStreams = 8
	// RequestTimeout and FetchTimeout bound a fetch: the
	// 34-byte request must arrive within the first, the whole answer within
	// the second.
	RequestTimeout = 5 * time.Second
	FetchTimeout   = 60 * time.Second
)

// Topic message types.
const (
	tournamentRecord = 1
	tournamentHave   = 2
	// tournamentAdmitted is a registration with its admission proof
	// (tournament_admit.go).
	tournamentAdmitted = 3
)

// Offer says that From holds a finished table's transcript.
type Offer struct {
	From         string
	Tournament   [32]byte
	Round, Table int
}

// Net is a node's side of the tournament topic and protocol.
type Net struct {
	b       p2p.Base
	topic   *pubsub.Topic
	sub     *pubsub.Subscription
	records chan []byte
	offers  chan Offer
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	slots   chan struct{}

	mu    sync.Mutex
	serve func(tid [32]byte, round, table int) ([]byte, bool)
	admit func(from string, record []byte, proof [32]byte)
}

// Join joins node's tournament topic and serves the fetch protocol on its
// host; Close leaves the topic and removes the handler.
func Join(node *p2p.Node) (*Net, error) {
	b := node.Base()
	validate := func(_ context.Context, _ peer.ID, m *pubsub.Message) bool {
		return validTournamentMessage(m.GetData())
	}
	if err := b.PubSub.RegisterTopicValidator(Topic, validate); err != nil {
		return nil, fmt.Errorf("p2p: tournament validator: %w", err)
	}
	t, err := b.PubSub.Join(Topic)
	if err != nil {
		return nil, fmt.Errorf("p2p: join tournament topic: %w", err)
	}
	sub, err := t.Subscribe(pubsub.WithBufferSize(b.Queue))
	if err != nil {
		return nil, fmt.Errorf("p2p: subscribe tournament topic: %w", err)
	}
	tn := &Net{b: b, topic: t, sub: sub, records: make(chan []byte, 4096), offers: make(chan Offer, 4096),
		slots: make(chan struct{}, MaxStreams)}
	tn.ctx, tn.cancel = context.WithCancel(b.Context)
	b.Host.SetStreamHandler(Protocol, tn.handle)
	tn.wg.Add(1)
	go tn.read()
	return tn, nil
}

// validTournamentMessage checks a topic message's framing (9.8): a record
// (type 1, not empty), an offer (type 2, 34 bytes) or an admitted
// registration (type 3, a proof and a record), at most
// MaxMessage bytes (type 3: MaxMessage+32).
func validTournamentMessage(d []byte) bool {
	if len(d) >= 1 && d[0] == tournamentAdmitted {
		return len(d) > 1+32 && len(d) <= MaxMessage+32
	}
	if len(d) < 1 || len(d) > MaxMessage {
		return false
	}
	switch d[0] {
	case tournamentRecord:
		return len(d) > 1
	case tournamentHave:
		return len(d) == 1+32+2
	}
	return false
}

func (tn *Net) read() {
	defer tn.wg.Done()
	self := tn.b.Host.ID()
	for {
		m, err := tn.sub.Next(tn.ctx)
		if err != nil {
			return
		}
		if m.ReceivedFrom == self {
			continue
		}
		d := m.GetData()
		switch d[0] {
		case tournamentRecord:
			select {
			case tn.records <- append([]byte(nil), d[1:]...):
			default: // full: lost, as gossip may lose it; its author publishes it again
			}
		case tournamentAdmitted:
			tn.admitted(m.GetFrom().String(), d[33:], [32]byte(d[1:33]))
		case tournamentHave:
			o := Offer{From: m.GetFrom().String(), Round: int(d[33]), Table: int(d[34])}
			copy(o.Tournament[:], d[1:33])
			select {
			case tn.offers <- o:
			default:
			}
		}
	}
}

// Records delivers others' records.
func (tn *Net) Records() <-chan []byte { return tn.records }

// Offers delivers others' offers.
func (tn *Net) Offers() <-chan Offer { return tn.offers }

// Publish sends a record to the topic.
func (tn *Net) Publish(ctx context.Context, record []byte) error {
	return tn.topic.Publish(ctx, append([]byte{tournamentRecord}, record...))
}

// Have offers a finished table's transcript to the others.
func (tn *Net) Have(ctx context.Context, tid [32]byte, round, table int) error {
	b := append([]byte{tournamentHave}, tid[:]...)
	return tn.topic.Publish(ctx, append(b, byte(round), byte(table)))
}

// Serve answers fetches with h.
func (tn *Net) Serve(h func(tid [32]byte, round, table int) ([]byte, bool)) {
	tn.mu.Lock()
	tn.serve = h
	tn.mu.Unlock()
}

// handle answers one fetch: request tid(32) || u8 round || u8 table;
// answer u8 (1 held, 0 not) || u32 length || the transcript file.
func (tn *Net) handle(s network.Stream) {
	select {
	case tn.slots <- struct{}{}:
		defer func() { <-tn.slots }()
	default:
		s.Reset()
		return
	}
	defer s.Close()
	start := time.Now()
	s.SetReadDeadline(start.Add(RequestTimeout))
	s.SetDeadline(start.Add(FetchTimeout))
	stop := time.AfterFunc(FetchTimeout, func() { s.Reset() })
	defer stop.Stop()
	var req [34]byte
	if _, err := io.ReadFull(s, req[:]); err != nil {
		s.Reset()
		return
	}
	var tid [32]byte
	copy(tid[:], req[:32])
	tn.mu.Lock()
	h := tn.serve
	tn.mu.Unlock()
	var b []byte
	ok := false
	if h != nil {
		b, ok = h(tid, int(req[32]), int(req[33]))
	}
	if !ok || len(b) > MaxTranscript {
		s.Write([]byte{0, 0, 0, 0, 0})
		return
	}
	hdr := binary.BigEndian.AppendUint32([]byte{1}, uint32(len(b)))
	if _, err := s.Write(append(hdr, b...)); err != nil {
		s.Reset()
	}
}

// Fetch asks from for a table's transcript.
func (tn *Net) Fetch(ctx context.Context, from string, tid [32]byte, round, table int) ([]byte, error) {
	pid, err := peer.Decode(from)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	s, err := tn.b.Host.NewStream(ctx, pid, Protocol)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if d, ok := ctx.Deadline(); ok {
		s.SetDeadline(d)
	}
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()
	req := append(append([]byte(nil), tid[:]...), byte(round), byte(table))
	if _, err := s.Write(req); err != nil {
		return nil, err
	}
	var hdr [5]byte
	if _, err := io.ReadFull(s, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if hdr[0] != 1 {
		return nil, errors.New("p2p: the peer does not hold that transcript")
	}
	if n > MaxTranscript {
		return nil, fmt.Errorf("p2p: a transcript of %d bytes", n)
	}
	b := make([]byte, 0, min(int(n), 1<<20))
	buf := make([]byte, 64<<10)
	for uint32(len(b)) < n {
		k, err := s.Read(buf[:min(len(buf), int(n)-len(b))])
		b = append(b, buf[:k]...)
		if err != nil && uint32(len(b)) < n {
			return nil, err
		}
	}
	return b, nil
}

// Close leaves the topic and stops serving.
func (tn *Net) Close() error {
	tn.b.Host.RemoveStreamHandler(Protocol)
	tn.cancel()
	tn.wg.Wait()
	tn.sub.Cancel()
	tn.b.PubSub.UnregisterTopicValidator(Topic)
	return wire.CloseTopic(tn.b.Context, tn.topic)
}
