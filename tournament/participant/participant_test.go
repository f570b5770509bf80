package participant

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

func testKey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(fmt.Sprintf("tourney test %d", i)))
	return ed25519.NewKeyFromSeed(seed[:])
}

// runLocal runs a tournament of n bots in one process; player 0 creates.
// Each participant's config passes through tweak, when given.
func runLocal(t *testing.T, n int, format, ruleset string, tweak ...func(i int, c *Config)) ([]*tournament.Report, []string, []error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	return runLocalOn(ctx, t, NewMemBus(), n, format, ruleset, tweak...)
}

// runLocalOn is runLocal on a given bus and context.
func runLocalOn(ctx context.Context, t *testing.T, bus *MemBus, n int, format, ruleset string, tweak ...func(i int, c *Config)) ([]*tournament.Report, []string, []error) {
	t.Helper()
	base := t.TempDir()
	reps := make([]*tournament.Report, n)
	errs := make([]error, n)
	dirs := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("peer-%d", i)
		dirs[i] = filepath.Join(base, id)
		c := Config{Dir: dirs[i], Key: testKey(i), Name: fmt.Sprintf("bot%d", i), PeerID: id, Net: bus.Join(id),
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: 60 * time.Second, Retry: 200 * time.Millisecond, DrawWait: 60 * time.Second}
		if i == 0 {
			c.Create = &Create{Name: "cup", Format: format, Ruleset: ruleset, Players: n}
		}
		for _, f := range tweak {
			f(i, &c)
		}
		p, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], errs[i] = p.Run(ctx)
		}()
	}
	wg.Wait()
	if len(tweak) > 0 {
		return reps, dirs, errs
	}
	for i, err := range errs {
		if err != nil {
			if reps[i] != nil {
				t.Logf("participant %d: rounds %d problems %+v", i, len(reps[i].Rounds), reps[i].Problems)
			}
			t.Fatalf("participant %d: %v", i, err)
		}
	}
	return reps, dirs, errs
}

// TestSmallTournament: 4 bots, 2 rounds of classic:points=2 matches, in
// one process; every participant ends with the same honest standings and a
// folder holding every transcript.
func TestSmallTournament(t *testing.T) {
	lane.NoRace(t)
	t.Parallel() // the three whole tournaments wait more than they compute
	start := time.Now()
	reps, dirs, _ := runLocal(t, 4, "swiss:rounds=2", "classic:points=2")
	t.Logf("4 players, 2 rounds: %v", time.Since(start).Round(time.Millisecond))
	for i, rep := range reps {
		if rep.Status != tournament.StatusHonest || len(rep.Final) != 4 {
			t.Fatalf("participant %d: status %d final %v problems %+v", i, rep.Status, rep.Final, rep.Problems)
		}
		if fmt.Sprint(rep.Final) != fmt.Sprint(reps[0].Final) {
			t.Fatalf("participant %d's standings differ", i)
		}
		for r := 1; r <= 2; r++ {
			if _, err := os.Stat(filepath.Join(dirs[i], TranscriptName(tournament.Ref{Round: r, Table: 0}))); err != nil {
				t.Fatalf("participant %d lacks round %d's transcript", i, r)
			}
		}
		a, _ := os.ReadFile(filepath.Join(dirs[i], "tournament"))
		if recs, err := tournament.DecodeFile(a); err != nil || len(recs) != 1+4+1+2*(4*2+1+1) { // announcement, registrations, roster; per round commitments, reveals, a close and the results
			t.Fatalf("participant %d: %d records, %v", i, len(recs), err)
		}
	}
}

