// Package page writes the page of okey verify --html: one self-contained
// HTML file that checks an okey transcript in any browser, offline, with
// okey's own verifier compiled to WebAssembly, so that a player can send a
// match to a friend who has no okey: "see for yourself".
//
// The page holds, inline: the verifier (the command in ./wasm, built with
// GOOS=js GOARCH=wasm; gzip-compressed, then base64, and inflated by the
// browser's DecompressionStream), Go's wasm_exec.js (vendored from Go's
// lib/wasm, with Go's licence beside it as wasm_exec.LICENSE), the page's
// script and style, the page's words in English and Turkish (from
// internal/i18n), and optionally a transcript. A transcript dropped on the
// page, chosen with its file button, or the one inside is checked by the
// same Go code as okey verify (Check: verdict.Bytes, its text and its
// JSON), never by JavaScript, and laid out by the same code as okey replay
// (ReplayOf: tablemodel.LoadReplay's log lines, each hand's end, its scores and
// racks).
//
// Why a package of its own, beside verdict: verdict stays what okey verify
// needs, and the page's template, scripts and licence stay out of
// cmd/okey; the WebAssembly command imports this package (Check, ReplayOf)
// and okey verify --html imports it too (Write), so the two agree on the
// page's words. This package imports no html/template (nor net): it builds
// for js/wasm, and the WebAssembly stays as small as the verifier allows.
//
// The verifier is not committed (a binary, rebuilt with the code): make
// build writes bin/okey-verify.wasm beside bin/okey, and okey verify --html
// reads it from $OKEY_VERIFY_WASM or from beside its own executable
// (WasmPath), saying what to do when it is missing. go build ./... and the
// README's commands need nothing more.
//
// Sizes (Go 1.26; TestPageInChromium logs them): the verifier is 6.53 MB,
// 1.79 MB gzip-compressed (make build's flags); the page without a
// transcript is 2.48 MB, of which 27 KB is not the verifier. verdict and
// ReplayOf take the table's words and okey replay's lines from ui/tablemodel,
// the model without the terminal: the verifier brings no tview and no tcell
// with its terminfo tables (TestWasmImportsNoTerminal). With the words
// taken from ui, they cost 0.70 MB raw, 0.18 MB gzip, 0.25 MB of the page
// (7.23 MB, 1.98 MB, 2.73 MB: go build as make build, before and after).
//
// The page loads nothing from anywhere: its Content-Security-Policy (in a
// meta element) allows only its own inline script and style, by their
// SHA-256 hashes, and WebAssembly ('wasm-unsafe-eval'); connect-src, img-src
// and every other source are 'none', so a page opened from a mail or a USB
// stick cannot call out. It needs a browser with WebAssembly,
// DecompressionStream and 'wasm-unsafe-eval' (Chrome and Edge 97+, Firefox
// 113+, Safari 16.4+).
package page

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed" // the page's template, script, style and Go's wasm_exec.js
	"encoding/base64"
	"encoding/json"
	"errors"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/okey-game/okey/internal/i18n"
)

//go:embed page.html
var pageHTML string

//go:embed page.js
var pageJS string

//go:embed page.css
var pageCSS string

//go:embed wasm_exec.js
var wasmExecJS string

// WasmName is the verifier's file name beside okey's executable.
const WasmName = "okey-verify.wasm"

// WasmEnv names the environment variable that gives the verifier's path.
const WasmEnv = "OKEY_VERIFY_WASM"

// ErrNoWasm is WasmPath's error when no verifier is found.
var ErrNoWasm = errors.New("page: no " + WasmName)

// WasmPath finds the verifier: $OKEY_VERIFY_WASM when set, else
// okey-verify.wasm beside the executable exe (os.Executable's). It returns
// ErrNoWasm, with the paths it looked at, when there is none.
func WasmPath(getenv func(string) string, exe string) (string, []string, error) {
	if p := getenv(WasmEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", []string{p}, ErrNoWasm
		}
		return p, nil, nil
	}
	var tried []string
	if exe != "" {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), WasmName)
		if _, err := os.Stat(p); err == nil {
			return p, nil, nil
		}
		tried = append(tried, p)
	}
	return "", tried, ErrNoWasm
}

