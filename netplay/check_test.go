package netplay

import (
	"errors"
	"testing"

	"github.com/okey-game/okey/p2p/lobby"
)

// TestCheckAnnouncement: the lobby's check of an announcement's ruleset
// (issue 26): a preset no one knows, an option the preset lacks or a value
// out of range, and seats the ruleset does not allow are refused; the
// rulesets okey offers pass.
func TestCheckAnnouncement(t *testing.T) {
	base := func(preset string, options map[string]string, seats int) lobby.Announcement {
		return lobby.Announcement{V: lobby.AnnouncementVersion, Table: "t1", Creator: "c", Preset: preset, Options: options, Seats: seats}
	}
	good := []lobby.Announcement{
		base("classic", nil, 4),
		base("classic", nil, 2),
		base("turkish-rummy", map[string]string{"rounds": "1"}, 3),
		base("101", nil, 4),
		base("classic", map[string]string{"partnerships": ""}, 4),
	}
	for _, a := range good {
		if err := CheckAnnouncement(a); err != nil {
			t.Errorf("%s %v %d seats: %v", a.Preset, a.Options, a.Seats, err)
		}
	}
	bad := map[string]lobby.Announcement{
		"unknown preset":              base("nosuch", nil, 4),
		"unknown option":              base("classic", map[string]string{"nosuch": "1"}, 4),
		"bad option value":            base("turkish-rummy", map[string]string{"rounds": "zero"}, 4),
		"partnerships with 3 seats":   base("classic", map[string]string{"partnerships": ""}, 3),
		"german without partnerships": base("german", map[string]string{"no-partnerships": ""}, 2),
	}
	for name, a := range bad {
		if err := CheckAnnouncement(a); err == nil || !errors.Is(err, ErrAnnouncement) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
