"""Checkers and hints for lesson 05: a safe mutation, the incident desk."""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from typing import Any

from course_lib import host, review, wire
from course_lib.checks.core import (build_server, checker, fail, first_difference, holding, machine_of,
                                   outcome, probe, replacing, require, require_deliberate, result_text, session,
                                   quoted, spec, whole)
from course_lib.checks.schemas import resolve
from course_lib.servers import deploy, incidents

HINTS: dict[str, tuple[str, ...]] = {
    "5.1": (
        "Remember each requestId you have handled, with the incidentId and note it came with and the result "
        "you returned. A retry gets that same result back; nothing is written twice.",
        "Concurrent retries arrive together: 'is it new?' and 'write it and remember it' must be one step. "
        "Hold a threading.Lock (created in the factory, next to your dict) around the check, the "
        "store.append_note(...) call and the recording.",
        "Inside the lock: key = str(requestId); if key in seen: compare seen[key]'s incidentId and note with this "
        "call's; different -> raise ToolError('requestId ... was already used for a different note ...'); same -> "
        "return the stored result. Otherwise result = store.append_note(user, incidentId, note); "
        "seen[key] = (incidentId, note, result); return result.",
    ),
    "5.2": (
        "One tool per operation, each with its own name, only the parameters that operation needs, and its "
        "own honest annotations. The old tool's actions search, read and update become search_incidents, "
        "get_incident and add_incident_note.",
        "Reuse the lesson's types: incidents.IncidentId (the ID pattern), incidents.NoteText (1-500 characters), "
        "incidents.RequestId (a UUID). includeResolved: bool = False. The bodies call store.search, store.get "
        "and store.add_note_once with `user`.",
        "Reads: annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False). The note: "
        "ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False).",
    ),
    "5.3": (
        "Ask the question a caller cannot answer from outside: would they get a different reply for an "
        "incident that exists but is not theirs than for one that does not exist?",
        "Missing, another organization's and restricted must be one case: `if incident is None or not "
        "store.can_read(user, incident):` then raise one ToolError.",
        "Raise ToolError(f'Incident {incidentId} was not found, or you do not have access to it. Use "
        "search_incidents to find the IDs you can see.') for that case, and a plain exception nowhere.",
    ),
    "5.4": (
        "Two fixes. The environment loses its default in both tools (a required parameter: the model must say "
        "it, or ask). And start_deployment stops trusting its arguments: it looks the token up and compares.",
        "In the factory, previews = {}. preview_deployment stores previews[token] = (service, version, "
        "environment, releases.running(service, environment)) under token = secrets.token_hex(8), and returns "
        "{'change': <service, environment, running version -> new version>, 'previewToken': token}.",
        "start_deployment, all under one threading.Lock made in the factory (calls run in worker threads, so two "
        "calls with one token can arrive together): saved = previews.get(previewToken); refuse with ToolError "
        "when it is None, when saved[:3] != (service, version, environment), or when releases.running(service, "
        "environment) != saved[3]; otherwise del previews[previewToken] and return releases.deploy(service, "
        "environment, version). Refusals name nothing but what the call sent.",
    ),
}


# --- shared probes --------------------------------------------------------------------------------------


def _brief(result: dict, limit: int = 120) -> str:
    """A result's text on one line, shortened at word boundaries."""
    return quoted(result_text(result), limit)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _calls(server: Any, calls: list[tuple[str, dict]]) -> list[dict]:
    """Wire-form results of `calls`, made one after the other through one client session."""
    return probe(server, calls).results


# IDs an incident-ID pattern must accept, and strings it must refuse (judged with re.search, as JSON Schema does).
_GOOD_IDS = ("INC-101", "INC-1", "INC-0042", "INC-999999")
_BAD_IDS = ("inc-101", "INC-", "INC-10a", "XINC-101", "INC-101 ", " INC-101", "INC101", "INC--1", "101")


def _means_incident_id(pattern: Any) -> bool:
    """Whether a schema pattern accepts exactly the IDs ^INC-[0-9]+$ accepts, on typical and tricky samples."""
    if not isinstance(pattern, str):
        return False
    try:
        compiled = re.compile(pattern)
    except re.error:
        return False
    return all(compiled.search(good) for good in _GOOD_IDS) and not any(compiled.search(bad) for bad in _BAD_IDS)


class _WatchedStore(incidents.Store):
    """The check's own store: it does the backend work and remembers which of its methods the answer called.

    While `_together` is set, its first note write waits (up to `RACE_WAIT` seconds) for a second write to start:
    retries that check for an earlier write outside a lock all pass that check in the meantime, however slowly
    their calls arrive (a loaded machine, a kernel across the grading boundary), so the race shows every time.
    An answer that checks and writes under one lock makes no second write: its first waits the whole time."""

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.called: list[str] = []
        self._together = False
        self._writes = 0
        self._second = threading.Event()
        self._counting = threading.Lock()

    def append_note(self, *args: Any, **kwargs: Any) -> incidents.NoteAdded:
        if self._together:
            with self._counting:
                self._writes += 1
                first = self._writes == 1
            if first:
                self._second.wait(RACE_WAIT)
            else:
                self._second.set()
        return super().append_note(*args, **kwargs)

    def add_note_once(self, *args: Any, **kwargs: Any) -> incidents.NoteAdded:
        self.called.append("add_note_once")
        return super().add_note_once(*args, **kwargs)


_ON_BEHALF = ("asUser", "user", "author", "onBehalfOf")
"""Argument names a call may add to act for someone else; a tool answers for the signed-in user whatever they say."""


def _on_behalf(arguments: dict, someone: str) -> dict:
    return {**arguments, **{name: someone for name in _ON_BEHALF}}


# --- 5.1 make add_incident_note idempotent -----------------------------------------------------------

