// Package i18n is okey's message catalogue: every string the terminal table
// and the commands show a person, in English and in Turkish.
//
// The English text is the key: code writes i18n.T("%d tiles left", n), and
// the Turkish catalogue (tr.go) maps that key to its translation. A key with
// no entry prints as English, and a test in this package fails for every key
// used in ui/ or cmd/ that the Turkish catalogue lacks, so no string can be
// missing in either language. Machine output (--json), logs and library
// errors stay English and do not go through T.
// The long documents, the rules and each command's -h text, are text
// files in both languages in package docs, chosen by the language of T.
//
// The Turkish catalogue is split by area (tr_ui.go, tr_cmd.go, tr_101.go...):
// each file declares its map with `var _ = turkish(map[string]string{...})`.
// A key held in a table or a field is written with Mark("...") where it is
// declared and translated with TKey where it is shown, so that every key is
// still a literal in the source.
//
// The package's tests read ui/ and cmd/okey: every key given to T, Mark
// or Sprintf is a literal (or a constant) with a Turkish entry, every entry
// is used, each entry uses its key's verbs, no string with words reaches
// the screen or a command's output without T, and no key is in two parts.
//
// Numbers print as fmt prints them (no "1,234"); English counts take the
// singular at 1 (englishPlural, en.go); Turkish needs no plural after a
// number.
package i18n

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// The languages of the interface.
var (
	English = language.English
	Turkish = language.Turkish
)

// Langs lists the supported languages, English first.
var Langs = []language.Tag{English, Turkish}

// trParts are the Turkish catalogue's files, added during package
// initialisation; trEntries is their union, checked for duplicate keys.
var trParts []map[string]string

// turkish adds one file's part of the Turkish catalogue. It is called only
// from package-level declarations of this package.
func turkish(m map[string]string) bool {
	trParts = append(trParts, m)
	return true
}

// trEntries is every Turkish entry; a key in two parts is a programming
// error, caught by the package's tests.
func trEntries() (map[string]string, []string) {
	all := map[string]string{}
	var dups []string
	for _, m := range trParts {
		for k, v := range m {
			if _, ok := all[k]; ok {
				dups = append(dups, k)
			}
			all[k] = v
		}
	}
	return all, dups
}

// englishPlurals are the English keys whose first argument is a count: the
// key is the plural ("%d turns"), the value the singular ("1 turn"). Turkish
// has no plural after a number ("2 taş"), so its entries need no such form.
var englishPlurals = map[string]string{}

// englishPlural adds English keys with a singular form; called only from
// package-level declarations of this package.
func englishPlural(m map[string]string) bool {
	for k, v := range m {
		englishPlurals[k] = v
	}
	return true
}

var cat = sync.OnceValue(func() *catalog.Builder {
	b := catalog.NewBuilder(catalog.Fallback(English))
	all, _ := trEntries()
	for k, v := range all {
		if err := b.SetString(Turkish, k, v); err != nil {
			panic("i18n: bad Turkish entry " + k + ": " + err.Error())
		}
	}
	return b
})

var (
	current atomic.Pointer[message.Printer]
	lang    atomic.Pointer[language.Tag]
)

// Set makes tag the language of T. It is safe to call from any goroutine.
func Set(tag language.Tag) {
	if tag != Turkish {
		tag = English
	}
	current.Store(Printer(tag))
	lang.Store(&tag)
}

// Printer returns a printer for tag, for callers that must not touch the
// process-wide language (tests, a second view).
func Printer(tag language.Tag) *message.Printer {
	return message.NewPrinter(tag, message.Catalog(cat()))
}

// T formats key (an English fmt format) in the current language, English
// until Set is called. Numbers print as fmt prints them, with no grouping
// ("1234", not "1,234" or "1.234"): they are scores, steps and seeds.
func T(key string, args ...any) string {
	p := current.Load()
	if p == nil {
		Set(English)
		p = current.Load()
	}
	return sprintf(p, Current(), key, args...)
}

