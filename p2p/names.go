package p2p

import (
	"errors"
	"time"

	"github.com/okey-game/okey/p2p/internal/wire"
)

// The names the node uses on the wire (protocol.md section 7).
const (
	// UserAgent is what the host tells its peers in identify.
	UserAgent = "okey/1"

	// ServiceName is okey's mDNS service name. It is not libp2p's default
	// ("_p2p._udp"), so okey peers find only each other, not every libp2p
	// application on the LAN.
	ServiceName = "_okey-lan._udp"

	// TableTopicPrefix is followed by the table id to name a table's topic.
	TableTopicPrefix = "okey/table/1/"

	// ChatTopicPrefix is followed by the table id to name a table's chat
	// topic.
	ChatTopicPrefix = "okey/chat/1/"

	// SyncProtocol is the catch-up stream protocol (protocol.md section 7).
	SyncProtocol = "/okey/sync/1.0.0"

	// ChatRequest is the sync request (7.7) a spectator (or a member) sends
	// for a member's recent chat; an older member answers it with no frames
	// (5.7: any other request gets no answer).
	ChatRequest = "okey/chat/v1"
)

// Bounds of a table's chat and of a link's news.
const (
	// chatHistory is how many of the latest chat messages a member keeps to
	// answer ChatRequest.
	chatHistory = 32

	// linkHeardWithin is how recent a member's forwarded message must be for
	// LinkViaMember.
	linkHeardWithin = 2 * time.Minute
)

// Errors of the node, its tables and its identity.
var (
	// ErrClosed is returned by operations on a closed Node or transport.
	ErrClosed = errors.New("p2p: closed")

	// ErrNotMember is returned when a peer that is not a table member is
	// named.
	ErrNotMember = errors.New("p2p: not a table member")

	// ErrSpectator is returned by a spectator's Broadcast: a spectator never
	// publishes on a table's topic.
	ErrSpectator = errors.New("p2p: a spectator does not publish on a table's topic")

	// ErrChatUnavailable is returned by SendChat where the table has no chat:
	// a spectator's, or before the table is open.
	ErrChatUnavailable = errors.New("p2p: a spectator does not post in a table's chat")

	// ErrUnreachable: no address in an invite code reached the creator
	// (DialCode).
	ErrUnreachable = errors.New("p2p: cannot reach the table's creator")

	// ErrFrameTooLarge is returned (wrapped) for a frame above its bound.
	ErrFrameTooLarge = wire.ErrFrameTooLarge

	// ErrInsecureKeyFile is returned (wrapped) when the identity file can
	// be read by other users. The file is not changed: the user decides
	// (chmod 600 keeps the identity; deleting the file makes a new one).
	ErrInsecureKeyFile = wire.ErrInsecureKeyFile
)
