"""Right: each result as a JSON object (origin fields and the text, JSON-escaped), every invisible character
host.invisible finds dropped (one character at a time)."""
import json
from course_lib import host, tokens


def careful(system, question, results, max_tokens):
    enc = tokens.encoding()
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        text = "".join(c for c in text if not host.invisible(c))
        ids = enc.encode(text, disallowed_special=())
        note = None
        if len(ids) > max_tokens:
            text, note = enc.decode(ids[:max_tokens]), f"truncated after {max_tokens} tokens"
        data = {"server": origin.server, "tool": origin.tool, "record": origin.record, "text": text}
        if note:
            data["note"] = note
        out.append({"role": "tool", "content": json.dumps(data, ensure_ascii=False)})
    return out


answer = careful
