package lobby

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/table"
)

// Lobby wire constants.
const (
	// Topic is the gossipsub topic where tables are announced.
	Topic = "okey/lobby/1"
	// AnnouncementVersion is the "v" of announcements and lobby requests
	// (2: every member carries its nonce; 3: the table speaks table protocol
	// 2, protocol.md 5.3's parallel rounds). A peer lists, joins and answers
	// only tables of its own version (7.5).
	AnnouncementVersion = 3
	// MaxAnnouncementSize bounds an encoded announcement.
	MaxAnnouncementSize = 8 << 10
	// MinSeats is the fewest seats a table has.
	MinSeats = 2
	// MaxSeats is the most seats a table has.
	MaxSeats       = 4
	maxOptions     = 16
	maxOptionValue = 64
)

// Table states in announcements.
const (
	StateOpen    = "open"
	StateStarted = "started"
	StateClosed  = "closed"
)

// Announcement is a table as announced in the lobby by its creator (the
// signed pubsub author must be Creator). Members are in seat order: the
// creator first, then in join order. Its JSON encoding is canonical
// (Encode); DecodeAnnouncement accepts nothing else.
type Announcement struct {
	V       int    `json:"v"`
	Table   string `json:"table"`
	Creator string `json:"creator"`
	// Seq grows with every change of the table; an announcement with a
	// lower Seq than one already seen is stale and ignored.
	Seq     uint64            `json:"seq"`
	Preset  string            `json:"preset"`
	Options map[string]string `json:"options"`
	Seats   int               `json:"seats"`
	Members []Seat            `json:"members"`
	State   string            `json:"state"`

	// The optional keys (protocol.md 7.5), each left out at its zero value,
	// so that an announcement that uses none of them is byte for byte what
	// a receiver without them decodes.

	// Private: the table admits by invite code only (7.10).
	Private bool `json:"private,omitempty"`
	// Progress is a started table's match so far (nil: not started, or no
	// hand yet).
	Progress *Progress `json:"progress,omitempty"`
	// Spectators is how many spectators the creator serves (0..MaxSpectators).
	Spectators int `json:"spectators,omitempty"`
}

// Progress is how far a started table's match is: the hand being played
// (1 for the first) and the match scores after the hands before it, one per
// seat in seat order.
type Progress struct {
	Hand   int   `json:"hand"`
	Scores []int `json:"scores"`
}

// Bounds of the optional keys.
const (
	// MaxSpectators bounds an announcement's spectator count.
	MaxSpectators = 1 << 16
	// MaxProgressHand bounds a progress's hand number.
	MaxProgressHand = 1 << 16
	// MaxProgressScore bounds a progress's scores (absolute value).
	MaxProgressScore = 1 << 24
)

// Seat is one seated member.
type Seat struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Nonce is the member's own fresh random value for this table, in
	// lowercase hex (64 digits, not all zeros): it goes into the table
	// config (table.Seat.Nonce), so that the config is unique to this match.
	Nonce string `json:"nonce"`
	Ready bool   `json:"ready"`
}

// Nonce is a member's table nonce (see Seat.Nonce).
type Nonce [table.NonceSize]byte

// NewNonce draws a fresh nonce from crypto/rand.
func NewNonce() Nonce {
	var n Nonce
	rand.Read(n[:]) // never fails (crypto/rand)
	return n
}

// String is the nonce in the announcement's form: 64 lowercase hex digits.
func (n Nonce) String() string { return hex.EncodeToString(n[:]) }

// ErrBadNonce is wrapped by the errors of ParseNonce.
var ErrBadNonce = errors.New("p2p: bad nonce")

// ParseNonce parses a nonce: exactly 64 lowercase hex digits, not all zero.
func ParseNonce(s string) (Nonce, error) {
	var n Nonce
	if len(s) != 2*len(n) {
		return n, fmt.Errorf("%w: %d characters, want %d", ErrBadNonce, len(s), 2*len(n))
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return n, fmt.Errorf("%w: not lowercase hex", ErrBadNonce)
		}
	}
	hex.Decode(n[:], []byte(s))
	if n == (Nonce{}) {
		return n, fmt.Errorf("%w: all zeros", ErrBadNonce)
	}
	return n, nil
}

