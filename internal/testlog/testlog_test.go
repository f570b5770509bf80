package testlog

import (
	"context"
	"log/slog"
	"testing"
)

// TestPubsubDebugDropped: a logger given pubsub's component attribute
// drops debug lines and keeps info; another component keeps debug, also
// under a group.
func TestPubsubDebugDropped(t *testing.T) {
	l := Logger(t)
	ctx := context.Background()
	ps := l.With("component", "pubsub")
	if ps.Enabled(ctx, slog.LevelDebug) {
		t.Error("pubsub's debug is enabled")
	}
	if !ps.Enabled(ctx, slog.LevelInfo) {
		t.Error("pubsub's info is dropped")
	}
	if !l.With("component", "lobby").Enabled(ctx, slog.LevelDebug) {
		t.Error("the lobby's debug is dropped")
	}
	if l.WithGroup("g").With("component", "pubsub").Enabled(ctx, slog.LevelDebug) {
		t.Error("pubsub's debug under a group is enabled")
	}
}
