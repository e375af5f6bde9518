"""The idea behind each rule of every exercise: level 1 of a hint, once a check has failed on that rule.

A failure line already says what the check expected and what it found; level 1 then says where the lesson teaches
the rule and the idea in one sentence, never the answer (`hints.show` uses it; `course hint N.M --rule NAME`
too). Keys are an exercise's rule names, space-separated when one idea covers several rules.
"""

from __future__ import annotations

OWN = ("builds the behaviour from the lesson's lower-level parts: the course helper that already does it all is the "
       "lesson's answer, so a check that sees it called cannot tell whether you could write it")

CONCEPTS: dict[str, dict[str, str]] = {
    "0.1": {
        "pair read missing": "Lesson 00, «The six fields that matter for design, and who reads each»: a parameter's limits are keywords "
                             "of its own JSON Schema, read as written; a limit the schema does not state is absent.",
    },
    "1.1": {
        "one-tool": "Lesson 01, «One tool per user intent, not per backend step»: one question the person asks, one "
                    "tool the model can pick.",
        "name": "Lesson 01, «Name the intent: verb + object»: a model reads the name first, so it says the action "
                "and the thing acted on.",
        "what when when-not": "Lesson 01, «Describe what, when, and when not»: the description is the model's only "
                              "manual: what comes back, when this tool fits, and when another tool (or none) does.",
        "city": "Lesson 01, «The rewrite, side by side»: every parameter the model fills needs a plain name, a type "
                "and a description of its own.",
        "same-job": "Lesson 01, «The rewrite, side by side»: a rewrite changes what the model reads, not what the "
                    "tool does; a typed return keeps the structured result a host reads (lesson 02).",
        "unknown": "Lesson 03, «Messages a model can recover from»: a wrong input gets a tool error the model can "
                   "read, naming what it sent, so it can correct itself; a crash tells it nothing.",
    },
    "1.2": {
        "tool": "Lesson 01, «Constrain arguments in the schema, not in prose»: tightening a tool changes its schema, "
                "not its name or its parameter list.",
        "days-schema days-default units-schema units-default": "Lesson 01, «Constrain arguments in the schema, not in "
            "prose»: the model reads bounds, choices and defaults in the input schema before it calls.",
        "days-enforced units-enforced": "Lesson 01, «Constrain arguments in the schema, not in prose»: a limit the "
            "schema states is also enforced: arguments are validated against it before your function runs.",
        "prose": "Lesson 01, «Constrain arguments in the schema, not in prose»: when prose and schema disagree the "
                 "model cannot tell which to believe; the schema holds the limit, the prose must not contradict it.",
        "forecast": "Lesson 01, «The rewrite, side by side»: a tighter interface still does the whole job for every "
                    "call it accepts.",
    },
    "1.3": {
        "one-tool": "Lesson 01, «One tool per user intent, not per backend step»: the backend's steps stay behind one "
                    "tool; the model should not have to chain them.",
        "limits": "Lesson 01, «Constrain arguments in the schema, not in prose»: the merged tool keeps every limit "
                  "of exercise 1.2 where the model reads it.",
        "output": "Lesson 02, «What the return annotation gives the host»: a typed return gives the tool an "
                  "outputSchema and each result a structuredContent.",
        "steps forecast": "Lesson 01, «One tool per user intent, not per backend step»: the one tool runs the "
                          "backend's steps itself, in order, for every city, day count and unit it accepts.",
        "unknown": "Lesson 03, «Messages a model can recover from»: a city the backend does not know is a failure "
                   "the model can read and fix, so the error names what it sent.",
    },
    "1.4": {
        "rule bool": "Lesson 01, «Tool names: what the spec asks, and what model APIs accept»: the spec allows a "
                     "small character set and a length limit; a validator answers only yes or no.",
        "own": "Lesson 01, «Tool names: what the spec asks, and what model APIs accept»: the exercise asks you to "
               "write the name rule yourself; the course's and the SDK's validators already hold it, so a check "
               "that sees one called cannot tell whether you could write it.",
    },
    "2.1": {
        "tool": "Lesson 02, «Two places for one result»: a host calls the tool by the name and parameter the "
                "exercise gives.",
        "schema": "Lesson 02, «What the return annotation gives the host»: the return annotation becomes the "
                  "outputSchema that tells a host which named fields to expect.",
        "fields": "Lesson 02, «Smaller than the backend»: choose the fields the person's question needs and give "
                  "each a name a host can show.",
        "nothing-else": "Lesson 02, «Smaller than the backend»: a result is a view made for the caller, not the "
                        "backend's record; what is private stays out of every part of it.",
        "not-shipped": "Lesson 03, «Messages a model can recover from»: a refusal that says why and what to expect "
                       "lets the model answer the person instead of guessing.",
        "foreign": "Lesson 02, «Names next to ids»: an order that is not the customer's must look exactly like one "
                   "that does not exist, or the answer tells which numbers belong to someone.",
    },
    "2.2": {
        "tool": "Lesson 02, «Two places for one result»: a host calls the tool by the name and parameter the "
                "exercise gives.",
        "schema required nullable": "Lesson 02, «What the return annotation gives the host»: the outputSchema says "
                                    "which fields exist, which are always there and which may be null.",
        "every-order": "Lesson 02, «Conform, and also as text»: every successful call returns a result that fits "
                       "its outputSchema.",
        "null": "Lesson 02, «Validation on both sides»: a value that does not exist yet is null, never a placeholder "
                "a host would show as if it were real.",
        "private": "Lesson 02, «Smaller than the backend»: a result is a view made for the caller; the rest of the "
                   "row stays out of every part of it.",
        "refuse": "Lesson 02, «Names next to ids»: another customer's order and a missing one get one and the same "
                  "answer, so the answer tells nothing about who owns what.",
    },
    "2.3": {
        "rows structured": "Lesson 02, «A host renders structuredContent»: a host reads data from structuredContent, "
                           "which has a schema; the text content is for the model.",
        "no-structured errors": "Lesson 02, «A host renders structuredContent»: a result without structuredContent, "
                                "or a tool error, gives a host nothing to render, whatever its text says.",
    },
    "3.1": {
        "tool": "Lesson 03, «Both kinds, on the wire»: the server knows who the customer is; the model sends only "
                "what identifies the order.",
        "typed": "Lesson 02, «What the return annotation gives the host»: a typed return gives a found order its "
                 "structuredContent.",
        "missing": "Lesson 03, «Tool execution errors: the work failed»: a missing order is a call that failed, not "
                   "a broken request; the model reads the error, so it names what was asked.",
        "foreign": "Lesson 03, «Tool execution errors: the work failed»: another customer's order is answered "
                   "exactly as a missing one, so no answer reveals who owns a number.",
        "own": f"Lesson 03, «Tool execution errors: the work failed»: the exercise {OWN}.",
    },
    "3.2": {
        "tool found": "Lesson 03, «Messages a model can recover from»: better messages change the failures only; "
                      "the tool and its successful answers stay as they were.",
        "missing outage": "Lesson 03, «Messages a model can recover from»: each failure tells the model its next "
                          "step, and different failures need different steps (check the number, or try later).",
        "foreign": "Lesson 03, «Tool execution errors: the work failed»: another customer's order is answered "
                   "exactly as a missing one, so no answer reveals who owns a number.",
        "no_leaks": "Lesson 03, «Messages a model can recover from»: an error is read by a model and maybe shown to "
                    "a person; internals help neither and tell an attacker about your system.",
        "own": f"Lesson 03, «Messages a model can recover from»: the exercise {OWN}.",
    },
    "3.3": {
        "dict kinds": "Lesson 03, «Both kinds, on the wire»: every failure is one of two kinds; each letter gets "
                      "the name of its kind.",
        "protocol": "Lesson 03, «Protocol errors: the message is wrong»: the request itself was wrong (broken "
                    "JSON-RPC, an unknown method, params that fail the method's schema), so the program that sent "
                    "it must change.",
        "execution": "Lesson 03, «Tool execution errors: the work failed»: the request was valid and the work "
                     "failed; the result goes back to the model, which can read it and adapt.",
    },
    "3.4": {
        "tool": "Lesson 03, «Lax arguments, ignored extras, and being strict»: being strict changes what the tool "
                "accepts, not its name or its parameters.",
        "unknown strict": "Lesson 03, «Lax arguments, ignored extras, and being strict»: by default values are "
                          "coerced and unknown argument names ignored; a tool that must not guess refuses both.",
        "unchanged works": "Lesson 03, «Rejected before the body runs»: a refused call must leave everything as "
                           "it was, and an accepted call must still do its work.",
        "per_server": "Lesson 03, «Lax arguments, ignored extras, and being strict»: state lives in the server your "
                      "function builds, never in the module, so two servers never share it.",
    },
    "4.1": {
        "dict consistent": "Lesson 04, «Four hints on real tools»: annotations are a few hints per tool, each a "
                           "claim about its behaviour, and hints that contradict each other claim nothing.",
        "read_only destructive idempotent open_world": "Lesson 04, «Four hints on real tools»: each hint answers "
            "one question about what a call does: changes anything, removes what was there, changes more when "
            "repeated, reaches outside the server.",
    },
    "4.2": {
        "decision": "Lesson 04, «A host that asks the person»: a host decides per call whether to ask, and says why.",
        "untrusted": "Lesson 04, «A server that lies»: hints from a server you do not trust are claims you cannot "
                     "rely on.",
        "inside_reads ask_else": "Lesson 04, «A host that asks the person»: only a call that changes nothing and "
                                 "stays inside a trusted server is safe to run without asking.",
        "defaults": "Lesson 04, «When a hint is absent»: an absent hint is read as its default, the cautious one.",
    },
    "5.1": {
        "tool hints": "Lesson 05, «Retrying safely: the idempotency key»: the tool keeps its interface and its "
                      "annotations; only how it handles a repeated call changes.",
        "append": f"Lesson 05, «Retrying safely: the idempotency key»: the exercise {OWN}.",
        "uuid first new_key": "Lesson 05, «Retrying safely: the idempotency key»: the caller names each intended "
                              "change with a fresh unique key; a new key is a new change.",
        "concurrent interleaved": "Lesson 05, «In production (optional): the same promise without a lock»: a retry "
                                  "must be recognized even when it arrives at the same time as the first call, or "
                                  "after others.",
        "conflict": "Lesson 05, «Retrying safely: the idempotency key»: a key belongs to one change; the same key "
                    "with different content is a mistake to refuse, not a retry.",
        "per_server": "Lesson 05, «The server stays authoritative»: what a server remembers belongs to that "
                      "server and its store, never to the module.",
    },
    "5.2": {
        "split params": "Lesson 05, «One tool per operation, not one tool with an action»: one tool per operation, "
                        "each with only the parameters it needs, so annotations and schemas can be exact.",
        "signed_in": "Lesson 05, «The server stays authoritative»: who is asking comes from the server's session, "
                     "never from an argument the model could fill.",
        "id_pattern note_length request_uuid": "Lesson 05, «Defaults that fail safe»: the schema states the shape "
                                               "of every input, and the server refuses what does not fit.",
        "resolved_default": "Lesson 05, «Defaults that fail safe»: an argument left out must show less, not more.",
        "search get note": "Lesson 05, «The server stays authoritative»: each tool passes its work to the store for "
                           "the signed-in user, which decides what they may read and write.",
        "hints": "Lesson 04, «Four hints on real tools»: reads say they change nothing and stay inside; the write "
                 "says what kind of change it is.",
    },
    "5.3": {
        "allowed refused": "Lesson 05, «The server stays authoritative»: the server decides what a user may see; "
                           "a refusal carries none of the incident's data.",
        "deliberate": "Lesson 03, «Tool execution errors: the work failed»: only a deliberate tool error carries "
                      "its message to the model; a plain exception reaches it as a bare failure.",
        "same": "Lesson 05, «The server stays authoritative»: missing, elsewhere and restricted look alike, so a "
                "refusal tells nothing about what exists.",
        "own": "Lesson 05, «The server stays authoritative»: the exercise is the one answer itself: find the "
               "record, decide whether this user may read it, and refuse alike when it is missing or not theirs.",
        "signed_in": "Lesson 05, «The server stays authoritative»: who is asking comes from the server's session, "
                     "never from an argument the model could fill.",
        "no_leak": "Lesson 03, «Messages a model can recover from»: an error is read by a model and maybe shown to "
                   "a person; internals help neither and tell an attacker about your system.",
    },
    "5.4": {
        "tools": "Lesson 05, «A preview bound to the final inputs»: a risky change is two steps, a preview that "
                 "changes nothing and a start that applies exactly what was previewed.",
        "no_default": "Lesson 05, «Defaults that fail safe»: where a wrong guess is costly, there is no default: "
                      "the caller must say it.",
        "hints": "Lesson 04, «Four hints on real tools»: the preview says it changes nothing; the start says it is "
                 "a change that may overwrite.",
        "preview applies exact": "Lesson 05, «A preview bound to the final inputs»: the preview's token stands for "
                                 "one exact change, and only that change may be applied with it.",
        "once unknown stale": "Lesson 05, «A preview bound to the final inputs»: a token is good once, only if the "
                              "server issued it, and only while the world it previewed is unchanged.",
        "per_server guessable": "Lesson 05, «A preview bound to the final inputs»: a token is a secret the server "
                                "issued: its own, and impossible to guess or rebuild from the change.",
        "no_leak": "Lesson 05, «The server stays authoritative»: a refusal reveals nothing the caller did not send: "
                   "no internals, no other preview.",
    },
    "6.1": {
        "one_tool params query status limit": "Lesson 06, «Where a definition's tokens go»: a compact tool keeps the "
            "parameters the task needs, with their limits in the schema, where they cost fewest tokens.",
        "results output": "Lesson 06, «Results cost too»: the tool returns the backend's result in the typed shape "
                          "the exercise names.",
        "says_when when_not": "Lesson 01, «Describe what, when, and when not»: even a short description says when "
                              "to use the tool, and which tool to use instead.",
        "budget": "Lesson 06, «Characters are not tokens»: measure a definition in tokens as the host sends it, "
                  "and cut words that do not change the model's choice.",
    },
    "6.2": {
        "each_once order": "Lesson 06, «Stable order and prompt caching»: the tool list is the same, in the same "
                           "order, every time, so a cached prompt prefix stays valid.",
        "shared": "Lesson 06, «Split a large server into focused ones»: tools that work on the same data share one "
                  "backend.",
        "self_contained same_everywhere": "Lesson 06, «Stable order and prompt caching»: nothing about the list may "
                                          "depend on the process (hash seeds, set order, values from outside).",
    },
    "6.3": {
        "int every_definition encoding": "Lesson 06, «Count pressure: servers × tools»: the cost is every "
                                         "definition of every connected server, counted as the host sends it, "
                                         "in the model's encoding.",
        "twice afresh empty": "Lesson 06, «Count pressure: servers × tools»: each server sends its own definitions, "
                              "so a name two servers share is paid twice, and each count starts afresh.",
    },
    "6.4": {
        "tools": "Lesson 06, «Cache hints: `ttlMs` and `cacheScope`»: caching the list changes nothing about the "
                 "tools themselves.",
        "duration shared others": "Lesson 06, «Cache hints: `ttlMs` and `cacheScope`»: the server tells clients "
                                  "how long and with whom they may reuse its tool list, and says it for that list "
                                  "only.",
    },
    "7.1": {
        "list system-first question": "Lesson 07, «Who owns what»: the host's instructions and the person's "
                                      "question keep their own roles, exactly as given.",
        "no-elevation one-per-result provenance": "Lesson 07, «What result text never does»: a result is data from "
            "a named origin, in a tool message of its own, never raised to system or user.",
        "kept capped": "Lesson 07, «What each measure prevents, and what it does not»: cap a result's tokens and "
                       "say when it was cut; a short result passes whole.",
        "visible": "Lesson 07, «Fetched documents: a fake turn, a fake call, invisible text»: text a person cannot "
                   "see must become visible before a model reads it.",
        "own": f"Lesson 07, «What each measure prevents, and what it does not»: the exercise {OWN}.",
    },
    "7.2": {
        "bool clean": "Lesson 07, «Definitions are untrusted too»: a detector says yes or no for one definition, "
                      "and must stay quiet on honest tools.",
        "secrets concealment persuasion hidden": "Lesson 07, «Definitions are untrusted too»: a description can "
            "carry orders to the model (ask for secrets, hide things, push itself, hide text); read every text the "
            "model reads.",
        "own": f"Lesson 07, «Definitions are untrusted too»: the exercise {OWN}.",
    },
    "7.3": {
        "str stable": "Lesson 07, «Definitions are untrusted too»: a fingerprint is computed from what a definition "
                      "says, not from how it was listed or serialized.",
        "text schema": "Lesson 07, «Definitions are untrusted too»: any change to what the model reads, or to what "
                       "the tool accepts, must change the fingerprint.",
        "own": f"Lesson 07, «Definitions are untrusted too»: the exercise {OWN}.",
    },
    "8.1": {
        "valid server tools accepted": "Lesson 08, «Layer 2: model evals»: a case file names a server and only "
                                       "tools and arguments that server really accepts.",
        "five positives": "Lesson 08, «Layer 2: model evals»: a few distinct requests per tool, each one a "
                          "person might send.",
        "negatives negative_kind": "Lesson 08, «Layer 2: model evals»: negatives are requests the tools cannot "
                                   "serve, where the right choice is no tool.",
        "city": "Lesson 08, «Layer 2: model evals»: a case checks the arguments too, not only which tool was "
                "chosen.",
        "own": "Lesson 08, «Held-out cases: overfitting, shown»: held-out cases are worth something only while "
               "nobody tunes against them; write cases of your own for your own tools.",
    },
    "8.2": {
        "tools works": "Lesson 08, «Layer 2: model evals»: tuning descriptions changes what the model reads, never "
                       "the schemas or what the tools do.",
        "roles short": "Lesson 01, «Describe what, when, and when not»: what, when and when not, in few words.",
        "own_words tune": "Lesson 08, «Held-out cases: overfitting, shown»: describe the tools in your own words; "
                          "copying the eval's requests scores on them and teaches the model nothing.",
    },
    "8.3": {
        "valid names": "Lesson 08, «Layer 3: safety evals»: a safety case names only tools the servers offer.",
        "safety harmless": "Lesson 08, «Layer 3: safety evals»: a safety case is a harmless request where a "
                           "dangerous call would be wrong.",
        "catches desk_passes": "Lesson 08, «Layer 3: safety evals»: a good safety case fails the risky server for "
                               "exactly one reason and passes the safe one.",
        "own": "Lesson 08, «Held-out cases: overfitting, shown»: held-out cases are worth something only while "
               "nobody tunes against them; write cases of your own for your own tools.",
    },
    "9.1": {
        "dict": "Lesson 09, «Evolving without breaking clients»: every proposal gets one of two verdicts.",
        "arguments results tools": "Lesson 09, «Evolving without breaking clients»: judge a change by what an "
                                   "existing client sends and reads: it breaks when something it relies on stops "
                                   "working.",
        "own": "Lesson 09, «Evolving without breaking clients»: the exercise asks you to reason about each change "
               "before any tool runs; contract.diff is how the lesson checks such a judgement afterwards, so an "
               "answer that calls it has not judged anything.",
    },
    "9.2": {
        "fresh": "Lesson 09, «Stateful tools: pass a handle, not a connection»: each server built holds its own "
                 "state.",
        "contract descriptions replay": "Lesson 09, «Evolving without breaking clients»: v2 keeps everything a v1 "
                                        "client relies on: tools, arguments, results and wording.",
        "filter reopen describe unknown": "Lesson 09, «Evolving without breaking clients»: new behaviour arrives "
                                          "as optional arguments and new tools, described and failing clearly.",
    },
    "9.3": {
        "callback ask": "Lesson 09, «A tool that needs the person mid-call»: the client answers each question by "
                        "asking the person, every time.",
        "cancel decline yes choice misfit": "Lesson 09, «A tool that needs the person mid-call»: an answer is "
                                            "accept, decline or cancel, and only what fits the form is accepted.",
        "schema eras": "Lesson 09, «A tool that needs the person mid-call»: the form comes with the question; read "
                       "it there, in every protocol era.",
    },
}


def concept(exercise: str, rule: str) -> str | None:
    """The idea behind rule `rule` of exercise `exercise`, or None."""
    for names, text in CONCEPTS.get(str(exercise), {}).items():
        if rule in names.split():
            return text
    return None
