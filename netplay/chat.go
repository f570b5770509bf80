package netplay

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// A table's chat (protocol.md 7.13): the members' messages, shown by the
// screen and kept in the match's folder beside its transcript, never part
// of it.

// chatFile is the chat's file in a match's folder, beside "transcript".
const chatFile = "chat"

// ChatLine is one accepted chat message as a screen shows it.
type ChatLine struct {
	Member int    // the author's roster index
	ID     string // the author's peer id
	Name   string // the author's display name
	Quick  int    // a quick message's number (0: a text)
	Text   string
	Own    bool // this peer sent it
}

// ChatSend posts a quick message (quick > 0) or a text at the table.
type ChatSend func(quick int, text string) error

// followChat delivers tt's chat to on and appends it to the chat file in
// dir, until the returned stop is called.
func followChat(ctx context.Context, log *slog.Logger, tt *p2p.TableTransport, a lobby.Announcement, dir string, on func(ChatLine)) (stop func()) {
	return followChatFile(ctx, log, tt, a, filepath.Join(dir, chatFile), on)
}

// followChatFile is followChat with the chat file's path.
func followChatFile(ctx context.Context, log *slog.Logger, tt *p2p.TableTransport, a lobby.Announcement, path string, on func(ChatLine)) (stop func()) {
	f, err := chat.OpenFile(path)
	if err != nil {
		log.Warn("the table's chat is not kept", "err", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-cctx.Done():
				return
			case m := <-tt.ChatInbox():
				if f != nil {
					if err := f.Append(m.Raw); err != nil {
						log.Warn("a chat message is not kept", "err", err)
					}
				}
				if on == nil {
					continue
				}
				l := ChatLine{Member: m.Member, ID: string(m.From), Quick: m.Msg.Quick, Text: m.Msg.Text, Own: m.Own}
				if m.Member < len(a.Members) {
					l.Name = a.Members[m.Member].Name
				}
				on(l)
			}
		}
	})
	return func() {
		cancel()
		wg.Wait()
		if f != nil {
			f.Close()
		}
	}
}

// TournamentChat follows the chat of a tournament table that
// TournamentTable opened (tr), as okey play follows a LAN table's: each
// message accepted is kept in the file at path (beside the table's
// transcript in the tournament folder, never part of it) and given to on,
// and ready gets the function that posts at the table. A transport of
// another kind has no chat: then nothing is called. stop ends it.
func (c *Client) TournamentChat(ctx context.Context, tr table.Transport, cfg table.Config, path string, ready func(ChatSend), on func(ChatLine)) (stop func()) {
	tt, ok := tr.(*p2p.TableTransport)
	if !ok {
		return func() {}
	}
	// The table's members are its seats, in seat order (TournamentTable).
	var a lobby.Announcement
	for _, s := range cfg.Seats {
		a.Members = append(a.Members, lobby.Seat{ID: string(s.ID), Name: s.Name})
	}
	stop = followChatFile(ctx, c.log, tt, a, path, on)
	if ready != nil {
		ready(sender(ctx, tt))
	}
	return stop
}

// sender is tt's ChatSend.
func sender(ctx context.Context, tt *p2p.TableTransport) ChatSend {
	return func(quick int, text string) error {
		_, err := tt.SendChat(ctx, quick, text)
		return err
	}
}

// saveChat copies the chat file of the match in dir beside the saved
// transcript (T.okey: T.chat), when there is one.
func saveChat(log *slog.Logger, dir, transcript string) {
	b, err := os.ReadFile(filepath.Join(dir, chatFile))
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(b) <= len(chat.FileMagic) {
		return
	}
	if err == nil {
		err = atomicfile.Write(chat.PathBeside(transcript), b)
	}
	if err != nil {
		log.Warn("the table's chat is not saved beside the transcript", "err", err)
	}
}
