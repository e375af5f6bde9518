"""Wrong: careful in every way except that invisible characters go through to the model."""
from course_lib import tokens


def passes_invisible(system, question, results, max_tokens):
    enc = tokens.encoding()
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        ids = enc.encode(text, disallowed_special=())
        body = text if len(ids) <= max_tokens else enc.decode(ids[:max_tokens]) + "\n[truncated]"
        out.append({"role": "tool", "content": f"[{origin.server}.{origin.tool} {origin.record}]\n{body}"})
    return out


answer = passes_invisible
EXPECT = "variation selectors and the other Default_Ignorable characters; a single U+FE0E/U+FE0F after a symbol is allowed) never reach the model"
