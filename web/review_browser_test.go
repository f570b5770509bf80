package web

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/okey-game/okey/internal/lane"
)

// TestBrowserLeave: the page's leave button in the middle of a match
// leaves the table, and the page then says that the match is saved (the
// "left" sentence), not that okey's process is gone.
func TestBrowserLeave(t *testing.T) {
	lane.NoRace(t)
	ctx := browser(t)
	w := startTable(t, "classic")
	c := tab(t, ctx)
	if err := chromedp.Do(c, chromedp.Navigate(w.srv.URL()), chromedp.WaitVisible(CSS("#rack .tile"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(c, chromedp.Click(CSS("#leave"))); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.g.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the leave button did not leave")
	}
	want := labels()["left"]
	var msg string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		m, err := chromedp.Run(c, chromedp.Evaluate[string](`document.getElementById('msg').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		gone, _ := chromedp.Run(c, chromedp.Evaluate[bool](`document.body.classList.contains('gone')`))
		msg = m
		if gone && strings.TrimSpace(m) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after leaving, the page says %q (gone %v), want %q", msg, gone, want)
		}
	}
	shoot(t, c, "left")
}
