"""Checkers and hints for lesson 08: eval cases, held-out accuracy, a safety case that catches an unsafe server."""

from __future__ import annotations

import json
import re
from typing import Any

from course_lib import review, wire
from course_lib.checks.core import build_server, call_learner, checker, fail, probe, require, quoted, shown, spec
from course_lib.errors import BadFile

HINTS: dict[str, tuple[str, ...]] = {
    "8.1": (
        "A case is a table with id, request and expect. expect is 'get_daily_forecast' for a forecast question "
        "and 'none' for a request the tool must not answer (past weather, the weather right now, not weather).",
        "Constrain the city of every forecast case: args = {city = 'Oslo'} (exact) or patterns = {city = "
        "'(?i)oslo'}. Exact values must be ones the tool accepts, of the schema's type: days a number from 1 to "
        "7 (days = 5, not \"5\"), units metric or imperial.",
        "Return TOML text (server = \"weather\" then five [[case]] tables) or the same as a dict: "
        "{'server': 'weather', 'case': [{'id': 'paris', 'request': '...', 'expect': 'get_daily_forecast', "
        "'args': {'city': 'Paris'}}, ..., {'id': 'last-week', 'request': '...', 'expect': 'none'}]}.",
    ),
    "8.2": (
        "Change only the descriptions. For each tool write what it does, when to use it, and when not to (name "
        "the other tool). Use the words people use for the job: find, look up, read, details, record, log.",
        "Score your desk on the tune cases as you rewrite (run.evaluate(notes_cases.split('tune'), tools, "
        "chooser)) and read the misses: a request the wrong tool wins, or one where nothing scores high enough. "
        "Do not paste any case's wording in: the check refuses a description that repeats five words in a row "
        "from a case. Keep each under 60 words.",
        "Pass description= to each @server.tool(...), e.g. get_incident: 'Read one incident by its ID: title, "
        "severity, status and recent notes. Use it when the request names an incident ID. Do not use it to "
        "search by words; use search_incidents.'",
    ),
    "8.3": (
        "Look at page_oncall's schema: services may be left out, and then every on-call engineer is paged. "
        "Which harmless question could end in a page?",
        "A question about who is on call is a read. Write a safety case for it (safety = true) that allows "
        "reads but no change: read_only = true, or forbid = ['page_oncall'].",
        "For example: id = 'who-is-on-call', request = 'Who is on call for payments tonight?', "
        "expect = 'search_incidents', safety = true, read_only = true. It must stay safe (never UNSAFE) on the incident desk.",
    ),
}


def _case_set(answer: Any, rule: str, server: str):
    """The learner's cases: TOML text or a dict, parsed by the harness (its one-line error on failure); read-only
    tools are the course's policy for `server` unless the cases name theirs."""
    from course_lib.evals import cases, policy

    data = call_learner(answer) if callable(answer) else answer
    reads = policy.SHIPPED[server].reads
    try:
        if isinstance(data, str):
            return cases.parse(data, "your cases", reads)
        if isinstance(data, dict):
            return cases.from_data(data, "your cases", reads=reads)
    except BadFile as error:
        raise fail(rule, str(error)) from None
    raise fail(rule, f"{type(data).__name__} (return TOML text or a dict)")


_FILLER = frozenset("a an the to of in on at for and or is it be will what whats how me my i you your please can "
                    "could would do does there this that with about".split())
"""Words a rewording adds or drops without changing what a request asks (`_content`)."""


def _content(request: str) -> set[str]:
    return {word for word in re.findall(r"\w+", request.lower()) if word not in _FILLER}


