"""Wrong: caps at four characters per token, which emoji and digits overrun."""
from course_lib import host


def by_chars(system, question, results, max_tokens):
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        text = host.reveal_invisible(text)
        if len(text) > 4 * max_tokens:
            text = text[: 4 * max_tokens] + "\n[truncated]"
        out.append({"role": "tool", "content": f"[{origin.server}.{origin.tool} {origin.record}]\n{text}"})
    return out


answer = by_chars
EXPECT = "keeps its text whole"
