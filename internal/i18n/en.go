package i18n

// English plurals: the key (the plural, the count its first argument) and
// its singular. Turkish needs none: a noun after a number stays singular
// ("2 taş").
var _ = englishPlural(map[string]string{
	"%d turns":          "1 turn",
	"%d tiles":          "1 tile",
	"%d messages":       "1 message",
	"%d hands":          "1 hand",
	"%d finished hands": "1 finished hand",
	"%d older matches":  "1 older match",
	// okey stats (issue 37, 13)
	"%d matches. Ratings: Weng-Lin Plackett-Luce, OpenSkill's defaults (--json says\nwhich), shown only, never part of a verdict. Win share: 95%% Wilson interval.\n": "1 match. Ratings: Weng-Lin Plackett-Luce, OpenSkill's defaults (--json says\nwhich), shown only, never part of a verdict. Win share: 95%% Wilson interval.\n",
})