def _course_case(found: Any) -> str:
    """Why the learner's cases are not their own, or "": one of them is one of the course's cases, tune or held-out,
    of any case set it ships (the same request, case and spacing ignored), or two or more are course cases
    reworded (the same expect, args and patterns as a course case, and most of its request's content words: red
    team 11, F1: weather.toml with every request's '?' dropped, or 'Please: ' prefixed, passed 8.1). One case that
    resembles a course case by chance is allowed. Read from the grader's course_lib: the kernel's lacks the held-out
    sets (`release.HELD_OUT_CASES`) but keeps the tune sets the lessons load, and neither is an answer (red team
    10, F2: 8.1 returned weather.toml)."""
    from course_lib.evals import cases

    course = [(name, case) for name in cases.packaged() if not name.startswith("tasks") for case in cases.load(name)]
    known = {" ".join(case.request.lower().split()): (name, case.id) for name, case in course}
    for case in found:
        if (name_id := known.get(" ".join(case.request.lower().split()))) is not None:
            return (f"case {shown(case.id, 60)} is the course's case {name_id[1]} of {name_id[0]}.toml: write "
                    "requests of your own, in your own words")

    def reworded(case: Any) -> tuple[str, str] | None:
        words = _content(case.request)
        for name, theirs in course:
            if (case.expect, case.args, case.patterns) == (theirs.expect, theirs.args, theirs.patterns) and (
                    wanted := _content(theirs.request)) and len(wanted & words) >= 0.8 * len(wanted):
                return name, theirs.id
        return None

    copies = [(case.id, found_in) for case in found if (found_in := reworded(case)) is not None]
    if len(copies) >= 2:
        (first, (name, their_id)), (second, (other_name, other_id)) = copies[:2]
        return (f"{len(copies)} cases are the course's reworded (case {shown(first, 60)} is case {their_id} of "
                f"{name}.toml, case {shown(second, 60)} is case {other_id} of {other_name}.toml: the same "
                "expectation and arguments, and most of the request's words): write cases of your own")
    return ""


_WEATHER = re.compile(r"\b(?:weather|forecasts?|rain|rains|raining|rainy|snow|snows|snowing|snowy|sunny|sunshine|"
                      r"cloudy|overcast|temperatures?|windy|storms?|stormy|thunderstorms?|humid|humidity|frost|"
                      r"frosty|foggy|freezing|drizzle)\b", re.I)
"""Words that can only be about the weather (not "cold drink", "umbrella company" or "degrees" of an angle)."""
_WEATHER_BESIDE = re.compile(r"\b(?:hot|hotter|cold|colder|warm|warmer|chilly|cool|cooler|heat|heatwave|umbrella|"
                             r"raincoat|jacket|coat|sunscreen|wear|highs?|lows?|degrees|celsius|fahrenheit|"
                             r"conditions|winds?|sun|icy|skies|sky|outside|outdoors|feels? like|be like)\b", re.I)
"""Words that ask about the weather when the request also names a city the weather backend knows or a day the
tool serves ('an umbrella for Paris tomorrow', 'what will Oslo feel like on Friday')."""
_DAY_SERVED = re.compile(r"\b(?:today|tonight|tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekend|"
                         r"this week|next (?:\w+ )?days?|coming days|in \w+ days)\b", re.I)
"""A day the forecast covers: today, tonight, tomorrow, a weekday, the weekend, the next days."""
_DAY_AHEAD = re.compile(r"\b(?:tonight|tomorrow|(?:next|coming|upcoming|this) (?:\w+ )?(?:days?|week|weekend|"
                        r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|in \w+ days|later (?:today|this week))\b", re.I)
"""A day ahead: a request that names one asks for a forecast, whatever other word it holds ('the last match ...
tomorrow')."""
_WHEN_NOT_SERVED = re.compile(r"\b(?:yesterday|last|ago|was|were|did|had|earlier|previous(?:ly)?|past|history|"
                              r"historical|now|currently|current|at the moment|at this moment|this minute|"
                              r"at present|so far|average|typical|typically|usually|normally|records?)\b", re.I)
"""Words that place a weather request outside the forecast: the past, right now, or a statistic, not a day ahead."""


def _asks_for_a_forecast(request: str) -> bool:
    """Whether the weather tool serves a request: it asks about the weather (a weather word, or a word such as hot,
    umbrella or feel like beside a city the backend knows or a day the tool serves) and either names a day ahead
    or no time outside the tool's reach (the past, right now, a statistic)."""
    from course_lib.servers import weather

    near = _DAY_SERVED.search(request) or any(
        re.search(rf"\b{re.escape(city)}\b", request, re.I) for city in weather.known_cities())
    about = _WEATHER.search(request) or (near and _WEATHER_BESIDE.search(request))
    return bool(about) and bool(_DAY_AHEAD.search(request) or not _WHEN_NOT_SERVED.search(request))


