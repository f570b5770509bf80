package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/i18n"
)

// TestLevelsEverywhere (issue 37, 9): okey play, okey bot and okey
// tournament take the same level names (--level), and each one's -h lists
// every level with its strategy, its measured strength and the command
// that measured it, in English and in Turkish; learned is a level; okey
// bot's default is okey play's; a tournament refuses an unknown level and a
// level given with a strategy.
func TestLevelsEverywhere(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) }) // --lang tr is process-wide
	if !strings.Contains(strings.Join(bot.LevelNames(), ","), "learned") {
		t.Errorf("no learned level: %v", bot.LevelNames())
	}
	for _, lang := range []string{"en", "tr"} {
		for _, args := range [][]string{{"play", "-h"}, {"bot", "-h"}, {"tournament", "create", "-h"}} {
			var out, errb bytes.Buffer
			run(append([]string{"--lang", lang}, args...), nil, &out, &errb)
			s := out.String() + errb.String()
			if !strings.Contains(s, bot.LevelsMeasured) {
				t.Errorf("%s %v: the measuring command is not given:\n%s", lang, args, s)
			}
			for _, l := range bot.Levels {
				if !strings.Contains(s, "  "+l.Level) || !strings.Contains(s, l.Strategy+" ") || !strings.Contains(s, l.Share) {
					t.Errorf("%s %v: level %s (%s, %s) not listed:\n%s", lang, args, l.Level, l.Strategy, l.Share, s)
				}
				if strings.Contains(l.Share, "SHARE") {
					t.Errorf("level %s: no measured share", l.Level)
				}
			}
			if !strings.Contains(s, "-level") {
				t.Errorf("%s %v: no --level flag:\n%s", lang, args, s)
			}
		}
	}
	var out, errb bytes.Buffer
	run([]string{"bot", "-h"}, nil, &out, &errb)
	if h := out.String() + errb.String(); !strings.Contains(h, "(default "+bot.DefaultLevel+")") || strings.Contains(h, "default greedy") {
		t.Errorf("okey bot's default is not okey play's level %s:\n%s", bot.DefaultLevel, h)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"create", "--level", "nope"}},
		{[]string{"create", "--level", "hard", "--strategy", "greedy"}},
	} {
		errb.Reset()
		code := runTournament(append(c.args, "--data", t.TempDir(), "--dir", t.TempDir()), nil, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "okey: --strategy: ") {
			t.Errorf("%v: exit %d, %q", c.args, code, errb.String())
		}
	}
}
