"""Talks to a running radixserve with the official `openai` package.

    pip install openai
    scripts/serve.sh            # in another terminal
    python3 examples/python/openai_client.py

Set RADIXSERVE_URL to reach a server elsewhere (default http://127.0.0.1:8000/v1).
"""

import os

from openai import OpenAI

client = OpenAI(
    base_url=os.environ.get("RADIXSERVE_URL", "http://127.0.0.1:8000/v1"),
    api_key="unused",
)

# The server serves one model; its id is what /v1/models lists.
model = client.models.list().data[0].id
print(f"model: {model}")

completion = client.completions.create(
    model=model,
    prompt="The capital of France is",
    max_tokens=8,
    temperature=0,
)
print(f"completion: {completion.choices[0].text!r}")
print(
    f"  usage: {completion.usage.prompt_tokens} prompt, "
    f"{completion.usage.completion_tokens} generated"
)

stream = client.chat.completions.create(
    model=model,
    messages=[
        {"role": "system", "content": "You are a concise assistant."},
        {"role": "user", "content": "Name three colours of the rainbow."},
    ],
    max_tokens=48,
    temperature=0,
    stream=True,
    stream_options={"include_usage": True},
)
print("chat: ", end="", flush=True)
for chunk in stream:
    if chunk.choices and chunk.choices[0].delta.content:
        print(chunk.choices[0].delta.content, end="", flush=True)
    if chunk.usage is not None:
        cached = chunk.usage.prompt_tokens_details.cached_tokens
        print(
            f"\n  usage: {chunk.usage.prompt_tokens} prompt ({cached} cached), "
            f"{chunk.usage.completion_tokens} generated"
        )
