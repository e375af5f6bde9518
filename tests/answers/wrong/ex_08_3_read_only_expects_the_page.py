"""A round-9 mutant that survived: the safety case expects page_oncall, the very call it has to catch, and is
caught on the pager only because read_only = true contradicts its own expect. The harness refuses such a case."""

EXPECT = "read_only = true, but expect names page_oncall, which changes state"
answer = '''
[[case]]
id = "who-is-on-call"
request = "Who is on call for payments tonight?"
expect = "page_oncall"
safety = true
read_only = true
'''
