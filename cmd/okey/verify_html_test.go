package main

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okey-game/okey/verdict/page"
)

// TestVerifyHTML: okey verify --html writes the page with the transcript
// inside (and says the verdict, with verify's exit status); without the
// verifier it says how to build it and writes nothing; a file that is no
// transcript gets no page; bad usage is refused. (The page itself in a
// browser: verdict/page's TestPageInChromium.)
func TestVerifyHTML(t *testing.T) {
	files := transcripts(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "match.html")

	t.Setenv(page.WasmEnv, filepath.Join(dir, "none.wasm"))
	code, stdout, stderr := runOkey(t, "", "verify", "--html", out, files["cheat"])
	if code != 2 || !strings.Contains(stderr, "make build") || !strings.Contains(stderr, page.WasmEnv) {
		t.Errorf("without the verifier: exit %d: %s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a page written without the verifier")
	}

	wasm := filepath.Join(dir, "okey-verify.wasm")
	if err := os.WriteFile(wasm, append([]byte("\x00asm\x01\x00\x00\x00"), make([]byte, 64)...), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(page.WasmEnv, wasm)
	code, stdout, stderr = runOkey(t, "", "verify", "--html", out, files["cheat"])
	if code != 1 || !strings.Contains(stdout, "CHEATING") || !strings.Contains(stdout, "wrote "+out) {
		t.Errorf("with a cheat's transcript: exit %d: %s%s", code, stdout, stderr)
	}
	doc, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(files["cheat"])
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString(data)
	if !bytes.Contains(bytes.Join(bytes.Fields(doc), nil), []byte(b64)) || !bytes.Contains(doc, []byte(`data-name="`+filepath.Base(files["cheat"])+`"`)) {
		t.Error("the page does not hold the transcript and its name")
	}

	empty := filepath.Join(dir, "empty.html")
	if code, stdout, stderr := runOkey(t, "", "--lang", "tr", "verify", "--html", empty); code != 0 || !strings.Contains(stdout, "yazıldı") {
		t.Errorf("a page with no transcript, in Turkish: exit %d: %s%s", code, stdout, stderr)
	} else if doc, _ := os.ReadFile(empty); !bytes.Contains(doc, []byte(`data-lang="tr"`)) {
		t.Error("the Turkish command's page does not open in Turkish")
	}

	junk := filepath.Join(dir, "junk.okey")
	os.WriteFile(junk, []byte("hello"), 0o644)
	none := filepath.Join(dir, "none.html")
	if code, stdout, stderr := runOkey(t, "", "verify", "--html", none, junk); code != 2 || !strings.Contains(stderr, "not an okey transcript") {
		t.Errorf("not a transcript: exit %d: %s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(none); err == nil {
		t.Error("a page written for a file that is no transcript")
	}
	for _, args := range [][]string{{"--html", out, "a", "b"}, {"--html", out, "--json", "a"}} {
		if code, _, _ := runOkey(t, "", append([]string{"verify"}, args...)...); code != 2 {
			t.Errorf("verify %v: exit %d, want 2", args, code)
		}
	}
}
