package netplay

import (
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
)

// BotName is the display name a headless bot (okey bot) takes when none
// is given and its data directory keeps no profile name: "bot-" and the
// last 6 characters of its peer id, its identity created when missing;
// "" when the profile names it (Open takes that name) or no identity can
// be kept.
func BotName(data string) string {
	if _, err := p2p.LoadProfile(data); err == nil {
		return ""
	}
	k, err := p2p.LoadOrCreateIdentity(data)
	if err != nil {
		return ""
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		return ""
	}
	s := id.String()
	return "bot-" + s[len(s)-6:]
}
