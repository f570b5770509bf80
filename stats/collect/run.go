package collect

import (
	"errors"
	"os"

	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/stats"
)

// FindError is a folder whose transcripts cannot be listed.
type FindError struct {
	Folder string
	Err    error
}

func (e *FindError) Error() string { return e.Folder + ": " + e.Err.Error() }
func (e *FindError) Unwrap() error { return e.Err }

// Collection is what okey stats gathers: the files found, read, verified
// (or their verdicts from the cache) and summed up.
type Collection struct {
	Summary Summary
	Record  stats.Record
	// CacheBad is why the cache was not read (it was not one okey
	// wrote): every file was verified again; CacheUnwritten why it was
	// not written back (the next run verifies again).
	CacheBad, CacheUnwritten error
	// CachePath is the cache used ("" none: none asked for, or no way to
	// name this verifier).
	CachePath string
}

// Collect finds the transcripts under folders (a folder that does not
// exist holds none when missingOK), verifies each (its verdict from the
// cache at cachePath when it is not "", the cache then updated in place,
// its directory made 0700), and sums them up. Its error is a *FindError.
func Collect(folders []string, missingOK bool, cacheDir, cachePath string, o Options) (*Collection, error) {
	var paths []string
	for _, f := range folders {
		found, err := Find(f)
		if errors.Is(err, os.ErrNotExist) && missingOK {
			continue // no data directory yet: no matches
		}
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, &FindError{f, err}
		}
		paths = append(paths, found...)
	}
	col := &Collection{}
	var cache *stats.Cache
	if cachePath != "" {
		if v, err := VerifierID(); err == nil {
			cache, col.CacheBad = LoadCache(cachePath, v)
		} else {
			cachePath = ""
		}
	}
	files, verified, hits := Verify(paths, cache, o)
	dirty := Prune(cache, files) || verified > 0
	if cache != nil && dirty {
		err := os.MkdirAll(cacheDir, 0o700)
		if err == nil {
			err = atomicfile.Write(cachePath, cache.Encode())
		}
		col.CacheUnwritten = err
	}
	col.CachePath = cachePath
	col.Record, col.Summary = Report(files)
	col.Summary.Verified, col.Summary.FromCache = verified, hits
	return col, nil
}
