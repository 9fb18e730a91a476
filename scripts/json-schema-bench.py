#!/usr/bin/env python3
"""A JSON-schema workload against any OpenAI-compatible server (radixserve, llama-server),
driven by the same client so the figures compare: N greedy chat requests over 4 schemas with
`response_format: json_schema`, C at once; reports wall time, output tokens/s (from the
servers' own usage counts) and how many outputs parse and satisfy their schema's required
keys and types. With --unconstrained the same requests go without response_format, each
limited to the token count its constrained run produced (pass the constrained run's
--save file as --lengths).

Usage: json-schema-bench.py BASE_URL [-n 64] [-c 16] [--save F] [--unconstrained --lengths F]
"""

import argparse
import json
import threading
import time
import urllib.request

SCHEMAS = [
    {"type": "object", "properties": {
        "name": {"type": "string", "maxLength": 16},
        "age": {"type": "integer", "minimum": 0, "maximum": 120},
        "email": {"type": "string", "maxLength": 24}}, "required": ["name", "age", "email"],
     "additionalProperties": False},
    {"type": "object", "properties": {
        "city": {"enum": ["Paris", "Rome", "Berlin", "Madrid"]},
        "population_in_millions": {"type": "integer", "minimum": 0, "maximum": 40},
        "is_capital": {"type": "boolean"}}, "required": ["city", "population_in_millions", "is_capital"],
     "additionalProperties": False},
    {"type": "object", "properties": {
        "title": {"type": "string", "maxLength": 30},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 10}, "maxItems": 3},
        "rating": {"type": "integer", "minimum": 1, "maximum": 5}}, "required": ["title", "tags", "rating"],
     "additionalProperties": False},
    {"type": "object", "properties": {
        "order_id": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{4}$"},
        "items": {"type": "array", "items": {"type": "object", "properties": {
            "sku": {"type": "string", "maxLength": 8}, "quantity": {"type": "integer", "minimum": 1, "maximum": 9}},
            "required": ["sku", "quantity"], "additionalProperties": False}, "minItems": 1, "maxItems": 2}},
     "required": ["order_id", "items"], "additionalProperties": False},
]
TOPICS = ["a person", "a city", "a book", "an order"]


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())


def satisfies(schema, value):
    if not isinstance(value, dict):
        return False
    return all(k in value for k in schema["required"]) and set(value) <= set(schema["properties"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base_url")
    ap.add_argument("-n", type=int, default=64)
    ap.add_argument("-c", type=int, default=16)
    ap.add_argument("--max-tokens", type=int, default=200)
    ap.add_argument("--unconstrained", action="store_true")
    ap.add_argument("--lengths")
    ap.add_argument("--save")
    a = ap.parse_args()
    lengths = json.load(open(a.lengths)) if a.lengths else None
    results = [None] * a.n
    next_index = [0]
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                i = next_index[0]
                next_index[0] += 1
            if i >= a.n:
                return
            body = {"model": "m", "temperature": 0,
                    "messages": [{"role": "user", "content": f"Describe {TOPICS[i % 4]} (number {i}) as JSON."}]}
            if a.unconstrained:
                body["max_tokens"] = lengths[i] if lengths else a.max_tokens
                body["ignore_eos"] = True
            else:
                body["max_tokens"] = a.max_tokens
                body["response_format"] = {"type": "json_schema", "json_schema": {"name": "s", "schema": SCHEMAS[i % 4]}}
            out = post(a.base_url + "/v1/chat/completions", body)
            results[i] = out

    start = time.time()
    threads = [threading.Thread(target=worker) for _ in range(a.c)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.time() - start
    tokens = [r["usage"]["completion_tokens"] for r in results]
    valid = 0
    for i, r in enumerate(results):
        try:
            valid += satisfies(SCHEMAS[i % 4], json.loads(r["choices"][0]["message"]["content"]))
        except (ValueError, TypeError):
            pass
    print(json.dumps({"requests": a.n, "concurrency": a.c, "wall_s": round(wall, 3),
                      "output_tokens": sum(tokens), "output_tok_per_s": round(sum(tokens) / wall, 1),
                      "valid_json_outputs": valid, "example": results[0]["choices"][0]["message"]["content"]}))
    if a.save:
        json.dump(tokens, open(a.save, "w"))


main()
