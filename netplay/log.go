package netplay

import (
	"context"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/okey-game/okey/p2p"
)

var routeLibraryLogsOnce sync.Once

// NetworkLog is the logger of a command that runs a libp2p node over the
// handler h: pubsub's own warnings (a direct peer's GRAFT, ...) are noise
// unless verbose, its debug chatter (every RPC) always is; the libraries'
// logs go to h from warnings up (the first call's h, for the process).
func NetworkLog(h slog.Handler, verbose bool) *slog.Logger {
	pubsubFloor := slog.LevelError
	if verbose {
		pubsubFloor = slog.LevelInfo
	}
	RouteLibraryLogsOnce(h)
	return slog.New(&quietComponent{h, pubsubFloor})
}

// RouteLibraryLogs sends the libraries' logs to h from warnings up.
func RouteLibraryLogs(h slog.Handler) { p2p.RouteLibraryLogs(minLevel{h, slog.LevelWarn}) }

// RouteLibraryLogsOnce is RouteLibraryLogs the first time it is called in
// the process (a test runs many commands in one), nothing after.
func RouteLibraryLogsOnce(h slog.Handler) {
	routeLibraryLogsOnce.Do(func() { RouteLibraryLogs(h) })
}

// CommandLog is the log of a long-running command (okey bot, okey relay):
// text lines to stderr, or appended to the file path (0600) when one is
// given, at debug level with verbose. closeLog closes that file.
func CommandLog(stderr io.Writer, path string, verbose bool) (h slog.Handler, closeLog func(), err error) {
	w, closeLog := stderr, func() {}
	if path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, err
		}
		w, closeLog = f, func() { f.Close() }
	}
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	return slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}), closeLog, nil
}

// quietComponent keeps pubsub's logs below a level out.
type quietComponent struct {
	slog.Handler
	pubsub slog.Level
}

func (h *quietComponent) WithAttrs(as []slog.Attr) slog.Handler {
	for _, a := range as {
		if a.Key == "component" && a.Value.String() == "pubsub" {
			return minLevel{h.Handler.WithAttrs(as), h.pubsub}
		}
	}
	return &quietComponent{h.Handler.WithAttrs(as), h.pubsub}
}

func (h *quietComponent) WithGroup(name string) slog.Handler {
	return &quietComponent{h.Handler.WithGroup(name), h.pubsub}
}

// minLevel drops records below a level.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}
func (h minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(as), h.min}
}
func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
