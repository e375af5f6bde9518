"""Lessons 02 and 06 name the OpenAI models each tokenizer belongs to: tiktoken's own model table says so."""

from __future__ import annotations

import tiktoken.model

from claims_ledger import claim

O200K = ("gpt-4o", "gpt-4.1", "gpt-4.5-preview", "gpt-5", "o1", "o3", "o4-mini")
CL100K = ("gpt-4", "gpt-3.5-turbo")


@claim("tiktoken-encoding-per-model")
def test_tiktoken_maps_gpt_4o_and_later_models_to_o200k_and_gpt_4_and_3_5_to_cl100k():
    assert {model: tiktoken.model.encoding_name_for_model(model) for model in O200K + CL100K} == {
        **dict.fromkeys(O200K, "o200k_base"), **dict.fromkeys(CL100K, "cl100k_base")}
