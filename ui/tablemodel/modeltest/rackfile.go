package modeltest

// DamagedRackFiles are rack files (tablemodel.RackFile) that must not be
// read as an arrangement: empty, cut, of another version, of a negative
// hand, with positions for too few tiles, or with a position out of the
// rack.
var DamagedRackFiles = []string{``, `{`, `{"version":2,"hand":0,"pos":[]}`, `{"version":1,"hand":-1,"pos":[]}`,
	`{"version":1,"hand":0,"pos":[1,2]}`,
	`{"version":1,"hand":0,"pos":[255,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1]}`}
