"""Checkers and hints for lesson 05: a safe mutation, the incident desk."""

from __future__ import annotations

import json
from typing import Any

from course_lib import host, review, wire
from course_lib.checks.core import build_server, checker, probe, require, result_text
from course_lib.servers import incidents

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
}

NOTE = "Rolled back checkout to 2.7.9."
REQUEST = "1c9d6e24-7a3b-4f58-9e21-6b0d4c8a2f17"
OTHER_REQUEST = "8e2b5f0a-4c7d-4a19-b3e6-2d1f9a7c5b84"
RETRIES, CLIENTS = 200, 20


def _brief(result: dict, limit: int) -> str:
    """A result's text on one line, cut to `limit` characters."""
    return " ".join(result_text(result).split())[:limit]


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# --- 5.1 make add_incident_note idempotent -----------------------------------------------------------


@checker("5.1")
def ex_05_1(build_notes_server) -> str:
    """Check an idempotent add_incident_note under 200 concurrent retries and a conflicting reuse."""
    store = incidents.Store(write_delay=0.05)  # a slow database write, as in production
    server = build_server(build_notes_server, store, "ana")
    seen = probe(server)
    require("add_incident_note" in seen.names, "a tool named add_incident_note", ", ".join(seen.names) or "none")
    params = seen.tool("add_incident_note")["inputSchema"].get("properties", {})
    require(params.get("requestId", {}).get("format") == "uuid", "a requestId parameter that is a UUID",
            ", ".join(params) or "no parameters")
    before = len(store.notes("INC-101"))
    arguments = {"incidentId": "INC-101", "note": NOTE, "requestId": REQUEST}
    results = wire.run_sync(wire.call_concurrently, server, [("add_incident_note", arguments)] * RETRIES, CLIENTS)
    added = len(store.notes("INC-101")) - before
    failed = [r for r in results if r.get("isError")]
    require(added > 0, "the first call to add the note",
            f"no note was added: {_brief(failed[0], 120) if failed else 'no error either'}")
    require(added == 1, f"{RETRIES} concurrent retries with one requestId to add 1 note",
            f"{added} notes (check, write and record under one lock, or the retries race)")
    require(not failed, "every retry to succeed with the first result", _brief(failed[0], 120) if failed else "")
    first = results[0].get("structuredContent")
    require(all(r.get("structuredContent") == first for r in results),
            "every retry to return the same result as the first call", "different results")

    def one(args: dict) -> dict:
        return probe(server, [("add_incident_note", args)]).results[0]

    count = len(store.notes("INC-101"))
    for label, changed in (("a different note", {"note": "Nothing to see here."}),
                           ("a different incident", {"incidentId": "INC-103"})):
        conflict = one({**arguments, **changed})
        require(bool(conflict.get("isError")) and len(store.notes("INC-101")) == count
                and len(store.notes("INC-103")) == 0,
                f"the same requestId with {label} to be refused as a conflict (isError) and change nothing",
                "isError: false" if not conflict.get("isError") else "a note was written")
        require(review.leaks(result_text(conflict)) == [] and "different" in result_text(conflict),
                "a conflict message that says the requestId was already used for a different note",
                _brief(conflict, 120))
    fresh = one({**arguments, "requestId": OTHER_REQUEST})
    require(not fresh.get("isError") and len(store.notes("INC-101")) == count + 1,
            "a new requestId with the same text to add a second note (two requests, two notes)",
            _brief(fresh, 120) if fresh.get("isError") else "no new note")
    return (f"{RETRIES} concurrent retries over {CLIENTS} clients added one note; a reused requestId with "
               "other inputs was refused and changed nothing; a new requestId added a new note")


# --- 5.2 split the overloaded tool --------------------------------------------------------------------

SPLIT = ("search_incidents", "get_incident", "add_incident_note")


