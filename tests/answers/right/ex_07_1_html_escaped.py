"""Right: HTML-escaped text in an XML-like element, a helper function for the cap, escapes for invisible characters."""
import html

from course_lib import host, tokens


def cut(text, limit):
    enc = tokens.encoding("o200k_base")
    ids = enc.encode(text, disallowed_special=())
    return (text, False) if len(ids) <= limit else (enc.decode(ids[:limit]), True)


def careful(system, question, results, max_tokens):
    messages = [{"role": "system", "content": system}]
    messages.append({"role": "user", "content": question})
    for origin, text in results:
        shown = "".join(f"\\u{ord(c):04x}" if host.invisible(c) else c for c in text)
        shown, was_cut = cut(shown, max_tokens)
        tail = "\n(truncated by the host)" if was_cut else ""
        messages.append({"role": "tool", "content": (f"<result origin='{origin.server}:{origin.tool}:{origin.record}'>"
                                                     f"{html.escape(shown)}{tail}</result>")})
    return messages


answer = careful