// TestSmallTournamentSilentDraw: one of four registered bots commits to
// round 1's draw and goes silent before its reveal. The creator closes the
// attempt without it after DrawWait; the three others draw again and play
// a table of three; round 2 closes without it too. Every other
// participant ends with the same standings, the silent player absent
// (0 points) from both rounds, status 3 and no one named.
func TestSmallTournamentSilentDraw(t *testing.T) {
	lane.NoRace(t)
	t.Parallel() // the three whole tournaments wait more than they compute
	start := time.Now()
	const silent = 2
	reps, dirs, errs := runLocal(t, 4, "swiss:rounds=2", "classic:points=2", func(i int, c *Config) {
		c.DrawWait = 2 * time.Second
		if i == silent {
			c.silentAt = 1
		}
	})
	t.Logf("4 players, one silent, 2 rounds: %v", time.Since(start).Round(time.Millisecond))
	if errs[silent] != errSilent {
		t.Fatalf("the silent participant: %v", errs[silent])
	}
	silentKey := [32]byte(testKey(silent).Public().(ed25519.PublicKey))
	for i, rep := range reps {
		if i == silent {
			continue
		}
		if errs[i] != nil {
			t.Fatalf("participant %d: %v (problems %+v)", i, errs[i], rep.Problems)
		}
		if rep.Status != tournament.StatusUnfinished || len(rep.Final) != 4 {
			t.Fatalf("participant %d: status %d final %v problems %+v", i, rep.Status, rep.Final, rep.Problems)
		}
		if fmt.Sprint(rep.Final) != fmt.Sprint(reps[0].Final) {
			t.Fatalf("participant %d's standings differ", i)
		}
		for _, p := range rep.Problems {
			if len(p.Named) > 0 {
				t.Fatalf("participant %d: someone named: %+v", i, p)
			}
		}
		for _, rd := range rep.Rounds {
			if len(rd.Absent) != 1 || rep.Players[rd.Absent[0]].Key != silentKey || len(rd.Tables) != 1 || len(rd.Tables[0].Seats) != 3 {
				t.Fatalf("participant %d round %d: absent %v tables %+v", i, rd.Number, rd.Absent, rd.Tables)
			}
		}
		last := rep.Final[3]
		if rep.Players[last.Player].Key != silentKey || last.Points != 0 {
			t.Fatalf("participant %d: last %+v", i, last)
		}
		// The folder alone gives the same report (what okey verify checks).
		if got := checkFolder(t, dirs[i]); fmt.Sprint(got.Final) != fmt.Sprint(rep.Final) || got.Status != rep.Status {
			t.Fatalf("participant %d's folder: status %d final %v, problems %+v", i, got.Status, got.Final, got.Problems)
		}
	}
}

// checkFolder checks a tournament folder from its files, as okey verify
// does: the records file and each round's transcripts.
func checkFolder(t *testing.T, dir string) *tournament.Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "tournament"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := tournament.DecodeFile(b)
	if err != nil {
		t.Fatal(err)
	}
	matches := map[tournament.Ref]*tournament.Match{}
	for r := 1; r <= tournament.MaxRounds; r++ {
		for tb := 0; tb < 16; tb++ {
			ref := tournament.Ref{Round: r, Table: tb}
			f, err := os.Open(filepath.Join(dir, TranscriptName(ref)))
			if err != nil {
				continue
			}
			tr, err := table.ReadTranscript(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", TranscriptName(ref), err)
			}
			matches[ref] = MatchOf(tr)
		}
	}
	return tournament.Check(recs, matches)
}

