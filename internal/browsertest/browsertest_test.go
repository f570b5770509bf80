//go:build !(js && wasm)

package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/lane"
)

// page is a test page: a button that says "clicked" 50 ms after a click,
// keys and mouse presses written down, and a box to drag onto.
const page = `<!doctype html><title>browsertest</title>
<style>#from, #to { position: absolute; width: 40px; height: 40px; } #from { left: 10px; top: 100px; } #to { left: 300px; top: 200px; }</style>
<button id="b" onclick="setTimeout(() => { document.body.dataset.said = 'clicked'; }, 50)">b</button>
<div id="from"></div><div id="to"></div>
<script>
document.addEventListener('keydown', (e) => { document.body.dataset.keys = (document.body.dataset.keys || '') + e.key; });
document.addEventListener('mousedown', (e) => { document.body.dataset.down = e.target.id; });
document.addEventListener('mouseup', (e) => { document.body.dataset.up = e.target.id; });
</script>`

type seen struct {
	Said string `json:"said"`
	Keys string `json:"keys"`
	Down string `json:"down"`
	Up   string `json:"up"`
}

const readSeen DOM[seen] = `({said: document.body.dataset.said || '', keys: document.body.dataset.keys || '',
	down: document.body.dataset.down || '', up: document.body.dataset.up || ''})`

// fatal is a testing.TB whose Fatalf writes the message down and ends
// its goroutine, as t.Fatalf does, without failing the test.
type fatal struct {
	testing.TB
	msg chan string
}

func (f fatal) Fatalf(format string, args ...any) {
	f.msg <- fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestHelpers: in a Chromium of Start, a page opened by Page shows what
// Click, Key and Drag did, Until waits for a change that comes after the
// click (and fails, with the page as it was read, after its deadline when
// the change never comes), ClickFor clicks until the page says so, Shoot
// writes a PNG, and WebSocket tells a refused socket from an open page.
func TestHelpers(t *testing.T) {
	lane.NoRace(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, page) }))
	defer srv.Close()
	ctx := Start(t, Options{Width: 800, Height: 600})
	c := Page(t, ctx, srv.URL, "#b")

	Click(t, c, "#b")
	if s := readSeen.Until(t, c, 5*time.Second, "the click's answer", func(s seen) bool { return s.Said != "" }); s.Said != "clicked" {
		t.Fatalf("after the click: %+v", s)
	}
	Key(t, c, "x")
	readSeen.Until(t, c, 5*time.Second, "the key", func(s seen) bool { return s.Keys == "x" })
	Drag(t, c, "#from", "#to")
	if s := readSeen.Read(t, c); s.Down != "from" || s.Up != "to" {
		t.Fatalf("the drag: pressed on %q, let go on %q", s.Down, s.Up)
	}

	// A wait for what never comes fails after its deadline, saying what
	// it waited for and the page.
	f := fatal{TB: t, msg: make(chan string, 1)}
	start := time.Now()
	go readSeen.Until(f, c, 300*time.Millisecond, "a word never said", func(s seen) bool { return s.Said == "never" })
	msg := <-f.msg
	if took := time.Since(start); took < 300*time.Millisecond || !strings.Contains(msg, "a word never said") || !strings.Contains(msg, "clicked") {
		t.Fatalf("a wait that cannot end: after %v %q", took, msg)
	}

	// ClickFor on a button that answers.
	Eval[bool](t, c, `(() => { delete document.body.dataset.said; return true; })()`)
	readSeen.ClickFor(t, c, "#b", "the click's answer again", func(s seen) bool { return s.Said == "clicked" })

	Shoot(t, c, "helpers")
	if b, err := os.ReadFile(filepath.Join(t.ArtifactDir(), "helpers.png")); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Fatalf("the screenshot: %d bytes, %v", len(b), err)
	}

	closed := httptest.NewServer(http.NotFoundHandler())
	dead := "ws" + strings.TrimPrefix(closed.URL, "http") + "/ws"
	closed.Close()
	if got, err := WebSocket(c, dead); err != nil || got != "refused" {
		t.Fatalf("a WebSocket to a closed port: %q %v", got, err)
	}
}

// TestTailBuffer: the browser's output keeps its last tailLines lines,
// whole, however the writes split them, and a line still open at the end.
func TestTailBuffer(t *testing.T) {
	b := new(tailBuffer)
	for i := range tailLines + 10 {
		line := fmt.Sprintf("line %d\n", i)
		b.Write([]byte(line[:3]))
		b.Write([]byte(line[3:]))
	}
	b.Write([]byte("open"))
	got := strings.Split(b.String(), "\n")
	if len(got) != tailLines+1 || got[0] != "line 10" || got[tailLines-1] != fmt.Sprintf("line %d", tailLines+9) || got[tailLines] != "open" {
		t.Errorf("kept %d lines: first %q, last %q", len(got), got[0], got[len(got)-1])
	}
	b.Write([]byte(strings.Repeat("x", 10000)))
	if last := strings.Split(b.String(), "\n")[tailLines]; len(last) != 4096 {
		t.Errorf("a line without an end kept %d bytes, want its last 4096", len(last))
	}
}

// TestStartAgain: a browser that ends before it answers (here a chromium
// on PATH that exits at its first start and is the real one after) is
// started again, the failure in the test's log, and the second one serves
// the test; one that never starts fails the test after startTries tries.
func TestStartAgain(t *testing.T) {
	lane.NoRace(t)
	real := Chromium(t)
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	script := "#!/bin/sh\nif [ ! -e " + marker + " ]; then : > " + marker + "; echo 'first start: gone' >&2; exit 1; fi\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "chromium"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	logs := &logged{TB: t}
	ctx := Start(logs, Options{Width: 400, Height: 300})
	if got := Eval[int](t, ctx, "6*7"); got != 42 {
		t.Errorf("the second browser: 6*7 = %d", got)
	}
	if len(logs.lines) != 1 || !strings.Contains(logs.lines[0], "did not start (try 1 of 3), starting it again") || !strings.Contains(logs.lines[0], "first start: gone") {
		t.Errorf("the log of the first try: %q", logs.lines)
	}

	never := filepath.Join(t.TempDir(), "chromium")
	if err := os.WriteFile(never, []byte("#!/bin/sh\necho 'never' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(never)+string(os.PathListSeparator)+os.Getenv("PATH"))
	f := fatal{TB: t, msg: make(chan string, 1)}
	go func() { Start(f, Options{}) }()
	select {
	case msg := <-f.msg:
		if !strings.Contains(msg, "does not start (3 tries)") || !strings.Contains(msg, "never") {
			t.Errorf("a browser that never starts: %q", msg)
		}
	case <-time.After(Wait):
		t.Fatal("a browser that never starts: no failure")
	}
}

// logged is a test whose Logf lines are kept.
type logged struct {
	testing.TB
	lines []string
}

func (l *logged) Logf(format string, args ...any) {
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
	l.TB.Logf(format, args...)
}

func (l *logged) Helper() {}