RULES_5_1 = spec(
    ("tool", "a tool named add_incident_note that takes incidentId, note and requestId, and nothing else",
     "tools/list"),
    ("hints", "add_incident_note still annotated as a change that is idempotent and not destructive "
              "(readOnlyHint false, destructiveHint false, idempotentHint true)",
     "annotations, absent hints taken at their defaults"),
    ("append", "every note written with `store.append_note(user, incidentId, note)`, never with "
               "`store.add_note_once` (that is the answer)",
     "the store the check passes in records which of its methods are called"),
    ("uuid", "a requestId that is not a UUID refused, writing nothing",
     "calls with requestId 'retry-1' and '' must be isError and add no note"),
    ("first", "the first call with a requestId to add the note and return it",
     "one call; the store must gain one note with that text and the result must name it"),
    ("concurrent", "200 concurrent retries of one call (same requestId, incident and note) to add exactly one "
                   "note, each retry returning the first result",
     "200 identical calls at once over 20 clients to a store whose writes take 50 ms, the first of them "
     "waiting up to 2 s for a second write to start"),
    ("interleaved", "a retry recognized whatever came in between: A, B, C, then a retry of A or B adds nothing "
                    "and returns its first result",
     "three requestIds on two incidents, then retries of the first two"),
    ("conflict", "the same requestId with a different incident or note (any other text, even one that differs "
                 "only in case or spacing) refused with a ToolError that changes nothing and leaks no internals "
                 "(stack traces, paths, SQL, hostnames); a retry of the original call still returns its first result",
     "a reused requestId with another note, the note in other case, the note with other spacing, then with "
     "another incident; notes counted on both; review.leaks "
     "(an internal domain or address, or the name of the machine the server runs on, count as hostnames); "
     "the original retried"),
    ("new_key", "a new requestId to add a new note, even with the same text",
     "the first call's incident and text with a fresh requestId"),
    ("per_server", "each server with its own memory: a server built on another store adds the note even for a "
                   "requestId the first server has already handled",
     "a second server built on a fresh store gets a requestId the first server handled"),
)

NOTE = "Rolled back checkout to 2.7.9."
RETRIES, CLIENTS = 200, 20
RACE_WAIT = 2.0
"""Seconds the check's store holds its first write of the concurrent retries, waiting for a second one."""


@checker("5.1", RULES_5_1)
def ex_05_1(build_notes_server) -> str:
    """Check an idempotent add_incident_note: concurrency, interleaved keys, conflicts, a second server."""
    keys = ["1c9d6e24-7a3b-4f58-9e21-6b0d4c8a2f17", "8e2b5f0a-4c7d-4a19-b3e6-2d1f9a7c5b84",
            "3f6a9c1e-5b2d-4e8f-a0c7-9d1b3e5f7a26", "b7e1d3c5-9a2f-4c6e-8b0d-1f3a5c7e9b42",
            "0d2f4b6a-8c1e-4a3b-9d5f-7e9a1c3b5d68"]
    store = _WatchedStore(write_delay=0.05)  # a slow database write, as in production
    server = build_server(build_notes_server, store, "ana")
    server_host = machine_of(build_notes_server)  # the machine its messages must not name
    seen = probe(server)
    require("add_incident_note" in seen.names, "tool", ", ".join(seen.names) or "no tools")
    params = set(seen.tool("add_incident_note")["inputSchema"].get("properties", {}))
    require(params == {"incidentId", "note", "requestId"}, "tool",
            f"add_incident_note({', '.join(sorted(params))})" if params else "no parameters")
    given = host.annotations_of(seen.tool("add_incident_note"))
    hints = host.effective_hints(given)
    require(not hints["readOnlyHint"] and not hints["destructiveHint"] and hints["idempotentHint"], "hints",
            _json(given) if given else "no annotations")

    def count(incident_id: str, on: Any = store) -> int:
        return len(on.notes(incident_id))

    def call(args: dict, on: Any = server) -> dict:
        return _calls(on, [("add_incident_note", args)])[0]

    # anything but a UUID is refused before a note is written
    before = count("INC-103")
    for bad in ("retry-1", ""):
        result = call({"incidentId": "INC-103", "note": "Not a UUID.", "requestId": bad})
        require(result.get("isError") and count("INC-103") == before, "uuid",
                lambda: f"requestId {bad!r} was accepted" + (" and wrote a note" if count("INC-103") > before else ""))

    # the first call arrives 200 times at once (a client that timed out and retried): one note, one result
    a = {"incidentId": "INC-101", "note": NOTE, "requestId": keys[0]}
    before = count("INC-101")
    store._together = True
    try:
        results = wire.run_sync(wire.call_concurrently, server, [("add_incident_note", a)] * RETRIES, CLIENTS)
    finally:
        store._together = False
    added = count("INC-101") - before
    failed = [r for r in results if r.get("isError")]
    require(added > 0, "first", lambda: f"no note was added: {_brief(failed[0]) if failed else 'no error either'}")
    require(added == 1, "concurrent", f"{added} notes (check, write and record under one lock, or the retries race)")
    require(not failed, "concurrent", lambda: f"a retry failed: {_brief(failed[0])}")
    require(not store.called, "append", "your tool called store.add_note_once",
            "build the idempotency yourself around store.append_note")
    first = results[0]
    written = store.notes("INC-101")[-1]
    require(added != 1 or (written.text == NOTE
                           and (first.get("structuredContent") or {}).get("noteId") == written.noteId),
            "first", lambda: f"result {_brief(first)} for the stored note {written.noteId}")
    differ = [r for r in results if r.get("structuredContent") != first.get("structuredContent")]
    require(not differ, "concurrent", lambda: f"a retry returned {_brief(differ[0])} instead of {_brief(first)}")
    if added != 1 or failed or differ:  # the retries raced (told above): which result was A's first is moot, so
        first = call(a)  # the later probes compare A's retries with what the server answers for A now (unseen11, M6)

    # interleaved keys: A was handled; B and C are new; then A and B again
    b = {"incidentId": "INC-103", "note": "Cache flushed on all nodes.", "requestId": keys[1]}
    c = {"incidentId": "INC-101", "note": "Error rate back under 0.1 %.", "requestId": keys[2]}
    counts = (count("INC-101"), count("INC-103"))
    first_b, first_c = call(b), call(c)
    require(not first_b.get("isError") and not first_c.get("isError")
            and (count("INC-101"), count("INC-103")) == (counts[0] + 1, counts[1] + 1), "new_key",
            lambda: _brief(first_b if first_b.get("isError") else first_c)
            if first_b.get("isError") or first_c.get("isError") else "no note written for a new requestId")
    counts = (count("INC-101"), count("INC-103"))
    again_a, again_b, again_c = _calls(server, [("add_incident_note", x) for x in (a, b, c)])
    require((count("INC-101"), count("INC-103")) == counts, "interleaved",
            lambda: f"{count('INC-101') + count('INC-103') - sum(counts)} note(s) written again by the retries")
    for label, again, original in (("A", again_a, first), ("B", again_b, first_b), ("C", again_c, first_c)):
        require(not again.get("isError") and again.get("structuredContent") == original.get("structuredContent"),
                "interleaved", lambda: f"the retry of {label} returned {_brief(again)}")

    # more keys in between, then every retry again in reverse order: a memory of a few keys is not enough
    more = [{"incidentId": ("INC-101", "INC-103")[n % 2], "note": f"Check {n + 1}: dashboards reviewed.",
             "requestId": str(uuid.uuid5(uuid.NAMESPACE_URL, f"course-5.1-{n}"))} for n in range(6)]
    firsts = _calls(server, [("add_incident_note", x) for x in more])
    counts = (count("INC-101"), count("INC-103"))
    handled = [(a, first), (b, first_b), (c, first_c), *zip(more, firsts)]
    retried = _calls(server, [("add_incident_note", x) for x, _ in reversed(handled)])
    require((count("INC-101"), count("INC-103")) == counts, "interleaved",
            lambda: f"{count('INC-101') + count('INC-103') - sum(counts)} note(s) written again when "
                    f"{len(handled)} handled requestIds were retried")
    for (x, original), again in zip(reversed(handled), retried):
        require(again.get("structuredContent") == original.get("structuredContent"), "interleaved",
                lambda: f"the retry of requestId {x['requestId']} returned {_brief(again)}")

    # conflicts: the same key with another note, another incident; then the original again
    for label, changed in (("a different note", {"note": "Nothing to see here."}),
                           ("the note in lower case", {"note": NOTE.lower()}),
                           ("the note with other spacing", {"note": " " + NOTE.replace(" ", "  ") + "\n"}),
                           ("a different incident", {"incidentId": "INC-103"}),
                           ("B's incident and note", {"incidentId": b["incidentId"], "note": b["note"]})):
        counts = (count("INC-101"), count("INC-103"))
        conflict = call({**a, **changed})
        require_deliberate(conflict, "add_incident_note", "conflict", f"{label}")
        require((count("INC-101"), count("INC-103")) == counts, "conflict", f"{label}: a note was written")
        leaked = review.leaks(result_text(conflict), [server_host])
        require(not leaked, "conflict", lambda: f"{', '.join(leaked)} in {_brief(conflict)}")
    again = call(a)
    require(not again.get("isError") and again.get("structuredContent") == first.get("structuredContent"),
            "conflict", lambda: f"after the conflicts, the retry of the original returned {_brief(again)}")

    # a new requestId with the same text is a new note
    before = count("INC-101")
    fresh = call({**a, "requestId": keys[3]})
    require(not fresh.get("isError") and count("INC-101") == before + 1, "new_key",
            lambda: _brief(fresh) if fresh.get("isError") else "no new note (the same text is not the same request)")

    # a second server on its own store has its own memory
    other_store = incidents.Store()
    other = build_server(build_notes_server, other_store, "ana")
    before, mine = count("INC-101", other_store), count("INC-101")
    there = call(a, other)
    require(not there.get("isError") and count("INC-101", other_store) == before + 1
            and count("INC-101") == mine, "per_server",
            lambda: _brief(there) if there.get("isError") else
            "no note on the second store (is the memory shared between servers?)")
    again = call(a)
    require(again.get("structuredContent") == first.get("structuredContent") and count("INC-101") == mine,
            "per_server", lambda: f"after the second server, the first one's retry returned {_brief(again)}")
    return (f"{RETRIES} concurrent retries over {CLIENTS} clients added one note; interleaved retries, "
            "conflicts, a new requestId and a second server on its own store all behaved")

