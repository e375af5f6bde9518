"""The same classification written with capitals and spaces."""


def answer():
    return {"a": "Protocol", "b": "Protocol ", "c": "PROTOCOL", "d": "Execution", "e": "execution",
            "f": " Execution", "g": "protocol", "h": "EXECUTION"}
