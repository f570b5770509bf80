package netplay

import (
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
)

// TestBotName: with no profile, a bot is named after its peer id (its
// identity created and kept: the same name next time); a profile's name
// wins ("").
func TestBotName(t *testing.T) {
	dir := t.TempDir()
	name := BotName(dir)
	k, err := p2p.LoadOrCreateIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(k)
	if !strings.HasPrefix(name, "bot-") || len(name) != 10 || !strings.HasSuffix(id.String(), name[4:]) {
		t.Fatalf("name %q for peer %s", name, id)
	}
	if again := BotName(dir); again != name {
		t.Fatalf("a second start: %q, want %q", again, name)
	}
	if err := p2p.SaveProfile(dir, "ayse"); err != nil {
		t.Fatal(err)
	}
	if got := BotName(dir); got != "" {
		t.Fatalf("with a profile: %q, want none", got)
	}
}
