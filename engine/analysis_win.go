package engine

import "math/bits"

// The win search: can every tile of a tally be put in sets and runs?
//
// It takes the lowest remaining plain tile (colour-major, then number) and
// tries every group it can be in, then recurses. That tile is in some group
// of any grouping, and the groups it can be in are:
//
//   - a set at its number: it, any subset of the other colours present at
//     that number (colours before it have no tiles left at all), and okeys
//     up to 3 or 4 tiles;
//   - a run of its colour upwards from it: at each next number a plain tile
//     when one is left, an okey otherwise (exchange argument: an okey standing
//     where a plain tile of that face is left can swap places with it);
//     numbers below it have no plain tiles left, so okeys stand there, which
//     is only needed when the run ends at the high 1 (otherwise shift the run
//     up by one, the okey moving from the bottom to the top);
//   - for a 1, also a run that ends with it as the high 1 (..., 12, 13, 1).
//
// Every group has a plain tile (there are at most two okeys), so when no
// plain tile is left the okeys must be used up.

// winGroup records one group found by the search.
type winGroup struct {
	kind   GroupKind
	col    int8   // run: colour
	num    int8   // set: number
	lo, hi int8   // run: positions lo..hi; 14 is the 1 after 13
	mask   uint16 // set: colours of plain tiles; run: positions of plain tiles
	size   int8
}

type winSearch struct {
	t      tally
	record bool
	n      int
	gs     [40]winGroup
}

func (s *winSearch) push(g winGroup) {
	if s.record {
		s.gs[s.n] = g
		s.n++
	}
}

func (s *winSearch) pop() {
	if s.record {
		s.n--
	}
}

// win reports whether the tally splits into groups. start is a lower bound
// on the index colour*13+number-1 of the lowest plain tile.
func (s *winSearch) win(start int) bool {
	c, n := start/13, start%13+1
	for ; c < NumColours; c, n = c+1, 1 {
		for ; n <= 13 && s.t.c[c][n] == 0; n++ {
		}
		if n <= 13 {
			break
		}
	}
	if c == NumColours {
		return s.t.wild == 0
	}
	idx := c*13 + n - 1
	t := &s.t

	// Sets.
	var others uint8
	for x := c + 1; x < NumColours; x++ {
		if t.c[x][n] > 0 {
			others |= 1 << x
		}
	}
	for sub := others; ; sub = (sub - 1) & others {
		k := int8(1 + bits.OnesCount8(sub))
		for u := int8(0); u <= t.wild && k+u <= 4; u++ {
			if k+u < 3 {
				continue
			}
			t.c[c][n]--
			for x := c + 1; x < NumColours; x++ {
				if sub&(1<<x) != 0 {
					t.c[x][n]--
				}
			}
			t.wild -= u
			s.push(winGroup{kind: Set, num: int8(n), mask: uint16(sub) | 1<<c, size: k + u})
			ok := s.win(idx)
			if ok {
				return true
			}
			s.pop()
			t.wild += u
			t.c[c][n]++
			for x := c + 1; x < NumColours; x++ {
				if sub&(1<<x) != 0 {
					t.c[x][n]++
				}
			}
		}
		if sub == 0 {
			break
		}
	}

	// Runs up from n.
	if s.runUp(c, n, idx, 0) {
		return true
	}
	for lead := int8(1); lead <= t.wild && n-int(lead) >= 2; lead++ {
		if s.runUp(c, n, idx, lead) {
			return true
		}
	}
	// Runs ending with this tile as the high 1.
	if n == 1 && s.runDown(c, idx) {
		return true
	}
	return false
}

// runUp tries runs of colour c that hold the plain tile at n, with lead okeys
// below it. With lead > 0 only runs ending at the high 1 are tried.
func (s *winSearch) runUp(c, n, idx int, lead int8) bool {
	t := &s.t
	row := &t.c[c]
	if lead > t.wild {
		return false
	}
	maxP := 14
	if n-int(lead) == 1 {
		maxP = 13 // a run with the low 1 cannot take the high 1
	}
	row[n]--
	t.wild -= lead
	used := lead
	mask := uint16(1) << n
	ok := false
	for p := n + 1; p <= maxP; p++ {
		if p <= 13 && row[p] > 0 {
			row[p]--
			mask |= 1 << p
		} else if t.wild > 0 {
			t.wild--
			used++
		} else {
			break
		}
		lo := n - int(lead)
		if p-lo+1 < 3 || (lead > 0 && p != 14) {
			continue
		}
		s.push(winGroup{kind: Run, col: int8(c), lo: int8(lo), hi: int8(p), mask: mask, size: int8(p - lo + 1)})
		ok = s.win(idx)
		if ok {
			break
		}
		s.pop()
	}
	t.wild += used
	for p := n; p <= 13; p++ {
		if mask&(1<<p) != 0 {
			row[p]++
		}
	}
	return ok
}

// runDown tries runs of colour c that end with its 1 as the high 1.
func (s *winSearch) runDown(c, idx int) bool {
	t := &s.t
	row := &t.c[c]
	row[1]--
	used := int8(0)
	mask := uint16(1) << 14
	ok := false
	for p := 13; p >= 2; p-- {
		if row[p] > 0 {
			row[p]--
			mask |= 1 << p
		} else if t.wild > 0 {
			t.wild--
			used++
		} else {
			break
		}
		if 14-p+1 < 3 {
			continue
		}
		s.push(winGroup{kind: Run, col: int8(c), lo: int8(p), hi: 14, mask: mask, size: int8(14 - p + 1)})
		ok = s.win(idx)
		if ok {
			break
		}
		s.pop()
	}
	t.wild += used
	row[1]++
	for p := 2; p <= 13; p++ {
		if mask&(1<<p) != 0 {
			row[p]++
		}
	}
	return ok
}

// groups turns the recorded groups into Groups.
func (s *winSearch) groups(okey Face) []Group {
	out := make([]Group, 0, s.n)
	for _, g := range s.gs[:s.n] {
		out = append(out, g.group(okey))
	}
	return out
}

// shown is the face printed on a plain tile that plays as f.
func shown(okey, f Face) Face {
	if f == okey {
		return FalseJoker
	}
	return f
}

func (g winGroup) group(okey Face) Group {
	out := Group{Kind: g.kind, Tiles: make([]Face, 0, g.size), As: make([]Face, 0, g.size)}
	switch g.kind {
	case Set:
		wild := int(g.size) - bits.OnesCount16(g.mask)
		for x := 0; x < NumColours; x++ {
			f := NewFace(Colour(x), int(g.num))
			if g.mask&(1<<x) != 0 {
				out.Tiles = append(out.Tiles, shown(okey, f))
				out.As = append(out.As, f)
			} else if wild > 0 {
				wild--
				out.Tiles = append(out.Tiles, okey)
				out.As = append(out.As, f)
			}
		}
	case Run:
		for p := int(g.lo); p <= int(g.hi); p++ {
			num := p
			if num == 14 {
				num = 1
			}
			f := NewFace(Colour(g.col), num)
			if g.mask&(1<<p) != 0 {
				out.Tiles = append(out.Tiles, shown(okey, f))
			} else {
				out.Tiles = append(out.Tiles, okey)
			}
			out.As = append(out.As, f)
		}
	}
	return out
}
