package main

const verifyFolderUsage = `
okey verify [--json] FOLDER checks a tournament: a FOLDER holding a file
"tournament" of tournament records (protocol.md 9.6). Every record and every
table's transcript is checked, the seat draws, tables and standings are
recomputed and printed, with the same exit statuses; a match missing from
the folder is unfinished (3), never cheating. With --json it prints one JSON
object: ids, keys and openings as lowercase hexadecimal, players as roster
indices (from 0), texts in English.
`
