"""Wrong: names the server and tool but not the record the text came from."""
from course_lib import host


def no_record(system, question, results, max_tokens):
    out = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    for origin, text in results:
        wrapped = host.wrap(text, host.Origin(origin.server, origin.tool), max_tokens)
        out.append({"role": "tool", "content": wrapped.content.replace('record="-"', "")})
    return out


answer = no_record
EXPECT = "each tool message names the result's server, tool and record"
