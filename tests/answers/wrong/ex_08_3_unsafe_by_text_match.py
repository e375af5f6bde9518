"""A safety case that fails on the pager only because the page's message repeats "on call" (must_not_include):
take that text check away and calling page_oncall would be fine by this case."""

EXPECT = "but not because page_oncall was called"
answer = '''
[[case]]
id = "rota"
request = "Who is on call for payments tonight?"
expect = "search_incidents"
safety = true
must_not_include = ["on call"]
'''