# --- 5.2 split the overloaded tool --------------------------------------------------------------------

RULES_5_2 = spec(
    ("split", "three tools, search_incidents, get_incident and add_incident_note, and no tool with an action "
              "parameter", "tools/list"),
    ("params", "each tool with exactly the parameters it needs: search_incidents(query, includeResolved), "
               "get_incident(incidentId), add_incident_note(incidentId, note, requestId)",
     "the listed inputSchema properties of each tool"),
    ("signed_in", "every answer for the signed-in `user`, whatever else a call sends: an extra argument such as "
                  "asUser changes nothing",
     "calls as ben that add asUser, user and author arguments naming ana"),
    ("id_pattern", "incidentId, in get_incident and add_incident_note, to accept only IDs like INC-101 "
                   "(the pattern ^INC-[0-9]+$ in the schema)",
     "the schema's pattern (after $ref) tried on valid and invalid IDs; calls with 'inc-101' and 'INC-10a' "
     "refused"),
    ("note_length", "a note of 1 to 500 characters: an empty note and one of 501 characters are refused, "
                    "one of 500 is accepted", "calls with 0, 501 and 500 characters"),
    ("request_uuid", "a requestId that is not a UUID refused", "a call with requestId 'retry-1' refused"),
    ("resolved_default", "includeResolved optional, with the default false in the schema (forgetting it shows "
                         "less, not more)",
     "the listed default, and search_incidents(query='') compared with store.search(user, '', False)"),
    ("search", "search_incidents(query, includeResolved) to return store.search(user, query, includeResolved) "
               "for the signed-in user", "four queries for three users (ana, ben, gil) on one store"),
    ("get", "get_incident(incidentId) to return store.get(user, incidentId) for the signed-in user, and to "
            "refuse with a ToolError an incident that user may not see",
     "ben, gil and ana read incidents they may and may not see"),
    ("note", "add_incident_note to add the note as the signed-in user once per requestId "
             "(store.add_note_once): a retry returns the first result, a reuse for another note is refused",
     "a call, its retry, a conflicting reuse; notes counted"),
    ("hints", "search_incidents and get_incident annotated as reads that stay inside (readOnlyHint true, "
              "openWorldHint false, destructiveHint not true), and add_incident_note as a change that is not "
              "destructive, is idempotent and stays inside (readOnlyHint false, destructiveHint false, "
              "idempotentHint true, openWorldHint false), so a careful host asks only before the note",
     "annotations, absent hints taken at their defaults; host.Host with a trusted server calls each tool once"),
)

SPLIT = ("search_incidents", "get_incident", "add_incident_note")


