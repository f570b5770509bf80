//go:build !(js && wasm)

// Package browsertest drives a headless Chromium for the module's browser
// tests: web's pages (the table, the spectator's and replay's board),
// okey play --web's lobby (cmd/okey) and okey verify --html's page
// (verdict/page). It is a test helper: only _test.go files import it (the
// root's TestTestHelpersOnlyInTests holds every other file to that).
//
// One Chromium start-up for all: Debian's chromium (or another of the
// names Chromium goes by on PATH), headless, without the sandbox (the tests
// run as root in CI), with a fresh profile directory per test. Under
// CI=true a missing browser fails the test; elsewhere it skips with the
// reason. A browser that ends before it answers is started again (3 tries,
// each in the test's log); the browser's output is shown only when the
// test fails.
//
// The page helpers read the DOM, never pixels, and wait with deadlines,
// never with a sleep: every action runs under a deadline (Wait unless the
// call names one), and Until polls the page until its condition holds or
// fails the test with the page as it was last read. A screenshot of a
// scene goes to the test's artifact directory (go test -artifacts keeps
// it) and its path to the test's log.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Wait is the deadline of one action (a navigation and its wait, a click,
// a key, a reading of the page) that names none: far above what any takes
// on a loaded machine, there only so that a page that never shows what a
// test waits for fails the test with the reason instead of hanging it.
const Wait = 60 * time.Second

// poll is how often Until and ClickFor read the page again.
const poll = 5 * time.Millisecond

// Chromium is the browser's path on PATH. Without one the test fails under
// CI=true (the browser tests must run there) and skips elsewhere.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "chromium-headless-shell", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium on this machine (apt-get install chromium): the browser tests must run under CI")
	}
	t.Skip("no Chromium on this machine (apt-get install chromium): the browser tests skip")
	return ""
}

// Options are how a test's browser differs from the others'.
type Options struct {
	// Parent bounds the browser's life (nil: the test's own, until its
	// cleanup).
	Parent context.Context
	// Life bounds the browser's life from its start (0: Parent alone).
	// Every tab and action of the browser ends with it.
	Life time.Duration
	// Width and Height are the window's size (0: 1280 by 860).
	Width, Height int
	// Flags are more command-line switches: name to value (true for a
	// switch without a value), e.g. "host-resolver-rules".
	Flags map[string]any
}

// Start starts a headless Chromium with a fresh profile and returns the
// context of its first tab, the browser running. The test's cleanup stops
// it; chromedp.Cancel on the returned context stops it earlier.
func Start(t testing.TB, o Options) context.Context {
	t.Helper()
	exe := Chromium(t)
	parent := o.Parent
	if parent == nil {
		parent = context.Background()
	}
	w, h := o.Width, o.Height
	if w == 0 || h == 0 {
		w, h = 1280, 860
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // as root; the tests drive only their own pages
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(w, h),
	)
	for _, k := range slices.Sorted(maps.Keys(o.Flags)) {
		opts = append(opts, chromedp.Flag(k, o.Flags[k]))
	}
	// The browser's own output (its start-up complaints about D-Bus and the
	// like on every start) is the test's evidence only when the test fails:
	// then its last lines go to the test's log, after the test's own.
	out := new(tailBuffer)
	opts = append(opts, chromedp.CombinedOutput(out))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("chromium's output, its last %d lines:\n%s", tailLines, out.String())
		}
	})
	// A browser that closes its end before it answers its first command is
	// started again (a fresh profile), up to startTries in all, each failure
	// in the test's log: CI saw Chromium 156 end so once, 0.5 s into the
	// start, with nothing in its output but the start-up lines every start
	// prints. Nothing a test checks happens before a browser answers, so
	// this retries the machine's browser, never the behaviour under test.
	for try := 1; ; try++ {
		ctx, stop, err := start(parent, append(opts, chromedp.UserDataDir(t.TempDir())), o.Life)
		if err == nil {
			t.Cleanup(stop)
			return ctx
		}
		stop()
		if try == startTries || parent.Err() != nil {
			t.Fatalf("chromium (%s) does not start (%d tries): %v", exe, try, err)
		}
		t.Logf("chromium (%s) did not start (try %d of %d), starting it again: %v", exe, try, startTries, err)
	}
}

// startTries is how many times Start starts a browser that does not answer.
const startTries = 3

