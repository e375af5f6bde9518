"""Wrong: cuts in tokens but says nothing about it."""
from course_lib import host, tokens


def silent(system, question, results, max_tokens):
    enc = tokens.encoding()
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        ids = enc.encode(host.reveal_invisible(text), disallowed_special=())
        out.append({"role": "tool", "content": f"[{origin.server}.{origin.tool} {origin.record}]\n"
                                               f"{enc.decode(ids[:max_tokens])}"})
    return out


answer = silent
EXPECT = "says \"truncated\""
