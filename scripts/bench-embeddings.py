#!/usr/bin/env python3
"""Embedding throughput through an OpenAI-compatible `/v1/embeddings`: `--requests` requests
of `--batch` inputs each, `--concurrency` at a time, all sent as token ids (so both servers
embed exactly the same tokens). Two workloads:

  passages  unrelated passages of about 128 tokens (document indexing: nothing shared)
  queries   short queries behind one shared instruction of 35 tokens (SmolLM2), as instruction-
            tuned embedders (Qwen3-Embedding, e5-mistral) are asked ("Instruct: ...\\nQuery:")

Prints inputs/s and prompt tokens/s (tokens counted from the ids sent) over the wall time
of the whole run, and the mean latency per request; writes one JSON line per run to --out
when given. Token ids come from the server's own `/tokenize` (llama.cpp) or, failing that,
from `--tokenizer-url` (any llama.cpp server on the same GGUF).

  scripts/bench-embeddings.py --url http://127.0.0.1:8000 --tokenizer-url http://127.0.0.1:8091 \\
      --label radixserve --workload queries --requests 64 --batch 16 --concurrency 4

Standard library only; compare runs made on the same machine in the same session.
"""

import argparse
import json
import random
import threading
import time
import urllib.request

WORDS = (
    "the a of to in and for on with at by from as is was are be this that it its which "
    "system cache memory request token model server prefix tree radix batch queue tenant "
    "engine layer kernel matrix vector index search query passage document answer data "
    "river mountain city market price energy water history science music language school "
    "quickly slowly carefully often rarely always never because although while before after"
).split()

INSTRUCTION = (
    "Instruct: Given a web search query, retrieve relevant passages that answer the query. "
    "Prefer passages that are precise, recent and written by domain experts.\nQuery: "
)


def sentence(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def texts(workload, count, seed=7):
    rng = random.Random(seed)
    if workload == "passages":
        return [" ".join(sentence(rng, 12) for _ in range(8)) for _ in range(count)]
    return [INSTRUCTION + sentence(rng, 8) for _ in range(count)]


def post(url, body, timeout=600):
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.load(resp)


def tokenize(base, text):
    return post(base + "/tokenize", {"content": text, "add_special": True})["tokens"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True)
    ap.add_argument("--tokenizer-url", help="a llama.cpp server for /tokenize (default --url)")
    ap.add_argument("--label", default="")
    ap.add_argument("--workload", choices=["passages", "queries"], default="queries")
    ap.add_argument("--requests", type=int, default=64)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--out")
    args = ap.parse_args()

    tokenizer = args.tokenizer_url or args.url
    inputs = [tokenize(tokenizer, t) for t in texts(args.workload, args.requests * args.batch)]
    bodies = [{"model": "m", "input": inputs[i * args.batch:(i + 1) * args.batch],
               "encoding_format": "float"} for i in range(args.requests)]
    # One warm-up request (not timed) so that both servers start from a loaded model.
    post(args.url + "/v1/embeddings", {"model": "m", "input": [inputs[0][:4]]})

    latencies, lock, next_body = [], threading.Lock(), iter(bodies)

    def worker():
        while True:
            with lock:
                body = next(next_body, None)
            if body is None:
                return
            began = time.monotonic()
            got = post(args.url + "/v1/embeddings", body)
            assert len(got["data"]) == len(body["input"]), got
            with lock:
                latencies.append(time.monotonic() - began)

    began = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - began
    tokens = sum(len(i) for i in inputs)
    result = {
        "label": args.label, "workload": args.workload, "requests": args.requests,
        "batch": args.batch, "concurrency": args.concurrency, "inputs": len(inputs),
        "tokens": tokens, "wall_s": round(wall, 3),
        "inputs_per_s": round(len(inputs) / wall, 1),
        "tokens_per_s": round(tokens / wall, 1),
        "mean_latency_s": round(sum(latencies) / len(latencies), 3),
    }
    print(f"{args.label} {args.workload}: {result['inputs_per_s']} inputs/s, "
          f"{result['tokens_per_s']} tokens/s, mean latency {result['mean_latency_s']} s "
          f"({len(inputs)} inputs, {tokens} tokens, {wall:.1f} s)")
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
