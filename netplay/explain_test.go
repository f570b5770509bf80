package netplay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
)

// TestExplain: a network or invite error, wrapped, is one sentence for the
// player, in the interface's language; another error has none here.
func TestExplain(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	for err, want := range map[error]string{
		fmt.Errorf("join: %w", lobby.ErrTableFull):          "the table is full",
		fmt.Errorf("%w: dial: refused", p2p.ErrUnreachable): "cannot be reached at any address of the code",
		invite.ErrTypo: "a character is mistyped",
		fmt.Errorf("wait: %w", context.DeadlineExceeded): "the table did not start in time",
	} {
		if got, ok := Explain(err); !ok || !strings.Contains(got, want) {
			t.Errorf("Explain(%v) = %q, %v; want %q", err, got, ok, want)
		}
	}
	if got, ok := Explain(errors.New("table: bad seat")); ok {
		t.Errorf("Explain of another error = %q", got)
	}
	i18n.Set(i18n.Turkish)
	if got, _ := Explain(lobby.ErrTableFull); got == "the table is full" || got == "" {
		t.Errorf("Explain in Turkish = %q", got)
	}
}