// TestSmallTournamentResume: a participant stops between its commitment
// and its reveal (a crash) and is started again on the same folder and
// state directory: it reads its opening back (a 0600 file in the state
// directory, not in the tournament folder), reveals, and the tournament
// ends honest and complete with everyone's standings the same. Without the
// saved opening it could not reveal: the creator's close would leave it out
// (status 3).
func TestSmallTournamentResume(t *testing.T) {
	lane.NoRace(t)
	t.Parallel() // the three whole tournaments wait more than they compute
	const n, again = 4, 3
	bus := NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	base := t.TempDir()
	config := func(i int) Config {
		id := fmt.Sprintf("peer-%d", i)
		c := Config{Dir: filepath.Join(base, id, "folder"), State: filepath.Join(base, id, "data", "tournaments"), Key: testKey(i),
			Name: fmt.Sprintf("bot%d", i), PeerID: id, Net: bus.Join(id),
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: 60 * time.Second, Retry: 200 * time.Millisecond, DrawWait: 30 * time.Second}
		if i == 0 {
			c.Create = &Create{Name: "cup", Format: "swiss:rounds=1", Ruleset: "classic:points=2", Players: n}
		}
		return c
	}
	reps := make([]*tournament.Report, n)
	errs := make([]error, n)
	var tid [32]byte // set before participant again starts
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		c := config(i)
		if i == again {
			c.silentAt = 1
		}
		p, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], errs[i] = p.Run(ctx)
			if i != again || errs[i] != errSilent {
				return
			}
			// Started again, as `okey tournament join` with the same
			// --dir and --data.
			c := config(i)
			st, err := os.Stat(filepath.Join(c.State, fmt.Sprintf("%x", tid), "openings"))
			if err != nil || st.Mode().Perm() != 0o600 {
				errs[i] = fmt.Errorf("the saved openings: %v, %v", st, err)
				return
			}
			p, err := New(c)
			if err != nil {
				errs[i] = err
				return
			}
			reps[i], errs[i] = p.Run(ctx)
		}()
		if i == 0 {
			// The tournament id, for the saved openings' path.
			for deadline := time.Now().Add(10 * time.Second); len(p.Records()) == 0; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("no announcement")
				}
			}
			r, _ := tournament.Decode(p.Records()[0])
			tid = r.ID()
		}
	}
	wg.Wait()
	for i, rep := range reps {
		if errs[i] != nil {
			t.Fatalf("participant %d: %v", i, errs[i])
		}
		if rep.Status != tournament.StatusHonest || len(rep.Final) != n || fmt.Sprint(rep.Final) != fmt.Sprint(reps[0].Final) {
			t.Fatalf("participant %d: status %d final %v problems %+v", i, rep.Status, rep.Final, rep.Problems)
		}
	}
	ents, _ := os.ReadDir(config(again).Dir)
	for _, e := range ents {
		if e.Name() != "tournament" && filepath.Ext(e.Name()) != ".transcript" {
			t.Errorf("the tournament folder holds %s", e.Name())
		}
	}
}

// TestResumeReadsBack: a participant made again on the same folder and
// state reads back its tournament, its own records (to publish again) and
// its draw openings, kept in a 0600 file under a 0700 directory of the
// state, never in the folder; a damaged openings file is an error, not a
// silent loss.
func TestResumeReadsBack(t *testing.T) {
	base := t.TempDir()
	bus := NewMemBus()
	c := Config{Dir: filepath.Join(base, "folder"), State: filepath.Join(base, "data", "tournaments"), Key: testKey(0), Name: "bot0",
		PeerID: "peer-0", Net: bus.Join("peer-0"), Create: &Create{Name: "cup", Format: "swiss", Ruleset: "classic", Players: 4}}
	p, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	ann := &tournament.Record{Kind: tournament.KindAnnounce, Signer: p.pub, Nonce: [32]byte{1}, Players: 4, Name: "cup", Format: "swiss", Ruleset: "classic"}
	if err := ann.Sign(c.Key); err != nil {
		t.Fatal(err)
	}
	p.tid = ann.ID()
	if err := p.publish(context.Background(), ann); err != nil {
		t.Fatal(err)
	}
	o := [32]byte{7, 7, 7}
	if err := p.saveOpening(attemptKey{2, 3}, o); err != nil {
		t.Fatal(err)
	}
	if err := p.saveOpening(attemptKey{1, 1}, [32]byte{1}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p.openingsPath())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("openings file: %v %v", st, err)
	}
	if dst, err := os.Stat(filepath.Dir(p.openingsPath())); err != nil || dst.Mode().Perm() != 0o700 {
		t.Fatalf("openings directory: %v %v", dst, err)
	}
	q, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Resumed() || q.tid != ann.ID() || q.openings[attemptKey{2, 3}] != o || len(q.openings) != 2 || len(q.mine) != 1 {
		t.Fatalf("resumed %v tid %x openings %v mine %d", q.Resumed(), q.tid[:4], q.openings, len(q.mine))
	}
	// Another creator's folder is refused.
	other := c
	other.Key = testKey(1)
	if _, err := New(other); err == nil {
		t.Fatal("a creator started on another creator's folder")
	}
	os.WriteFile(p.openingsPath(), []byte("cut"), 0o600)
	if _, err := New(c); err == nil {
		t.Fatal("a damaged openings file read as none")
	}
}
