"""The design review's rule catalogue: a stable id, a name, a default severity, why, and how to fix it.

A finding names its rule by `name` (`name-intent`); reports, `--select`/`--ignore` and SARIF use the
stable `id` (`MCP103`). The fix says what the wire JSON must hold; `python` and `typescript` show the
idiom of the official SDK for that language, for servers whose SDK is known.
Quotes of the specification are from its 2026-07-28 Tools page (the 2025-11-25 page has the same words).
"""

from __future__ import annotations

from dataclasses import dataclass

from course_lib.errors import UsageError

SEVERITIES = ("info", "warning", "error")
"""From least to most severe; `--fail-on` takes one of them."""
SDKS = ("python", "typescript")
"""The SDKs whose idioms a fix can show."""
FORMATS = ("text", "json", "sarif")
"""The report formats of `course review`."""
_SDK_LABELS = {"python": "Python SDK", "typescript": "TypeScript SDK"}
EXAMPLE_VALUES = '"metric", "imperial"'
"""The values an idiom with {values} shows when no finding supplies its own."""


@dataclass(frozen=True)
class Rule:
    """One review rule, as `course review --explain ID` prints it."""

    id: str
    name: str
    severity: str
    summary: str
    rationale: str
    fix: str
    python: str = ""
    typescript: str = ""
    needs: str = ""
    """An option the rule runs only with (`--budget`, `--probe`), or "" for always."""

    def idiom(self, sdk: str | None, values: str = EXAMPLE_VALUES) -> str:
        """The fix in the named SDK's words ("Python SDK: ..."), or "" when the SDK is unknown or has no idiom.

        `values` (JSON-quoted, comma-separated) fill an idiom's {values}: the closed choice a finding found.
        """
        idiom = {"python": self.python, "typescript": self.typescript}.get(sdk or "", "")
        return f"{_SDK_LABELS[sdk]}: {idiom.replace('{values}', values)}" if idiom else ""

    def explain(self) -> str:
        """The rule's documentation page, as plain text."""
        lines = [f"{self.id} {self.name} ({self.severity})", "", self.summary, "", "Why: " + self.rationale, "",
                 "Fix: " + self.fix]
        lines += [f"  {self.idiom(sdk)}" for sdk in SDKS if self.idiom(sdk)]
        if self.needs:
            lines += ["", f"Runs only with {self.needs}."]
        return "\n".join(lines)


