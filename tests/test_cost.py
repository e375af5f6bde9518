"""course_lib.cost: measuring definitions (the seed's 774 / 189), pressure, results, caching, processes."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Literal

import pytest
from mcp.server import CacheHint
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from course_lib import cost, docstrings, tokens, wire
from course_lib.servers import base, weather as weather_server
from course_lib.servers import workspace

# --- the seed's worked example, definition for definition, registered with the SDK's defaults ----------

specimen = base.new_server("weather")


@specimen.tool()
def weather(q: str) -> str:
    """Weather tool."""
    return f"{q}: around 12 and cloudy"


class DayForecast(BaseModel):
    date: str = Field(description="ISO date, YYYY-MM-DD")
    high: float
    low: float
    conditions: Literal["clear", "cloudy", "rain", "snow"]


class Forecast(BaseModel):
    city: str
    units: Literal["metric", "imperial"]
    days: list[DayForecast]


@specimen.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True))
def get_daily_forecast(
    city: Annotated[str, Field(description="City name, e.g. 'Des Moines'. One city per call.")],
    days: Annotated[int, Field(ge=1, le=7, description="Number of days, starting today.")] = 3,
    units: Literal["metric", "imperial"] = "metric",
) -> Forecast:
    """Daily high, low, and conditions for one city, for up to 7 days.

    Use this for questions about upcoming weather in a named city.
    Do not use it for past weather or for current conditions right now.
    """
    return Forecast.model_validate(weather_server.daily_forecast(city, days, units).model_dump())


@pytest.fixture(scope="module")
def seed_tools():
    return wire.run_sync(wire.list_tools, specimen)


def test_the_seeds_figures_are_reproduced_exactly(seed_tools):
    bad, good = seed_tools
    good_size = cost.measure(good, get_daily_forecast, cost.GUIDE_METHOD)
    bad_size = cost.measure(bad, weather, cost.GUIDE_METHOD)
    assert (good_size.chars, bad_size.chars) == (774, 189)
    assert round(good_size.chars / bad_size.chars, 1) == 4.1


@pytest.mark.parametrize("label, good_chars, bad_chars, good_o200k, good_cl100k", [
    ("the guide's figures", 774, 189, 218, 217),
    ("truly compact", 728, 173, 179, 173),
    ("3.11 docstring, guide's serialization", 786, 189, 221, 220),
    ("3.11 docstring, truly compact", 740, 173, 182, 176),
    ("indented, as printed in the guide", 1010, 265, None, None),
    ("compact, with outputSchema", 1391, 311, 350, 333),
])
def test_every_method_gives_its_known_numbers(seed_tools, label, good_chars, bad_chars, good_o200k, good_cl100k):
    bad, good = seed_tools
    method = next(m for m in cost.METHODS if m.label == label)
    good_size = cost.measure(good, get_daily_forecast, method)
    assert good_size.chars == good_chars and cost.measure(bad, weather, method).chars == bad_chars
    if good_o200k is not None:
        assert good_size.tokens == {"o200k_base": good_o200k, "cl100k_base": good_cl100k}


def test_the_sdk_sends_the_as_written_docstring_before_313_and_the_dedented_one_after(seed_tools):
    _, good = seed_tools
    expected = (docstrings.as_python313(get_daily_forecast) if sys.version_info >= (3, 13)
                else docstrings.as_written(get_daily_forecast))
    assert good.description == expected
    assert docstrings.as_python313(get_daily_forecast).endswith("right now.\n")
    assert "\n    Use this" in docstrings.as_written(get_daily_forecast)


def test_indentation_cost_of_the_seeds_docstring():
    assert cost.indentation_cost(get_daily_forecast) == {"chars": 12, "o200k_base": 3, "cl100k_base": 3}


class _Nested:
    def method(self):
        """Method doc.

        Args:
            x: thing
              deeper
        \tTabbed line

        Returns: y
        """


def _odd():
    """   leading spaces
       second
    third
    """


def _one_line():
    """One line."""


@pytest.mark.parametrize("fn", [_Nested.method, _odd, _one_line, get_daily_forecast])
def test_dedent_like_python313_matches_the_compiler(fn):
    if sys.version_info >= (3, 13):
        assert docstrings.as_python313(fn) == fn.__doc__
    else:
        assert docstrings.as_written(fn) == fn.__doc__
    assert docstrings.dedent_like_python313(docstrings.as_python313(fn)) == docstrings.as_python313(fn)


# --- token counts of fixed strings in both encodings ---------------------------------------------------


@pytest.mark.parametrize("text, o200k, cl100k", [
    ("get_daily_forecast", 4, 4),
    ('{"type":"integer","minimum":1,"maximum":7}', 13, 13),
    ('{"type": "integer", "minimum": 1, "maximum": 7}', 18, 18),
    ("Daily high, low, and conditions for one city, for up to 7 days.", 18, 18),
    ("Prévisions météo pour Zürich", 5, 9),
    ("天気予報", 4, 5),
])
def test_known_token_counts(text, o200k, cl100k):
    assert cost.size(text).tokens == {"o200k_base": o200k, "cl100k_base": cl100k}
    assert cost.size(text).chars == len(text)


def test_serialize_styles():
    data = {"a": [1, 2], "b": "é"}
    assert cost.serialize(data, "compact") == '{"a":[1,2],"b":"é"}'
    assert cost.serialize(data, "one-line") == '{"a": [1, 2], "b": "é"}'
    assert cost.serialize(data, "indented") == json.dumps(data, indent=2, ensure_ascii=False)
    with pytest.raises(ValueError, match="use one of one-line, compact, indented"):
        cost.serialize(data, "tiny")  # type: ignore[arg-type]


# --- per-field breakdown ----------------------------------------------------------------------------


def test_field_tokens_add_up_exactly_and_name_every_part(seed_tools):
    _, good = seed_tools
    definition = cost.as_sent(good, docstrings.as_python313(get_daily_forecast))
    parts = cost.field_tokens(definition)
    assert [label for label, _ in parts] == ["name", "description", "param city", "param days", "param units",
                                            "schema frame", "output schema", "annotations"]
    assert sum(count for _, count in parts) == tokens.count(definition) == 350
    assert dict(parts)["output schema"] == 170


def test_field_tokens_pieces_rebuild_the_compact_json():
    for tool in wire.run_sync(wire.list_tools, workspace.build_server()):
        assert "".join(text for _, text in cost._pieces(wire.dump(tool))) == wire.to_json(tool)
        assert sum(c for _, c in cost.field_tokens(tool, "cl100k_base")) == tokens.count(tool, "cl100k_base")


def test_a_parameter_named_like_a_field_is_kept_apart():
    create_event = next(t for t in wire.run_sync(wire.list_tools, workspace.build_server(["calendar"]))
                        if t.name == "create_event")
    labels = [label for label, _ in cost.field_tokens(create_event)]
    assert "param title" in labels and labels.count("name") == 1


# --- pressure, splitting, results -------------------------------------------------------------------


def test_pressure_rows():
    rows = cost.pressure(250, [1, 4], tools_per_server=20, windows=(8_000, 100_000))
    assert [(r.servers, r.tools, r.tokens) for r in rows] == [(1, 20, 5_000), (4, 80, 20_000)]
    assert rows[0].share == {8_000: 0.625, 100_000: 0.05} and rows[1].share[8_000] == 2.5


def test_definition_tokens_and_split_savings():
    tools = wire.run_sync(wire.list_tools, workspace.build_server())
    by_area = {area: [t for t in tools if t.name in names] for area, names in workspace.AREAS.items()}
    total = cost.definition_tokens(tools)
    assert total == sum(tokens.count(t) for t in tools)
    rows = cost.split_savings(by_area, {"meeting": ["calendar"], "mail": ["mail", "tickets"]})
    assert rows[0].one_server == total and rows[0].tools_one == 12 and rows[0].tools_focused == 3
    assert rows[0].focused == cost.definition_tokens(by_area["calendar"])
    assert rows[1].focused == cost.definition_tokens(by_area["mail"] + by_area["tickets"])
    with pytest.raises(ValueError, match="unknown area"):
        cost.split_savings(by_area, {"x": ["billing"]})


def test_result_forms_carry_the_data_once_or_twice():
    result = wire.run_sync(wire.call_tool, weather_server.build_server(), "get_daily_forecast", {"city": "Oslo", "days": 3})
    forms = cost.result_forms(result)
    assert set(forms) == set(cost.RESULT_FORMS)
    assert forms["both"] == {**forms["text only"], **forms["structured only"]}
    counts = cost.result_tokens(result)
    assert counts["both"] > counts["text only"] > counts["structured only"] > 0
    assert counts == {"text only": 188, "structured only": 95, "both": 282}
    text_only = wire.run_sync(wire.call_tool, weather_server.build_server(), "weather", {"q": "x"})
    assert "structuredContent" in wire.dump(text_only)
    with pytest.raises(ValueError, match="no structuredContent"):
        cost.result_forms({"content": [{"type": "text", "text": "hi"}]})


# --- prefix caching ---------------------------------------------------------------------------------


def test_common_prefix():
    assert cost.common_prefix([1, 2, 3], [1, 2, 4]) == 2
    assert cost.common_prefix([], [1]) == 0 and cost.common_prefix([5, 6], [5, 6, 7]) == 2


def test_prefix_cache_counts_whole_blocks_above_the_minimum():
    base = list(range(3000))
    prompts = [base[:1500], base[:2000], [9] + base[:2500], base[:1100] + [7] * 900, base[:1000] + [7] * 900]
    turns = cost.simulate_prefix_cache(prompts, block=128, minimum=1024)
    assert [t.cached_tokens for t in turns] == [0, 1408, 0, 1024, 0]
    assert turns[1].share == pytest.approx(1408 / 2000) and turns[0].share == 0.0
    assert [t.turn for t in turns] == [1, 2, 3, 4, 5]


def test_conversation_prompts_grow_and_share_their_prefix():
    prompts = cost.conversation_prompts(["TOOLS A"] * 3, "system", [("u1", "a1"), ("u2", "a2"), ("u3", "a3")])
    assert all(len(p1) < len(p2) for p1, p2 in zip(prompts, prompts[1:]))
    assert prompts[1][:len(prompts[0])] == prompts[0]
    enc = tokens.encoding()
    assert enc.decode(prompts[2]) == "TOOLS Asystemu1a1u2a2u3"
    with pytest.raises(ValueError, match="one tool listing per turn"):
        cost.conversation_prompts(["x"], "s", [("u", "a"), ("u", "a")])


def test_stable_order_is_cached_and_an_unstable_one_is_not():
    exchanges = [(f"question {i} " * 20, f"answer {i} " * 60) for i in range(6)]
    stable = json.dumps([f"tool definition {i} " * 30 for i in range(12)])
    shuffled = [json.dumps([f"tool definition {(i + k) % 12} " * 30 for i in range(12)]) for k in range(6)]
    stable_turns = cost.simulate_prefix_cache(cost.conversation_prompts([stable] * 6, "sys", exchanges))
    unstable_turns = cost.simulate_prefix_cache(cost.conversation_prompts(shuffled, "sys", exchanges))
    assert [t.cached_tokens for t in stable_turns] == [0, 1408, 1664, 1920, 2176, 2432]
    assert all(t.cached_tokens == 0 for t in unstable_turns)



def test_breakpoint_cache_reads_and_writes_only_prompts_at_or_above_the_minimum():
    base = list(range(5000))
    prompts = [base[:1000], base[:1500], base[:2500], [9] * 900]
    turns = cost.simulate_breakpoint_cache(prompts, minimum=1024)
    assert [(t.cached_tokens, t.written_tokens) for t in turns] == [(0, 0), (0, 1500), (1500, 1000), (0, 0)]
    expected = (1000 + 1500 * 1.25 + 1500 * 0.1 + 1000 * 1.25 + 900) / 5900
    assert cost.input_cost(turns, read=0.1, write=1.25) == pytest.approx(expected)


def test_a_prompt_under_the_cache_minimum_costs_the_base_price_not_the_write_price():
    short = cost.simulate_breakpoint_cache([[1] * 500, [2] * 600, [1] * 700], minimum=1024)
    assert all(t.cached_tokens == t.written_tokens == 0 for t in short)
    assert cost.input_cost(short, read=0.1, write=1.25) == 1.0
    assert cost.input_cost(cost.simulate_prefix_cache([[1] * 500], minimum=1024), 0.1, 1.25) == 1.0
    never_read = cost.simulate_breakpoint_cache([[1] * 2000, [2] * 2000], minimum=1024)
    assert cost.input_cost(never_read, read=0.1, write=1.25) == 1.25
    assert cost.input_cost([], 0.1, 1.25) == 0.0

# --- the same server in several processes -------------------------------------------------------------


def build_from_a_set():
    server = base.new_server("workspace")
    workspace.register(server, {"get_ticket", "search_tickets", "list_events", "read_message", "search_messages"})
    return server


def build_in_order():
    server = base.new_server("workspace")
    workspace.register(server, ["get_ticket", "search_tickets", "list_events", "read_message", "search_messages"])
    return server


def test_a_set_changes_tools_list_between_processes_and_a_list_does_not():
    unstable = cost.listings_across_processes(build_from_a_set, (0, 1, 2))
    stable = cost.listings_across_processes(build_in_order, (0, 1))
    assert len({listing.names for listing in unstable}) > 1
    assert len({listing.digest for listing in stable}) == 1
    assert stable[0].names == ("get_ticket", "search_tickets", "list_events", "read_message", "search_messages")
    assert [listing.hash_seed for listing in unstable] == [0, 1, 2] and len(stable[0].digest) == 12
    assert stable[0].listing == wire.to_json(wire.run_sync(wire.list_tools, build_in_order()))


LOCAL_ONLY = object()


def uses_a_session_object():
    return LOCAL_ONLY


def raises_inside():
    raise RuntimeError("broken on purpose")


def test_portable_source_imports_what_the_function_uses():
    source = cost.portable_source(build_in_order)
    assert "import course_lib.servers.base as base" in source and "import course_lib.servers.workspace as workspace" in source
    assert source.rstrip().endswith("return server")


def test_a_factory_that_cannot_move_or_crashes_is_a_clear_error():
    with pytest.raises(cost.ProcessBuildError, match="'LOCAL_ONLY', a value computed outside it .*which exists only in this session"):
        cost.portable_source(uses_a_session_object)
    with pytest.raises(cost.ProcessBuildError, match="raised RuntimeError: broken on purpose"):
        cost.listings_across_processes(raises_inside, (0,))
    with pytest.raises(cost.ProcessBuildError, match="cannot read the source"):
        cost.portable_source(len)  # type: ignore[arg-type]



def test_a_helper_in_a_module_of_the_learners_own_travels_as_its_source(tmp_path):
    """Red team 10, L6: 7.3's and 6.2's texts allow helpers "in a module of your own"; one written by `%%writefile`
    beside the notebook went as an import, which the check's fresh process (in a folder of its own) could not run.
    Its functions travel as source, those they call in that module too; installed and course modules stay imports."""
    import nbformat
    from nbclient import NotebookClient

    cells = ["%%writefile fp_helpers_l6.py\nimport json\n\n\ndef canonical(tool):\n    return json.dumps(tool, "
             "sort_keys=True)\n\n\ndef twice(tool):\n    return canonical(tool) * 2\n",
             "import hashlib\nfrom fp_helpers_l6 import twice\n\n\ndef fingerprint(tool):\n"
             "    return hashlib.sha256(twice(tool).encode()).hexdigest()\n",
             "from course_lib import cost\nprint(cost.portable_source(fingerprint))\n"]
    run = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell) for cell in cells])
    NotebookClient(run, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    source = "".join(output.get("text", "") for output in run.cells[-1].outputs)
    assert "def canonical(tool):" in source and "def twice(tool):" in source and "fp_helpers_l6" not in source
    assert "import hashlib" in source and "import json" in source
    import hashlib

    namespace: dict = {}
    exec(compile(source, "<fresh>", "exec"), namespace)  # what the fresh process runs: no module file needed
    assert namespace["fingerprint"]({"b": 1}) == hashlib.sha256((json.dumps({"b": 1}, sort_keys=True) * 2).encode()).hexdigest()


def test_a_module_of_the_learners_own_used_as_module_dot_function_travels_as_its_source(tmp_path):
    """Red team 11, L1: `import fp_helpers` then `fp_helpers.canonical(...)` (the other everyday style) went as an
    import the fresh process could not run. The functions used travel as source, gathered under the module's name;
    a module constant used so is refused with a reason, as one used by name is."""
    import nbformat
    from nbclient import NotebookClient

    cells = ["%%writefile fp_helpers_l1.py\nimport json\n\nSEPARATORS = (',', ':')\n\n\ndef canonical(tool):\n"
             "    return json.dumps(tool, sort_keys=True)\n",
             "import hashlib\nimport fp_helpers_l1\n\n\ndef fingerprint(tool):\n"
             "    return hashlib.sha256(fp_helpers_l1.canonical(tool).encode()).hexdigest()\n\n\n"
             "def separated(tool):\n    return str(fp_helpers_l1.SEPARATORS) + fingerprint(tool)\n",
             "from course_lib import cost\nprint(cost.portable_source(fingerprint))\n",
             "try:\n    cost.portable_source(separated)\nexcept cost.ProcessBuildError as error:\n    print(error)\n"]
    run = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell) for cell in cells])
    NotebookClient(run, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    source = "".join(output.get("text", "") for output in run.cells[2].outputs)
    refused = "".join(output.get("text", "") for output in run.cells[3].outputs)
    assert "def canonical(tool):" in source and "import fp_helpers_l1" not in source
    assert "uses fp_helpers_l1.SEPARATORS, which is not a function or class" in refused
    import hashlib

    (tmp_path / "fp_helpers_l1.py").unlink()  # the fresh process has no such file
    found = cost.results_of_source(source, "fingerprint", [{"b": 1}], (0,))
    assert found == [(0, hashlib.sha256(json.dumps({"b": 1}, sort_keys=True).encode()).hexdigest())]
    from course_lib.checks import core

    sent = [cells[0], cells[1]]
    assert core._sent_by_the_grader(source, "fingerprint", sent) == source  # what the grader keeps
    for made_up in ("fp_helpers_l1 = types.SimpleNamespace(canonical=print)",
                    "fp_helpers_l1 = types.SimpleNamespace(canonical=lambda tool: 'x')",
                    "fp_helpers_l1 = types.SimpleNamespace(canonical=canonical, extra=1)"):
        with pytest.raises(cost.ProcessBuildError):
            core._sent_by_the_grader(source.replace("fp_helpers_l1 = types.SimpleNamespace(canonical=canonical)",
                                                    made_up), "fingerprint", sent)


def test_a_helper_class_typed_into_a_kernel_cell_travels_as_its_source():
    """A class defined in a notebook cell has no file inspect can find before Python 3.13; its block is read
    from the cell its methods were compiled from, so a function that uses it runs in a fresh process."""
    import nbformat
    from nbclient import NotebookClient

    cells = ["import hashlib, json\n\n"
             "class Other:\n    def encoded(self):\n        return b'wrong'\n\n"
             "class Canonical:\n    def __init__(self, data):\n        self.data = data\n\n"
             "    def encoded(self):\n        return json.dumps(self.data, sort_keys=True).encode()\n\n"
             "def fingerprint(data):\n    return hashlib.sha256(Canonical(data).encoded()).hexdigest()\n",
             "class Empty:\n    pass\n",
             "from course_lib import cost\nsource = cost.portable_source(fingerprint)\nprint(source)\n"
             "print(cost.results_of_source(source, 'fingerprint', [{'b': 1, 'a': 2}], (1,)))\n"
             "try:\n    cost.portable_source(Empty)\nexcept cost.ProcessBuildError as error:\n    print(error)\n"]
    run = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell) for cell in cells])
    NotebookClient(run, timeout=120, kernel_name="python3").execute()
    shown = "".join(output.get("text", "") for output in run.cells[-1].outputs)
    assert "class Canonical:" in shown and "class Other" not in shown
    assert __import__("hashlib").sha256(b'{"a": 2, "b": 1}').hexdigest() in shown
    if sys.version_info < (3, 13):  # 3.13 finds a class's lines itself (__firstlineno__)
        assert "cannot read the source of 'Empty'; define it with class in a cell or file" in shown
    assert "with def" not in shown


# --- cache hints on the wire --------------------------------------------------------------------------


def _list_three_times(server, era=wire.MODERN):
    async def run():
        tap = wire.Tap(server)
        async with wire.connect(tap, era) as client:
            for _ in range(3):
                await client.list_tools()
        return tap.frames

    return wire.run_sync(run)


@pytest.mark.parametrize("hints, era, requests", [
    (None, wire.MODERN, 3),
    ({"tools/list": CacheHint(ttl_ms=60_000, scope="public")}, wire.MODERN, 1),
    ({"tools/list": CacheHint(ttl_ms=60_000, scope="public")}, wire.HANDSHAKE, 3),
])
def test_the_client_caches_tools_list_only_with_a_ttl_in_the_modern_era(hints, era, requests):
    server = workspace.build_server(["tickets"], **({"cache_hints": hints} if hints else {}))
    assert wire.requests_sent(_list_three_times(server, era), "tools/list") == requests


def test_a_shared_store_shares_only_public_entries():
    async def second_user_requests(scope):
        server = workspace.build_server(["tickets"], cache_hints={"tools/list": CacheHint(ttl_ms=60_000, scope=scope)})
        return await cost.list_requests_per_user(server)

    assert wire.run_sync(second_user_requests, "public") == [1, 0]
    assert wire.run_sync(second_user_requests, "private") == [1, 1]


def salted_fingerprint(text):
    return hash(text)


def sha_fingerprint(text):
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


def fails_on(text):
    raise ValueError(f"no {text}")


def test_a_function_called_in_fresh_processes_shows_what_depends_on_the_process():
    salted = cost.results_of_source(cost.portable_source(salted_fingerprint), "salted_fingerprint", ["a"], (1, 2, 3))
    same = cost.results_of_source(cost.portable_source(sha_fingerprint), "sha_fingerprint", ["a"], (1, 2))
    assert [seed for seed, _ in salted] == [1, 2, 3] and len({value for _, value in salted}) == 3
    assert [value for _, value in same] == [sha_fingerprint("a")] * 2
    with pytest.raises(cost.ProcessBuildError, match=r"fails_on\(\) raised ValueError: no a"):
        cost.results_of_source(cost.portable_source(fails_on), "fails_on", ["a"], (0,))


def test_host_listing_is_the_three_slots_of_every_tool_from_sdk_tools_or_wire_dicts():
    tools = wire.run_sync(wire.list_tools, workspace.build_server())
    listing = cost.host_listing(tools)
    assert listing == cost.host_listing(json.loads(wire.to_json(tools)))
    sent = json.loads(listing)
    assert [tool["name"] for tool in sent] == [tool.name for tool in tools]
    assert all(set(tool) == {"name", "description", "input_schema"} for tool in sent)
    assert tokens.count(listing) < tokens.count(wire.to_json(tools))