// words are the page's own words (the verdicts and the replay's lines
// come from the verifier): each an i18n key with its Turkish, with at
// most one argument, a %s.
var words = map[string]string{
	"title":     i18n.Mark("okey: check a match transcript"),
	"intro":     i18n.Mark("This page checks an okey transcript with okey's own verifier, in your browser, offline: the signatures and their chain, every proof, the audits, every move against the rules and the scores. It names a seat only on proof signed by that seat."),
	"drop":      i18n.Mark("Drop a transcript (.okey) on this page, or choose one:"),
	"loading":   i18n.Mark("starting the verifier..."),
	"checking":  i18n.Mark("checking %s..."),
	"noWasm":    i18n.Mark("this browser cannot run the verifier: %s"),
	"verdict":   i18n.Mark("Verdict"),
	"json":      i18n.Mark("as okey verify --json prints it"),
	"hands":     i18n.Mark("Hands"),
	"hand":      i18n.Mark("hand"),
	"winner":    i18n.Mark("winner"),
	"points":    i18n.Mark("points"),
	"total":     i18n.Mark("total"),
	"rack":      i18n.Mark("rack at the end"),
	"messages":  i18n.Mark("Messages"),
	"step":      i18n.Mark("step"),
	"seat":      i18n.Mark("seat"),
	"kind":      i18n.Mark("kind"),
	"says":      i18n.Mark("at the table"),
	"noHands":   i18n.Mark("no hand ended"),
	"inside":    i18n.Mark("the transcript inside this page"),
	"timeTaken": i18n.Mark("checked in %s ms"),
	"language":  i18n.Mark("language"),
}

// Words are the page's words in a language (the keys of words). It sets
// the process's language for a moment (i18n.Set), then sets it back.
func Words(lang string) map[string]string {
	tag, err := i18n.Parse(lang)
	if err != nil {
		tag = i18n.English
	}
	was := i18n.Current()
	defer i18n.Set(was)
	i18n.Set(tag)
	out := map[string]string{}
	for k, key := range words {
		// A word's one argument (%s) is filled in by the page's script:
		// keep the verb in the text.
		var args []any
		for range strings.Count(key, "%s") {
			args = append(args, "%s")
		}
		out[k] = i18n.TKeyArgs(key, args)
	}
	return out
}

// Write writes the page: wasm is the verifier (bin/okey-verify.wasm's
// bytes), transcript the transcript file to put inside (nil: none, the
// page waits for one to be dropped) named name, lang the page's first
// language ("en" or "tr"; "" picks the browser's, navigator.language).
func Write(w io.Writer, wasm, transcript []byte, name, lang string) error {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return errors.New("page: the verifier is not WebAssembly")
	}
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(wasm)
	if err := zw.Close(); err != nil {
		return err
	}
	all := map[string]map[string]string{"en": Words("en"), "tr": Words("tr")}
	wordsJSON, err := json.Marshal(all) // escapes <, > and &: safe inside a script element
	if err != nil {
		return err
	}
	switch lang {
	case "", "en", "tr":
	default:
		lang = ""
	}
	var doc strings.Builder
	doc.WriteString(strings.NewReplacer(
		"{{CSP}}", csp(),
		"{{LANG}}", lang,
		"{{HTMLLANG}}", htmlLang(lang),
		"{{CSS}}", pageCSS,
		"{{WORDS}}", string(wordsJSON),
		"{{WASM}}", wrap(base64.StdEncoding.EncodeToString(z.Bytes())),
		"{{TRANSCRIPT}}", wrap(base64.StdEncoding.EncodeToString(transcript)),
		"{{NAME}}", html.EscapeString(name),
		"{{WASMEXEC}}", wasmExecJS,
		"{{JS}}", pageJS,
	).Replace(pageHTML))
	_, err = io.WriteString(w, doc.String())
	return err
}

func htmlLang(lang string) string {
	if lang == "" {
		return "en"
	}
	return lang
}

// csp is the page's Content-Security-Policy: its own inline script and
// style by their hashes, WebAssembly, and nothing else.
func csp() string {
	return "default-src 'none'; script-src " + hash(wasmExecJS) + " " + hash(pageJS) + " 'wasm-unsafe-eval'; style-src " + hash(pageCSS) +
		"; img-src 'none'; connect-src 'none'; font-src 'none'; media-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; form-action 'none'; base-uri 'none'"
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

// wrap breaks base64 into lines of 76 characters (a page that mail or an
// editor will not choke on).
func wrap(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76])
		b.WriteByte('\n')
		s = s[76:]
	}
	b.WriteString(s)
	return b.String()
}
