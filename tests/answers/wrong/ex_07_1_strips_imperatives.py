"""Wrong: 'sanitizes' by deleting every sentence that starts with a verb, so the runbook loses its steps."""
from course_lib import host, tokens


def _envelope(origin, text, max_tokens):
    encoding = tokens.encoding()
    text = host.reveal_invisible(text)
    ids = encoding.encode(text, disallowed_special=())
    if len(ids) > max_tokens:
        text = encoding.decode(ids[:max_tokens]) + "\n[truncated]"
    return f'<data server="{origin.server}" tool="{origin.tool}" record="{origin.record}">\n{text}\n</data>'


def blunt(system, question, results, max_tokens):
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        out.append({"role": "tool", "content": _envelope(origin, host.strip_imperatives(text), max_tokens)})
    return out


answer = blunt
EXPECT = "keeps its text whole"
