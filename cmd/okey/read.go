package main

import (
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/verdict"
)

// transcriptMagic opens every transcript file (protocol.md 6).
const transcriptMagic = verdict.Magic

// readTranscript reads the transcript at path for verify, replay and stats
// (verdict.Read: messages for a player, a last record cut short dropped and
// reported).
func readTranscript(path string) (*table.Transcript, bool, error) { return verdict.Read(path) }

// parseTranscript reads a transcript file's bytes (verdict.Parse).
func parseTranscript(data []byte) (*table.Transcript, bool, error) { return verdict.Parse(data) }

// userErr is an error for a person (verdict.UserErr).
func userErr(key string, args ...any) error { return verdict.UserErr(key, args...) }

// localErr is an error for a person, in the interface's language.
func localErr(err error) string { return verdict.LocalErr(err) }