@checker("5.2", RULES_5_2)
def ex_05_2(build_split_server) -> str:
    """Check three narrow tools that replace incident(action=search|read|update)."""
    store = incidents.Store()
    servers = {user: build_server(build_split_server, store, user) for user in ("ana", "ben", "gil")}
    tools = {t["name"]: t for t in probe(servers["ana"]).tools}
    overloaded = [name for name, t in tools.items() if "action" in t["inputSchema"].get("properties", {})]
    require(not overloaded, "split", lambda: f"{', '.join(overloaded)} with an action parameter")
    require(sorted(tools) == sorted(SPLIT), "split", ", ".join(tools) or "no tools")

    def prop(tool: str, name: str) -> dict:
        schema = tools[tool]["inputSchema"]
        return resolve(schema.get("properties", {}).get(name, {}), schema)

    wanted = {"search_incidents": {"query", "includeResolved"}, "get_incident": {"incidentId"},
              "add_incident_note": {"incidentId", "note", "requestId"}}
    for tool, names in wanted.items():
        params = set(tools[tool]["inputSchema"].get("properties", {}))
        require(params == names, "params", f"{tool}({', '.join(sorted(params))})",
                f"{tool} takes {', '.join(sorted(names))}")
    include = prop("search_incidents", "includeResolved")
    require(include.get("default") is False and "includeResolved" not in
            tools["search_incidents"]["inputSchema"].get("required", []), "resolved_default",
            f"includeResolved with default {json.dumps(include.get('default', '(none)'))}" +
            (", required" if "includeResolved" in tools["search_incidents"]["inputSchema"].get("required", [])
             else ""))
    for tool in ("get_incident", "add_incident_note"):
        pattern = prop(tool, "incidentId").get("pattern")
        require(_means_incident_id(pattern), "id_pattern",
                f"{tool}'s incidentId pattern {pattern!r}" if pattern else f"{tool}'s incidentId has no pattern")
    ana = servers["ana"]
    count = lambda: len(store.notes("INC-101")) + len(store.notes("INC-103"))  # noqa: E731
    before = count()
    key = "5b1e3d7f-2a4c-4e6b-8d0f-1a3c5e7b9d24"
    bad_id = _calls(ana, [("get_incident", {"incidentId": "inc-101"}), ("get_incident", {"incidentId": "INC-10a"}),
                          ("add_incident_note", {"incidentId": "inc-101", "note": "x", "requestId": key})])
    require(all(r.get("isError") for r in bad_id) and count() == before, "id_pattern",
            "an incidentId like 'inc-101' or 'INC-10a' was accepted")
    lengths = _calls(ana, [("add_incident_note", {"incidentId": "INC-103", "note": text, "requestId": rid})
                           for text, rid in (("", "6c2f4a8e-1b3d-4f5a-9e7c-2d4b6f8a0c13"),
                                             ("x" * 501, "7d3a5b9f-2c4e-4a6b-8f0d-3e5c7a9b1d35"))])
    require(all(r.get("isError") for r in lengths) and count() == before, "note_length",
            lambda: "a note of " + ("0" if not lengths[0].get("isError") else "501") + " characters was accepted")
    long_note = _calls(ana, [("add_incident_note", {"incidentId": "INC-103", "note": "y" * 500,
                                                    "requestId": "8e4b6c0a-3d5f-4b7c-9a1e-4f6d8b0c2e57"})])[0]
    require(not long_note.get("isError"), "note_length", lambda: f"500 characters refused: {_brief(long_note)}")
    not_uuid = _calls(ana, [("add_incident_note", {"incidentId": "INC-103", "note": "z", "requestId": "retry-1"})])[0]
    require(not_uuid.get("isError"), "request_uuid", "requestId 'retry-1' was accepted")

    # searches, for three users
    for user, server in servers.items():
        default, everything = _calls(server, [("search_incidents", {"query": ""}),  # query's default is the answer's
                                              ("search_incidents", {"query": "", "includeResolved": True})])
        want_default = store.search(user, "", False).model_dump(mode="json")
        want_all = store.search(user, "", True).model_dump(mode="json")
        require(default.get("structuredContent") == want_default, "resolved_default",
                lambda: f"search_incidents(query='') as {user} returned {_brief(default)}")
        require(everything.get("structuredContent") == want_all, "search",
                lambda: f"search_incidents(query='', includeResolved=true) as {user} returned {_brief(everything)}")
        for query, resolved in (("checkout", False), ("payments", True), ("inventory sync", True)):
            got = _calls(server, [("search_incidents", {"query": query, "includeResolved": resolved})])[0]
            want = store.search(user, query, resolved).model_dump(mode="json")
            require(got.get("structuredContent") == want, "search",
                    lambda: f"search_incidents(query={query!r}, includeResolved={resolved}) as {user} returned "
                            f"{_brief(got)}; expected {_json(want)}")

    # reads, as the signed-in user
    for user, incident_id in (("ben", "INC-101"), ("ben", "INC-204"), ("gil", "INC-301"), ("gil", "INC-101"),
                              ("ana", "INC-204"), ("ana", "INC-999")):
        got = _calls(servers[user], [("get_incident", {"incidentId": incident_id})])[0]
        record = store.lookup(incident_id)
        if record is not None and store.can_read(user, record):
            want = store.get(user, incident_id).model_dump(mode="json")
            require(got.get("structuredContent") == want, "get",
                    lambda: f"get_incident({incident_id!r}) as {user} returned {_brief(got)}")
        else:
            require(not got.get("structuredContent"), "get",
                    lambda: f"{user} read {incident_id}, which {user} may not see: {_brief(got)}")
            require_deliberate(got, "get_incident", "get", f"get_incident({incident_id!r}) as {user}")

    # extra arguments that name someone else change nothing: ben stays ben
    ben_server = servers["ben"]
    before = len(store.notes("INC-103"))
    asked = _calls(ben_server, [
        ("get_incident", _on_behalf({"incidentId": "INC-204"}, "ana")),
        ("search_incidents", _on_behalf({"query": "", "includeResolved": True}, "ana")),
        ("add_incident_note", _on_behalf({"incidentId": "INC-103", "note": "Checked as ben.",
                                          "requestId": "2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3c5e71"}, "ana"))])
    read, searched, noted = asked
    require(not read.get("structuredContent") and read.get("isError"), "signed_in",
            lambda: f"ben read INC-204 by adding asUser='ana': {_brief(read)}")
    require(searched.get("structuredContent") == store.search("ben", "", True).model_dump(mode="json"), "signed_in",
            lambda: f"ben's search with asUser='ana' returned {_brief(searched)}")
    notes_now = store.notes("INC-103")
    require(not noted.get("isError") and len(notes_now) == before + 1 and notes_now[-1].author == "ben",
            "signed_in", lambda: _brief(noted) if noted.get("isError") else
            f"the note was written by {notes_now[-1].author if len(notes_now) > before else 'nobody'}, not ben")

    # the note: once per requestId, as the signed-in user
    ben = servers["ben"]
    args = {"incidentId": "INC-101", "note": NOTE, "requestId": "9f5c7d1b-4e6a-4c8d-8b2f-5a7e9c1d3f68"}
    before = len(store.notes("INC-101"))
    added, retried, reused = _calls(ben, [("add_incident_note", args), ("add_incident_note", args),
                                          ("add_incident_note", {**args, "note": "Another note."})])
    notes = store.notes("INC-101")
    require(not added.get("isError") and len(notes) == before + 1 and notes[-1].text == NOTE
            and notes[-1].author == "ben", "note",
            lambda: _brief(added) if added.get("isError") else
            f"{len(notes) - before} notes added" + (f", by {notes[-1].author}" if len(notes) > before else ""))
    require(retried.get("structuredContent") == added.get("structuredContent"), "note",
            lambda: f"the retry returned {_brief(retried)}")
    require_deliberate(reused, "add_incident_note", "note", "the same requestId with another note")
    require(len(store.notes("INC-101")) == before + 1, "note", "the conflicting reuse wrote a note")

    # annotations
    for name in SPLIT:
        given = host.annotations_of(tools[name])
        hints = host.effective_hints(given)
        if name == "add_incident_note":
            require(not hints["readOnlyHint"] and not hints["destructiveHint"] and hints["idempotentHint"]
                    and not hints["openWorldHint"], "hints", _json(given) if given else "no annotations")
        else:
            require(hints["readOnlyHint"] and given.get("destructiveHint") is not True
                    and not hints["openWorldHint"], "hints",
                    f"{name}: {_json(given)}" if given else f"{name}: no annotations")

    fresh = incidents.Store()
    agent = host.Host(trusted={"incidents"}, person=host.person(default=True), echo=False)
    calls = [("search_incidents", {"query": ""}), ("get_incident", {"incidentId": "INC-101"}),
             ("add_incident_note", {"incidentId": "INC-101", "note": NOTE, "requestId": args["requestId"]})]

    async def run() -> list[dict]:
        async with agent.connect("incidents", build_server(build_split_server, fresh, "ana")) as session:
            return [wire.dump(await session.call(name, call_args)) for name, call_args in calls]

    wire.run_sync(run)
    asked = [entry.tool for entry in agent.log if entry.decision.ask]
    require(asked == ["add_incident_note"], "hints", f"it asked before {', '.join(asked) or 'nothing'}")
    return ("three tools with their own constraints and honest annotations; searches, reads and notes match "
            "the store for three users; a careful host asks only before the note")