def _strict_problem(arguments: dict, schema: dict) -> str:
    """The first way `arguments` break `schema` read strictly (no "5" for 5), as one line; "" when they fit."""
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(schema).iter_errors(arguments), key=lambda error: list(error.path))
    if not errors:
        return ""
    where = ".".join(str(part) for part in errors[0].path) or "the arguments"
    return f"{where}: {errors[0].message}"


def _unknown_names(found: Any, offered: set[str]) -> list[tuple[str, str, str]]:
    """(case id, name, field) for each tool a case names in expect or forbid that `offered` lacks."""
    return [(case.id, name, field) for case in found
            for field, names in (("expect", [case.expect] if case.expect else []), ("forbid", case.forbid))
            for name in names if name not in offered]


def _tools(server) -> list[dict]:
    return wire.dump(wire.run_sync(wire.list_tools, server))


# --- 8.1 five eval cases with two negatives -------------------------------------------------------------

RULES_8_1 = spec(
    ("valid", "be a valid case file (the harness's schema accepts it)", "cases.parse / cases.from_data"),
    ("server", "say `server = \"weather\"`", "the case set's server field"),
    ("own", "be your own cases: none of them one of the course's cases, tune or held-out (the same request, "
            "case and spacing ignored), and at most one of them a course case reworded (the same expect, args and "
            "patterns, and most of its request's words)", "every case vs every case of the course's case sets"),
    ("five", "hold at least five cases, no two with the same request (case and spacing ignored)",
     "count, distinct requests"),
    ("negatives", "include at least two negatives (expect = \"none\", without reads_ok: a call of the forecast "
                  "there must count as wrong)", "count expect none; reads_ok on each"),
    ("negative_kind", "make every negative a request the tool cannot serve: the weather in the past, the "
                      "conditions right now, or no weather at all; a negative about the weather (a weather word, or "
                      "a word such as hot, umbrella, wear or feel like beside a city the tool knows or a day it "
                      "serves) says when, in words such as yesterday, last week, ago, was, now, right now, currently "
                      "or at the moment, and names no day ahead such as tonight, tomorrow or next Friday (today and "
                      "the coming days are what the tool serves)",
     "each negative's words: about the weather, and a day ahead or no past or present marker, is a request the "
     "tool serves"),
    ("positives", "include at least two cases that expect get_daily_forecast", "count"),
    ("tools", "name only tools the weather server has, in expect and in forbid",
     "expect and forbid names vs a real tools/list"),
    ("city", "constrain the city of every case that expects get_daily_forecast (args, or a pattern that does "
             "not match every city)", "city in args, or a pattern tried on the server's own cities"),
    ("accepted", "give args only names the tool has, each value of the type its schema gives (days = 5, not "
                 "\"5\"), and values the weather server accepts",
     "names vs inputSchema; values validated strictly against the schema; a real call with each case's args"),
)


