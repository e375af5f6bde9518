"""Wrong: the naive host, unchanged: results pasted into the system message."""


def naive(system, question, results, max_tokens):
    pasted = "".join(f"\n\nTool output:\n{text}" for origin, text in results)
    return [{"role": "system", "content": system + pasted}, {"role": "user", "content": question}]


answer = naive
EXPECT = "one message with role \"tool\" per result"
