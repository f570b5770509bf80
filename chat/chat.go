// Package chat is a table's chat (protocol.md 7.13): short messages signed
// by a member of the table, their encoding, the limits a receiver keeps,
// and the file beside the transcript that keeps them. Nothing here is part
// of a match's transcript or its verdict. The package is pure: callers pass
// the clock and the keys.
package chat

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The encoding's constants (protocol.md 7.13).
const (
	// Magic starts every chat message; no envelope (5.2) or roll call
	// (7.4) starts with it.
	Magic = "OKC"
	// Version is the encoding's version byte.
	Version = 1
	// SignatureLabel domain-separates a chat signature from every other
	// signature of the identity key (an envelope's is "okey/envelope/v1").
	SignatureLabel = "okey/chat/v1"
	// MaxText is the most bytes of a free text; MaxTextRunes the most
	// characters.
	MaxText      = 280
	MaxTextRunes = 140
	// MaxTableID is the longest table id (protocol.md 7.1).
	MaxTableID = 64
	// MaxMessage bounds an encoded message: a receiver rejects a longer
	// one before decoding it.
	MaxMessage = 512
	// MaxMembers is the most members a table has (the member index is a
	// byte).
	MaxMembers = 255
)

// Kinds of message.
const (
	// KindText is a free text.
	KindText = 0
	// KindQuick is one of the quick messages, by its number (Quick): each
	// receiver shows it in its own language.
	KindQuick = 1
)

// Message is one chat message.
type Message struct {
	Table  string // the table id (protocol.md 7.1)
	Member int    // the author's index in the table's roster
	// Time is the author's clock, in milliseconds since the Unix epoch,
	// strictly increasing over the author's messages at the table: the
	// sequence number that makes a replay a duplicate.
	Time  uint64
	Kind  int
	Quick int    // KindQuick: the quick message's number, 1..255
	Text  string // KindText: the text
	Sig   []byte // 64 bytes, Ed25519
}

// Errors of Decode and Check.
var (
	ErrMalformed = errors.New("chat: malformed message")
	ErrSignature = errors.New("chat: bad signature")
)

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, a...))
}

// CheckText checks a free text: valid UTF-8, 1 to MaxTextRunes characters
// and at most MaxText bytes, every character printable (letters, marks,
// numbers, punctuation, symbols, the ASCII space), no leading or trailing
// space: the display name's rule (protocol.md 7.2) with its own bounds.
func CheckText(s string) error {
	if !utf8.ValidString(s) {
		return bad("text is not valid UTF-8")
	}
	if s == "" {
		return bad("empty text")
	}
	if len(s) > MaxText {
		return bad("text of %d bytes, at most %d", len(s), MaxText)
	}
	if n := utf8.RuneCountInString(s); n > MaxTextRunes {
		return bad("text of %d characters, at most %d", n, MaxTextRunes)
	}
	if strings.TrimSpace(s) != s {
		return bad("text starts or ends with a space")
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return bad("text contains the unprintable character %U", r)
		}
	}
	return nil
}

// Clean turns what a person typed into a text CheckText accepts, when it
// can: spaces around it trimmed, unprintable characters dropped, cut to the
// bounds at a character's edge. "" means nothing is left to send.
func Clean(s string) string {
	s = strings.ToValidUTF8(s, "")
	var b strings.Builder
	n := 0
	for _, r := range s {
		if !unicode.IsPrint(r) {
			if unicode.IsSpace(r) {
				r = ' '
			} else {
				continue
			}
		}
		if n == MaxTextRunes || b.Len()+utf8.RuneLen(r) > MaxText {
			break
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

// check checks the fields a sender chooses.
func (m *Message) check() error {
	if m.Table == "" || len(m.Table) > MaxTableID {
		return bad("table id of %d bytes", len(m.Table))
	}
	for i := 0; i < len(m.Table); i++ {
		c := m.Table[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return bad("table id contains %q", c)
		}
	}
	if m.Member < 0 || m.Member >= MaxMembers {
		return bad("member %d", m.Member)
	}
	switch m.Kind {
	case KindText:
		if m.Quick != 0 {
			return bad("a text with a quick number")
		}
		return CheckText(m.Text)
	case KindQuick:
		if m.Quick < 1 || m.Quick > 255 {
			return bad("quick message %d", m.Quick)
		}
		if m.Text != "" {
			return bad("a quick message with a text")
		}
		return nil
	}
	return bad("kind %d", m.Kind)
}

// body is every byte before the signature.
func (m *Message) body() []byte {
	b := make([]byte, 0, 20+len(m.Table)+len(m.Text))
	b = append(b, Magic...)
	b = append(b, Version, byte(len(m.Table)))
	b = append(b, m.Table...)
	b = append(b, byte(m.Member))
	b = binary.BigEndian.AppendUint64(b, m.Time)
	b = append(b, byte(m.Kind), byte(m.Quick))
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Text)))
	return append(b, m.Text...)
}

// signed is what the signature covers: LP(label) || body.
func signed(body []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(SignatureLabel)))
	b = append(b, SignatureLabel...)
	return append(b, body...)
}

// Sign fills m.Sig with key's signature and returns the encoded message.
func (m *Message) Sign(key ed25519.PrivateKey) ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	body := m.body()
	m.Sig = ed25519.Sign(key, signed(body))
	return append(body, m.Sig...), nil
}

// Encode returns the message's bytes (its signature must be set).
func (m *Message) Encode() ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	if len(m.Sig) != ed25519.SignatureSize {
		return nil, bad("signature of %d bytes", len(m.Sig))
	}
	return append(m.body(), m.Sig...), nil
}

// Is reports whether b starts with the chat magic.
func Is(b []byte) bool { return bytes.HasPrefix(b, []byte(Magic)) }

// Decode parses a message exactly: every field in its bounds, nothing
// after the signature. It does not check the signature (Verify).
func Decode(b []byte) (*Message, error) {
	if len(b) > MaxMessage {
		return nil, bad("%d bytes, at most %d", len(b), MaxMessage)
	}
	r := b
	take := func(n int) ([]byte, bool) {
		if len(r) < n {
			return nil, false
		}
		out := r[:n]
		r = r[n:]
		return out, true
	}
	short := bad("cut short")
	head, ok := take(len(Magic) + 2)
	if !ok {
		return nil, short
	}
	if string(head[:len(Magic)]) != Magic {
		return nil, bad("not a chat message")
	}
	if head[len(Magic)] != Version {
		return nil, bad("version %d", head[len(Magic)])
	}
	id, ok := take(int(head[len(Magic)+1]))
	if !ok {
		return nil, short
	}
	f, ok := take(1 + 8 + 1 + 1 + 2)
	if !ok {
		return nil, short
	}
	m := &Message{Table: string(id), Member: int(f[0]), Time: binary.BigEndian.Uint64(f[1:9]), Kind: int(f[9]), Quick: int(f[10])}
	text, ok := take(int(binary.BigEndian.Uint16(f[11:13])))
	if !ok {
		return nil, short
	}
	m.Text = string(text)
	sig, ok := take(ed25519.SignatureSize)
	if !ok {
		return nil, short
	}
	if len(r) != 0 {
		return nil, bad("%d bytes after the signature", len(r))
	}
	m.Sig = bytes.Clone(sig)
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}

// Verify checks m's signature with the author's key.
func (m *Message) Verify(key ed25519.PublicKey) error {
	if len(key) != ed25519.PublicKeySize || len(m.Sig) != ed25519.SignatureSize {
		return ErrSignature
	}
	if !ed25519.Verify(key, signed(m.body()), m.Sig) {
		return ErrSignature
	}
	return nil
}
