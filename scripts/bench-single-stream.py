#!/usr/bin/env python3
"""Single-stream decode speed through an OpenAI-compatible server: one chat request at a time,
greedy, for a workload where n-gram speculation pays (rewriting a given code file: the output
mostly copies the input) and one where it does not (free story writing). Prints tokens/s
(completion tokens over wall time, all requests together) and writes a JSON line per run.

  scripts/bench-single-stream.py --url http://127.0.0.1:8000 --label "radixserve spec" \\
      --workload copy --requests 6 --max-tokens 256

Standard library only; compare runs made on the same machine in the same session.
"""

import argparse
import json
import time
import urllib.request

CODE = '''def parse_config(path):
    """Reads a key = value file into a dict, skipping comments."""
    config = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, value = line.split("=", 1)
            config[key.strip()] = value.strip()
    return config


def merge_configs(base, override):
    """Returns base updated with override, without changing either."""
    merged = dict(base)
    merged.update(override)
    return merged
'''

COPY = [
    f"Rewrite the following Python code with the function `{old}` renamed to `{new}`. "
    f"Output only the code.\n\n{CODE}"
    for old, new in [
        ("parse_config", "read_config"),
        ("merge_configs", "combine_configs"),
        ("parse_config", "load_settings"),
        ("merge_configs", "overlay"),
        ("parse_config", "parse_file"),
        ("merge_configs", "merge"),
    ]
]

STORY = [
    f"Write a short story about {topic}."
    for topic in [
        "a lighthouse keeper who finds a message in a bottle",
        "a robot learning to paint",
        "two friends lost in a desert",
        "a cat that runs a bakery",
        "the last tree on a distant planet",
        "a detective who cannot remember yesterday",
    ]
]


def chat(url, model, prompt, max_tokens):
    body = json.dumps({
        "model": model,
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": max_tokens,
        "temperature": 0,
    }).encode()
    req = urllib.request.Request(f"{url}/v1/chat/completions", body,
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as resp:
        return json.load(resp)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True)
    ap.add_argument("--model", default="model")
    ap.add_argument("--label", required=True)
    ap.add_argument("--workload", choices=("copy", "story"), required=True)
    ap.add_argument("--requests", type=int, default=6)
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--output", help="append the result as a JSON line to this file")
    args = ap.parse_args()
    prompts = (COPY if args.workload == "copy" else STORY)[: args.requests]
    chat(args.url, args.model, "Hello", 4)  # warm-up
    tokens, elapsed = 0, 0.0
    for prompt in prompts:
        start = time.monotonic()
        body = chat(args.url, args.model, prompt, args.max_tokens)
        elapsed += time.monotonic() - start
        tokens += body["usage"]["completion_tokens"]
    result = {
        "label": args.label,
        "workload": args.workload,
        "requests": len(prompts),
        "completion_tokens": tokens,
        "seconds": round(elapsed, 3),
        "tokens_per_s": round(tokens / elapsed, 1),
    }
    print(json.dumps(result))
    if args.output:
        with open(args.output, "a") as f:
            f.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
