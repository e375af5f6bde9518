"""The eval harness of lesson 08: does a model pick the right tool and build valid arguments?

| module | job |
|---|---|
| `cases` | eval cases as data files (TOML) with a schema; one-line errors naming line and field |
| `choice` | the chooser interface: request + tool definitions as `tools/list` returns them → a tool (or none) and arguments |
| `offline` | the offline chooser: BM25 retrieval (bm25s) over the definitions, arguments filled from the schema |
| `policy` | what the harness knows without the server's word: which tools only read, how to read the whole state |
| `score` | pure scoring: verdicts on a choice; figures over cases (Wilson, pass^k, exact paired test); safety |
| `run` | running cases (`run.evaluate`) and tasks against a server: in process, over stdio or HTTP, a fresh server per trial |
| `models` | real-model choosers for the `anthropic` and `openai` SDKs (optional extra `[models]`) |
| `agent` | the agent loop for multi-step tasks, with a scripted test model |

Nothing here is imported by `import course_lib`; bm25s, jsonschema and the provider SDKs load on first use.
"""
