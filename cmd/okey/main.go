// Command okey plays Okey on a LAN with no server: see the README.
//
// Exit status, the same for every command: 0 success, and help (-h, --help,
// okey help COMMAND); 1 a seat named on proof signed by that seat; 2 bad
// usage, no terminal, unreadable or damaged input; 3 an unfinished match
// (honest so far, no one named).
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
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
	fmt.Fprintln(w, "usage: okey COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'okey help COMMAND' (or 'okey COMMAND -h') for a command's flags,")
	fmt.Fprintln(w, "'okey help rules' for the rules of each preset.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status, for every command:")
	fmt.Fprintln(w, "  0  done (help included)")
	fmt.Fprintln(w, "  1  a seat is named on proof signed by that seat")
	fmt.Fprintln(w, "  2  bad usage, no terminal, or a file that is unreadable, damaged or altered")
	fmt.Fprintln(w, "  3  an unfinished match: honest so far, no one named")
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
			fmt.Fprintln(stderr, "usage: okey help [COMMAND | rules [PRESET]]")
			return 2
		}
		if code := help(args[1], stdout); code >= 0 {
			return code
		}
		fmt.Fprintf(stderr, "okey: help: unknown command %q\n", args[1])
		usage(stderr)
		return 2
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "okey: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if wantsHelp(args[1:]) {
		return help(args[0], stdout)
	}
	return c.run(args[1:], stdin, stdout, stderr)
}
