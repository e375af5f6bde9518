"""One reason per proposal, read off the proposals themselves."""

from course_lib.servers import evolving

REASONS = {
    "A": ("safe", "accepts more values"), "B": ("breaking", "v1 clients leave limit out"),
    "C": ("safe", "optional with a default"), "D": ("breaking", "a status v1 code never saw"),
    "E": ("safe", "an extra field is ignored"), "F": ("breaking", "v1 code reads priority"),
    "G": ("breaking", "81-120 character titles refused"), "H": ("breaking", "callers get 20 instead of 10"),
    "I": ("safe", "same contract, new words"), "J": ("breaking", "close_ticket is gone"),
}


def answer() -> dict[str, str]:
    return {proposal.letter: REASONS[proposal.letter][0] for proposal in evolving.PROPOSALS}
