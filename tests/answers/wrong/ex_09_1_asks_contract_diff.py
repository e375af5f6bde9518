"""Every verdict is contract.diff's, on v1 with the proposal applied: the check's own truth, asked instead of
decided (red team 5, w1: it passed 9.1 before the check watched contract.diff and evolving.proposed)."""

EXPECT = "it called contract.diff"


def answer() -> dict:
    from course_lib import contract, wire
    from course_lib.servers import evolving

    v1 = [wire.dump(tool) for tool in wire.run_sync(wire.list_tools, evolving.build_v1())]
    return {proposal.letter: "breaking" if any(change.breaking for change in contract.diff(
        v1, evolving.proposed(v1, proposal))) else "safe" for proposal in evolving.PROPOSALS}