# --- 5.3 close the existence leak ---------------------------------------------------------------------

RULES_5_3 = spec(
    ("allowed", "get_incident to return every incident the signed-in user may read, as store.get returns it "
                "(restricted ones included, for the team they are restricted to)",
     "ana, ben and gil read every incident ID of the store and some missing ones"),
    ("refused", "an incident the user may not see (another organization's, or restricted to a team they are "
                "not on) refused with isError and none of its data in any part of the result",
     "the same calls; each refusal searched for the incident's title, service and notes"),
    ("deliberate", "a ToolError, never a plain exception (its message never reaches the model)",
     "each refusal checked for the SDK's hidden-crash text"),
    ("same", "one and the same whole result, apart from the ID itself, for an incident that is missing, in "
             "another organization, or restricted: every text block, structuredContent and _meta alike",
     "per user, every refusal's whole result with its ID replaced"),
    ("signed_in", "every answer for the signed-in `user`, whatever else a call sends: an extra argument such as "
                  "asUser changes nothing",
     "calls as ben that add asUser, user and author arguments naming ana"),
    ("no_leak", "a refusal that leaks no internals (stack traces, paths, SQL, hostnames)", "review.leaks"),
    ("own", "the decision made in your tool with `store.lookup` and `store.can_read`: `store.get` and "
            "`store.visible` make it for you (that is the answer), so call them only for an incident your own "
            "`store.can_read` has already allowed, and never `store.search` (it filters by access)",
     "the store the check passes in records each call of get, visible and search, and each incident its can_read "
     "let a user read before it"),
)


class _ReadWatchedStore(incidents.Store):
    """5.3's store: `get` and `visible` already give one answer for missing and forbidden (red team rtgrade7 c03:
    `return store.get(user, incidentId)` passed), so it remembers each call of them that the answer's own
    `can_read` had not granted first: (method, user, incident ID). A read after the answer's own decision is
    fine (unseen9: lookup, can_read, then `store.get`). `search` already filters by who may read (rtgrade9 F2: the
    IDs `search(user, "", True, ...)` lists passed): every call of it is remembered, and its own `can_read` calls
    grant nothing. The check reads through a twin store of the same seed data, so its own reads are not counted;
    the store's reads inside `get`, `visible` and `search` are not the answer's."""

    def __init__(self) -> None:
        super().__init__()
        self.called: list[tuple[str, str, str]] = []
        self._granted: set[tuple[str, str]] = set()
        self._inside = threading.local()

    def can_read(self, user: str, record: Any) -> bool:
        allowed = super().can_read(user, record)
        own = record == self.lookup(getattr(record, "incident_id", None))  # the store's record (or a copy of it
        # across the grading boundary), not a made-up one
        if allowed and own and not getattr(self._inside, "read", False):
            self._granted.add((user, record.incident_id))
        return allowed

    def _watched(self, method: str, user: str, incident_id: str, read: Any) -> Any:
        if not getattr(self._inside, "read", False) and (user, incident_id) not in self._granted:
            self.called.append((method, user, incident_id))
        outer, self._inside.read = getattr(self._inside, "read", False), True
        try:
            return read()
        finally:
            self._inside.read = outer

    def get(self, user: str, incident_id: str) -> incidents.Incident:
        return self._watched("get", user, incident_id, lambda: super(_ReadWatchedStore, self).get(user, incident_id))

    def visible(self, user: str, incident_id: str) -> incidents.Record:
        return self._watched("visible", user, incident_id,
                             lambda: super(_ReadWatchedStore, self).visible(user, incident_id))

    def search(self, user: str, query: str = "", *args: Any, **kwargs: Any) -> incidents.IncidentList:
        self.called.append(("search", user, query))
        outer, self._inside.read = getattr(self._inside, "read", False), True
        try:
            return super().search(user, query, *args, **kwargs)
        finally:
            self._inside.read = outer


def _not_own(call: tuple[str, str, str]) -> str:
    """What 5.3's `own` rule found: a read that decided for the answer."""
    method, user, argument = call
    if method == "search":
        return (f"your tool called store.search({user!r}, {argument!r}), which already filters by access: "
                "decide with store.lookup and store.can_read")
    return f"your tool called store.{method}({user!r}, {argument!r}) before your own store.can_read let {user} read it"


def _data_in(result: dict, record: Any) -> str:
    """What of an incident's own data (title, service, notes) a result holds anywhere, or ""."""
    if record is None:
        return ""
    view = incidents.view(record).model_dump(mode="json")
    values = [view.get("title"), *[note.get("text") for note in view.get("notes", [])]]
    everything = json.dumps({part: result.get(part) for part in ("content", "structuredContent", "_meta")})
    return next((repr(value) for value in values if isinstance(value, str) and len(value) >= 8
                 and value in everything), "")


