"""Drives a running radixserve through the OpenAI Python SDK: tool calls (required, named,
streamed) and a JSON-schema response_format on chat completions; on the Responses API, a
named call (whole, and streamed through the SDK's own event accumulator), its output sent
back, and a structured answer parsed into a pydantic model; embeddings in base64 (the SDK's
default) and as floats. Exits non-zero with a message on any mismatch.

Usage: openai_sdk_tools.py BASE_URL
"""

import json
import sys
from typing import Annotated

from openai import OpenAI
from pydantic import BaseModel, Field

client = OpenAI(base_url=sys.argv[1] + "/v1", api_key="unused")

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "maxLength": 20},
        "unit": {"enum": ["celsius", "fahrenheit"]},
    },
    "required": ["city", "unit"],
}
TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Weather in a city", "parameters": WEATHER}},
    {"type": "function", "function": {"name": "get_time", "parameters": {
        "type": "object", "properties": {"zone": {"type": "string", "maxLength": 10}}, "required": ["zone"]}}},
]
MESSAGES = [{"role": "user", "content": "What is the weather in Paris?"}]


def check(cond, what):
    if not cond:
        sys.exit("FAILED: " + what)


def check_weather_args(arguments):
    args = json.loads(arguments)
    check(set(args) == {"city", "unit"}, f"keys of {args}")
    check(isinstance(args["city"], str) and len(args["city"]) <= 20, f"city of {args}")
    check(args["unit"] in ("celsius", "fahrenheit"), f"unit of {args}")


for choice in ("required", {"type": "function", "function": {"name": "get_weather"}}):
    full = client.chat.completions.create(
        model="smollm2", messages=MESSAGES, tools=TOOLS, tool_choice=choice,
        temperature=0, max_tokens=120, parallel_tool_calls=False,
    )
    out = full.choices[0]
    check(out.finish_reason == "tool_calls", f"finish_reason {out.finish_reason}")
    calls = out.message.tool_calls
    check(calls is not None and len(calls) == 1, f"calls {calls}")
    call = calls[0]
    if isinstance(choice, dict):
        check(call.function.name == "get_weather", f"name {call.function.name}")
    if call.function.name == "get_weather":
        check_weather_args(call.function.arguments)
    else:
        check("zone" in json.loads(call.function.arguments), call.function.arguments)

    # The stream's deltas reassemble to the same call.
    names, arguments, reasons = {}, {}, []
    for chunk in client.chat.completions.create(
        model="smollm2", messages=MESSAGES, tools=TOOLS, tool_choice=choice,
        temperature=0, max_tokens=120, parallel_tool_calls=False, stream=True,
    ):
        if not chunk.choices:
            continue
        delta = chunk.choices[0].delta
        for tc in delta.tool_calls or []:
            if tc.function and tc.function.name:
                names[tc.index] = names.get(tc.index, "") + tc.function.name
            if tc.function and tc.function.arguments:
                arguments[tc.index] = arguments.get(tc.index, "") + tc.function.arguments
        if chunk.choices[0].finish_reason:
            reasons.append(chunk.choices[0].finish_reason)
    check(names == {0: call.function.name}, f"streamed names {names}")
    check(arguments == {0: call.function.arguments}, f"streamed arguments {arguments}")
    check(reasons == ["tool_calls"], f"streamed finish {reasons}")

person = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 12}, "age": {"type": "integer", "minimum": 0, "maximum": 120}},
    "required": ["name", "age"],
    "additionalProperties": False,
}
reply = client.chat.completions.create(
    model="smollm2", messages=[{"role": "user", "content": "Invent a person."}], temperature=0, max_tokens=60,
    response_format={"type": "json_schema", "json_schema": {"name": "person", "schema": person, "strict": True}},
)
value = json.loads(reply.choices[0].message.content)
check(set(value) == {"name", "age"} and 0 <= value["age"] <= 120, f"person {value}")

# The Responses API: flat function tools, output items.
FLAT_TOOLS = [{"type": "function", **t["function"], "strict": True} for t in TOOLS]
ASK = dict(
    model="smollm2", input="What is the weather in Paris?", tools=FLAT_TOOLS,
    tool_choice={"type": "function", "name": "get_weather"}, temperature=0, max_output_tokens=120,
    parallel_tool_calls=False,
)
resp = client.responses.create(**ASK)
calls = [item for item in resp.output if item.type == "function_call"]
check(len(calls) == 1 and calls[0].name == "get_weather", f"response output {resp.output}")
check_weather_args(calls[0].arguments)
check(resp.status == "completed" and resp.usage.output_tokens > 0, f"response {resp}")

