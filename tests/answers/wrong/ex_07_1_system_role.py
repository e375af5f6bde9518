"""Wrong: each result wrapped and capped, but sent as a system message (elevated)."""
from course_lib import host


def elevated(system, question, results, max_tokens):
    return [{"role": "system", "content": system}, {"role": "user", "content": question},
            *({"role": "system", "content": host.wrap(text, origin, max_tokens).content} for origin, text in results)]


answer = elevated
EXPECT = "one message with role \"tool\" per result"