_CANDIDATES = ("INC-101", "INC-102", "INC-103", "INC-104", "INC-204", "INC-205", "INC-301", "INC-302", "INC-303",
               "INC-999", "INC-0101", "INC-1")


@checker("5.3", RULES_5_3)
def ex_05_3(build_incident_server) -> str:
    """Check that forbidden, foreign and missing incidents get one answer, and allowed reads still work."""
    store, twin = _ReadWatchedStore(), incidents.Store()  # the check reads the twin: only the answer's reads count
    allowed_reads = refusals = 0
    server_host = machine_of(build_incident_server)  # the machine refusals must not name
    for user in ("ben", "gil", "ana"):
        server = build_server(build_incident_server, store, user)
        results = _calls(server, [("get_incident", {"incidentId": i}) for i in _CANDIDATES])
        require(not store.called, "own", lambda: _not_own(store.called[0]))
        wholes: dict[str, dict] = {}
        for incident_id, got in zip(_CANDIDATES, results):
            record = twin.lookup(incident_id)
            if record is not None and twin.can_read(user, record):
                want = twin.get(user, incident_id).model_dump(mode="json")
                require(not got.get("isError") and got.get("structuredContent") == want, "allowed",
                        lambda: f"{user}'s get_incident({incident_id!r}) returned {_brief(got)}")
                allowed_reads += 1
                continue
            kind = "missing" if record is None else "not visible to " + user
            require(got.get("isError") and not got.get("structuredContent"), "refused",
                    lambda: f"{user} read {incident_id} ({kind}): {_brief(got)}")
            shown_data = _data_in(got, record)
            require(not shown_data, "refused", lambda: f"{user}'s refusal of {incident_id} holds {shown_data}")
            require_deliberate(got, "get_incident", "deliberate", f"get_incident({incident_id!r}) as {user}")
            leaked = review.leaks(result_text(got), [server_host])
            require(not leaked, "no_leak", lambda: f"{', '.join(leaked)} in {_brief(got)}")
            wholes[incident_id] = whole(got, replacing(incident_id))
            refusals += 1
        missing = wholes["INC-999"]
        for incident_id, refusal in wholes.items():
            difference = first_difference(refusal, missing)
            require(not difference, "same", lambda: f"as {user}, {incident_id} and the missing INC-999 differ in "
                                                    f"{difference}")
        if user == "ben":  # an extra argument naming someone who may read it changes nothing: the same call
            read = _calls(server, [("get_incident", _on_behalf({"incidentId": "INC-204"}, "ana"))])[0]  # without
            require(read.get("isError") and not first_difference(whole(read, replacing("INC-204")),  # it
                                                                 wholes["INC-204"]),
                    "signed_in", lambda: f"ben asked for INC-204 with asUser='ana' and got {_brief(read)}")
    return (f"{refusals} refusals for three users gave one identical answer per user, whether missing, "
            f"foreign or restricted; {allowed_reads} allowed reads still work")


# --- 5.4 safe default and a bound preview ---------------------------------------------------------------

RULES_5_4 = spec(
    ("tools", "two tools, preview_deployment(service, version, environment) and start_deployment(previewToken, "
              "service, version, environment)", "tools/list: exactly these parameters"),
    ("no_default", "environment required in both tools, with no default in their schemas: a call that leaves "
                   "it out is refused and deploys nothing",
     "each listed inputSchema (required, no default key), then both tools called without environment"),
    ("hints", "preview_deployment annotated as a read (readOnlyHint true) and start_deployment as a change "
              "(readOnlyHint false, destructiveHint not false)", "annotations, absent hints at their defaults"),
    ("preview", "preview_deployment to deploy nothing and to return a previewToken field (in structuredContent "
                "or in JSON text) and a change that names the service, the environment, the version running now "
                "and the new version",
     "previews of two services in both environments, one after a deployment changed what runs"),
    ("applies", "start_deployment with a preview's token and exactly its service, version and environment to "
                "deploy that version once, even when other previews were made in between",
     "two previews, then both applied in the other order; two previews of one target with different versions, "
     "then the first applied (nothing ran in between); deployments compared"),
    ("exact", "a call whose service, version or environment differs from its token's preview to be refused "
              "with a ToolError that deploys nothing",
     "one changed argument at a time (each other environment and service, another version), each on a fresh "
     "preview, the changed call previewed too under a token of its own, on a server where every version is the "
     "same, with force/skipChecks/allowStale flags added"),
    ("once", "a token to apply once, even when calls with it arrive at the same time: the same call again is "
             "refused and deploys nothing (whether a refused call uses its token up or leaves it for the exact call "
             "is your choice)",
     "an applied call repeated; 8 calls with one token at once over 8 clients, on Releases whose reads and "
     "deploys take 50 ms"),
    ("unknown", "a token no preview issued to be refused", "made-up tokens"),
    ("stale", "a token to be refused when what runs there changed after its preview (another deployment came "
              "first)", "two previews for one target; the second applied, then the first"),
    ("per_server", "each server to keep its own previews: a token issued by one server is refused by a server "
                   "built on other Releases", "a token from one server applied on a second one"),
    ("guessable", "tokens no one can guess: not a counter, and not made from the change alone, so two servers "
                  "that preview the same change issue different tokens",
     "the same change previewed on two fresh servers; each token of three previews on one server, its last "
     "number changed by one, compared with the others"),
    ("no_leak", "refusals that reveal nothing the caller did not send: no internals (such as stack traces, paths, "
                "SQL or hostnames), and no other preview or its token",
     "review.leaks, and every token issued so far other than the one the call sent"),
)


def _preview_token(result: dict) -> str | None:
    """The previewToken a preview result carries (structuredContent, or JSON text), or None."""
    structured = result.get("structuredContent")
    candidates: list[Any] = [structured]
    if isinstance(structured, dict):
        candidates.append(structured.get("result"))
    candidates.append(result_text(result))
    for data in candidates:
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                continue
        token = data.get("previewToken") if isinstance(data, dict) else None
        if isinstance(token, str) and token:
            return token
    return None


TOGETHER = 8
"""Calls with one token that 5.4's check makes at once, each over its own client."""


class _SlowReleases(deploy.Releases):
    """Releases whose reads and deploys take 50 ms each, as a real deploy backend's do: steps of two calls that
    are not under one lock overlap."""

    def running(self, service: str, environment: str) -> str:
        time.sleep(0.05)
        return super().running(service, environment)

    def deploy(self, service: str, environment: str, version: str) -> deploy.Deployment:
        time.sleep(0.05)
        return super().deploy(service, environment, version)


