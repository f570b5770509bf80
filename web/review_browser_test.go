package web

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/lane"
)

// TestBrowserLeave: the page's leave button in the middle of a match
// asks first; its yes leaves the table, and the page then says that the match is saved (the
// "left" sentence), not that okey's process is gone.
func TestBrowserLeave(t *testing.T) {
	lane.NoRace(t)
	ctx := browser(t)
	w := startTable(t, "classic")
	c := browsertest.Page(t, ctx, w.srv.URL(), "#rack .tile")
	browsertest.Click(t, c, "#leave")
	browsertest.Visible(t, c, "#leave-yes")
	w.leave(t, c, "#leave-yes")
	want := labels()["left"]
	type left struct {
		Msg  string `json:"msg"`
		Gone bool   `json:"gone"`
	}
	browsertest.DOM[left](`({msg: document.getElementById('msg').textContent, gone: document.body.classList.contains('gone')})`).
		Until(t, c, 5*time.Second, "the page to say "+strconv.Quote(want)+", gone", func(l left) bool { return l.Gone && strings.TrimSpace(l.Msg) == want })
	browsertest.Shoot(t, c, "left")
}
