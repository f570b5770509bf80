package main

import (
	"crypto/ed25519"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okey-game/okey/chat"
)

// TestVerifySkipsChat: a table's chat file beside a transcript (protocol.md
// 7.13) is no part of any verdict: okey verify says it skipped it, and the
// exit status is the transcripts' alone (a chat file was "not an okey
// transcript", status 2, before).
func TestVerifySkipsChat(t *testing.T) {
	files := transcripts(t)
	path := chat.PathBeside(filepath.Join(t.TempDir(), "t1.okey"))
	f, err := chat.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	for i, text := range []string{"iyi oyunlar", "sağ ol"} {
		raw, err := (&chat.Message{Table: "t1", Member: i, Time: uint64(i + 1), Kind: chat.KindText, Text: text}).Sign(key)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Append(raw); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	for _, tc := range []struct {
		files []string
		code  int
	}{
		{[]string{path}, 0},
		{[]string{files["honest"], path}, 0},
		{[]string{path, files["cut"]}, 3},
		{[]string{files["cheat"], path}, 1},
	} {
		code, out, errs := runOkey(t, "", append([]string{"verify"}, tc.files...)...)
		if code != tc.code || !strings.Contains(out, path+": a table's chat, not a transcript: skipped") || strings.Contains(out+errs, "not an okey transcript") {
			t.Errorf("verify %v: exit %d, want %d: %s%s", tc.files, code, tc.code, out, errs)
		}
	}
	if _, out, _ := runOkey(t, "", "--lang", "tr", "verify", path); !strings.Contains(out, "masanın sohbeti") {
		t.Errorf("in Turkish: %s", out)
	}
	code, out, _ := runOkey(t, "", "verify", "--json", path)
	var j struct {
		File, Skipped, Verdict string
		Status                 int
	}
	if err := json.Unmarshal([]byte(out), &j); code != 0 || err != nil || j.Skipped != "chat" || j.Status != 0 || j.File != path {
		t.Errorf("--json: exit %d, %s (%v)", code, out, err)
	}
}
