package i18n

import "time"

// ShortTime is when a match started, as the language writes a day and an
// hour: "Jan 2 15:04", "2.01 15:04".
func ShortTime(t time.Time) string {
	if Current() == Turkish {
		return t.Local().Format("2.01 15:04")
	}
	return t.Local().Format("Jan 2 15:04")
}