// sprintf formats key in tag: English with fmt itself (a count of 1 takes
// the singular of englishPlurals), another language through the catalogue
// with integers printed as fmt prints them. (x/text's plural.Selectf would
// group the digits of large counts, "1,234 messages".)
func sprintf(p *message.Printer, tag language.Tag, key string, args ...any) string {
	if tag == English {
		if one, ok := englishPlurals[key]; ok && len(args) > 0 && isOne(args[0]) {
			return fmt.Sprintf(one, args[1:]...)
		}
		return fmt.Sprintf(key, args...)
	}
	return p.Sprintf(key, plainInts(args)...)
}

func isOne(a any) bool {
	switch v := a.(type) {
	case int:
		return v == 1
	case int64:
		return v == 1
	case uint32:
		return v == 1
	case uint64:
		return v == 1
	}
	return false
}

// plainInt prints an integer as fmt does, without the locale's grouping.
type plainInt int64

func (n plainInt) Format(s fmt.State, verb rune) {
	fmt.Fprintf(s, fmt.FormatString(s, verb), int64(n))
}

type plainUint uint64

func (n plainUint) Format(s fmt.State, verb rune) {
	fmt.Fprintf(s, fmt.FormatString(s, verb), uint64(n))
}

func plainInts(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case int:
			a = plainInt(v)
		case int8:
			a = plainInt(v)
		case int16:
			a = plainInt(v)
		case int32:
			a = plainInt(v)
		case int64:
			a = plainInt(v)
		case uint:
			a = plainUint(v)
		case uint8:
			a = plainUint(v)
		case uint16:
			a = plainUint(v)
		case uint32:
			a = plainUint(v)
		case uint64:
			a = plainUint(v)
		}
		out[i] = a
	}
	return out
}

// Sprintf formats key in the language tag, as T does, without touching the
// process-wide language (tests, a second view).
func Sprintf(tag language.Tag, key string, args ...any) string {
	if tag != Turkish {
		tag = English
	}
	return sprintf(Printer(tag), tag, key, args...)
}

// Mark marks key (an English fmt format, a string literal) as a message
// for a table or a struct field that is translated later with TKey; it
// returns key unchanged. The catalogue's tests collect marked keys as they
// collect T's.
func Mark(key string) string { return key }

// TKey is T with no arguments for a key held in a variable: one written
// with Mark. Prefer T with a literal.
func TKey(key string) string {
	var none []any
	return T(key, none...)
}

// TKeyArgs is T for a key held in a variable (written with Mark) and its
// arguments: for errors that print English in logs and --json and
// translated to a person.
func TKeyArgs(key string, args []any) string { return T(key, args...) }

// Current returns the language T speaks.
func Current() language.Tag {
	if l := lang.Load(); l != nil {
		return *l
	}
	return English
}

// Parse reads a language name as given to --lang or found in LANG:
// "en", "tr", "tr_TR.UTF-8", "en_US", "C", "POSIX".
func Parse(s string) (language.Tag, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	switch strings.ToLower(s) {
	case "", "c", "posix":
		return English, nil
	}
	t, err := language.Parse(strings.ReplaceAll(s, "_", "-"))
	if err != nil {
		return English, fmt.Errorf("unknown language %q (okey speaks en and tr)", s)
	}
	base, _ := t.Base()
	switch base.String() {
	case "en":
		return English, nil
	case "tr":
		return Turkish, nil
	}
	return English, fmt.Errorf("unsupported language %q (okey speaks en and tr)", s)
}

// FromEnv picks the language from the environment as POSIX does: the first
// set of LC_ALL, LC_MESSAGES, LANG. An unknown or unsupported one gives
// English.
func FromEnv(getenv func(string) string) language.Tag {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			t, err := Parse(v)
			if err != nil {
				return English
			}
			return t
		}
	}
	return English
}
