"""Wrong: keeps short texts, but caps a long one at 4 characters per token, which emoji overrun."""
from course_lib import host, tokens


def by_chars(system, question, results, max_tokens):
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        text = host.reveal_invisible(text)
        if tokens.count(text) > max_tokens:
            text = text[: 4 * max_tokens] + "\n[truncated]"
        out.append({"role": "tool", "content": f"[{origin.server}.{origin.tool} {origin.record}]\n{text}"})
    return out


answer = by_chars
EXPECT = "a longer result keeps at most `max_tokens` tokens"