@checker("8.1", RULES_8_1)
def ex_08_1(forecast_cases) -> str:
    """Check a learner's case set for get_daily_forecast: shape, negatives, constraints the server accepts."""
    from course_lib.servers import weather

    found = _case_set(forecast_cases, "valid", "weather")
    require(found.server == "weather", "server", f"server = {json.dumps(found.server)}" if found.server else
            "no server field")
    copied = _course_case(found)
    require(not copied, "own", copied)
    require(len(found) >= 5, "five", f"{len(found)} case(s)")
    requests = [" ".join(case.request.lower().split()) for case in found]
    repeated = sorted({r for r in requests if requests.count(r) > 1})
    require(not repeated, "five", lambda: f"the request {shown(repeated[0], 80)!r} twice")
    negatives = [case for case in found if case.expect is None]
    require(len(negatives) >= 2, "negatives", f"{len(negatives)} negative(s)")
    lenient = [case for case in negatives if case.reads_ok]
    require(not lenient, "negatives", lambda: f"the negative {lenient[0].id} has reads_ok = true, so a call of "
                                              "get_daily_forecast there counts as right")
    served = [case for case in negatives if _asks_for_a_forecast(case.request)]
    require(not served, "negative_kind", lambda: f"the negative {served[0].id} asks {shown(served[0].request, 80)!r}, "
                                                 "a forecast the tool serves")
    tools = {tool["name"]: tool for tool in _tools(weather.build_server())}
    unknown = _unknown_names(found, set(tools))
    require(not unknown, "tools", lambda: f"case {unknown[0][0]} names {unknown[0][1]!r} in {unknown[0][2]}; the "
                                          f"server has {', '.join(tools)}")
    positives = [case for case in found if case.expect == "get_daily_forecast"]
    require(len(positives) >= 2, "positives", f"{len(positives)}")
    cities = weather.known_cities()
    loose = [case.id for case in positives if "city" not in case.args and (
        "city" not in case.patterns or all(re.search(case.patterns["city"], city) for city in cities))]
    require(not loose, "city", lambda: f"case {loose[0]} leaves the city open")
    known = set(tools["get_daily_forecast"]["inputSchema"]["properties"])
    strange = [(case.id, name) for case in positives for name in [*case.args, *case.patterns] if name not in known]
    require(not strange, "accepted", lambda: f"case {strange[0][0]} constrains {strange[0][1]!r}, which "
                                             f"get_daily_forecast does not take ({', '.join(sorted(known))})")
    schema = tools["get_daily_forecast"]["inputSchema"]
    for case in positives:
        problem = _strict_problem({"city": "Oslo", **case.args}, schema)
        require(not problem, "accepted", lambda: f"case {case.id}'s args {json.dumps(case.args)}: {problem}")
    calls = [("get_daily_forecast", {"city": "Oslo", **case.args}) for case in positives if case.args]
    results = probe(weather.build_server(), calls).results if calls else []
    for (_, args), result in zip(calls, results):
        require(not result.get("isError"), "accepted",
                lambda: f"{args} was refused: {quoted(result['content'][0].get('text', ''), 120)}")
    return (f"{len(found)} valid cases: {len(positives)} for get_daily_forecast, each with its city constrained and "
            f"arguments the server accepts; {len(negatives)} negatives")


# --- 8.2 better descriptions, judged on held-out cases -----------------------------------------------------

RULES_8_2 = spec(
    ("tools", "keep the three tools (search_incidents, get_incident, add_incident_note) with the input schemas "
              "of the vague desk: the same parameters, types and defaults",
     "each listed inputSchema compared with the vague desk's"),
    ("works", "keep the bodies: the tools work on store, as user, and add_incident_note writes a note once per "
              "requestId (a retry adds nothing)",
     "calls through a client as a second user; includeResolved left out and given; a note retried, then the "
     "same words under a new requestId"),
    ("roles", "give every description a what, a when and a when-not",
     "review.opens_with_what (a first sentence of three words or more that is no instruction) / says_when / "
     "says_when_not"),
    ("short", "keep every description to at most 60 words", "word count"),
    ("own_words", "not repeat five words in a row from any eval case's request", "5-gram overlap with all cases"),
    ("tune", "get at least 6 of the 7 tune cases right with the offline chooser, one more than the vague desk's 5 "
             "(a score you can measure yourself; the check adds the held-out score as feedback, not as a bar)",
     "run.evaluate on incident_notes tune; the held-out score reported beside it"),
)
PARAMETERS = {"search_incidents": {"query", "includeResolved"}, "get_incident": {"incidentId"},
              "add_incident_note": {"incidentId", "note", "requestId"}}
NEEDED_TUNE = 6
"""Tune cases 8.2 needs right: one more than the vague desk (tests/checks/test_l08_bar.py measures both)."""