// ParsedNonce is the member's nonce, parsed.
func (s Seat) ParsedNonce() (Nonce, error) { return ParseNonce(s.Nonce) }

var (
	presetRE    = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,31}$`)
	optionKeyRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,31}$`)
)

// versionHint says which okey speaks another lobby version.
func versionHint(v int) string {
	if v < AnnouncementVersion {
		return "an older okey: its tables speak another table protocol; it must be updated to play with this one"
	}
	return "a newer okey: update this one to play at its tables"
}

// Validate checks every field (see protocol.md section 7.5).
func (a *Announcement) Validate() error {
	if a.V != AnnouncementVersion {
		return fmt.Errorf("p2p: announcement version %d, want %d (%s)", a.V, AnnouncementVersion, versionHint(a.V))
	}
	if err := p2p.ValidTableID(a.Table); err != nil {
		return err
	}
	if _, err := peer.Decode(a.Creator); err != nil {
		return fmt.Errorf("p2p: announcement creator %q: %v", a.Creator, err)
	}
	if !presetRE.MatchString(a.Preset) {
		return fmt.Errorf("p2p: announcement preset %q invalid (want 1-32 of a-z 0-9 _ . -)", a.Preset)
	}
	if len(a.Options) > maxOptions {
		return fmt.Errorf("p2p: announcement has %d options, at most %d", len(a.Options), maxOptions)
	}
	for k, v := range a.Options {
		if !optionKeyRE.MatchString(k) {
			return fmt.Errorf("p2p: announcement option name %q invalid", k)
		}
		if err := validOptionValue(v); err != nil {
			return fmt.Errorf("p2p: announcement option %s: %w", k, err)
		}
	}
	if a.Seats < MinSeats || a.Seats > MaxSeats {
		return fmt.Errorf("p2p: announcement seats %d out of range %d..%d", a.Seats, MinSeats, MaxSeats)
	}
	if len(a.Members) == 0 || len(a.Members) > a.Seats {
		return fmt.Errorf("p2p: announcement has %d members for %d seats", len(a.Members), a.Seats)
	}
	seen := map[string]bool{}
	nonces := map[string]bool{}
	allReady := true
	for i, m := range a.Members {
		if _, err := peer.Decode(m.ID); err != nil {
			return fmt.Errorf("p2p: announcement member %d id %q: %v", i, m.ID, err)
		}
		if seen[m.ID] {
			return fmt.Errorf("p2p: announcement member %s seated twice", m.ID)
		}
		seen[m.ID] = true
		if _, err := ParseNonce(m.Nonce); err != nil {
			return fmt.Errorf("p2p: announcement member %d: %w", i, err)
		}
		if nonces[m.Nonce] {
			return fmt.Errorf("p2p: announcement members share the nonce %s", m.Nonce)
		}
		nonces[m.Nonce] = true
		if err := p2p.ValidateDisplayName(m.Name); err != nil {
			return fmt.Errorf("p2p: announcement member %d: %w", i, err)
		}
		allReady = allReady && m.Ready
	}
	if a.Members[0].ID != a.Creator {
		return errors.New("p2p: announcement's first seat is not the creator")
	}
	switch a.State {
	case StateOpen, StateClosed:
	case StateStarted:
		if len(a.Members) != a.Seats || !allReady {
			return errors.New("p2p: announcement started without a full, ready table")
		}
	default:
		return fmt.Errorf("p2p: announcement state %q (want open, started or closed)", a.State)
	}
	if a.Spectators < 0 || a.Spectators > MaxSpectators {
		return fmt.Errorf("p2p: announcement spectators %d out of range 0..%d", a.Spectators, MaxSpectators)
	}
	if p := a.Progress; p != nil {
		if a.State != StateStarted {
			return fmt.Errorf("p2p: announcement has progress but is %s, not started", a.State)
		}
		if p.Hand < 1 || p.Hand > MaxProgressHand {
			return fmt.Errorf("p2p: announcement progress hand %d out of range 1..%d", p.Hand, MaxProgressHand)
		}
		if len(p.Scores) != a.Seats {
			return fmt.Errorf("p2p: announcement progress has %d scores for %d seats", len(p.Scores), a.Seats)
		}
		for _, v := range p.Scores {
			if v < -MaxProgressScore || v > MaxProgressScore {
				return fmt.Errorf("p2p: announcement progress score %d out of range", v)
			}
		}
	}
	return nil
}

