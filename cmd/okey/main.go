// Command okey plays Okey on a LAN with no server: see the README.
//
// Exit status, the same for every command: 0 success, and help (-h, --help,
// okey help COMMAND); 1 a seat named on proof signed by that seat; 2 bad
// usage, no terminal, unreadable or damaged input; 3 an unfinished match
// (honest so far, no one named); 4 a table that could not form (okey bot
// and okey play with --code or --join).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/okey-game/okey/internal/i18n"
)

// command is one subcommand of okey. Each lives in its own file and registers
// itself in init.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("okey: internal error: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func usage(w io.Writer) {
	fmt.Fprintln(w, i18n.T("usage: okey [--lang en|tr] COMMAND [flags] [args]"))
	fmt.Fprintln(w)
	fmt.Fprintln(w, i18n.T("commands:"))
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		helpLine(w, fmt.Sprintf("  %-10s ", n), i18n.TKey(commands[n].summary))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, i18n.T("Run 'okey help COMMAND' (or 'okey COMMAND -h') for a command's flags,\n'okey help rules' for the rules of each preset."))
	fmt.Fprintln(w, i18n.T("--lang en|tr (any command) picks the language; else LC_ALL, LC_MESSAGES, LANG."))
	fmt.Fprintln(w)
	fmt.Fprintln(w, i18n.T("Exit status, for every command:"))
	for _, s := range []string{
		i18n.T("  0  done (help included)"),
		i18n.T("  1  a seat is named on proof signed by that seat"),
		i18n.T("  2  bad usage, no terminal, or a file that is unreadable, damaged or altered"),
		i18n.T("  3  an unfinished match: honest so far, no one named"),
		i18n.T("  4  a table that could not form: its creator unreachable, the invite code refused, the table full or gone"),
	} {
		helpLine(w, s[:5], s[5:]) // "  N  ", then the text
	}
}

// helpWidth is the width okey help fits.
const helpWidth = 80

// helpLine writes prefix and text, the text folded at spaces to end by
// column helpWidth, each further line indented to the text's column.
func helpLine(w io.Writer, prefix, text string) {
	indent := utf8.RuneCountInString(prefix)
	line := prefix
	n := indent
	for i, word := range strings.Fields(text) {
		wn := utf8.RuneCountInString(word)
		if i > 0 && n+1+wn > helpWidth {
			fmt.Fprintln(w, line)
			line, n = strings.Repeat(" ", indent), indent
		} else if i > 0 {
			line, n = line+" ", n+1
		}
		line, n = line+word, n+wn
	}
	fmt.Fprintln(w, line)
}

// getenv reads the environment for the language (tests replace it).
var getenv = os.Getenv

// takeLang removes every --lang L (-lang L, --lang=L) before a "--" from
// args, so that okey --lang tr COMMAND and okey COMMAND --lang tr both work,
// and returns the rest with the last language given ("" if none).
func takeLang(args []string) (rest []string, lang string, given bool, err error) {
	rest = make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		switch {
		case a == "--lang" || a == "-lang":
			if i+1 >= len(args) {
				return nil, "", true, fmt.Errorf("flag needs an argument: %s", a)
			}
			lang, given = args[i+1], true
			i++
		case strings.HasPrefix(a, "--lang=") || strings.HasPrefix(a, "-lang="):
			_, lang, _ = strings.Cut(a, "=")
			given = true
		default:
			rest = append(rest, a)
		}
	}
	return rest, lang, given, nil
}

// wantsHelp reports whether args ask for help before any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// help shows a command's usage on stdout and exits 0: each command prints
// its usage when its flags are "-h", on the writer it is given for errors.
func help(name string, stdout io.Writer) int {
	c, ok := commands[name]
	if !ok {
		return -1
	}
	c.run([]string{"-h"}, nil, io.Discard, stdout)
	return 0
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	i18n.Set(i18n.FromEnv(getenv))
	args, lang, given, err := takeLang(args)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", i18n.T("--lang needs a language: en or tr"))
		return 2
	}
	if given {
		tag, err := i18n.Parse(lang)
		if err != nil || lang == "" {
			fmt.Fprintf(stderr, "okey: %s\n", i18n.T("--lang %q: okey speaks en and tr", lang))
			return 2
		}
		i18n.Set(tag)
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return 0
	case "-v", "-version", "--version":
		return runVersion(nil, stdin, stdout, stderr)
	case "help":
		switch {
		case len(args) == 1:
			usage(stdout)
			return 0
		case args[1] == "rules":
			return runRules(args[2:], stdout, stderr)
		case len(args) > 2:
			fmt.Fprintln(stderr, i18n.T("usage: okey help [COMMAND | rules [PRESET]]"))
			return 2
		}
		if code := help(args[1], stdout); code >= 0 {
			return code
		}
		fmt.Fprintf(stderr, "okey: %s\n", i18n.T("help: unknown command %q", args[1]))
		usage(stderr)
		return 2
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "okey: %s\n", i18n.T("unknown command %q", args[0]))
		usage(stderr)
		return 2
	}
	if wantsHelp(args[1:]) {
		return help(args[0], stdout)
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

// printDefaults is fs.PrintDefaults in the interface's language: the flag
// package writes "(default ...)" in English, so in another language the
// flags are listed here the same way, with that note translated.
func printDefaults(fs *flag.FlagSet) {
	if i18n.Current() == i18n.English {
		fs.PrintDefaults()
		return
	}
	w := fs.Output()
	fs.VisitAll(func(f *flag.Flag) {
		var b strings.Builder
		fmt.Fprintf(&b, "  -%s", f.Name)
		name, usage := flag.UnquoteUsage(f)
		switch name { // the flag package's names for a value's type
		case "int", "uint":
			name = i18n.T("int")
		case "string":
			name = i18n.T("string")
		case "duration":
			name = i18n.T("duration")
		case "value":
			name = i18n.T("value")
		case "float":
			name = i18n.T("float")
		}
		if name != "" {
			b.WriteString(" " + name)
		}
		if b.Len() <= 4 {
			b.WriteString("\t")
		} else {
			b.WriteString("\n    \t")
		}
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n    \t"))
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "0s" {
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					d = strconv.Quote(d)
				}
			}
			b.WriteString(" " + i18n.T("(default %s)", d))
		}
		fmt.Fprintln(w, b.String())
	})
}
