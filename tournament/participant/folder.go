package participant

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// RecordsFile is the records file's name in a tournament folder
// (protocol.md 9.6).
const RecordsFile = "tournament"

// Bounds on what a folder's files may hold: a records file of at most
// MaxRecordsFile bytes, a transcript of at most MaxTranscriptFile (9.8's
// cap on a fetched one).
const (
	MaxRecordsFile    = 16 << 20
	MaxTranscriptFile = 32 << 20
)

// IsFolder reports whether dir is a tournament folder: it holds a records
// file that starts with the records file's magic (9.6).
func IsFolder(dir string) bool {
	f, err := os.Open(filepath.Join(dir, RecordsFile))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(tournament.FileMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == tournament.FileMagic
}

// FolderFiles lists the files of a tournament folder that the check reads:
// the records file, then every table's transcript name that may exist.
func FolderFiles() []string {
	out := []string{RecordsFile}
	for r := 1; r <= tournament.MaxRounds; r++ {
		for t := 0; t < tournament.MaxTables; t++ {
			out = append(out, TranscriptName(tournament.Ref{Round: r, Table: t}))
		}
	}
	return out
}

// LoadFolder reads a tournament folder (protocol.md 9.6) for
// tournament.Check: its records, in file order, and every table's
// verified transcript. A transcript that is not one (or is over the cap)
// counts as damaged; a records file that cannot be read or split is an
// error.
func LoadFolder(dir string) ([][]byte, map[tournament.Ref]*tournament.Match, error) {
	files := map[string][]byte{}
	for _, name := range FolderFiles() {
		limit := int64(MaxTranscriptFile)
		if name == RecordsFile {
			limit = MaxRecordsFile
		}
		b, err := readLimited(filepath.Join(dir, name), limit)
		switch {
		case errors.Is(err, os.ErrNotExist) && name != RecordsFile:
			continue
		case errors.Is(err, errTooBig) && name != RecordsFile:
			b = nil // damaged: kept as an empty, unreadable file
		case err != nil:
			return nil, nil, err
		}
		files[name] = b
	}
	return LoadFiles(files, nil)
}

var errTooBig = errors.New("tourney: file over its cap")

func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("%w: %s holds more than %d bytes", errTooBig, filepath.Base(path), limit)
	}
	return b, err
}

// MatchCache remembers verified transcripts by their bytes' SHA-256, for
// callers that check many folders sharing files (the conformance suite,
// tests of edited folders). The zero value is not usable: make one with
// NewMatchCache. It is not safe for concurrent use.
type MatchCache struct {
	m map[[32]byte]*tournament.Match
}

// NewMatchCache returns an empty cache.
func NewMatchCache() *MatchCache { return &MatchCache{m: map[[32]byte]*tournament.Match{}} }

// LoadFiles is LoadFolder over files held in memory, by name (the records
// file under RecordsFile; other names than FolderFiles' are ignored).
// cache may be nil.
func LoadFiles(files map[string][]byte, cache *MatchCache) ([][]byte, map[tournament.Ref]*tournament.Match, error) {
	data, ok := files[RecordsFile]
	if !ok {
		return nil, nil, fmt.Errorf("tourney: no records file %q", RecordsFile)
	}
	recs, err := tournament.DecodeFile(data)
	if err != nil {
		return nil, nil, err
	}
	matches := map[tournament.Ref]*tournament.Match{}
	for r := 1; r <= tournament.MaxRounds; r++ {
		for t := 0; t < tournament.MaxTables; t++ {
			ref := tournament.Ref{Round: r, Table: t}
			b, ok := files[TranscriptName(ref)]
			if !ok {
				continue
			}
			matches[ref] = matchOfBytes(b, cache)
		}
	}
	return recs, matches, nil
}

func matchOfBytes(b []byte, cache *MatchCache) *tournament.Match {
	var h [32]byte
	if cache != nil {
		h = sha256.Sum256(b)
		if m, ok := cache.m[h]; ok {
			return m
		}
	}
	var m *tournament.Match
	if t, err := table.ReadTranscript(bytes.NewReader(b)); err != nil {
		m = &tournament.Match{Status: tournament.StatusDamaged, Silent: -1, Cheater: -1}
	} else {
		m = MatchOf(t)
	}
	if cache != nil {
		cache.m[h] = m
	}
	return m
}
