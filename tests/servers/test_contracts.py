"""Every registered server's tool definitions match the contract committed in `contracts/`, word for word.

The definitions are what a model reads, so the lessons' wording, schemas and annotations are the product: a
change must be deliberate. When it is, write the new contract and review its diff in git:

    course snapshot NAME -o tests/servers/contracts/NAME.json
"""

from __future__ import annotations

from pathlib import Path

import pytest

from course_lib import contract, servers, wire

CONTRACTS = Path(__file__).with_name("contracts")


def test_every_registered_server_has_a_contract_and_no_contract_is_orphaned():
    assert sorted(path.stem for path in CONTRACTS.glob("*.json")) == sorted(servers.REGISTRY)


@pytest.mark.parametrize("name", sorted(servers.REGISTRY))
def test_tools_match_the_committed_contract(name):
    committed = contract.load_snapshot(CONTRACTS / f"{name}.json")["tools"]
    listed = wire.dump(wire.run_sync(wire.list_tools, servers.build(name)))
    if listed != committed:
        changes = "; ".join(f"{c.tool}: {c.what} ({c.verdict})" for c in contract.diff(committed, listed))
        pytest.fail(f"{name}'s tools differ from contracts/{name}.json: {changes or 'wording or order only'}. "
                    f"If deliberate: course snapshot {name} -o tests/servers/contracts/{name}.json")


@pytest.mark.parametrize("name", sorted(servers.REGISTRY))
def test_both_eras_list_the_same_tools(name):
    modern, handshake = (wire.dump(wire.run_sync(wire.list_tools, servers.build(name), era)) for era in wire.ERAS)
    assert modern == handshake
