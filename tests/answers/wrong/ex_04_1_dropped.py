"""Returns no annotations at all: the host must assume the worst of every tool."""

EXPECT = "get_service_status with readOnlyHint true"


def answer():
    return {}