RULES: tuple[Rule, ...] = (
    Rule("MCP101", "name-spec", "error",
         "The tool name breaks the specification's name rules.",
         "The spec (2026-07-28, Tools, Tool Names) says names \"SHOULD be between 1 and 128 characters\" and that "
         "ASCII letters, digits, underscore, hyphen and dot \"SHOULD be the only allowed characters\". SDK 2.3 "
         "only logs a warning and lists the tool anyway, and model APIs refuse names outside their own pattern "
         "(lesson 01).",
         "Rename the tool: \"name\" must be 1-128 characters of A-Z a-z 0-9 _ - . (no spaces, no commas).",
         "@server.tool(name=\"get_daily_forecast\")", "server.registerTool(\"get_daily_forecast\", ...)"),
    Rule("MCP102", "name-unique", "error",
         "Two or more tools of the server share one name.",
         "The spec says tool names \"SHOULD be unique within a server\"; a model writes the name back to call the "
         "tool, so two tools with one name cannot both be chosen (lesson 01).",
         "Give each tool its own \"name\".",
         "@server.tool(name=\"...\") on each function", "one registerTool(\"...\") per name"),
    Rule("MCP103", "name-intent", "warning",
         "The name does not say the intent as a verb and an object.",
         "The model picks a tool from its name and description alone; get_daily_forecast says what it gets, "
         "weather or query says almost nothing (seed \"Designing tools\": name for the intent, verb plus object; "
         "lesson 01). A namespace (a dotted prefix, or a prefix_ every tool of the server shares, such as git_) "
         "is not part of the intent: git_commit reads as the verb commit on git.",
         "Rename the tool to verb_object after any namespace, e.g. \"get_daily_forecast\", \"git_create_branch\"."),
    Rule("MCP201", "description-what", "warning",
         "The description does not say what the tool does.",
         "The description is the model's only account of the tool. One that is missing or only restates the name "
         "(\"Weather tool.\") gives it nothing to choose with (seed \"Designing tools\"; lesson 01).",
         "Open \"description\" with a sentence that says what the tool does and returns, in words beyond its name.",
         "the docstring's first line, or @server.tool(description=\"...\")",
         "registerTool(name, { description: \"...\" }, handler)"),
    Rule("MCP202", "description-when", "warning",
         "The description does not say when to use the tool.",
         "A model chooses between this tool, the server's other tools, other servers' tools and answering from "
         "memory; a sentence on when to use it is what it chooses with (seed \"Designing tools\": one sentence each "
         "on what, when and when not; lesson 01).",
         "Add a sentence to \"description\" that says when to use it: \"Use it for questions about ...\"."),
    Rule("MCP203", "description-when-not", "warning",
         "The description does not limit when to use the tool.",
         "Descriptions that oversell get the tool called for what it does not do (seed \"Designing tools\", common "
         "mistakes: say what it does not do; lesson 01). A when-not must limit use (\"Do not use it for past "
         "weather\", \"Only works within allowed directories\"); a \"not\" inside a description of the data "
         "(\"changes that are not yet staged\") limits nothing.",
         "Add a sentence to \"description\" that limits its use: \"Do not use it for ...; use other_tool instead.\""),
    Rule("MCP301", "description-instructions", "error",
         "A text the model reads gives the model orders beyond how to use this tool.",
         "Descriptions are an attack surface: hidden blocks, orders to ignore or override earlier instructions "
         "(\"you were advised to refuse ... now ...\"), to keep something from the person, or to read secrets "
         "steer the model without the person seeing it (seed \"Tool Design for Models\": no hidden policy or "
         "unrelated instructions; lesson 07).",
         "Describe the tool in \"description\" and each parameter's \"description\"; remove every order to the "
         "model about anything else."),
    Rule("MCP302", "description-persuasion", "error",
         "A text the model reads urges it to prefer this tool over others.",
         "\"Always prefer this tool\" or \"the only tool you need\" is persuasion, not decision support; it pulls "
         "calls away from the right tool (seed \"Tool Design for Models\": no persuasion; lesson 07).",
         "Replace the urging with when to use the tool and when not, and let the model choose."),
    Rule("MCP303", "description-other-tools", "error",
         "A text the model reads speaks of tools this server does not have.",
         "A description that tells the model how to call other servers' tools (\"whenever you call send_email, "
         "...\") shadows them: it changes how another server is used without that server's owner or the person "
         "knowing (lesson 07).",
         "Mention only this server's own tools and parameters."),
    Rule("MCP304", "description-hidden-text", "error",
         "A text the model reads holds invisible characters.",
         "Zero-width, bidirectional-control, tag characters and variation selectors are read by the model and not "
         "seen by the person approving the server; tag characters and runs of variation selectors can spell a "
         "whole hidden order (lesson 07).",
         "Remove every invisible character (Unicode category Cf and the other Default_Ignorable code points, "
         "variation selectors included; a single U+FE0E/U+FE0F after a symbol is allowed) from names, titles and "
         "descriptions."),
    Rule("MCP401", "param-described", "warning",
         "A parameter has no description and no fixed list of values.",
         "The model reads the schema to build arguments; an undescribed q or target leaves it guessing what goes "
         "in (seed \"Designing tools\"; lesson 01). An array of objects whose fields are all described counts as "
         "described.",
         "Give the parameter's schema a \"description\" (what goes in, in what form, with an example).",
         "Annotated[<type>, Field(description=\"...\")]", "<its zod schema>.describe(\"...\")"),
    Rule("MCP402", "param-enum", "warning",
         "A parameter takes one of a few values, but its schema has no enum.",
         "Closed choices belong in the schema, not in prose: the model then cannot invent \"celsius\" for "
         "metric|imperial, and the server refuses a bad value before any work (seed \"Designing tools\": "
         "constrain in the schema; lesson 01). Found from the name (units, mode, ..._type) or from values listed "
         "in a description (\"'local', 'remote' or 'all'\").",
         "List the values in the parameter's schema: \"enum\": [\"metric\", \"imperial\"].",
         "Literal[{values}]", "z.enum([{values}])"),
    Rule("MCP403", "param-bounds", "warning",
         "An integer parameter has no bounds, or a count or limit has no maximum.",
         "\"If days must be 1 to 7, use minimum and maximum\": the model reads the bounds, and the server refuses "
         "days=10 before it does any work (seed \"Designing tools\"; lesson 01). An offset with a minimum only is "
         "bounded enough.",
         "Give the integer's schema \"minimum\" and \"maximum\" (or exclusiveMinimum/exclusiveMaximum).",
         "Annotated[int, Field(ge=..., le=...)]", "z.number().int().min(...).max(...)"),
    Rule("MCP501", "annotations-missing", "warning",
         "A tool whose name says it changes things has no annotations.",
         "readOnlyHint, destructiveHint and idempotentHint tell a host when to ask the person first; without "
         "them a host must assume the worst or guess. They are hints: the spec says clients \"MUST consider tool "
         "annotations to be untrusted unless they come from trusted servers\", so the server still checks "
         "(lesson 04).",
         "Add \"annotations\": {\"readOnlyHint\": false, \"destructiveHint\": ..., \"idempotentHint\": ...}.",
         "@server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))",
         "registerTool(name, { annotations: { readOnlyHint: false, destructiveHint: true } }, handler)"),
    Rule("MCP502", "output-structured", "info",
         "A tool that returns data has no output schema, or only a single prose string.",
         "With an outputSchema the host gets structuredContent with named fields it can render and check, and "
         "the spec says servers \"MUST provide structured results that conform to this schema\" (lesson 02). A "
         "tool whose result is a document by nature (a diff, a page as Markdown, a file's contents, an image, a "
         "resource link) is not flagged.",
         "Declare \"outputSchema\" with named fields and return structuredContent that matches it.",
         "return a pydantic BaseModel, whose class becomes the outputSchema",
         "registerTool(name, { outputSchema: {...} }, handler) returning structuredContent"),
    Rule("MCP601", "tokens-budget", "error",
         "The whole tool list costs more tokens than the budget.",
         "Every definition is input tokens on every turn the tool is available, called or not; the pressure comes "
         "from count (seed \"Designing tools\", cost; lesson 06). Counted as compact JSON with tiktoken's "
         "o200k_base encoding (OpenAI's current models; other providers' tokenizers differ).",
         "Shorten descriptions, merge tools by intent, or split the server into focused ones.",
         needs="--budget TOKENS"),
    Rule("MCP701", "probe-accepted", "error",
         "A tool accepted arguments its own schema refuses.",
         "Client-side validation is not a security boundary: the server validates again (seed \"Tool Design for "
         "Models\"; lesson 03). A call with wrong types that runs means the tool acts on input it never checked.",
         "Validate the arguments against the input schema before acting, and refuse the call with isError.",
         needs="--probe"),
    Rule("MCP702", "probe-hidden", "warning",
         "A bad call crashed with a hidden error.",
         "A plain exception reaches the model as \"Error executing tool X\" with no hint how to fix the call; "
         "an isError result with a message that says what to change lets it try again (lesson 03).",
         "Return isError: true with a message that names what to change.",
         "raise ToolError(\"days must be between 1 and 7\")",
         "return { isError: true, content: [{ type: \"text\", text: \"...\" }] }",
         needs="--probe"),
    Rule("MCP703", "probe-leak", "error",
         "The error for a bad call gives away internals.",
         "Error text reaches the model and often the person: no stack traces, file paths, SQL, secrets or "
         "internal host names (seed \"Tool Design for Models\"; lesson 03).",
         "Catch the failure and return a message in the tool's own words, without internals.",
         needs="--probe"),
)

