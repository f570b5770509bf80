package main

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/okey-game/okey/web"
)

// BenchmarkPlayWebFirstPaint: okey play --web --bots 3 --no-open (the
// command's code in this process: its data directory, identities, bots,
// the web table's server), Chromium already running with a tab open, the
// printed address opened in it as soon as it is printed: the time from the
// command's start to the table drawn in the page, and to the dealt rack
// drawn (the protocol's shuffle and deal), one fresh launch per iteration:
//
//	go test -run XXX -bench PlayWebFirstPaint -benchtime 7x ./cmd/okey/
func BenchmarkPlayWebFirstPaint(b *testing.B) {
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "chromium-headless-shell", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		b.Skip("no Chromium on this machine (apt-get install chromium)")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(b.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("no-first-run", true), chromedp.WindowSize(1280, 860))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	bctx, cancel2 := chromedp.NewContext(actx)
	defer cancel2()
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		b.Fatal(err)
	}
	var served, drawn, dealt []float64
	for range b.N {
		c, closeTab := chromedp.NewContext(bctx)
		if err := chromedp.Do(c, chromedp.Navigate("about:blank")); err != nil {
			b.Fatal(err)
		}
		srvs := make(chan *web.Server, 1)
		done := make(chan int, 1)
		var stdout, stderr bytes.Buffer
		t0 := time.Now()
		go func() {
			done <- playBots(botFlags{name: "ayse", data: b.TempDir(), strategy: "greedy", ruleset: "classic", bots: 3, web: true, noOpen: true,
				served: func(s *web.Server) { srvs <- s }}, &stdout, &stderr)
		}()
		s := <-srvs
		served = append(served, float64(time.Since(t0).Microseconds())/1000)
		if err := chromedp.Do(c, chromedp.Navigate(s.URL())); err != nil {
			b.Fatal(err)
		}
		type stamps struct {
			Draw  float64 `json:"draw"`
			Dealt float64 `json:"dealt"`
		}
		var st stamps
		end := time.Now().Add(20 * time.Second)
		for st.Draw == 0 || st.Dealt == 0 {
			if time.Now().After(end) {
				b.Fatalf("no table drawn: %+v", st)
			}
			time.Sleep(15 * time.Millisecond)
			v, err := chromedp.Run(c, chromedp.Evaluate[stamps](`({draw: Number(document.body.dataset.firstDrawAt || 0), dealt: Number(document.body.dataset.dealtAt || 0)})`))
			if err == nil {
				st = v
			}
		}
		at := float64(t0.UnixNano()) / 1e6
		drawn = append(drawn, st.Draw-at)
		dealt = append(dealt, st.Dealt-at)
		// The page's leave (and its question's yes) ends the command.
		if _, err := chromedp.Run(c, chromedp.Evaluate[bool](`(() => { document.getElementById('leave').click(); document.getElementById('leave-yes').click(); return true; })()`)); err != nil {
			b.Fatal(err)
		}
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			b.Fatalf("the leave did not end the command: %s", stderr.String())
		}
		closeTab()
	}
	med := func(xs []float64) (float64, float64) {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2], s[(len(s)*95+99)/100-1]
	}
	sm, sp := med(served)
	dm, dp := med(drawn)
	rm, rp := med(dealt)
	b.Logf("ms from the command's start, median/p95 over %d: served %.1f/%.1f, table drawn %.1f/%.1f, dealt rack drawn %.1f/%.1f", b.N, sm, sp, dm, dp, rm, rp)
	b.ReportMetric(dm, "ms-draw-p50")
	b.ReportMetric(dp, "ms-draw-p95")
	b.ReportMetric(rm, "ms-rack-p50")
	b.ReportMetric(rp, "ms-rack-p95")
}
