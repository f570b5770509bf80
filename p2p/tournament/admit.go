package tournament

import "context"

// An admitted registration (protocol.md 9.8, topic message type 3):
// u8 3 || proof(32) || a registration record. A code tournament's joiner
// sends its registration so; the creator checks the proof with the
// tournament's secret before it puts the player on the roster. Every
// receiver also takes the record as a type-1 record.

// PublishAdmitted sends a registration record with its admission proof.
func (tn *Net) PublishAdmitted(ctx context.Context, record []byte, proof [32]byte) error {
	b := append([]byte{tournamentAdmitted}, proof[:]...)
	return tn.topic.Publish(ctx, append(b, record...))
}

// OnAdmitted installs the handler of others' admitted registrations: from
// is the message's author (its signed gossip origin). It is called on the
// topic's reading goroutine, before the record is delivered on Records.
func (tn *Net) OnAdmitted(h func(from string, record []byte, proof [32]byte)) {
	tn.mu.Lock()
	tn.admit = h
	tn.mu.Unlock()
}

// admitted hands an admitted registration to the handler, then delivers
// its record as any record.
func (tn *Net) admitted(from string, record []byte, proof [32]byte) {
	record = append([]byte(nil), record...)
	tn.mu.Lock()
	h := tn.admit
	tn.mu.Unlock()
	if h != nil {
		h(from, record, proof)
	}
	select {
	case tn.records <- record:
	default: // full: lost, as gossip may lose it; its author publishes it again
	}
}
