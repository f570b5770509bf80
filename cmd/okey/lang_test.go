package main

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

// TestMain runs the package's tests in English whatever the machine's
// locale: a test of another language says so (--lang, or getenv).
func TestMain(m *testing.M) {
	getenv = func(string) string { return "" }
	code := m.Run()
	if transcriptsDir != "" {
		os.RemoveAll(transcriptsDir)
	}
	os.Exit(code)
}

// TestLangFlag: --lang works before or after the command, in both forms; a
// bad one is a usage error; the environment picks the language otherwise,
// LC_ALL first.
func TestLangFlag(t *testing.T) {
	for _, args := range [][]string{
		{"--lang", "tr", "help"}, {"help", "--lang", "tr"}, {"--lang=tr", "--help"}, {"-lang", "tr_TR.UTF-8", "help"},
	} {
		code, out, errs := runOkey(t, "", args...)
		if code != 0 || !strings.Contains(out, "kullanım: okey") || !strings.Contains(out, "Çıkış kodu") || strings.Contains(out, "usage:") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	for _, args := range [][]string{{"--lang", "de", "help"}, {"--lang", "xx", "version"}, {"help", "--lang"}, {"--lang=", "help"}} {
		if code, _, errs := runOkey(t, "", args...); code != 2 || !strings.Contains(errs, "en") {
			t.Errorf("%v: exit %d (stderr %q), want 2", args, code, errs)
		}
	}
	env := map[string]string{"LANG": "tr_TR.UTF-8"}
	getenv = func(k string) string { return env[k] }
	defer func() { getenv = func(string) string { return "" } }()
	if _, out, _ := runOkey(t, "", "help"); !strings.Contains(out, "komutlar:") {
		t.Errorf("LANG=tr_TR: not Turkish:\n%s", out)
	}
	if _, out, _ := runOkey(t, "", "--lang", "en", "help"); !strings.Contains(out, "commands:") {
		t.Errorf("--lang en under LANG=tr_TR: not English:\n%s", out)
	}
	env["LC_ALL"] = "C"
	if _, out, _ := runOkey(t, "", "help"); !strings.Contains(out, "commands:") {
		t.Errorf("LC_ALL=C over LANG=tr_TR: not English:\n%s", out)
	}
}

// TestTurkishHelp: every command's help is Turkish with --lang tr, and
// keeps the flags' names.
func TestTurkishHelp(t *testing.T) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		code, out, _ := runOkey(t, "", "--lang", "tr", n, "-h")
		if code != 0 || !strings.Contains(out, "kullanım: okey "+n) || strings.Contains(out, "usage:") {
			t.Errorf("%s -h in Turkish: exit %d:\n%s", n, code, out)
		}
	}
	_, out, _ := runOkey(t, "", "--lang", "tr", "play", "-h")
	for _, want := range []string{"-bots", "botlara karşı", "-timer", "hamle süresi"} {
		if !strings.Contains(out, want) {
			t.Errorf("play -h in Turkish lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runOkey(t, "", "--lang", "tr", "help", "rules", "german")
	if !strings.Contains(out, "## Alman (`german`)") || strings.Contains(out, "## Classic") || strings.Contains(out, "Klasik") {
		t.Errorf("help rules german in Turkish:\n%s", out)
	}
	_, out, _ = runOkey(t, "", "help", "rules", "101")
	if !strings.Contains(out, "## Okey 101 (`101`)") || !strings.Contains(out, "## The tiles") {
		t.Errorf("help rules 101:\n%s", out)
	}
}

// TestTurkishAnalyze: the text report is Turkish, marks the okey and says
// what it stands for; --json stays English.
func TestTurkishAnalyze(t *testing.T) {
	hand := []string{"--indicator", "R4", "R1", "R2", "R3", "Y7", "B7", "K7", "K9", "K10", "K11", "K12", "B1", "B2", "B3", "R5"}
	code, out, errs := runOkey(t, "", append([]string{"--lang", "tr", "analyze"}, hand...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"gösterge R4, okey R5", "bitiyor:  perler", "K9 K10 K11 K12 K13*", "* okey (R5), K13 yerine geçiyor"} {
		if !strings.Contains(out, want) {
			t.Errorf("Turkish report lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"indicator", "winning", "stands for"} {
		if strings.Contains(out, bad) {
			t.Errorf("Turkish report says %q:\n%s", bad, out)
		}
	}
	_, out, _ = runOkey(t, "", append([]string{"--lang", "tr", "analyze", "--json"}, hand...)...)
	var j map[string]any
	if err := json.Unmarshal([]byte(out), &j); err != nil || j["kind"] != "groups" {
		t.Errorf("--json under --lang tr: %v %q", err, out)
	}
	// Seven pairs: the pair the okey completes is marked.
	_, out, _ = runOkey(t, "", "analyze", "--indicator", "R4", "R1", "R1", "R5", "Y7", "B7", "B7", "K9", "K9", "K11", "K11", "B1", "B1", "B3", "B3")
	if !strings.Contains(out, "winning:  seven pairs") || !strings.Contains(out, "Y7 Y7*") || !strings.Contains(out, "* okey (R5) stands for Y7") {
		t.Errorf("seven pairs report:\n%s", out)
	}
}

// TestTurkishVerify: verify's text is Turkish, its --json English.
func TestTurkishVerify(t *testing.T) {
	lane.NoRace(t)
	files := transcripts(t)
	code, out, _ := runOkey(t, "", "--lang", "tr", "verify", files["honest"])
	if code != 0 || !strings.Contains(out, ": dürüst: ") || strings.Contains(out, ": honest:") {
		t.Errorf("honest, Turkish: exit %d: %q", code, out)
	}
	code, out, _ = runOkey(t, "", "--lang", "tr", "verify", files["cut"])
	if code != 3 || !strings.Contains(out, "yarım, buraya kadar dürüst") || !strings.Contains(out, "kimse suçlanmıyor") {
		t.Errorf("cut, Turkish: exit %d: %q", code, out)
	}
	code, out, _ = runOkey(t, "", "--lang", "tr", "verify", "--json", files["dir"])
	if code != 2 || !strings.Contains(out, `"error":"is a directory, not a transcript"`) {
		t.Errorf("--json under --lang tr: exit %d: %q", code, out)
	}
	_, out, _ = runOkey(t, "", "--lang", "tr", "verify", files["dir"])
	if !strings.Contains(out, "bir klasör, kayıt değil") {
		t.Errorf("a directory, Turkish: %q", out)
	}
}

// TestTakeLang: --lang is taken from anywhere before "--", the last one
// wins, and the other arguments keep their order.
func TestTakeLang(t *testing.T) {
	rest, lang, given, err := takeLang([]string{"--lang", "en", "verify", "-lang=tr", "a", "--", "--lang", "x"})
	if err != nil || !given || lang != "tr" || strings.Join(rest, " ") != "verify a -- --lang x" {
		t.Fatalf("takeLang: %q %q %v %v", rest, lang, given, err)
	}
	if _, _, given, err := takeLang([]string{"verify", "a"}); given || err != nil {
		t.Fatalf("no --lang: given %v, %v", given, err)
	}
	if _, _, _, err := takeLang([]string{"verify", "--lang"}); err == nil {
		t.Fatal("--lang with no value: no error")
	}
}