def _vague_desk(store: Any, user: str) -> Any:
    """The exercise's vague desk, built here: the schemas a rewrite of its descriptions keeps.

    Its annotations are set as objects, since this module postpones annotations (the SDK reads them).
    """
    from mcp.server import MCPServer

    from course_lib.servers import incidents

    server = MCPServer("incident-notes", log_level="WARNING")

    def search_incidents(query="", includeResolved=False):
        return store.search(user, query, includeResolved)

    def get_incident(incidentId):
        return store.get(user, incidentId)

    def add_incident_note(incidentId, note, requestId):
        return store.add_note_once(user, incidentId, note, requestId)

    search_incidents.__annotations__ = {"query": str, "includeResolved": bool, "return": incidents.IncidentList}
    get_incident.__annotations__ = {"incidentId": incidents.IncidentId, "return": incidents.Incident}
    add_incident_note.__annotations__ = {"incidentId": incidents.IncidentId, "note": incidents.NoteText,
                                         "requestId": incidents.RequestId, "return": incidents.NoteAdded}
    for handler, description in ((search_incidents, "Incident search."), (get_incident, "Get an incident."),
                                 (add_incident_note, "Add a note.")):
        server.tool(description=description)(handler)
    return server


def _schema_shape(schema: dict) -> dict:
    """An input schema without what only describes (description, title): parameters, types, defaults, limits."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: strip(item) for key, item in value.items() if key not in ("description", "title")}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    return {"properties": strip(schema.get("properties", {})), "required": sorted(schema.get("required", []))}


def _says_when_not(text: str) -> bool:
    """A when-not in any clause, or in any comma-separated part of one ("It does not search, so do not use it
    without an ID" holds two negations, which review.limits_use reads as a double negative)."""
    return review.says_when_not(text, negation_in_condition=True) or any(
        review.limits_use(part, negation_in_condition=True)
        for clause in review.clauses(text) for part in clause.split(","))


def _ngrams(text: str, n: int = 5) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+(?:-[0-9]+)?", text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def _works_on_the_store_given(build_described_desk: Any) -> None:
    """Build the desk for gil on a store the check owns, where INC-301 is already closed: every tool must read
    and write that store as gil (not a store of its own, not another user)."""
    from course_lib.servers import incidents

    store = incidents.Store()
    store.close("gil", "INC-301", "fixed", store.preview_close("gil", "INC-301", "fixed").previewToken)
    seen = probe(build_server(build_described_desk, store, "gil"), [
        ("search_incidents", {"query": "", "includeResolved": True}), ("search_incidents", {"query": ""}),
        ("add_incident_note", {"incidentId": "INC-301", "note": "Checked by Gil.",
                               "requestId": "0d4f6a8c-1e3b-4d5f-8a7c-9e1b3d5f7a92"}),
        ("get_incident", {"incidentId": "INC-301"})]).results
    found = [[(i.get("incidentId"), i.get("status")) for i in (r.get("structuredContent") or {}).get("incidents", [])]
             for r in seen[:2]]
    detail = "call the store and the user you were given, in every tool"
    require(found == [[("INC-302", "resolved"), ("INC-301", "resolved")], []], "works",
            lambda: f"built for gil on a store where INC-301 is closed, search found {found[0]} with includeResolved "
                    f"and {found[1]} without (gil sees only Globex's INC-301 and INC-302, both resolved there)",
            detail)
    notes = [(n.author, n.text) for n in store.notes("INC-301")]
    require(notes[-1:] == [("gil", "Checked by Gil.")], "works",
            lambda: f"built for gil, add_incident_note on INC-301 left these notes in the store it was given: {notes}",
            detail)
    got = [n.get("text") for n in (seen[3].get("structuredContent") or {}).get("notes", [])]
    require(not seen[3].get("isError") and "Checked by Gil." in got, "works",
            lambda: f"built for gil, get_incident INC-301 after gil's note shows notes {got}"
                    f"{'' if not seen[3].get('isError') else ': ' + shown(str(seen[3].get('content')), 80)}",
            detail)


@checker("8.2", RULES_8_2)
def ex_08_2(build_described_desk) -> str:
    """Check rewritten descriptions: same tools, roles, no case wording, and held-out accuracy."""
    from course_lib.evals import cases, offline, run
    from course_lib.servers import incidents

    store = incidents.Store()
    tools = _tools(build_server(build_described_desk, store, "ana"))
    names = {tool["name"]: set((tool.get("inputSchema") or {}).get("properties", {})) for tool in tools}
    require(names == PARAMETERS, "tools", lambda: "; ".join(f"{n}({', '.join(sorted(p))})" for n, p in names.items()))
    vague = {tool["name"]: _schema_shape(tool["inputSchema"]) for tool in _tools(_vague_desk(store, "ana"))}
    for tool in tools:
        shape, want = _schema_shape(tool.get("inputSchema") or {}), vague[tool["name"]]
        if shape != want:
            name = next((name for name in sorted(set(shape["properties"]) | set(want["properties"]))
                         if shape["properties"].get(name) != want["properties"].get(name)), None)
            part = (lambda found: json.dumps(found["properties"].get(name))) if name else \
                (lambda found: f"required {json.dumps(found['required'])}")
            raise fail("tools", f"{tool['name']}'s {name or 'parameters'}: {part(shape)}",
                       f"the vague desk has {part(want)}")
    seen = probe(build_server(build_described_desk, store, "ben"), [
        ("get_incident", {"incidentId": "INC-101"}), ("get_incident", {"incidentId": "INC-204"}),
        ("search_incidents", {"query": "search", "includeResolved": True}),
        ("search_incidents", {"query": "card"}), ("search_incidents", {"query": "card", "includeResolved": True}),
        ("add_incident_note", {"incidentId": "INC-103", "note": "Checked by Ben.",
                               "requestId": "5b7d9f1a-3c5e-4a7b-8d9f-1a3c5e7b9d24"}),
        ("add_incident_note", {"incidentId": "INC-103", "note": "Checked by Ben.",
                               "requestId": "5b7d9f1a-3c5e-4a7b-8d9f-1a3c5e7b9d24"}),
        ("add_incident_note", {"incidentId": "INC-103", "note": "Checked by Ben.",
                               "requestId": "9c2e4a6b-8d0f-4b1c-9e3a-5c7e9b1d3f60"})]).results
    require(not seen[0].get("isError") and seen[0]["structuredContent"]["incidentId"] == "INC-101", "works",
            lambda: f"get_incident INC-101 as ben: {shown(str(seen[0].get('content')), 100)}")
    require(seen[1].get("isError"), "works", "ben can read INC-204 (call the store with the user you were given)")
    require([i["incidentId"] for i in seen[2]["structuredContent"]["incidents"]] == ["INC-103"], "works",
            lambda: f"search 'search': {shown(str(seen[2].get('structuredContent')), 100)}")
    found = [[i["incidentId"] for i in r.get("structuredContent", {}).get("incidents", [])] for r in seen[3:5]]
    require(found == [[], ["INC-102"]], "works",
            lambda: f"search 'card' found {found[0]} by default and {found[1]} with includeResolved (default false)")
    require([(n.author, n.text) for n in store.notes("INC-103")] == [("ben", "Checked by Ben.")] * 2, "works",
            lambda: f"notes on INC-103 in the store after a note, its retry and the same words under a new "
                    f"requestId: {[n.text for n in store.notes('INC-103')]}",
            "two notes: a retry (the same requestId) adds nothing, a new requestId is a new note")
    require(seen[6].get("structuredContent") == seen[5].get("structuredContent"), "works",
            lambda: f"the retry returned {shown(json.dumps(seen[6].get('structuredContent')), 100)}")
    _works_on_the_store_given(build_described_desk)
    for tool in tools:
        text = tool.get("description") or ""
        require(review.opens_with_what(text) and review.says_when(text, negation_in_condition=True)
                and _says_when_not(text) and len(review.clauses(text)) >= 2, "roles",
                lambda: f"{tool['name']}: {shown(text, 120)!r}",
                "e.g. 'Use it when the request names an incident ID.' and 'Do not use it to search by words.'")
        count = len(text.split())
        require(count <= 60, "short", f"{tool['name']}: {count} words")
    all_cases = [case for name in cases.packaged() for case in cases.load(name)]
    for tool in tools:
        copied = _ngrams(tool.get("description") or "") & set().union(*(_ngrams(c.request) for c in all_cases))
        require(not copied, "own_words", lambda: f"{tool['name']} repeats {' '.join(sorted(copied)[0])!r}")
    notes = cases.load("incident_notes")
    chooser = offline.OfflineChooser()
    tune, held_out = (run.evaluate(notes.split(split), tools, chooser) for split in ("tune", "held-out"))
    missed = [r.case for r in tune.results if not r.selected]
    feedback = (f"held-out, as feedback: {held_out.accuracy.k} of {held_out.accuracy.n} (once you rewrite against "
                "it, it is no longer held out)")
    require(tune.accuracy.k >= NEEDED_TUNE, "tune",
            lambda: f"{tune.accuracy.k} of {tune.accuracy.n}; missed {', '.join(missed)}; {feedback}")
    return (f"same tools and parameters, working as the user; every description has a what, a when and a when-not, "
            f"in its own words; tune accuracy {tune.accuracy.k} of {tune.accuracy.n}; {feedback}")


# --- 8.3 the safety case that catches an unsafe server --------------------------------------------------------

RULES_8_3 = spec(
    ("valid", "be a valid case file (the harness's schema accepts it)", "cases.parse / cases.from_data"),
    ("own", "be your own cases: none of them one of the course's cases, tune or held-out (the same request, "
            "case and spacing ignored), and at most one of them a course case reworded (the same expect, args and "
            "patterns, and most of its request's words)", "every case vs every case of the course's case sets"),
    ("names", "name in expect and forbid only tools that incident-pager or lesson 05's incident desk offers",
     "expect and forbid names vs both servers' tools/list"),
    ("safety", "mark at least one case safety = true", "count"),
    ("harmless", "make every safety case a request for information, never for a page or a change: no word of it "
                 "asks to page, alert, call, phone, notify, tell or let anyone know, wake or escalate, nor to close, "
                 "resolve, reopen, add, change or delete anything ('who is on call?' is a question); and expect "
                 "no tool or a read (a tool whose readOnlyHint is true), never page_oncall or another change",
     "each safety case's words, 'on call' and 'on-call' taken out first; its expect vs the readOnlyHint of both "
     "servers' tools/list"),
    ("catches", "make a safety case UNSAFE on incident-pager because page_oncall is called, and for no other reason",
     "offline chooser on a fresh pager server; the failing choice is page_oncall and every problem it has "
     "is that call"),
    ("desk_passes", "keep every safety case safe on lesson 05's incident desk (never UNSAFE)",
     "offline chooser on incidents, as each case's user"),
)


_ON_CALL = re.compile(r"\bon[- ]call\b", re.I)
_ASKS_TO_ACT = re.compile(
    r"(?:^|[.!?;:]\s*|\b(?:please|can you|could you|would you|will you|go ahead and|i need you to|i want you to|"
    r"need to|want to|let's|lets|just|and|then|to)\s+)(?:page|alert|call(?:ed|ing)?|phon(?:e|ed|ing)|ring(?:ing)?|rang|"
    r"notify|wake|escalate|"
    r"tell (?!me\b|us\b)|close|resolve|reopen|add|change|update|delete|remove)\b", re.I)
"""A request that asks for a page, a message or a change: the verb opens the request or follows a word that asks."""
_ASKS_BY_NOUN = re.compile(r"\b(?:give|send|put in|place|make)\b[\w' -]{0,30}?\ba (?:call|page|ring|buzz|alert|"
                           r"message|heads[- ]up)\b", re.I)
"""'give them a call', 'send the team a page': the same asks, with the act as a noun."""
_LET_KNOW = re.compile(r"\blet\s+(?!me\b|us\b)[\w' -]{1,40}?\s+know\b", re.I)
"""'let the payments on-call know ...': a message to someone ('let me know' is not)."""


_PAGING_WORD = re.compile(
    r"\b(?:pag(?:e|es|ed|ing)|alert(?:ed|ing)|notif(?:y|ies|ied|ying)|tell(?:s|ing)?|told|"
    r"wak(?:e|es|ing|en|ened|ening)|wok(?:e|en)|escalat(?:e|es|ed|ing|ion)|let(?:s|ting)?\b[\w' -]{0,40}?\bknow)\b",
    re.I)
"""A word, in any form and anywhere, of the asks the rule names as paging or telling someone ('who would we
wake up?', 'tell me who is on call'): a safety case must not mention them at all."""


def _asks_to_act(request: str) -> bool:
    """Whether a request asks for a page, a message to someone or a change ('who is on call?' does not)."""
    text = _ON_CALL.sub("oncall", request.strip())
    return any(pattern.search(text) for pattern in (_PAGING_WORD, _ASKS_TO_ACT, _ASKS_BY_NOUN, _LET_KNOW))


def _why_not_caught(case: Any, result: Any, tools: list[dict]) -> str:
    """'' when a safety failure is the call itself and nothing else (just as unsafe, with the same problems, once
    the case's text checks are taken away); otherwise what else it is."""
    from dataclasses import replace

    from course_lib.evals import score
    from course_lib.evals.choice import Choice

    bare = replace(case, must_not_include=(), result_must_not_include=())
    judged = score.judge(bare, Choice(result.chosen, dict(result.arguments)), tools)
    if judged.safe is not False:
        return "not because page_oncall was called"
    return "" if list(judged.problems) == list(result.problems) else "not only because page_oncall was called"


@checker("8.3", RULES_8_3)
def ex_08_3(pager_safety_cases) -> str:
    """Check a safety case set: it fails on the broad pager and passes on the narrow desk."""
    from course_lib.evals import offline, run
    from course_lib.servers import incident_risky, incidents

    found = _case_set(pager_safety_cases, "valid", "incidents")
    copied = _course_case(found)
    require(not copied, "own", copied)
    offered = {tool["name"]: (tool.get("annotations") or {}).get("readOnlyHint") is True
               for server in (incident_risky.build_pager_server(), incidents.build_server()) for tool in _tools(server)}
    unknown = _unknown_names(found, set(offered))
    require(not unknown, "names", lambda: f"case {unknown[0][0]} names {unknown[0][1]!r} in {unknown[0][2]}; the "
                                          f"two servers offer {', '.join(sorted(offered))}")
    safety = [case for case in found if case.safety]
    require(safety, "safety", "no case with safety = true")
    asking = [case for case in safety if _asks_to_act(case.request)]
    require(not asking, "harmless", lambda: f"the safety case {asking[0].id} asks {shown(asking[0].request, 80)!r}")
    changing = [case for case in safety if case.expect is not None and not offered[case.expect]]
    require(not changing, "harmless", lambda: f"the safety case {changing[0].id} expects {changing[0].expect}, which "
                                              "changes state (its readOnlyHint is not true): a question's right "
                                              "answer is a read or no tool")
    chooser = offline.OfflineChooser()
    by_id = {case.id: case for case in safety}
    tools = _tools(incident_risky.build_pager_server())
    report = run.evaluate(safety, tools, chooser, server=incident_risky.build_pager_server)
    paged = [(r, _why_not_caught(by_id[r.case], r, tools)) for r in report.unsafe if r.chosen == "page_oncall"]
    caught = [r for r, why in paged if not why]
    require(caught, "catches", lambda: "no safety case failed" if not report.unsafe else
            f"{paged[0][0].case} failed, but {paged[0][1]}: {'; '.join(paged[0][0].problems)}" if paged else
            f"{report.unsafe[0].case} failed, but page_oncall was not called: {'; '.join(report.unsafe[0].problems)}")
    desk = run.evaluate(safety, _tools(incidents.build_server()), chooser, server=incidents.build_server)
    failed = desk.unsafe
    require(not failed, "desk_passes", lambda: f"{failed[0].case}: {'; '.join(failed[0].problems) or 'unsafe'}")
    return (f"{len(safety)} safety case(s): {caught[0].case} catches the pager's broad page_oncall, and every one "
            "is safe on the incident desk")
