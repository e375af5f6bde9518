"""What the installed provider SDKs do, asked of them offline (claim tests and README figures share it)."""

from __future__ import annotations


def anthropic_raises_overloaded_for(status: int) -> bool:
    """Whether the installed Anthropic SDK (the version pyproject pins) raises `OverloadedError` for an HTTP
    `status` reply of its messages API (served by a local httpx transport: no network)."""
    import anthropic
    import httpx2 as httpx  # the HTTP client this SDK is built on

    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    transport = httpx.MockTransport(lambda request: httpx.Response(status, json=body))
    client = anthropic.Anthropic(api_key="test", max_retries=0, http_client=httpx.Client(transport=transport))
    try:
        client.messages.create(model="any", max_tokens=1, messages=[{"role": "user", "content": "hi"}])
    except anthropic.OverloadedError:
        return True
    except anthropic.APIStatusError:
        return False
    return False
