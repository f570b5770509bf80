package engine

import (
	"math/bits"
	"slices"
)

// Arrange lays out a hand of any number of tiles for display: as many tiles
// as possible in complete sets and runs (okeys count as tiles), the other
// tiles in rest. Among layouts covering equally many tiles it prefers the
// one with more tiles in runs (runsFirst) or in sets; groups are listed runs
// first (runsFirst) or sets first, each by its lowest tile, and rest is in
// face order (an okey sorts as its face, a false joker last).
//
// The search is exact for racks of Okey's sizes; for a hand of many more
// tiles it stops after a fixed amount of work (deterministically) and returns
// the best layout found. For invalid input (see ValidateHand, or an okey
// that is not a numbered face) it returns no groups and the hand, sorted, as
// rest.
func Arrange(okey Face, hand []Face, runsFirst bool) (groups []Group, rest []Face) {
	t, ok := tallyOf(okey, hand)
	if !ok {
		rest = slices.Clone(hand)
		slices.Sort(rest)
		return nil, rest
	}
	s := arrSearch{t: t, runsFirst: runsFirst, budget: arrangeBudget, best: -1}
	s.dfs(0, 0, 0)
	for _, g := range s.bestGs[:s.bestN] {
		if (g.kind == Run) == runsFirst {
			groups = append(groups, g.group(okey))
		}
	}
	for _, g := range s.bestGs[:s.bestN] {
		if (g.kind == Run) != runsFirst {
			groups = append(groups, g.group(okey))
		}
	}
	for c := 0; c < NumColours; c++ {
		for n := 1; n <= 13; n++ {
			f := NewFace(Colour(c), n)
			for k := int8(0); k < s.bestLeft.c[c][n]; k++ {
				rest = append(rest, shown(okey, f))
			}
			if f == okey {
				for k := int8(0); k < s.bestLeft.wild; k++ {
					rest = append(rest, okey)
				}
			}
		}
	}
	slices.Sort(rest)
	return groups, rest
}

// arrangeBudget bounds the nodes of one Arrange search.
const arrangeBudget = 1 << 20

// arrSearch is a branch and bound over the same moves as winSearch, where a
// tile may also be left out. The score is covered*128 + preferred, where
// preferred counts the tiles in runs (runsFirst) or in sets.
type arrSearch struct {
	t         tally
	left      tally // tiles left out so far
	runsFirst bool
	budget    int
	n         int
	gs        [40]winGroup
	best      int
	bestN     int
	bestGs    [40]winGroup
	bestLeft  tally
}

func (s *arrSearch) score(covered, pref int) int { return covered*128 + pref }

func (s *arrSearch) dfs(start, covered, pref int) {
	if s.budget <= 0 {
		return
	}
	s.budget--
	rem := int(s.t.real) + int(s.t.wild)
	if s.score(covered+rem, pref+rem) <= s.best {
		return
	}
	c, n := start/13, start%13+1
	for ; c < NumColours; c, n = c+1, 1 {
		for ; n <= 13 && s.t.c[c][n] == 0; n++ {
		}
		if n <= 13 {
			break
		}
	}
	if c == NumColours {
		if sc := s.score(covered, pref); sc > s.best {
			s.best = sc
			s.bestN = s.n
			s.bestGs = s.gs
			s.bestLeft = s.left
			s.bestLeft.wild += s.t.wild
		}
		return
	}
	idx := c*13 + n - 1
	if s.runsFirst {
		s.runs(c, n, idx, covered, pref)
		s.sets(c, n, idx, covered, pref)
	} else {
		s.sets(c, n, idx, covered, pref)
		s.runs(c, n, idx, covered, pref)
	}
	// Leave the tile out.
	s.t.c[c][n]--
	s.t.real--
	s.left.c[c][n]++
	s.dfs(idx, covered, pref)
	s.left.c[c][n]--
	s.t.real++
	s.t.c[c][n]++
}

func (s *arrSearch) gain(kind GroupKind, size int) int {
	if (kind == Run) == s.runsFirst {
		return size
	}
	return 0
}

func (s *arrSearch) sets(c, n, idx, covered, pref int) {
	t := &s.t
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
			m := uint16(sub) | 1<<c
			for x := 0; x < NumColours; x++ {
				if m&(1<<x) != 0 {
					t.c[x][n]--
				}
			}
			t.real -= k
			t.wild -= u
			s.gs[s.n] = winGroup{kind: Set, num: int8(n), mask: m, size: k + u}
			s.n++
			sz := int(k + u)
			s.dfs(idx, covered+sz, pref+s.gain(Set, sz))
			s.n--
			t.wild += u
			t.real += k
			for x := 0; x < NumColours; x++ {
				if m&(1<<x) != 0 {
					t.c[x][n]++
				}
			}
		}
		if sub == 0 {
			break
		}
	}
}

func (s *arrSearch) runs(c, n, idx, covered, pref int) {
	for lead := int8(0); lead <= s.t.wild && (lead == 0 || n-int(lead) >= 2); lead++ {
		s.runUp(c, n, idx, lead, covered, pref)
	}
	if n == 1 {
		s.runDown(c, idx, covered, pref)
	}
}

func (s *arrSearch) runUp(c, n, idx int, lead int8, covered, pref int) {
	t := &s.t
	row := &t.c[c]
	maxP := 14
	if n-int(lead) == 1 {
		maxP = 13
	}
	row[n]--
	t.real--
	t.wild -= lead
	used := lead
	mask := uint16(1) << n
	for p := n + 1; p <= maxP; p++ {
		if p <= 13 && row[p] > 0 {
			row[p]--
			t.real--
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
		sz := p - lo + 1
		s.gs[s.n] = winGroup{kind: Run, col: int8(c), lo: int8(lo), hi: int8(p), mask: mask, size: int8(sz)}
		s.n++
		s.dfs(idx, covered+sz, pref+s.gain(Run, sz))
		s.n--
	}
	t.wild += used
	for p := n; p <= 13; p++ {
		if mask&(1<<p) != 0 {
			row[p]++
			t.real++
		}
	}
}

func (s *arrSearch) runDown(c, idx, covered, pref int) {
	t := &s.t
	row := &t.c[c]
	row[1]--
	t.real--
	used := int8(0)
	mask := uint16(1) << 14
	for p := 13; p >= 2; p-- {
		if row[p] > 0 {
			row[p]--
			t.real--
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
		sz := 14 - p + 1
		s.gs[s.n] = winGroup{kind: Run, col: int8(c), lo: int8(p), hi: 14, mask: mask, size: int8(sz)}
		s.n++
		s.dfs(idx, covered+sz, pref+s.gain(Run, sz))
		s.n--
	}
	t.wild += used
	row[1]++
	t.real++
	for p := 2; p <= 13; p++ {
		if mask&(1<<p) != 0 {
			row[p]++
			t.real++
		}
	}
}