// start starts one browser and returns its first tab's context once the
// browser answered, and what stops it.
func start(parent context.Context, opts []chromedp.ExecAllocatorOption, life time.Duration) (context.Context, func(), error) {
	actx, cancelA := chromedp.NewExecAllocator(parent, opts...)
	ctx, cancel := chromedp.NewContext(actx)
	stop := func() { cancel(); cancelA() }
	if life > 0 {
		var cancelL context.CancelFunc
		ctx, cancelL = context.WithTimeout(ctx, life)
		stop = func() { cancelL(); cancel(); cancelA() }
	}
	// The first Run starts the browser and binds it to ctx: no deadline
	// but the browser's own life on it.
	return ctx, stop, chromedp.Do(ctx)
}

// tailLines is how many of the browser's last output lines a failing test
// shows.
const tailLines = 40

// tailBuffer keeps the last tailLines lines written to it; the browser's
// output goroutine writes while the test's cleanup reads.
type tailBuffer struct {
	mu    sync.Mutex
	lines []string
	part  string
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.part + string(p)
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		b.lines = append(b.lines, s[:i])
		s = s[i+1:]
	}
	if n := len(b.lines); n > tailLines {
		b.lines = append(b.lines[:0], b.lines[n-tailLines:]...)
	}
	if len(s) > 4096 { // a line without an end: its last bytes
		s = s[len(s)-4096:]
	}
	b.part = s
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(append(slices.Clone(b.lines), b.part), "\n")
}

// Tab opens a new tab of the browser of ctx; the test's cleanup closes it.
func Tab(t testing.TB, ctx context.Context) context.Context {
	t.Helper()
	c, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	// As for the browser: the tab's first Run binds the tab to its context.
	if err := chromedp.Do(c); err != nil {
		t.Fatalf("a new tab: %v", err)
	}
	return c
}

// Page opens url in a new tab of the browser ctx and waits until the
// element sel is visible in it.
func Page(t testing.TB, ctx context.Context, url, sel string) context.Context {
	t.Helper()
	c := Tab(t, ctx)
	Open(t, c, url, sel)
	return c
}

