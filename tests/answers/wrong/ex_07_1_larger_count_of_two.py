"""Counts each result in both encodings and caps by the larger count, to be safe: a Hindi text of exactly
max_tokens tokens in o200k_base is three times as long in cl100k_base, so it gets cut."""

from course_lib import host, tokens

EXPECT = "in o200k_base (85 in cl100k_base) with a cap of 28 became"


def answer(system, question, results, max_tokens):
    default, other = tokens.encoding(), tokens.encoding("cl100k_base")
    messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, raw in results:
        text = host.reveal_invisible(raw)
        counts = {enc: len(enc.encode(text, disallowed_special=())) for enc in (default, other)}
        widest = max(counts, key=counts.get)
        if counts[widest] > max_tokens:
            text = widest.decode(widest.encode(text, disallowed_special=())[:max_tokens]) + "\n(truncated)"
        messages.append({"role": "tool", "content": f"[{origin.server}/{origin.tool} {origin.record}]\n{text}"})
    return messages
