package netplay

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okey-game/okey/bot"
)

// TestLocalIdentity: a bot's identity is made once and read back the same;
// one asked for without create that is not there is gone; a ref outside
// the data directory is refused.
func TestLocalIdentity(t *testing.T) {
	data := t.TempDir()
	ref := filepath.Join("bots", "hard-1")
	if _, err := LocalIdentity(data, ref, false); !errors.As(err, new(*IdentityGoneError)) {
		t.Fatalf("a key never made: %v, want IdentityGoneError", err)
	}
	k, err := LocalIdentity(data, ref, true)
	if err != nil {
		t.Fatal(err)
	}
	again, err := LocalIdentity(data, ref, false)
	if err != nil || !bytes.Equal(k, again) {
		t.Fatalf("read back: %v (same key: %v)", err, bytes.Equal(k, again))
	}
	if own, err := LocalIdentity(data, ".", true); err != nil || bytes.Equal(own, k) {
		t.Fatalf("the person's identity: %v (the bot's key: %v)", err, bytes.Equal(own, k))
	}
	if _, err := LocalIdentity(data, "../elsewhere", true); err == nil {
		t.Fatal("a ref outside the data directory was taken")
	}
}

// TestLocalIdentities: a match against bots seats the person with the
// data directory's identity and each bot with its level's and slot's, made
// once and the same in the next match; a bot named as the person is told
// apart.
func TestLocalIdentities(t *testing.T) {
	data := t.TempDir()
	ids, names, err := LocalIdentities(data, "expert", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 3 || ids[0].Ref != OwnIdentity || ids[1].Ref != filepath.Join("bots", "hard-1") || ids[2].Ref != filepath.Join("bots", "hard-2") ||
		strings.Join(names, ",") != "hard-1,hard-2" {
		t.Fatalf("refs %v, names %v", ids, names)
	}
	again, _, err := LocalIdentities(data, "expert", 3)
	if err != nil || !bytes.Equal(again[1].Key, ids[1].Key) || bytes.Equal(again[1].Key, again[2].Key) || bytes.Equal(again[0].Key, again[1].Key) {
		t.Fatalf("the next match's keys: %v", err)
	}
	if _, names, _ := LocalIdentities(data, "greedy", 1); names[0] != bot.LevelOf("greedy")+"-1" {
		t.Errorf("a strategy with no level: %v", names)
	}
	if got := UniqueBotNames("Hard-1", []string{"hard-1", "hard-2"}); got[0] != "hard-1'" || got[1] != "hard-2" {
		t.Errorf("UniqueBotNames = %v", got)
	}
}
