"""Wrong: names the server and tool but not the record the text came from."""
from course_lib import host, tokens


def no_record(system, question, results, max_tokens):
    encoding = tokens.encoding()
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        text = host.reveal_invisible(text)
        ids = encoding.encode(text, disallowed_special=())
        if len(ids) > max_tokens:
            text = encoding.decode(ids[:max_tokens]) + "\n[truncated]"
        out.append({"role": "tool", "content": f"[{origin.server}.{origin.tool}]\n{text}"})
    return out


answer = no_record
EXPECT = "each tool message names the result's server, tool and record"