// Run runs a on the tab c under the deadline d, failing the test (what
// names the step) when it fails or d passes.
func Run[T any](t testing.TB, c context.Context, what string, d time.Duration, a chromedp.Action[T]) T {
	t.Helper()
	tc, cancel := context.WithTimeout(c, d)
	defer cancel()
	v, err := chromedp.Run(tc, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// Do runs actions one after the other on the tab c under the deadline
// Wait, failing the test when one fails.
func Do(t testing.TB, c context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	Run(t, c, "the page", Wait, chromedp.Steps(actions...))
}

// Eval evaluates the script js in the page (under Wait) and returns its
// value as a T, failing the test when the script fails.
func Eval[T any](t testing.TB, c context.Context, js string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	return Run(t, c, "the page's script "+short(js), Wait, chromedp.Evaluate[T](js, opts...))
}

// Open loads url in the tab c and waits until the element sel is visible.
func Open(t testing.TB, c context.Context, url, sel string) {
	t.Helper()
	Run(t, c, "opening "+url+" until "+sel+" shows", Wait, chromedp.Steps(chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(sel))))
}

// Visible waits until the element sel is visible in the tab c.
func Visible(t testing.TB, c context.Context, sel string) {
	t.Helper()
	Run(t, c, "waiting for "+sel, Wait, chromedp.WaitVisible(chromedp.CSS(sel)))
}

// DOM is a script that reads the page (its DOM, never pixels) as a T, a
// value of JSON: "(() => { ...; return {seq: ...}; })()".
type DOM[T any] string

// Read reads the page in the tab c, again while it is being replaced (a
// page handing over to another), for 10 seconds at the most.
func (js DOM[T]) Read(t testing.TB, c context.Context) T {
	t.Helper()
	return js.Until(t, c, 10*time.Second, "a reading of the page", func(T) bool { return true })
}

// Until reads the page in the tab c until ok holds of the reading, and
// returns it; it fails the test after d with the last reading (or the
// reason none came), and at once when the tab is gone.
func (js DOM[T]) Until(t testing.TB, c context.Context, d time.Duration, what string, ok func(T) bool) T {
	t.Helper()
	end := time.Now().Add(d)
	for {
		v, err := read[T](c, string(js), end)
		if err == nil && ok(v) {
			return v
		}
		if c.Err() != nil {
			t.Fatalf("waiting for %s: the tab is gone (%v); the page: %+v %v", what, context.Cause(c), v, err)
		}
		if time.Now().After(end) {
			t.Fatalf("waited %v for %s; the page: %+v %v", d, what, v, err)
		}
		time.Sleep(poll)
	}
}

// ClickFor clicks the element sel in the tab c until ok holds of a
// reading of the page, and returns that reading: a click on an element
// the page replaced at that moment is lost (a new state came). After a
// click it reads for 3 seconds before it clicks again; it fails the test
// after 30.
func (js DOM[T]) ClickFor(t testing.TB, c context.Context, sel, what string, ok func(T) bool) T {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for {
		tc, cancel := context.WithTimeout(c, 3*time.Second)
		_ = chromedp.Do(tc, chromedp.Click(chromedp.CSS(sel), chromedp.AtLeast(0)))
		cancel()
		seen := time.Now().Add(3 * time.Second)
		for time.Now().Before(seen) {
			if v, err := read[T](c, string(js), seen); err == nil && ok(v) {
				return v
			}
			time.Sleep(poll)
		}
		if time.Now().After(end) {
			t.Fatalf("clicked %s: no %s; the page: %+v", sel, what, js.Read(t, c))
		}
	}
}

// read is one reading of the page, under the deadline end (5 seconds at
// the least).
func read[T any](c context.Context, js string, end time.Time) (T, error) {
	tc, cancel := context.WithDeadline(c, later(end, time.Now().Add(5*time.Second)))
	defer cancel()
	return chromedp.Run(tc, chromedp.Evaluate[T](js))
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Click clicks the element sel, again when the page redrew it between
// finding it and clicking it (a new state came).
func Click(t testing.TB, c context.Context, sel string) {
	t.Helper()
	end := time.Now().Add(Wait)
	for {
		tc, cancel := context.WithDeadline(c, end)
		err := chromedp.Do(tc, chromedp.Click(chromedp.CSS(sel)))
		cancel()
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "Could not find node") || time.Now().After(end) {
			t.Fatalf("clicking %s: %v", sel, err)
		}
		time.Sleep(poll)
	}
}

// Key types keys (chromedp/kb's names for the keys without a character)
// into the tab c.
func Key(t testing.TB, c context.Context, keys string) {
	t.Helper()
	Run(t, c, "the key "+strconv.Quote(keys), Wait, chromedp.KeyEvent(keys))
}

// Centre is the middle of the element sel in the page's viewport.
func Centre(t testing.TB, c context.Context, sel string) (x, y float64) {
	t.Helper()
	xy := Eval[[]float64](t, c, `(() => { const r = document.querySelector(`+strconv.Quote(sel)+`).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	if len(xy) != 2 {
		t.Fatalf("where is %s: %v", sel, xy)
	}
	return xy[0], xy[1]
}

// Drag drags the element from onto the element to with the mouse.
func Drag(t testing.TB, c context.Context, from, to string) {
	t.Helper()
	x0, y0 := Centre(t, c, from)
	x1, y1 := Centre(t, c, to)
	drag(t, c, x0, y0, x1, y1)
}

// DragTo drags the element from to the point x, y of the viewport.
func DragTo(t testing.TB, c context.Context, from string, x, y float64) {
	t.Helper()
	x0, y0 := Centre(t, c, from)
	drag(t, c, x0, y0, x, y)
}

// drag presses the left button at x0, y0, moves to x1, y1 in five steps
// and lets go there.
func drag(t testing.TB, c context.Context, x0, y0, x1, y1 float64) {
	t.Helper()
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1))}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	Do(t, c, steps...)
}

// Shoot writes a screenshot of the whole page in the tab c to the test's
// artifact directory as name.png and logs its path. A screenshot that
// fails is an error of the test, not its end.
func Shoot(t testing.TB, c context.Context, name string) {
	t.Helper()
	tc, cancel := context.WithTimeout(c, Wait)
	defer cancel()
	b, err := chromedp.Run(tc, chromedp.FullScreenshot(100)) // PNG
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(t.ArtifactDir(), name+".png")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Error(err)
		return
	}
	t.Logf("screenshot %s (%d bytes)", p, len(b))
}

// WebSocket opens a WebSocket from the page in the tab c to url and says
// how it went: "open", "refused", or "timeout" after 4 seconds.
func WebSocket(c context.Context, url string) (string, error) {
	js := `new Promise((res) => { const ws = new WebSocket(` + strconv.Quote(url) + `);
		ws.onopen = () => { ws.close(); res("open"); }; ws.onerror = () => res("refused"); setTimeout(() => res("timeout"), 4000); })`
	tc, cancel := context.WithTimeout(c, Wait)
	defer cancel()
	got, err := chromedp.Run(tc, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return "", fmt.Errorf("the WebSocket to %s: %w", url, err)
	}
	if got == "" {
		return "", errors.New("the WebSocket probe said nothing")
	}
	return got, nil
}

// short is the head of a script, for a message.
func short(js string) string {
	js = strings.Join(strings.Fields(js), " ")
	if len(js) > 60 {
		return strconv.Quote(js[:60] + "…")
	}
	return strconv.Quote(js)
}
