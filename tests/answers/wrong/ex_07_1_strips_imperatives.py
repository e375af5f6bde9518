"""Wrong: 'sanitizes' by deleting every sentence that starts with a verb, so the runbook loses its steps."""
from course_lib import host


def blunt(system, question, results, max_tokens):
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        out.append(host.wrap(host.strip_imperatives(text), origin, max_tokens).message())
    return out


answer = blunt
EXPECT = "keeps its text whole"