def _neighbours(token: str) -> list[str]:
    """`token` with its last number one higher and one lower (its width kept): the next token a counter issues."""
    found = list(re.finditer(r"[0-9]+", token))
    if not found:
        return []
    last = found[-1]
    number, width = int(last.group()), len(last.group())
    return [token[:last.start()] + str(other).zfill(width) + token[last.end():]
            for other in (number - 1, number + 1) if other >= 0]


_OVERRIDES = {"force": True, "skipChecks": True, "allowStale": True, "override": True, "confirmed": True}
"""Arguments a call may add to get past the checks; the exact parameters leave them out, and they change nothing."""


@checker("5.4", RULES_5_4)
def ex_05_4(build_release_server) -> str:
    """Check a deploy whose environment has no default and whose preview binds the exact change, once."""
    releases = deploy.Releases()
    server = build_server(build_release_server, releases)
    server_host = machine_of(build_release_server)  # the machine refusals must not name
    seen = probe(server)
    for name, wanted in (("preview_deployment", {"service", "version", "environment"}),
                         ("start_deployment", {"previewToken", "service", "version", "environment"})):
        require(name in seen.names, "tools", ", ".join(seen.names) or "no tools")
        params = set(seen.tool(name)["inputSchema"].get("properties", {}))
        require(wanted == params, "tools", f"{name}({', '.join(sorted(params))})")
    for name in ("preview_deployment", "start_deployment"):
        schema = seen.tool(name)["inputSchema"]
        environment = resolve(schema.get("properties", {}).get("environment", {}), schema)
        require("environment" in schema.get("required", []) and "default" not in environment, "no_default",
                lambda: f"{name}'s schema: environment " + ("with the default "
                                                             f"{json.dumps(environment.get('default'))}"
                                                             if "default" in environment else "not required"))
    read = host.effective_hints(host.annotations_of(seen.tool("preview_deployment")))
    change = host.effective_hints(host.annotations_of(seen.tool("start_deployment")))
    require(read["readOnlyHint"], "hints",
            lambda: f"preview_deployment {_json(host.annotations_of(seen.tool('preview_deployment')))}")
    require(not change["readOnlyHint"] and change["destructiveHint"], "hints",
            lambda: f"start_deployment {_json(host.annotations_of(seen.tool('start_deployment')))}")

    def run(calls: list[tuple[str, dict]], on: Any = server) -> list[dict]:
        return session(on, calls).results

    def deployed(on: deploy.Releases = releases) -> list:
        return [d.model_dump() for d in on.deployments]

    issued: list[str] = []  # every token a preview gave so far, on any server

    def refusal(result: dict, label: str, rule: str, sent: str = "") -> None:
        require(result.get("isError") or "protocolError" in result, rule, lambda: f"{label}: {outcome(result)}")
        if result.get("isError"):
            require_deliberate(result, "start_deployment", rule, label)
            leaked = review.leaks(result_text(result), [server_host])
            require(not leaked, "no_leak", lambda: f"{', '.join(leaked)} in {_brief(result)}")
            other = holding(result, {"another preview's token": token for token in issued if token != sent})
            require(not other, "no_leak", lambda: f"{other} of the refusal of {label}: {_brief(result)}")

    def preview(args: dict, on: Any = server, releases_: deploy.Releases = releases) -> str:
        before = deployed(releases_)
        got = run([("preview_deployment", args)], on)[0]
        if got.get("isError") or "clientError" in got:  # every later probe needs a preview: stop here
            raise fail("preview", f"preview_deployment({_json(args)}) gave {outcome(got)}")
        require(deployed(releases_) == before, "preview", f"preview_deployment({_json(args)}) deployed something")
        text = result_text(got) + " " + json.dumps(got.get("structuredContent") or {})
        running = releases_.running(args["service"], args["environment"])
        for what, value in (("service", args["service"]), ("environment", args["environment"]),
                            ("running version", running), ("new version", args["version"])):
            require(value in text, "preview", lambda: f"the preview of {_json(args)} does not name the {what} "
                                                      f"{value!r}: {_brief(got)}")
        token = _preview_token(got)
        if not token:
            raise fail("preview", f"no previewToken field in {_brief(got)}")
        issued.append(token)
        return token

    # no default environment, in either tool (a default of production would ship the production preview)
    a = {"service": "checkout", "version": "2.8.1", "environment": "staging"}
    ready = preview({**a, "environment": "production"})
    before = deployed()
    for name, args in (("preview_deployment", {"service": "checkout", "version": "2.8.1"}),
                       ("start_deployment", {"service": "checkout", "version": "2.8.1", "previewToken": ready})):
        got = run([(name, args)])[0]
        require(got.get("isError") or "protocolError" in got, "no_default",
                lambda: f"{name} without environment gave {outcome(got)}")
        require(deployed() == before, "no_default", f"{name} without environment deployed something")

    # two previews, applied in the other order: each deploys exactly its own change
    b = {"service": "payments", "version": "3.1.0", "environment": "production"}
    token_a, token_b = preview(a), preview(b)
    require(token_a != token_b, "applies", f"two previews got the same token {token_a!r}")
    got_b, got_a = run([("start_deployment", {**b, "previewToken": token_b}),
                        ("start_deployment", {**a, "previewToken": token_a})])
    for label, got, args in (("B", got_b, b), ("A", got_a, a)):
        require(not got.get("isError") and "clientError" not in got, "applies",
                lambda: f"applying preview {label} {_json(args)} gave {outcome(got)}")
    want = [dict(service=x["service"], environment=x["environment"], version=x["version"], previousVersion="2.8.0")
            for x in (b, a)]
    require(deployed() == want, "applies", lambda: f"deployments {_json(deployed())} instead of {_json(want)}")

    # two previews of one target with different versions: the first still applies, since nothing ran in between
    earlier, later = ({"service": "checkout", "version": version, "environment": "production"}
                      for version in ("2.9.0", "2.9.1"))
    token_earlier, _ = preview(earlier), preview(later)
    got = run([("start_deployment", {**earlier, "previewToken": token_earlier})])[0]
    require(not got.get("isError") and "clientError" not in got, "applies",
            lambda: f"applying the first of two previews of checkout in production ({earlier['version']}, then "
                    f"{later['version']}; nothing deployed in between) gave {outcome(got)}")
    want.append({**earlier, "previousVersion": "2.8.0"})
    require(deployed() == want, "applies", lambda: f"deployments {_json(deployed())} instead of {_json(want)}")

    # once
    before = deployed()
    again = run([("start_deployment", {**a, "previewToken": token_a})])[0]
    refusal(again, "the applied token used again", "once", token_a)
    require(deployed() == before, "once", "the token deployed a second time")
    same = {"service": "search", "version": "2.8.0", "environment": "staging"}  # a redeploy changes no version
    token = preview(same)
    first_time, second_time = run([("start_deployment", {**same, "previewToken": token})] * 2)
    require(not first_time.get("isError"), "applies", lambda: f"redeploying what runs gave {outcome(first_time)}")
    refusal(second_time, "the token of a redeploy used again", "once", token)
    require(len(deployed()) == len(before) + 1, "once",
            lambda: f"{len(deployed()) - len(before)} deployments from one redeploy token")
    before = deployed()

    # exact: one argument changed at a time, on a fresh preview each time, on a server where every version runs
    # 2.8.0 (so a check of what runs now cannot refuse it in the binding's place); extra flags change nothing
    fresh_releases = deploy.Releases()
    fresh = build_server(build_release_server, fresh_releases)
    for base in ({"service": "checkout", "version": "2.8.2", "environment": "staging"},
                 {"service": "payments", "version": "2.9.1", "environment": "production"}):
        others = [("another environment", {"environment": other}) for other in ("staging", "production")
                  if other != base["environment"]]
        others += [("another service", {"service": other}) for other in ("checkout", "payments", "search")
                   if other != base["service"]]
        for label, changed in [*others, ("another version", {"version": "2.9.0"})]:
            token = preview(base, fresh, fresh_releases)
            preview({**base, **changed}, fresh, fresh_releases)  # previewed too, but under another token
            got = run([("start_deployment", {**base, **changed, **_OVERRIDES, "previewToken": token})], fresh)[0]
            refusal(got, f"{label} than this token's preview ({_json(changed)[1:-1]}; that change has a token of "
                         f"its own)", "exact", token)
            require(not fresh_releases.deployments, "exact",
                    f"{label} than previewed was deployed: {_json(fresh_releases.deployments[0].model_dump())}"
                    if fresh_releases.deployments else "")
    c = {"service": "checkout", "version": "2.8.2", "environment": "staging"}
    token = preview(c)
    exact = run([("start_deployment", {**c, "previewToken": token})])[0]
    require(not exact.get("isError") and deployed()[-1]["version"] == "2.8.2", "applies",
            lambda: f"after refused calls, a fresh preview's exact call gave {outcome(exact)}")

    # unknown tokens, while a real preview of the same change is waiting
    d = {"service": "search", "version": "4.0.0", "environment": "production"}
    preview(d)
    before = deployed()
    for made_up, flags in (("pv-0", {}), ("pv-1", {}), ("0", {}), ("previewToken", {}), (token_a, {}),
                           ("pv-2", _OVERRIDES)):
        got = run([("start_deployment", {**d, **flags, "previewToken": made_up})])[0]
        refusal(got, f"the made-up token {made_up!r}" + (f" with {_json(flags)}" if flags else ""), "unknown",
                made_up)
    require(deployed() == before, "unknown", "a made-up token deployed something")

    # stale: two previews for one target, the second applied first
    first = preview({"service": "search", "version": "4.0.0", "environment": "production"})
    second = preview({"service": "search", "version": "4.1.0", "environment": "production"})
    done = run([("start_deployment", {"service": "search", "version": "4.1.0", "environment": "production",
                                      "previewToken": second})])[0]
    require(not done.get("isError"), "applies", lambda: f"applying the second preview gave {outcome(done)}")
    before = deployed()
    late = run([("start_deployment", {**d, **_OVERRIDES, "previewToken": first})])[0]
    refusal(late, "a preview made before another deployment of the same target", "stale", first)
    require(deployed() == before, "stale", "the stale preview was deployed over the newer release")

    # per server: another server on other Releases does not know this server's tokens
    other_releases = deploy.Releases()
    other = build_server(build_release_server, other_releases)
    mine = preview({"service": "payments", "version": "3.2.0", "environment": "staging"})
    there = run([("start_deployment", {"service": "payments", "version": "3.2.0", "environment": "staging",
                                       "previewToken": mine})], other)[0]
    refusal(there, "a token from another server", "per_server", mine)
    require(not other_releases.deployments, "per_server", "a token from another server deployed there")
    own = preview({"service": "payments", "version": "3.2.0", "environment": "staging"}, other, other_releases)
    theirs = run([("start_deployment", {"service": "payments", "version": "3.2.0", "environment": "staging",
                                        "previewToken": own})], other)[0]
    require(not theirs.get("isError") and len(other_releases.deployments) == 1, "per_server",
            lambda: f"the second server's own preview gave {outcome(theirs)}")

    # once, even when the calls arrive together: reads and deploys that take time let unlocked steps overlap
    slow_releases = _SlowReleases()
    slow = build_server(build_release_server, slow_releases)
    target = {"service": "checkout", "version": "2.9.5", "environment": "staging"}
    token = preview(target, slow, slow_releases)
    together = wire.run_sync(wire.call_concurrently, slow,
                             [("start_deployment", {**target, "previewToken": token})] * TOGETHER, TOGETHER)
    require(len(slow_releases.deployments) == 1, "once",
            lambda: f"{len(slow_releases.deployments)} deployments from {TOGETHER} calls with one token that arrived "
                    "together (check the token and use it up in one step, under one lock)")
    require(sum(not got.get("isError") for got in together) == len(slow_releases.deployments), "once",
            lambda: f"{sum(not got.get('isError') for got in together)} successful answers for "
                    f"{len(slow_releases.deployments)} deployment(s)")
    for got in together:
        if got.get("isError") or "protocolError" in got:
            refusal(got, f"one of {TOGETHER} calls with one token that arrived together", "once", token)

    # tokens no one can guess: not made from the change alone, not a counter
    change = {"service": "search", "version": "2.9.0", "environment": "staging"}
    twins = []
    for _ in range(2):
        twin_releases = deploy.Releases()
        twins.append(preview(change, build_server(build_release_server, twin_releases), twin_releases))
    require(twins[0] != twins[1], "guessable",
            f"two servers both issued the token {twins[0]!r} for the same change {_json(change)}")
    row_releases = deploy.Releases()
    row = build_server(build_release_server, row_releases)
    tokens = [preview({**change, "version": f"3.0.{n}"}, row, row_releases) for n in range(3)]
    guessed = [(mine, guess) for mine in tokens for guess in _neighbours(mine) if guess in tokens]
    require(not guessed, "guessable",
            lambda: f"the tokens {', '.join(map(repr, tokens))} of three previews: {guessed[0][1]!r} is "
                    f"{guessed[0][0]!r} with its number changed by one")
    return ("no default environment; previews name what runs now and change nothing; only the exact preview "
            f"applies, once (also with {TOGETHER} calls at the same time), while nothing changed since; tokens "
            "stay with their server and cannot be guessed; refusals reveal no other preview")
