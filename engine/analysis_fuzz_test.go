package engine

import (
	"slices"
	"testing"
)

// fuzzHand turns fuzz bytes into an okey and a hand: the first byte picks the
// okey (any byte: invalid okeys too), the rest are faces (mod 56, so a few
// invalid faces appear).
func fuzzHand(data []byte) (Face, []Face) {
	if len(data) == 0 {
		return 0, nil
	}
	okey := Face(data[0] % 54)
	h := make([]Face, 0, len(data)-1)
	for _, b := range data[1:] {
		h = append(h, Face(b%56))
	}
	return okey, h
}

func fuzzSeeds(f *testing.F) {
	r := newRand(99)
	add := func(okey Face, h []Face) {
		b := []byte{byte(okey)}
		for _, x := range h {
			b = append(b, byte(x))
		}
		f.Add(b)
	}
	for i := 0; i < 8; i++ {
		add(winningHand(r, 14))
		okey, h := winningHand(r, 14)
		add(okey, append(h, Face(r.IntN(53))))
		add(poolHand(r, 14))
		add(randomHand(r, 15))
	}
	add(4, MustParseFaces("K4 K4 K2 K2 K9 K9 B5 B5 K13 K13 K7 K7 FJ R5"))
	add(4, MustParseFaces("R4 FJ R6 K5 Y5 B5 FJ K9 K10 K11 K12 B1 B2 B3"))
}

// FuzzAnalyze checks, for any input: no panic; IsWinning, WinningArrangement
// and Distance agree with each other and with the oracle; every arrangement
// is valid and uses exactly the tiles; a false joker replaced by an okey never
// turns a win into a loss; WinningDiscards agrees with IsWinning on each
// removal and with BestDiscards; Arrange's layout is valid.
func FuzzAnalyze(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		okey, h := fuzzHand(data)
		valid := okey < FalseJoker && ValidateHand(h) == nil
		gs, rest := Arrange(okey, h, len(data)%2 == 0)
		if valid && len(h) <= 40 {
			checkLayout(t, okey, h, gs, rest)
		}
		switch len(h) {
		case WinSize:
			win := IsWinning(okey, h)
			arr, ok := WinningArrangement(okey, h)
			d := Distance(okey, h)
			if !valid {
				if win || ok || d != -1 {
					t.Fatalf("invalid hand %v accepted", h)
				}
				return
			}
			if ok != win || (d == 0) != win || d < 0 || d > WinSize {
				t.Fatalf("%s: IsWinning %v, arrangement %v, distance %d", FormatFaces(h), win, ok, d)
			}
			if want := oWins(okey, h); want != win {
				t.Fatalf("%s okey %v: IsWinning %v, oracle %v", FormatFaces(h), okey, win, want)
			}
			if ok {
				checkArrangement(t, okey, h, arr)
			}
			if win {
				nOkey := 0
				for _, x := range h {
					if x == okey {
						nOkey++
					}
				}
				if i := slices.Index(h, FalseJoker); i >= 0 && nOkey < 2 {
					h2 := slices.Clone(h)
					h2[i] = okey
					if !IsWinning(okey, h2) {
						t.Fatalf("%s wins, with an okey for the false joker it does not", FormatFaces(h))
					}
				}
			}
		case WinSize + 1:
			wd := WinningDiscards(okey, h)
			if !valid {
				if wd != nil {
					t.Fatalf("invalid hand accepted")
				}
				return
			}
			var want []Face
			for i, x := range h {
				if slices.Contains(want, x) {
					continue
				}
				rest := slices.Delete(slices.Clone(h), i, i+1)
				if IsWinning(okey, rest) {
					want = append(want, x)
				}
			}
			slices.Sort(want)
			if !slices.Equal(wd, want) {
				t.Fatalf("%s: WinningDiscards %s, by removal %s", FormatFaces(h), FormatFaces(wd), FormatFaces(want))
			}
			bd, d := BestDiscards(okey, h)
			if (d == 0) != (len(wd) > 0) || d == 0 && !slices.Equal(bd, wd) {
				t.Fatalf("%s: BestDiscards %s %d, WinningDiscards %s", FormatFaces(h), FormatFaces(bd), d, FormatFaces(wd))
			}
			for _, x := range bd {
				i := slices.Index(h, x)
				if got := Distance(okey, slices.Delete(slices.Clone(h), i, i+1)); got != d {
					t.Fatalf("%s: discard %v gives distance %d, BestDiscards said %d", FormatFaces(h), x, got, d)
				}
			}
		}
	})
}