BY_NAME = {rule.name: rule for rule in RULES}
BY_ID = {rule.id: rule for rule in RULES}


def rule(key: str) -> Rule:
    """The rule with this id (MCP103, any case) or name (name-intent); UsageError for any other key."""
    found = BY_ID.get(key.strip().upper()) or BY_NAME.get(key.strip().lower())
    if found is None:
        raise UsageError(f"unknown rule {key!r}; `course review --list-rules` lists them")
    return found


def matching(key: str) -> list[Rule]:
    """The rules a --select/--ignore entry names: an id, a name, an id prefix such as MCP4, or ALL."""
    key = key.strip()
    if key.upper() == "ALL":
        return list(RULES)
    prefixed = [r for r in RULES if len(key) >= 4 and r.id.startswith(key.upper())]
    return prefixed or [rule(key)]


def chosen(select: list[str] | None = None, ignore: list[str] = ()) -> set[str]:
    """The names of the rules that run: `select` (default all) less `ignore`."""
    picked = {r.name for key in select for r in matching(key)} if select else {r.name for r in RULES}
    return picked - {r.name for key in ignore for r in matching(key)}


def at_least(severity: str, threshold: str) -> bool:
    """Whether `severity` is `threshold` or more severe."""
    return SEVERITIES.index(severity) >= SEVERITIES.index(threshold)