# Streamed, through the SDK's accumulator (which checks each event against its item).
with client.responses.stream(**ASK) as stream:
    kinds = [event.type for event in stream]
    final = stream.get_final_response()
check(kinds[0] == "response.created" and kinds[-1] == "response.completed", f"events {kinds}")
check("response.function_call_arguments.done" in kinds, f"events {kinds}")
streamed = [(i.name, i.arguments) for i in final.output if i.type == "function_call"]
check(streamed == [(calls[0].name, calls[0].arguments)], f"streamed calls {streamed}")

# The call and its output go back as input; the answer is a message.
follow = client.responses.create(
    model="smollm2", tools=FLAT_TOOLS, temperature=0, max_output_tokens=30,
    input=[
        {"role": "user", "content": "What is the weather in Paris?"},
        calls[0].model_dump(exclude_none=True),
        {"type": "function_call_output", "call_id": calls[0].call_id, "output": "Sunny, 21 C"},
    ],
)
check([item.type for item in follow.output] == ["message"], f"follow-up {follow.output}")
check(follow.output_text == follow.output[0].content[0].text, f"follow-up {follow}")


class Person(BaseModel):
    name: Annotated[str, Field(max_length=12)]
    age: Annotated[int, Field(ge=0, le=120)]


parsed = client.responses.parse(
    model="smollm2", input="Invent a person.", text_format=Person, temperature=0, max_output_tokens=60,
)
check(isinstance(parsed.output_parsed, Person), f"parsed {parsed.output}")
# Embeddings: the SDK asks for base64 unless told otherwise and decodes it itself; floats
# asked for explicitly are the same values, each vector normalized, `dimensions` honoured.
TEXTS = ["The capital of France is", "Quarterly revenue grew by twelve percent."]
packed = client.embeddings.create(model="smollm2", input=TEXTS)
plain = client.embeddings.create(model="smollm2", input=TEXTS, encoding_format="float")
check([d.index for d in packed.data] == [0, 1], f"indices {[d.index for d in packed.data]}")
check(packed.usage.prompt_tokens > 0 and packed.usage.total_tokens == packed.usage.prompt_tokens,
      f"usage {packed.usage}")
for a, b in zip(packed.data, plain.data):
    check(len(a.embedding) == len(b.embedding) > 0, f"lengths {len(a.embedding)}, {len(b.embedding)}")
    check(max(abs(x - y) for x, y in zip(a.embedding, b.embedding)) < 1e-6, "base64 and float differ")
    check(abs(sum(x * x for x in a.embedding) - 1.0) < 1e-4, "an embedding is not normalized")
short = client.embeddings.create(model="smollm2", input=TEXTS[0], dimensions=32)
check(len(short.data[0].embedding) == 32, f"dimensions: {len(short.data[0].embedding)} values")

# Scoring continuations as evaluation harnesses do (lm-eval's loglikelihood): the context
# and continuation echoed with logprobs and no output; the continuation's tokens are those
# at or past the context's length in characters.
def loglikelihood(context, continuation):
    done = client.completions.create(model="smollm2", prompt=context + continuation, echo=True,
                                     logprobs=1, max_tokens=0, temperature=0)
    choice = done.choices[0]
    lp = choice.logprobs
    check(choice.text == context + continuation, f"echo {choice.text!r}")
    check(lp.token_logprobs[0] is None and lp.top_logprobs[0] is None, f"first token {lp}")
    at = [i for i, offset in enumerate(lp.text_offset) if offset >= len(context)]
    check(at and "".join(lp.tokens[at[0]:]) == continuation, f"continuation tokens {lp.tokens}")
    total = sum(lp.token_logprobs[i] for i in at)
    greedy = all(lp.token_logprobs[i] >= max(lp.top_logprobs[i].values()) - 1e-5 for i in at)
    return total, greedy


paris, paris_greedy = loglikelihood("The capital of France is", " Paris")
banana, _ = loglikelihood("The capital of France is", " a banana")
check(paris > banana, f"loglikelihoods: Paris {paris}, a banana {banana}")
check(paris_greedy, "Paris is not the greedy continuation")

print("openai SDK checks passed")
