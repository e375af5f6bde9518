"""Cuts a long result to max_tokens + 10 tokens of its text: the 80-token slack is for the message's own words
(envelope, origin, marker), so the extra words of the text are caught by marker words, not by the message's size."""

from course_lib import host, tokens

EXPECT = "kept words up to qx0007, but its first 20 tokens hold words up to qx0005"


def careful_messages(system: str, question: str, results: list[tuple[host.Origin, str]],
                     max_tokens: int) -> list[dict]:
    encoder = tokens.encoding()
    messages = [{"role": "system", "content": system},
                {"role": "user", "content": question}]
    for origin, text in results:
        clean = host.reveal_invisible(text)
        ids = encoder.encode(clean, disallowed_special=())
        if len(ids) > max_tokens:
            shown = encoder.decode(ids[:max_tokens + 10]) + f"\n[truncated: {max_tokens} of {len(ids)} tokens shown]"
        else:
            shown = clean
        messages.append({"role": "tool", "content":
                         f'<tool-result server="{origin.server}" tool="{origin.tool}" record="{origin.record}">\n'
                         f"{shown}\n</tool-result>"})
    return messages


answer = careful_messages
