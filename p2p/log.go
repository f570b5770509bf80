package p2p

import (
	"log"
	"log/slog"

	"github.com/libp2p/go-libp2p/gologshim"
)

// RouteLibraryLogs sends the logs of the libraries underneath to h instead
// of stderr: go-libp2p's (gologshim), and zeroconf's (mDNS), which uses the
// standard library's global log package. Pass slog.DiscardHandler to silence
// them. Call it once, early (before NewHost): gologshim picks its handler on
// each logger's first use. pubsub's logs follow the Node's logger
// (WithLogger), so they need nothing here.
//
// It changes process-wide state (the standard log package's output): it is
// meant for main, not for libraries.
func RouteLibraryLogs(h slog.Handler) {
	gologshim.SetDefaultHandler(h)
	std := slog.NewLogLogger(h, slog.LevelWarn)
	log.SetFlags(0)
	log.SetPrefix("")
	log.SetOutput(std.Writer())
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
