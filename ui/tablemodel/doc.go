// Package tablemodel is the model of one seat's view of an okey table,
// shared by okey's front ends: the terminal (package ui, on tview) draws
// it today, and the web page will draw the same model in HTML. It holds
// what the table means to the player and nothing of how it is drawn: no
// tcell, no tview, no widget, no screen position (a test checks the import
// graph), so its tests need no screen.
//
// The model reads Snapshots, copies of the engine's public state and of
// the seat's view that the seat's peer takes after every protocol step; it
// never reads the live machine, never decides a rule, and never speaks the
// protocol. It gives, in the interface's language (internal/i18n: English
// and Turkish):
//   - the turn and the protocol's progress (Table.Turn: the turn line and
//     whose it is; TurnOf, Progress), the turn timer (Table.TimeLeft);
//   - the actions a player may take now (Action: Draw, Take, Discard, Win,
//     Show, GiveBack, Lay, Add), whether each is a move of this moment
//     (Table.Offered), and the reason each other one is off (Table.Off);
//   - the moves themselves (Table.Draw, Take, Discard, Win, Show,
//     GiveBack; Table.Send and Send101 for a move built elsewhere): every
//     move is tried on a copy of the engine state before it is sent on the
//     request's channel, and refused with the engine's reason when it does
//     not hold, wherever it comes from (a key, a click, a drag, the timer);
//   - the message line (Table.Msg: a move's outcome or a refusal);
//   - Okey 101's selection read as melds (Table.SelText) and the moves
//     made from it (Table.Lay, Add, AddTo; Toggle, ClearSel);
//   - the log (Table.Log) and the move the program makes for the player
//     when the turn's time runs out (Table.TimeUp);
//   - the rack and its arrangement (Table.Rack: the player's own, laid out
//     when the dealt tiles are open, sorted by runs, sets or pairs, moved
//     tile by tile with an undo, kept in the match's RackFile so that a
//     resumed match stands the tiles where they were; Table.IsFresh for a
//     tile that just arrived) and Okey 101's selection (Table.Sel);
//   - the log lines and the end of a hand or round, with its figures
//     (Events, Line, HandEnd, End101; Causes101), each seat's score change with its
//     causes (Causes), the teams and how the ruleset scores (TeamsLine,
//     ScoringLine), and the match's end (MatchEnd);
//   - hints (Table.Hint): the classic expert's advice, Okey 101's opening,
//     adds and turn plan, with the tiles they are about marked or selected;
//   - the sentence each engine refusal reads as, per game (Refusal,
//     Explain, Plain), a verdict's evidence (Evidence), the names of rules,
//     protocol steps, presets and rulesets (RuleName, KindName,
//     PresetName, RulesetName);
//   - a transcript replayed into frames (LoadReplay: okey replay's, and
//     the verify page's, which builds for js/wasm without the terminal).
//
// A front end uses it like this. It keeps one Table (New). On every
// snapshot it calls Events with the previous one, appends the lines to
// the log (Table.AddLog), queues a hand's end (Table.AddEnds: the end
// waits in Table.Ends with the table as it ended, Table.EndedAt, to draw
// under its panel until NextEnd), and calls
// Table.Update (the rack, the timer and the selection follow). When the
// seat's peer asks for a move it hands the request (NewRequest, a channel
// the peer waits on) to Table.Ask. It draws the table from Table.Snap and
// Table.Rack, offers the actions Offered reports, and maps the player's
// keys, clicks and drags to the Table's moves and rack operations; it
// shows Table.Msg after each and calls Table.KeepRack. At the match's end
// it calls Table.Finish. The model is not safe for concurrent use: a front
// end calls it from one goroutine (the terminal's UI goroutine).
//
// The terminal's table (ui.TableView) is its first user. The web page
// (issue 39's next steps) is the second: served by the player's own okey
// process, it keeps a Table the same way, draws it in HTML and maps
// clicks, drags and keys to the same actions; what it sends the page is
// what the Table holds, the seat's own view and nothing more.
//
// Why the name: "model" alone says nothing in an import list, and "table"
// is the protocol's package; this is the model of the table screen, and it
// lives under ui/ because it is the user interface's, not the protocol's.
package tablemodel