func validOptionValue(v string) error {
	if !utf8.ValidString(v) {
		return errors.New("value is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(v); n > maxOptionValue {
		return fmt.Errorf("value of %d characters, at most %d", n, maxOptionValue)
	}
	for _, r := range v {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("value contains the unprintable character %U", r)
		}
	}
	return nil
}

// Encode validates a and returns its canonical encoding: encoding/json
// with fields in declaration order, option names sorted, no HTML escaping,
// no insignificant white space, "options" {} when empty.
func (a Announcement) Encode() ([]byte, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return encodeCanonical(a)
}

func encodeCanonical(a Announcement) ([]byte, error) {
	if a.Options == nil {
		a.Options = map[string]string{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return nil, fmt.Errorf("p2p: encode announcement: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// DecodeAnnouncement decodes and validates an announcement. It rejects
// input above MaxAnnouncementSize, missing fields, trailing data, invalid
// fields, and any encoding other than the canonical one. Top-level keys
// that this version does not know are extensions (protocol.md 7.5): a
// newer version's optional keys, accepted and ignored when well formed
// (stripExtensions); the rest must be canonical, so that
// Encode(DecodeAnnouncement(b)) is b without its extensions for every
// accepted b. Nested objects admit no unknown keys.
func DecodeAnnouncement(b []byte) (Announcement, error) {
	var a Announcement
	if len(b) > MaxAnnouncementSize {
		return Announcement{}, fmt.Errorf("p2p: announcement of %d bytes, at most %d", len(b), MaxAnnouncementSize)
	}
	b, _, err := stripExtensions(b)
	if err != nil {
		return Announcement{}, fmt.Errorf("p2p: bad announcement: %w", err)
	}
	if err := strictUnmarshal(b, &a); err != nil {
		return Announcement{}, fmt.Errorf("p2p: bad announcement: %w", err)
	}
	if err := a.Validate(); err != nil {
		return Announcement{}, err
	}
	c, err := encodeCanonical(a)
	if err != nil {
		return Announcement{}, err
	}
	if !bytes.Equal(c, b) {
		return Announcement{}, errors.New("p2p: announcement is not canonically encoded")
	}
	return a, nil
}

// announcementKeys are the top-level keys of this version's announcement.
var announcementKeys = map[string]bool{
	"v": true, "table": true, "creator": true, "seq": true, "preset": true, "options": true,
	"seats": true, "members": true, "state": true, "private": true, "progress": true, "spectators": true,
}

// maxExtensions bounds the extension keys of one announcement.
const maxExtensions = 16

// extensionKeyRE is the syntax of an extension key (as an option name's:
// it stands in JSON as is).
var extensionKeyRE = optionKeyRE

// stripExtensions splits a JSON object into this version's announcement
// (the object without its extensions) and the extensions' keys, in their
// order (protocol.md 7.5): a top-level key this version does not know is
// an extension when it matches extensionKeyRE, appears once, and its
// value is a JSON value in compact form; at most maxExtensions of them.
// The object itself must stand without white space between its members
// (the canonical check of what remains sees the rest). Input that is not
// an object, or holds a key twice, is an error.
func stripExtensions(b []byte) ([]byte, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil {
		return nil, nil, err
	} else if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("not a JSON object")
	}
	var (
		known, whole bytes.Buffer
		exts         []string
		seen         = map[string]bool{}
	)
	known.WriteByte('{')
	whole.WriteByte('{')
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key := tok.(string) // an object's key is a string
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, err
		}
		if seen[key] {
			return nil, nil, fmt.Errorf("key %q twice", key)
		}
		seen[key] = true
		member := func(w *bytes.Buffer) {
			if w.Len() > 1 {
				w.WriteByte(',')
			}
			k, _ := json.Marshal(key)
			w.Write(k)
			w.WriteByte(':')
			w.Write(raw)
		}
		member(&whole)
		if announcementKeys[key] {
			member(&known)
			continue
		}
		if !extensionKeyRE.MatchString(key) {
			return nil, nil, fmt.Errorf("unknown key %q is no extension (want 1-32 of a-z 0-9 _ . -)", key)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil || !bytes.Equal(c.Bytes(), raw) {
			return nil, nil, fmt.Errorf("extension %q is not in compact form", key)
		}
		if exts = append(exts, key); len(exts) > maxExtensions {
			return nil, nil, fmt.Errorf("more than %d extensions", maxExtensions)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, nil, err
	}
	known.WriteByte('}')
	whole.WriteByte('}')
	if len(exts) == 0 {
		return b, nil, nil // the canonical check sees the whole input
	}
	if !bytes.Equal(whole.Bytes(), b) {
		return nil, nil, errors.New("an announcement with extensions is not compact")
	}
	return known.Bytes(), exts, nil
}

func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	if _, err := dec.Token(); err == nil {
		return errors.New("trailing data")
	}
	return nil
}

// clone deep-copies a.
func (a Announcement) clone() Announcement {
	a.Options = maps.Clone(a.Options)
	a.Members = slices.Clone(a.Members)
	if a.Progress != nil {
		p := *a.Progress
		p.Scores = slices.Clone(p.Scores)
		a.Progress = &p
	}
	return a
}

// Roster is the members' peer ids in seat order.
func (a Announcement) Roster() []peer.ID {
	out := make([]peer.ID, 0, len(a.Members))
	for _, m := range a.Members {
		id, err := peer.Decode(m.ID)
		if err != nil {
			return nil
		}
		out = append(out, id)
	}
	return out
}

// Formation errors.
var (
	ErrTableFull     = errors.New("p2p: table is full")
	ErrTableStarted  = errors.New("p2p: table has started")
	ErrTableClosed   = errors.New("p2p: table is closed")
	ErrNotSeated     = errors.New("p2p: not seated at this table")
	ErrAlreadySeated = errors.New("p2p: already seated at this table")
	ErrCreatorLeave  = errors.New("p2p: the creator cannot leave; close the table instead")
)

// Formation is the creator's state machine for forming a table: members
// join (seat order is join order, creator first) until it is full, say
// they are ready, and the table starts when it is full and everyone is
// ready. It does no I/O. An operation that fails changes nothing.
type Formation struct {
	a Announcement
}

// NewFormation opens a table with the creator seated (not ready) with its
// nonce (fresh for this table: NewNonce).
func NewFormation(tableID, preset string, options map[string]string, seats int, creator peer.ID, creatorName string, creatorNonce Nonce) (*Formation, error) {
	a := Announcement{
		V: AnnouncementVersion, Table: tableID, Creator: creator.String(), Preset: preset,
		Options: maps.Clone(options), Seats: seats, State: StateOpen,
		Members: []Seat{{ID: creator.String(), Name: creatorName, Nonce: creatorNonce.String()}},
	}
	if a.Options == nil {
		a.Options = map[string]string{}
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	if b, err := encodeCanonical(a); err != nil || len(b) > MaxAnnouncementSize {
		return nil, errors.New("p2p: table announcement would be too large")
	}
	return &Formation{a: a}, nil
}

// Announcement returns a copy of the current announcement.
func (f *Formation) Announcement() Announcement { return f.a.clone() }

// State is open, started or closed.
func (f *Formation) State() string { return f.a.State }

func (f *Formation) seat(id peer.ID) int {
	for i, m := range f.a.Members {
		if m.ID == id.String() {
			return i
		}
	}
	return -1
}

func (f *Formation) check() error {
	switch f.a.State {
	case StateStarted:
		return ErrTableStarted
	case StateClosed:
		return ErrTableClosed
	}
	return nil
}

// ErrNonceTaken is returned by Join for a nonce another member already has.
var ErrNonceTaken = errors.New("p2p: join: another member has this nonce")

// Join seats id, with its nonce, at the next free seat.
func (f *Formation) Join(id peer.ID, name string, nonce Nonce) error {
	if err := f.check(); err != nil {
		return err
	}
	if _, err := peer.IDFromBytes([]byte(id)); err != nil {
		return fmt.Errorf("p2p: join: bad peer id: %w", err)
	}
	if err := p2p.ValidateDisplayName(name); err != nil {
		return err
	}
	if f.seat(id) >= 0 {
		return ErrAlreadySeated
	}
	if len(f.a.Members) >= f.a.Seats {
		return ErrTableFull
	}
	if nonce == (Nonce{}) {
		return fmt.Errorf("%w: all zeros", ErrBadNonce)
	}
	if slices.ContainsFunc(f.a.Members, func(s Seat) bool { return s.Nonce == nonce.String() }) {
		return ErrNonceTaken
	}
	next := f.a.clone()
	next.Members = append(next.Members, Seat{ID: id.String(), Name: name, Nonce: nonce.String()})
	next.Seq++
	if b, err := encodeCanonical(next); err != nil || len(b) > MaxAnnouncementSize {
		return errors.New("p2p: join: announcement would be too large")
	}
	f.a = next
	return nil
}

// Leave frees id's seat; the seats after it move up.
func (f *Formation) Leave(id peer.ID) error {
	if err := f.check(); err != nil {
		return err
	}
	i := f.seat(id)
	if i < 0 {
		return ErrNotSeated
	}
	if i == 0 {
		return ErrCreatorLeave
	}
	f.a.Members = slices.Delete(slices.Clone(f.a.Members), i, i+1)
	f.a.Seq++
	return nil
}

// SetReady sets id's readiness; the table starts when it is full and every
// member is ready. It reports whether the table started.
func (f *Formation) SetReady(id peer.ID, ready bool) (started bool, err error) {
	if err := f.check(); err != nil {
		return false, err
	}
	i := f.seat(id)
	if i < 0 {
		return false, ErrNotSeated
	}
	f.a.Members = slices.Clone(f.a.Members)
	f.a.Members[i].Ready = ready
	f.a.Seq++
	if len(f.a.Members) == f.a.Seats && !slices.ContainsFunc(f.a.Members, func(s Seat) bool { return !s.Ready }) {
		f.a.State = StateStarted
		return true, nil
	}
	return false, nil
}

// SetProgress records a started table's progress (hand, scores after the
// hands before it) for its announcements; a change bumps Seq.
func (f *Formation) SetProgress(hand int, scores []int) error {
	if f.a.State != StateStarted {
		return fmt.Errorf("p2p: progress of a table that is %s, not started", f.a.State)
	}
	next := f.a.clone()
	next.Progress = &Progress{Hand: hand, Scores: slices.Clone(scores)}
	if err := next.Validate(); err != nil {
		return err
	}
	if announcementEqual(next, f.a) {
		return nil
	}
	next.Seq++
	f.a = next
	return nil
}

// SetSpectators records the spectator count for the announcements; a
// change bumps Seq.
func (f *Formation) SetSpectators(n int) error {
	if n < 0 || n > MaxSpectators {
		return fmt.Errorf("p2p: spectators %d out of range 0..%d", n, MaxSpectators)
	}
	if n != f.a.Spectators {
		f.a.Spectators = n
		f.a.Seq++
	}
	return nil
}

// Close closes an open table (a started one stays started).
func (f *Formation) Close() {
	if f.a.State == StateOpen {
		f.a.State = StateClosed
		f.a.Seq++
	}
}
