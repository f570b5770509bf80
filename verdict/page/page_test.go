package page

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
)

// fakeWasm is a WebAssembly header and some bytes: Write checks only the
// header.
var fakeWasm = append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("okey"), 1000)...)

// TestWrite: the page holds the verifier gzip-compressed in base64, the
// transcript in base64 with its name escaped, both languages' words, and a
// Content-Security-Policy that allows exactly its two inline scripts and
// its style by their hashes, WebAssembly, and nothing else; it names no
// address a browser would load.
func TestWrite(t *testing.T) {
	transcript := []byte("okey-transcript/v1\n\x00\x01")
	var b bytes.Buffer
	if err := Write(&b, fakeWasm, transcript, `a"<b>.okey`, "tr"); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	block := func(id string) string {
		m := regexp.MustCompile(`(?s)<script type="application/octet-stream" id="` + id + `"[^>]*>(.*?)</script>`).FindStringSubmatch(doc)
		if m == nil {
			t.Fatalf("no %s block", id)
		}
		raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(m[1]), ""))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		return string(raw)
	}
	zr, err := gzip.NewReader(strings.NewReader(block("okey-wasm")))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, fakeWasm) {
		t.Error("the wasm inside does not inflate to the verifier")
	}
	if block("okey-transcript") != string(transcript) {
		t.Error("the transcript inside is not the file's bytes")
	}
	if !strings.Contains(doc, `data-name="a&#34;&lt;b&gt;.okey"`) {
		t.Error("the transcript's name is not escaped")
	}
	if !strings.Contains(doc, `data-lang="tr"`) || !strings.Contains(doc, Words("tr")["title"]) {
		t.Error("the page's language or its Turkish words are missing")
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(doc)
	if csp == nil {
		t.Fatal("no Content-Security-Policy")
	}
	for _, want := range []string{"default-src 'none'", "connect-src 'none'", "'wasm-unsafe-eval'", "form-action 'none'", "base-uri 'none'"} {
		if !strings.Contains(csp[1], want) {
			t.Errorf("the policy lacks %s: %s", want, csp[1])
		}
	}
	if strings.Contains(csp[1], "unsafe-inline") || strings.Contains(csp[1], "http") {
		t.Errorf("the policy allows too much: %s", csp[1])
	}
	// Each executable script and the style are allowed by their hash.
	for _, m := range regexp.MustCompile(`(?s)<(script|style)>(.*?)</(?:script|style)>`).FindAllStringSubmatch(doc, -1) {
		h := sha256.Sum256([]byte(m[2]))
		if !strings.Contains(csp[1], "'sha256-"+base64.StdEncoding.EncodeToString(h[:])+"'") {
			t.Errorf("a %s element is not allowed by the policy's hashes", m[1])
		}
	}
	tags := regexp.MustCompile(`(?s)(<script[^>]*>).*?</script>`).ReplaceAllString(doc, "$1")
	if regexp.MustCompile(`(?i)<[^>]*\s(src|href|action|data)\s*=`).MatchString(tags) {
		t.Error("the page names a resource to load")
	}
}

// TestWriteRefuses: what is not WebAssembly is no verifier.
func TestWriteRefuses(t *testing.T) {
	if err := Write(io.Discard, []byte("#!/bin/sh\n"), nil, "", ""); err == nil {
		t.Error("a shell script taken for the verifier")
	}
}

// TestWasmPath: $OKEY_VERIFY_WASM first, then beside the executable, else
// ErrNoWasm with where it looked.
func TestWasmPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "okey")
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if _, tried, err := WasmPath(getenv, exe); err != ErrNoWasm || len(tried) != 1 || tried[0] != filepath.Join(dir, WasmName) {
		t.Errorf("nothing there: %v %v", tried, err)
	}
	if err := os.WriteFile(filepath.Join(dir, WasmName), fakeWasm, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, _, err := WasmPath(getenv, exe); err != nil || p != filepath.Join(dir, WasmName) {
		t.Errorf("beside okey: %q %v", p, err)
	}
	env[WasmEnv] = filepath.Join(dir, "missing.wasm")
	if _, _, err := WasmPath(getenv, exe); err != ErrNoWasm {
		t.Errorf("$%s names a missing file: %v", WasmEnv, err)
	}
}

// TestCheckSkipsChat: a table's chat file is skipped as okey verify skips
// it, and a file that is no transcript is unreadable, in both languages.
func TestCheckSkipsChat(t *testing.T) {
	defer i18n.Set(i18n.English)
	if v := Check("t.chat", []byte("okey-chat/v1\n"), "en"); !strings.Contains(v.JSON, `"skipped":"chat"`) {
		t.Errorf("a chat file: %+v", v)
	}
	v := Check("x", []byte("hello"), "tr")
	if v.Status != 2 || !strings.Contains(v.Text, "okunamıyor") {
		t.Errorf("not a transcript, in Turkish: %+v", v)
	}
	if r := ReplayOf([]byte("hello"), "en"); r.Stop == "" || len(r.Messages) != 0 {
		t.Errorf("the replay of no transcript: %+v", r)
	}
}
