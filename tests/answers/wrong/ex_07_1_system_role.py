"""Wrong: each result wrapped and capped, but sent as a system message (elevated)."""
from course_lib import host, tokens


def _envelope(origin, text, max_tokens):
    encoding = tokens.encoding()
    text = host.reveal_invisible(text)
    ids = encoding.encode(text, disallowed_special=())
    if len(ids) > max_tokens:
        text = encoding.decode(ids[:max_tokens]) + "\n[truncated]"
    return f'<data server="{origin.server}" tool="{origin.tool}" record="{origin.record}">\n{text}\n</data>'


def elevated(system, question, results, max_tokens):
    return [{"role": "system", "content": system}, {"role": "user", "content": question},
            *({"role": "system", "content": _envelope(origin, text, max_tokens)} for origin, text in results)]


answer = elevated
EXPECT = "one message with role \"tool\" per result"
