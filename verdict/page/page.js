"use strict";
// The page of okey verify --html (package page). Every verdict and every
// line of the replay comes from okey's Go code in the WebAssembly
// (okeyVerify, okeyReplay); this script only moves bytes and fills the page.
(() => {
	const $ = (id) => document.getElementById(id);
	const words = JSON.parse($("okey-words").textContent);
	const pick = (l) => {
		switch ((l || "").toLowerCase().slice(0, 2)) {
		case "tr":
			return "tr";
		default:
			return "en";
		}
	};
	let lang = document.documentElement.dataset.lang || pick(navigator.language);
	let current = null; // {name, bytes}: the transcript shown
	const w = (key, arg) => {
		const s = (words[lang] || words.en)[key] || key;
		return arg === undefined ? s : s.replace("%s", String(arg));
	};
	const state = (s) => { document.body.dataset.state = s; };
	const say = (s) => { $("status").textContent = s; };

	function fill() {
		document.documentElement.lang = lang;
		$("lang").value = lang;
		document.title = w("title");
		$("title").textContent = w("title");
		$("intro").textContent = w("intro");
		$("drop-word").textContent = w("drop");
		$("lang-word").textContent = w("language");
		$("verdict-word").textContent = w("verdict");
		$("json-word").textContent = w("json");
		$("hands-word").textContent = w("hands");
		$("messages-word").textContent = w("messages");
	}

	function unbase64(s) {
		const bin = atob(s.replace(/\s+/g, ""));
		const out = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++) {
			out[i] = bin.charCodeAt(i);
		}
		return out;
	}

	function row(tbody, cells, classes) {
		const tr = document.createElement("tr");
		cells.forEach((c, i) => {
			const td = document.createElement(tbody.tagName === "THEAD" ? "th" : "td");
			td.textContent = c;
			if (classes && classes[i]) {
				td.className = classes[i];
			}
			tr.appendChild(td);
		});
		tbody.appendChild(tr);
	}

	function show(name, bytes) {
		current = { name, bytes };
		state("checking");
		say(w("checking", name));
		// Let the browser paint "checking" before the verifier takes the thread.
		setTimeout(() => {
			const t0 = performance.now();
			const v = JSON.parse(globalThis.okeyVerify(bytes, name, lang));
			const ms = Math.round(performance.now() - t0);
			$("result").hidden = false;
			$("verdict").textContent = v.text;
			$("verdict").dataset.status = String(v.status);
			$("json").textContent = v.json;
			const r = JSON.parse(globalThis.okeyReplay(bytes, lang));
			const seat = (s) => (r.seats && r.seats[s] ? s + " " + r.seats[s] : String(s));
			$("ruleset").textContent = r.ruleset ? r.ruleset + ": " + (r.seats || []).join(", ") : "";
			const hands = $("hands");
			hands.tHead.replaceChildren();
			hands.tBodies[0].replaceChildren();
			if (r.hands.length === 0) {
				row(hands.tBodies[0], [w("noHands")]);
			} else {
				row(hands.tHead, [w("hand"), w("winner"), w("seat"), w("points"), w("total"), w("rack")]);
				for (const h of r.hands) {
					(h.scores || []).forEach((total, s) => {
						const rack = h.racks && h.racks[s] ? h.racks[s].join(" ") : "";
						row(hands.tBodies[0], [s === 0 ? String(h.hand) : "", s === 0 ? h.winner || "" : "", seat(s), String((h.deltas || [])[s] ?? ""), String(total), rack], ["", "", "", "", "", "rack"]);
					});
				}
			}
			const msgs = $("messages");
			msgs.tHead.replaceChildren();
			msgs.tBodies[0].replaceChildren();
			row(msgs.tHead, [w("step"), w("hand"), w("seat"), w("kind"), w("says")]);
			for (const m of r.messages) {
				row(msgs.tBodies[0], [String(m.step), String(m.hand), seat(m.seat), m.kind, m.says || ""], ["", "", "", "", "says"]);
			}
			$("stop").textContent = r.stop || "";
			$("replay").hidden = false;
			say(w("timeTaken", ms));
			state("done");
		}, 0);
	}

	async function load(file) {
		const bytes = new Uint8Array(await file.arrayBuffer());
		show(file.name, bytes);
	}

	async function start() {
		fill();
		say(w("loading"));
		const t0 = performance.now();
		try {
			const z = unbase64($("okey-wasm").textContent);
			const stream = new Blob([z]).stream().pipeThrough(new DecompressionStream("gzip"));
			const wasm = await new Response(stream).arrayBuffer();
			const go = new Go();
			const ready = new Promise((resolve) => { globalThis.okeyReady = resolve; });
			const { instance } = await WebAssembly.instantiate(wasm, go.importObject);
			go.run(instance);
			await ready;
		} catch (e) {
			say(w("noWasm", e && e.message ? e.message : String(e)));
			state("failed");
			return;
		}
		say("");
		// How long the verifier took to start (inflate, compile, run main).
		document.body.dataset.startMs = String(Math.round(performance.now() - t0));
		state("ready");
		const inside = $("okey-transcript");
		if (inside.textContent.trim() !== "") {
			show(inside.dataset.name || w("inside"), unbase64(inside.textContent));
		}
	}

	$("lang").addEventListener("change", () => {
		lang = $("lang").value;
		fill();
		if (current && document.body.dataset.state !== "loading") {
			show(current.name, current.bytes);
		}
	});
	$("file").addEventListener("change", () => {
		const f = $("file").files[0];
		if (f && document.body.dataset.state !== "loading") {
			load(f);
		}
	});
	document.addEventListener("dragover", (e) => {
		e.preventDefault();
		document.body.classList.add("dragging");
	});
	document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
	document.addEventListener("drop", (e) => {
		e.preventDefault();
		document.body.classList.remove("dragging");
		const f = e.dataTransfer && e.dataTransfer.files[0];
		if (f && document.body.dataset.state !== "loading") {
			load(f);
		}
	});
	start();
})();