@checker("5.2")
def ex_05_2(build_split_server) -> str:
    """Check three narrow tools that replace incident(action=search|read|update)."""
    store = incidents.Store()
    server = build_server(build_split_server, store, "ana")
    tools = {t["name"]: t for t in probe(server).tools}
    overloaded = [name for name, t in tools.items() if "action" in t["inputSchema"].get("properties", {})]
    require(not overloaded, "no tool with an action parameter", ", ".join(overloaded))
    require(sorted(tools) == sorted(SPLIT), f"three tools: {', '.join(SPLIT)}", ", ".join(tools) or "none")
    props = {name: tools[name]["inputSchema"].get("properties", {}) for name in SPLIT}
    require(props["get_incident"].get("incidentId", {}).get("pattern") == incidents.ID_PATTERN,
            f"get_incident(incidentId) with the pattern {incidents.ID_PATTERN}",
            repr(props["get_incident"].get("incidentId", list(props["get_incident"]))))
    resolved = props["search_incidents"].get("includeResolved", {})
    require(resolved.get("type") == "boolean" and resolved.get("default") is False,
            "search_incidents(includeResolved) to default to false (forgetting it shows less, not more)",
            f"default {resolved.get('default')!r}" if resolved else "no includeResolved parameter")
    note = props["add_incident_note"]
    require((note.get("note", {}).get("minLength"), note.get("note", {}).get("maxLength")) == (1, 500)
            and note.get("requestId", {}).get("format") == "uuid"
            and note.get("incidentId", {}).get("pattern") == incidents.ID_PATTERN,
            "add_incident_note(incidentId pattern, note 1-500 characters, requestId uuid)",
            ", ".join(f"{k}: {_json(v)}" for k, v in note.items()) or "no parameters")
    for name in SPLIT:
        hints = host.effective_hints(host.annotations_of(tools[name]))
        if name == "add_incident_note":
            require(not hints["readOnlyHint"], "add_incident_note annotated as a change (readOnlyHint false)",
                    "readOnlyHint true")
            require(not hints["destructiveHint"] and hints["idempotentHint"] and not hints["openWorldHint"],
                    "add_incident_note with destructiveHint false, idempotentHint true, openWorldHint false",
                    _json(host.annotations_of(tools[name])))
        else:
            require(hints["readOnlyHint"] and not hints["openWorldHint"],
                    f"{name} with readOnlyHint true and openWorldHint false",
                    _json(host.annotations_of(tools[name])))
    agent = host.Host(trusted={"incidents"}, person=host.person(default=True), echo=False)
    calls = [("search_incidents", {}), ("get_incident", {"incidentId": "INC-101"}),
             ("add_incident_note", {"incidentId": "INC-101", "note": NOTE, "requestId": REQUEST})]

    async def run() -> list[dict]:
        async with agent.connect("incidents", server) as session:
            return [wire.dump(await session.call(name, args)) for name, args in calls]

    expected_search, expected_read = store.search("ana").model_dump(), store.get("ana", "INC-101").model_dump()
    search, read, added = wire.run_sync(run)
    asked = [entry.tool for entry in agent.log if entry.decision.ask]
    require(asked == ["add_incident_note"], "a careful host to ask only before add_incident_note",
            f"it asked before {', '.join(asked) or 'nothing'}")
    require(search.get("structuredContent") == expected_search,
            "search_incidents() to return store.search(user)'s open incidents", _brief(search, 120))
    require(read.get("structuredContent") == expected_read,
            "get_incident('INC-101') to return store.get(user, 'INC-101')", _brief(read, 120))
    require(not added.get("isError") and store.notes("INC-101")[-1].text == NOTE,
            "add_incident_note to add the note", _brief(added, 120))
    return "three tools with their own schemas and annotations; a careful host asks only before the note"


# --- 5.3 close the existence leak ---------------------------------------------------------------------

HIDDEN = {"INC-204": "restricted to the security team", "INC-301": "another organization's",
          "INC-999": "missing"}


@checker("5.3")
def ex_05_3(build_incident_server) -> str:
    """Check that forbidden, foreign and missing incidents get one answer, and allowed reads still work."""
    store = incidents.Store()
    ben = build_server(build_incident_server, store, "ben")
    ana = build_server(build_incident_server, store, "ana")
    ids = ["INC-101", *HIDDEN]
    results = dict(zip(ids, probe(ben, [("get_incident", {"incidentId": i}) for i in ids]).results))
    allowed = results.pop("INC-101")
    require(allowed.get("structuredContent") == store.get("ben", "INC-101").model_dump(),
            "ben's get_incident('INC-101') to return the incident", _brief(allowed, 120))
    for incident_id, result in results.items():
        require(bool(result.get("isError")) and "structuredContent" not in result,
                f"get_incident('{incident_id}') ({HIDDEN[incident_id]}) to be refused (isError) for ben",
                f"a result: {_brief(result, 100)}")
    texts = {i: result_text(r).replace(i, "<id>") for i, r in results.items()}
    missing = texts["INC-999"]
    for incident_id in ("INC-204", "INC-301"):
        require(texts[incident_id] == missing,
                f"the same answer for {incident_id} ({HIDDEN[incident_id]}) as for a missing incident",
                f"{texts[incident_id][:90]!r} vs {missing[:90]!r}")
    require(missing.strip() != "Error executing tool get_incident",
            "a ToolError that tells the model what to do next",
            "the bare text of a hidden plain exception")
    require(review.leaks(missing) == [], "an answer without internals", ", ".join(review.leaks(missing)))
    own = probe(ana, [("get_incident", {"incidentId": "INC-204"})]).results[0]
    require(not own.get("isError"), "ana (security team) to still read INC-204", _brief(own, 120))
    return "restricted, foreign and missing incidents get one identical answer; allowed reads still work"
